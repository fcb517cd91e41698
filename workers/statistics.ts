// Per-position statistics of a token sequence after a model state: for each token, its log-probability
// where the model predicted it, the argmax there, and the mean and standard deviation of log p under
// the model's own next-token distribution (what Min-K%++ standardises by). Two paths, the same numbers
// within the load check's tolerance (statistics-check.ts):
//  - `graph`: the session's graph ends in Jiangu's statistics outputs (stats-rewrite.ts); a pass
//    fetches them and the KV cache, never the logits, so a row costs a few numbers instead of a
//    vocabulary-wide row copied out and normalised here;
//  - `worker`: whole logits rows, read out pass by pass (bounded by the memory setting) and
//    computed here in float64 (rowStatistics, rowStats).
// Passes run on the given state, which is only read: each pass's cache is this module's and is
// disposed once the next exists (a cloze item branches four options from one context state).
import type { DynamicCache, Tensor } from '@huggingface/transformers';
import { rowStatistics, rowStats, type RowStats } from '../src/lib/core/logprobs.ts';
import { STATS_OUTPUTS } from '../src/lib/core/models/stats-rewrite.ts';
import { logitsRows } from './logits.ts';
import { encode, RequestError, type Loaded } from './loaded-model.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import type { TextStatisticsParams, TextStatisticsResult } from '../src/lib/engine/messages.ts';
import { cacheOf, disposeOutputs, forward, prefill } from './scoring.ts';

/** A state to continue from: its KV cache (owned by whoever made it), its length, the logits row after its last token and that row's log-sum-exp and argmax. */
export interface SequenceState {
  cache: DynamicCache;
  length: number;
  lastRow: Float32Array;
  lastStats: RowStats;
}

/** Per token of the sequence (index j is tokens[j]), each where the model predicted it. */
export interface SequenceStatistics {
  logprob: Float64Array;
  argmax: Int32Array;
  /** Absent when not asked for (a cloze option needs only its sum and is_greedy). */
  mean?: Float64Array;
  std?: Float64Array;
}

/** What a request computed, for the bench and the results. */
export interface PassCost {
  logitsCopied: number;
  passes: number;
}

interface RunnableSession {
  run: (feeds: unknown, ...rest: unknown[]) => Promise<unknown>;
  outputNames: readonly string[];
}

/** Outputs the pass in progress fetches (null: all, as transformers.js asks). */
let fetching: string[] | null = null;
const controlled = new WeakSet<object>();

/**
 * Lets a statistics pass fetch a subset of the session's outputs: transformers.js always asks for
 * every output, and the logits (rows × vocabulary) are exactly what such a pass must not copy out.
 * The logits are still computed (the statistics read them) but stay in the session.
 */
export function installFetchControl(session: RunnableSession): void {
  if (controlled.has(session)) return;
  controlled.add(session);
  const run = session.run.bind(session);
  session.run = (feeds: unknown, ...rest: unknown[]) => (fetching ? run(feeds, fetching) : run(feeds, ...rest));
}

/** Rows one pass may take: the memory bound (the logits exist inside the session either way) and GroupQueryAttention's WebGPU limit. */
export function rowsPerPass(m: Loaded): number {
  return Math.max(1, Math.min(m.maxLogitsRows, m.maxPassRows ?? Infinity));
}

const numbers = (t: Tensor): ArrayLike<number> => (t.type === 'int64' ? Array.from(t.data as BigInt64Array, Number) : (t.data as Float32Array));

/** One pass of `feed` on `cache` fetching the statistics and the cache only (the graph path). */
async function statisticsPass(m: Loaded, feed: number[], cache: DynamicCache, length: number): Promise<Record<string, Tensor>> {
  const session = (m.model as unknown as { sessions: Record<string, RunnableSession> }).sessions.model;
  fetching = session.outputNames.filter((name) => name !== 'logits');
  try {
    return await forward(m, feed, cache, length, 0);
  } finally {
    fetching = null;
  }
}

/**
 * The statistics of `tokens` after `state`: tokens[0] at the state's last row, every other token at
 * the row of the token before it, from passes over tokens[0 … n − 2] on the state's cache.
 * `moments`: also μ and σ (the memorization probes); without, only log p and the argmax.
 */
export async function sequenceStatistics(m: Loaded, state: SequenceState, tokens: readonly number[], moments: boolean, cost: PassCost): Promise<SequenceStatistics> {
  const vocab = state.lastRow.length;
  for (const t of tokens) if (!Number.isInteger(t) || t < 0 || t >= vocab) throw new RangeError(`token id ${t} is outside the vocabulary of ${vocab}`);
  const n = tokens.length;
  const out: SequenceStatistics = { logprob: new Float64Array(n), argmax: new Int32Array(n), ...(moments ? { mean: new Float64Array(n), std: new Float64Array(n) } : {}) };
  const put = (j: number, row: ArrayLike<number>, offset: number, stats?: RowStats) => {
    if (moments) {
      const s = rowStatistics(row, offset, vocab, tokens[j]);
      out.logprob[j] = s.logprob;
      out.argmax[j] = s.argmax;
      out.mean![j] = s.mean;
      out.std![j] = s.std;
    } else {
      const s = stats ?? rowStats(row, offset, vocab);
      out.logprob[j] = row[offset + tokens[j]] - s.logZ;
      out.argmax[j] = s.best;
    }
  };
  if (n === 0) return out;
  put(0, state.lastRow, 0, state.lastStats);
  const feed = tokens.slice(0, -1);
  const step = rowsPerPass(m);
  const graph = m.info.statisticsPath?.kind === 'graph';
  let cache = state.cache;
  let length = state.length;
  for (let start = 0; start < feed.length; start += step) {
    const chunk = feed.slice(start, start + step);
    const rows = chunk.length;
    const last = start + step >= feed.length;
    const outputs = graph ? await statisticsPass(m, chunk, cache, length) : await forward(m, chunk, cache, length, 0);
    const next = last ? null : cacheOf(outputs);
    try {
      if (graph) {
        const within = numbers(outputs[STATS_OUTPUTS.tokenLogprob]);
        const argmax = numbers(outputs[STATS_OUTPUTS.argmax]);
        const mean = numbers(outputs[STATS_OUTPUTS.mean]);
        const std = numbers(outputs[STATS_OUTPUTS.std]);
        const lastLog = outputs[STATS_OUTPUTS.lastLogprobs].data as Float32Array;
        if (argmax.length !== rows || within.length !== rows - 1 || lastLog.length !== vocab) throw new RangeError(`a statistics pass of ${rows} tokens returned ${argmax.length} rows (${within.length} scored, a last row of ${lastLog.length})`);
        for (let i = 0; i < rows; i++) {
          const j = start + 1 + i;
          out.logprob[j] = i < rows - 1 ? within[i] : lastLog[tokens[j]];
          out.argmax[j] = argmax[i];
          if (moments) {
            out.mean![j] = mean[i];
            out.std![j] = std[i];
          }
        }
        cost.logitsCopied += vocab;
      } else {
        const logits = outputs.logits;
        const [, got, width] = logits.dims as [number, number, number];
        if (got !== rows || width !== vocab) throw new RangeError(`a pass of ${rows} tokens returned ${got} rows of ${width}`);
        const data = logits.type === 'float32' ? (logits.data as Float32Array) : logitsRows(logits);
        for (let i = 0; i < rows; i++) put(start + 1 + i, data, i * vocab);
        cost.logitsCopied += rows * vocab;
      }
      cost.passes++;
    } finally {
      await disposeOutputs(outputs, new Set(next ? Object.values(next) : []));
      if (cache !== state.cache) await cache.dispose();
    }
    cache = next!;
    length += rows;
  }
  return out;
}

/**
 * Per-position statistics of a text (TextStatisticsParams): its first token run alone, then every
 * other token scored where the model predicted it (tokens 2 … n, as the probes' reference code scores
 * them; a tokenizer that adds a BOS token has its first word scored too).
 */
export async function textStatistics(m: Loaded, params: TextStatisticsParams): Promise<TextStatisticsResult> {
  const started = performance.now();
  const ids = encode(m.tokenizer, params.text, true);
  if (ids.length < 2) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  const window = params.window !== undefined ? Math.max(2, Math.floor(params.window)) : null;
  if (window === null && params.contextLimit !== undefined && ids.length > params.contextLimit) {
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: params.itemId ?? '—', tokens: ids.length, limit: params.contextLimit }]));
  }
  const cost: PassCost = { logitsCopied: 0, passes: 0 };
  const n = ids.length - 1;
  const out: SequenceStatistics = { logprob: new Float64Array(n), argmax: new Int32Array(n), ...(params.moments ? { mean: new Float64Array(n), std: new Float64Array(n) } : {}) };
  const size = window ?? ids.length;
  const stride = Math.max(1, Math.floor(size / 2));
  // `scored`: the next position (index into ids) without numbers; a window [start, end) scores end − scored of them.
  for (let start = 0, scored = 1; scored < ids.length; start += stride) {
    const end = Math.min(ids.length, start + size);
    if (end <= scored) continue;
    const first = await prefill(m, ids.slice(start, start + 1), null, 0);
    cost.logitsCopied += first.logitsCopied;
    cost.passes += first.passes;
    const state: SequenceState = { cache: first.cache, length: 1, lastRow: first.lastRow, lastStats: rowStats(first.lastRow, 0, first.lastRow.length) };
    try {
      const stats = await sequenceStatistics(m, state, ids.slice(start + 1, end), params.moments, cost);
      // stats[j] is ids[start + 1 + j]; out[i] is ids[i + 1].
      for (let position = scored; position < end; position++) {
        const j = position - start - 1;
        out.logprob[position - 1] = stats.logprob[j];
        out.argmax[position - 1] = stats.argmax[j];
        if (params.moments) {
          out.mean![position - 1] = stats.mean![j];
          out.std![position - 1] = stats.std![j];
        }
      }
    } finally {
      await state.cache.dispose();
    }
    scored = end;
  }
  return { ids, ...out, path: m.info.statisticsPath?.kind === 'graph' ? 'graph' : 'worker', logitsCopied: cost.logitsCopied, forwardPasses: cost.passes, forwardMs: performance.now() - started };
}
