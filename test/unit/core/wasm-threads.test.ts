// The WASM thread count: ORT's own rule, the user's choice clamped to what the browser allows, the
// stored setting, the worker's rule of writing numThreads only before ORT's first session, and the
// model client starting a fresh worker when the count changes (ORT fixes it once per worker).
import { afterEach, describe, expect, it } from 'vitest';
import {
  clampWasmThreads,
  expectedWasmThreads,
  maxWasmThreads,
  ortDefaultThreads,
  parseWasmThreadsSetting,
} from '../../../src/lib/core/models/wasm-threads.ts';
import { WasmThreads } from '../../../workers/wasm-threads.ts';
import { ModelClient } from '../../../src/lib/engine/model-client.ts';
import { ModelError } from '../../../src/lib/engine/model-client.ts';
import type { LoadParams, WorkerRequest } from '../../../src/lib/engine/messages.ts';
import { savedWasmThreads, saveWasmThreads } from '../../../src/lib/data/settings.ts';

const isolated = (cores: number | undefined) => ({ isolated: true, cores });
const notIsolated = (cores: number | undefined) => ({ isolated: false, cores });

describe('ortDefaultThreads (onnxruntime-web 1.31 initializeFlags, numThreads unset)', () => {
  it('is 1 without isolation, and half the logical cores rounded up, at most 4, with it', () => {
    expect([1, 2, 3, 4, 5, 8, 9, 64].map((c) => ortDefaultThreads(true, c))).toEqual([1, 1, 2, 2, 3, 4, 4, 4]);
    expect(ortDefaultThreads(false, 16)).toBe(1);
    expect(ortDefaultThreads(true, undefined)).toBe(1);
  });
});

describe('what a user may choose', () => {
  it('goes up to the logical cores when isolated, and is 1 without isolation', () => {
    expect(maxWasmThreads(isolated(2))).toBe(2);
    expect(maxWasmThreads(isolated(16))).toBe(16);
    expect(maxWasmThreads(isolated(undefined))).toBe(1);
    expect(maxWasmThreads(notIsolated(16))).toBe(1);
  });

  it('clamps a stored or asked count into 1 … max, and keeps auto', () => {
    expect(clampWasmThreads(2, isolated(2))).toBe(2);
    expect(clampWasmThreads(8, isolated(2))).toBe(2);
    expect(clampWasmThreads(0, isolated(8))).toBe(1);
    expect(clampWasmThreads(-3, isolated(8))).toBe(1);
    expect(clampWasmThreads(2.7, isolated(8))).toBe(2);
    expect(clampWasmThreads(4, notIsolated(8))).toBe(1);
    expect(clampWasmThreads('auto', isolated(8))).toBe('auto');
    expect(clampWasmThreads(Number.NaN, isolated(8))).toBe('auto');
  });

  it('expects ORT’s rule for auto and the clamped count otherwise', () => {
    expect(expectedWasmThreads('auto', isolated(2))).toBe(1);
    expect(expectedWasmThreads('auto', isolated(12))).toBe(4);
    expect(expectedWasmThreads(2, isolated(2))).toBe(2);
    expect(expectedWasmThreads(12, isolated(12))).toBe(12);
    expect(expectedWasmThreads(3, notIsolated(12))).toBe(1);
  });

  it('reads a stored setting: a positive integer, else auto', () => {
    expect(parseWasmThreadsSetting('3')).toBe(3);
    expect(parseWasmThreadsSetting(' 12 ')).toBe(12);
    for (const raw of [null, undefined, '', 'auto', '0', '-1', '2.5', 'x', '1e3', '99999']) expect(parseWasmThreadsSetting(raw)).toBe('auto');
  });
});

describe('the stored setting (no localStorage in Node: held for the page)', () => {
  afterEach(() => saveWasmThreads('auto'));
  it('keeps a chosen count and forgets it for auto', () => {
    expect(savedWasmThreads()).toBe('auto');
    saveWasmThreads(3);
    expect(savedWasmThreads()).toBe(3);
    saveWasmThreads('auto');
    expect(savedWasmThreads()).toBe('auto');
  });
});

describe('WasmThreads (the worker writes numThreads only before ORT reads it)', () => {
  it('sets a number, leaves it unset for auto, and stops writing once the first session is asked for', () => {
    const flags: { numThreads?: number } = {};
    const threads = new WasmThreads(flags);
    expect(threads.apply(2)).toBe(true);
    expect(flags.numThreads).toBe(2);
    // A load that failed before any session (a missing config.json) leaves the count open.
    expect(threads.apply('auto')).toBe(true);
    expect('numThreads' in flags).toBe(false);
    threads.apply(3);
    threads.fix();
    // What ORT's initializeFlags would leave in the flag is what is reported.
    expect(threads.used()).toBe(3);
    expect(threads.apply(1)).toBe(false);
    expect(flags.numThreads).toBe(3);
    expect(threads.apply(3)).toBe(true);
  });

  it('reports ORT’s default where auto left the flag for ORT to fill in', () => {
    const flags: { numThreads?: number } = {};
    const threads = new WasmThreads(flags);
    threads.apply(undefined);
    threads.fix();
    flags.numThreads = 2; // initializeFlags on a 4-core isolated page
    expect(threads.used()).toBe(2);
  });
});

class FakeWorker extends EventTarget {
  readonly sent: WorkerRequest[] = [];
  terminated = false;
  postMessage(message: WorkerRequest): void {
    this.sent.push(message);
  }
  terminate(): void {
    this.terminated = true;
  }
}

describe('ModelClient and the thread count', () => {
  const params: LoadParams = { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' };
  afterEach(() => saveWasmThreads('auto'));

  function setup() {
    const workers: FakeWorker[] = [];
    const client = new ModelClient(() => {
      const w = new FakeWorker();
      workers.push(w);
      return w as unknown as Worker;
    });
    return { workers, client };
  }
  const sentThreads = (w: FakeWorker) => w.sent.filter((m) => m.kind === 'load').map((m) => (m.params as LoadParams).wasmThreads);

  it('sends the user’s setting when the caller names none, and the caller’s when it does (clamped: Node is not isolated)', () => {
    const { workers, client } = setup();
    void client.load(params).catch(() => {});
    saveWasmThreads(4);
    void client.load(params).catch(() => {});
    // Not isolated: 4 is brought down to 1, a count, no longer auto: a fresh worker.
    expect(sentThreads(workers[0])).toEqual(['auto']);
    expect(sentThreads(workers[1])).toEqual([1]);
    void client.load({ ...params, wasmThreads: 'auto' }).catch(() => {});
    expect(sentThreads(workers[2])).toEqual(['auto']);
  });

  it('keeps its worker while the count stays, and starts a fresh one when it changes, failing what the old one owed', async () => {
    const { workers, client } = setup();
    void client.load({ ...params, wasmThreads: 'auto' }).catch(() => {});
    void client.load({ ...params, wasmThreads: 'auto' }).catch(() => {});
    expect(workers.length).toBe(1);
    const owed = client.score({ prompt: 'p', candidates: ['A'] });
    void client.load({ ...params, wasmThreads: 1 }).catch(() => {});
    expect(workers.length).toBe(2);
    expect(workers[0].terminated).toBe(true);
    const error = await owed.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelError);
    expect((error as ModelError).code).toBe('cancelled');
    expect(sentThreads(workers[1])).toEqual([1]);
    // The new worker is the one that answers now.
    const next = client.stats();
    const request = workers[1].sent.at(-1)!;
    expect(request.kind).toBe('stats');
    workers[0].dispatchEvent(new MessageEvent('message', { data: { id: request.id, kind: 'result', result: { stale: true } } }));
    workers[1].dispatchEvent(new MessageEvent('message', { data: { id: request.id, kind: 'result', result: { fresh: true } } }));
    expect(await next).toEqual({ fresh: true });
  });
});
