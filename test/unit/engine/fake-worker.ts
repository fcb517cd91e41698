// A model worker faked for the client's unit tests (the real worker is tested in Chromium): it
// records what it is sent, replies as the test says, and can crash or answer a load.
import type { LoadParams, LoadResult, WorkerReply, WorkerRequest } from '../../../src/lib/engine/messages.ts';

export class FakeWorker extends EventTarget {
  readonly sent: (WorkerRequest | { id: number; kind: 'cancel' })[] = [];
  /** Load ids a test has answered (model-pool.test.ts's loadIn). */
  readonly answered = new Set<number>();
  terminated = false;
  postMessage(message: WorkerRequest): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
  reply(message: WorkerReply): void {
    this.dispatchEvent(new MessageEvent('message', { data: message }));
  }
  crash(text: string): void {
    const event = new Event('error') as Event & { message: string };
    Object.defineProperty(event, 'message', { value: text });
    this.dispatchEvent(event);
  }
  /** Every load sent so far. */
  loads(): LoadParams[] {
    return this.sent.flatMap((m) => (m.kind === 'load' ? [m.params as LoadParams] : []));
  }
  /** Answers the last load sent, as the worker does once the session is open. */
  answerLoad(backend: 'wasm' | 'webgpu' = 'wasm'): void {
    const last = [...this.sent].reverse().find((m) => m.kind === 'load')! as WorkerRequest;
    this.reply({ id: last.id, kind: 'result', result: loadResult(last.params as LoadParams, backend) });
  }
}

/** What the worker answers a load with, its statistics and lens paths when the load asked for them. */
export function loadResult(params: LoadParams, backend: 'wasm' | 'webgpu'): LoadResult {
  return {
    backendInfo: { backend, wasmThreads: 1 } as LoadResult['backendInfo'],
    modelType: 'llama',
    vocabSize: 10,
    inputNames: ['input_ids'],
    loadMs: 5,
    transformersVersion: 't',
    ortVersion: 'o',
    context: null,
    ...(params.statistics ? { statisticsPath: { kind: 'graph' as const, check: { tokens: 3, maxAbsDiff: 0 } } } : {}),
    ...(params.lens ? { lensPath: { kind: 'shown', check: { tokens: 3, maxAbsDiff: 0 } } as unknown as LoadResult['lensPath'] } : {}),
  };
}
