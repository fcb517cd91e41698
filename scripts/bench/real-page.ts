// What the real-shapes bench (real-shapes.ts) runs inside the harness page besides the letter and
// cloze sequences (cloze-page.ts) and the bare session (mc-page.ts): loading a model into one of the
// page's two workers with a chosen wasm thread count, a greedy generation timed token by token, and
// the worker's counters (its wasm Memory, which only grows: its size is the peak so far).
//
// The two workers are the ones the other page modules read: `mcClient` scores letters (the plain
// one-row load a letter run makes) and `clozeClient` scores option texts and statistics (the load a
// cloze run makes, with Jiangu's statistics outputs). statistics-page.ts reads `statsClients`, so
// both are named there too ('plain', 'stats').
//
// These functions are serialised by page.evaluate, so each must be self-contained: no imports used at
// run time, and no named inner function (tsx's keepNames helper `__name` is installed by the bench
// with cloze-page.ts' installNameHelper, but nothing here needs it).
import type { Backend, GenerateResult, LoadResult, WorkerStats } from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';

interface RealBenchWindow {
  mcClient?: ModelClient;
  clozeClient?: ModelClient;
  statsClients?: Record<string, ModelClient>;
}

export type RealSlot = 'letters' | 'stats';

export interface RealLoadArgs {
  slot: RealSlot;
  model: string;
  dtype: 'fp32' | 'q8' | 'q4' | 'fp16' | 'q4f16';
  backend: Backend;
  /** The wasm threads to ask for (LoadParams.wasmThreads); absent: onnxruntime-web's own choice. */
  wasmThreads?: number;
}

export interface RealReply<T> {
  wallMs: number;
  result?: T;
  error?: string;
}

/** Creates the slot's worker (if needed) and loads the model as the slot's runs load it. */
export const pageRealLoad = async (a: RealLoadArgs): Promise<RealReply<LoadResult>> => {
  const w = window as unknown as RealBenchWindow;
  const client = a.slot === 'letters' ? (w.mcClient ??= new window.jiangu.ModelClient()) : (w.clozeClient ??= new window.jiangu.ModelClient());
  w.statsClients = { ...(w.statsClients ?? {}), [a.slot === 'letters' ? 'plain' : 'stats']: client };
  const started = performance.now();
  try {
    const params = {
      source: { kind: 'site' as const, name: a.model },
      dtype: a.dtype,
      backend: a.backend,
      ...(a.slot === 'stats' ? { statistics: true } : {}),
      ...(a.wasmThreads === undefined ? {} : { wasmThreads: a.wasmThreads }),
    };
    const result = await client.load(params);
    return { wallMs: performance.now() - started, result };
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    return { wallMs: performance.now() - started, error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ') };
  }
};

/** The slot's worker counters (wasmMemoryBytes: ORT's wasm Memories, their peak so far). */
export const pageRealStats = async (slot: RealSlot): Promise<WorkerStats | null> => {
  const w = window as unknown as RealBenchWindow;
  const client = slot === 'letters' ? w.mcClient : w.clozeClient;
  return client ? client.stats() : null;
};

/** Stops the slot's worker, freeing its model before the next one loads. */
export const pageRealTerminate = async (slot: RealSlot): Promise<void> => {
  const w = window as unknown as RealBenchWindow;
  if (slot === 'letters') {
    w.mcClient?.terminate();
    w.mcClient = undefined;
    if (w.statsClients) delete w.statsClients.plain;
  } else {
    w.clozeClient?.terminate();
    w.clozeClient = undefined;
    if (w.statsClients) delete w.statsClients.stats;
  }
};

export interface RealGeneration {
  result: GenerateResult;
  /** Page ms of each streamed token since the request. */
  tokenMs: number[];
  wallMs: number;
}

/** A greedy generation on the letters worker, cancelled after `capMs` (it stops after the token in progress). */
export const pageRealGenerate = async (a: { prompt: string; maxNewTokens: number; capMs: number }): Promise<RealReply<RealGeneration>> => {
  const client = (window as unknown as RealBenchWindow).mcClient;
  const tokenMs: number[] = [];
  const started = performance.now();
  const abort = new AbortController();
  const timer = setTimeout(() => abort.abort(), a.capMs);
  try {
    if (!client) throw new Error('no client: load first');
    const result = await client.generate({ prompt: a.prompt, maxNewTokens: a.maxNewTokens }, { signal: abort.signal, onToken: () => tokenMs.push(performance.now() - started) });
    const wallMs = performance.now() - started;
    return { wallMs, result: { result, tokenMs, wallMs } };
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    return { wallMs: performance.now() - started, error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ') };
  } finally {
    clearTimeout(timer);
  }
};
