// What the statistics bench (statistics.ts) runs inside the harness page: workers loaded with and
// without Jiangu's statistics outputs, and one timed request of each kind the bench compares:
//  - `oneRow`: ModelClient.score on the text as a prompt (one candidate), on the plain graph: the
//    forward pass that keeps one logits row, as scoring a prompt costs;
//  - `graph`: ModelClient.textStatistics (moments: true) on a `statistics: true` load;
//  - `worker`: the same request on the plain load: whole logits rows read out in chunks bounded by
//    maxLogitsBytes and computed in JavaScript.
// Every time is taken in the page with performance.now().
//
// These functions are serialised by page.evaluate, so each must be self-contained: no imports used at
// run time (named inner functions need cloze-page.ts' installNameHelper first; none are used here).
import type { Backend, LoadResult } from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';

/** Where the page keeps its clients between two page.evaluate calls, by slot. */
interface StatsBenchWindow {
  statsClients?: Record<string, ModelClient>;
}

export interface StatsLoadArgs {
  /** The client's name in the page ('plain', 'stats'). */
  slot: string;
  model: string;
  dtype: 'fp32' | 'q8' | 'q4';
  backend: Backend;
  statistics: boolean;
  /** LoadParams.maxLogitsBytes; the site's default (64 MiB) when absent. */
  maxLogitsBytes?: number;
}

export interface StatsLoadReply {
  wallMs: number;
  result?: LoadResult;
  error?: string;
}

/** Creates a ModelClient (its own worker) in `slot` and loads the model into it. */
export const pageStatsLoad = async (a: StatsLoadArgs): Promise<StatsLoadReply> => {
  const w = window as unknown as StatsBenchWindow;
  w.statsClients ??= {};
  w.statsClients[a.slot] ??= new window.jiangu.ModelClient();
  const started = performance.now();
  try {
    const result = await w.statsClients[a.slot].load({
      source: { kind: 'site', name: a.model },
      dtype: a.dtype,
      backend: a.backend,
      statistics: a.statistics,
      ...(a.maxLogitsBytes === undefined ? {} : { maxLogitsBytes: a.maxLogitsBytes }),
    });
    return { wallMs: performance.now() - started, result };
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    return { wallMs: performance.now() - started, error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ') };
  }
};

/** Stops every worker the bench started in this page. */
export const pageStatsTerminate = async (): Promise<void> => {
  const w = window as unknown as StatsBenchWindow;
  for (const client of Object.values(w.statsClients ?? {})) client.terminate();
  w.statsClients = undefined;
};

export type StatsMode = 'oneRow' | 'graph' | 'worker';

export interface StatsCallArgs {
  mode: StatsMode;
  slot: string;
  text: string;
  /** Return the per-position statistics too (for the agreement check between the two paths). */
  keepValues: boolean;
}

export interface StatsCall {
  mode: StatsMode;
  /** Page time of the request. */
  ms: number;
  /** The worker's own time (ScoreResult.forwardMs / TextStatisticsResult.forwardMs). */
  workerMs: number;
  forwardPasses: number;
  logitsCopied: number;
  /** The text's tokens as the worker encoded them. */
  tokens: number;
  /** textStatistics: which path computed them. */
  path?: 'graph' | 'worker';
  values?: { logprob: number[]; argmax: number[]; mean: number[]; std: number[] };
}

export interface StatsCallReply {
  result?: StatsCall;
  error?: string;
}

/** One timed request of `mode` on the text. */
export const pageStatsCall = async (a: StatsCallArgs): Promise<StatsCallReply> => {
  const client = (window as unknown as StatsBenchWindow).statsClients?.[a.slot];
  if (!client) return { error: `no client in slot ${a.slot}: load first` };
  try {
    if (a.mode === 'oneRow') {
      const t0 = performance.now();
      const r = await client.score({ prompt: a.text, candidates: ['A'] });
      const ms = performance.now() - t0;
      return { result: { mode: a.mode, ms, workerMs: r.forwardMs, forwardPasses: r.forwardPasses, logitsCopied: r.logitsCopied, tokens: r.inputIds.length } };
    }
    const t0 = performance.now();
    const r = await client.textStatistics({ text: a.text, moments: true });
    const ms = performance.now() - t0;
    return {
      result: {
        mode: a.mode,
        ms,
        workerMs: r.forwardMs,
        forwardPasses: r.forwardPasses,
        logitsCopied: r.logitsCopied,
        tokens: r.ids.length,
        path: r.path,
        ...(a.keepValues
          ? { values: { logprob: Array.from(r.logprob), argmax: Array.from(r.argmax), mean: Array.from(r.mean ?? []), std: Array.from(r.std ?? []) } }
          : {}),
      },
    };
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    return { error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ') };
  }
};
