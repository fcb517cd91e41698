// Cloze scoring in the worker: each option's text is scored as the continuation of the item's
// context, the harness's way (encode-pair.ts for the split, continuationScore for the sum). The
// context is run once per item, on the task's exemplar prefix cache when it has one; each option then
// runs its own tokens (all but the last: the context's last row predicts the first) on that one
// context state, keeping every row it computes, and disposes only what it made. The state it branched
// from is never written: the next option starts from it as the first did (gqa-cloze is the proof on
// GroupQueryAttention, whose WebGPU kernel may share past and present buffers).
import type { DynamicCache } from '@huggingface/transformers';
import type { ClozeOptionScore, ScoreClozeItemParams, ScoreClozeItemResult } from '../src/lib/engine/messages.ts';
import { buildClozePrompt, encodePair, getProtocol } from '../src/lib/core/protocols/index.ts';
import { continuationScore, rowStats, type ContinuationScore, type RowStats } from '../src/lib/core/logprobs.ts';
import { hasPrefix } from '../src/lib/core/token-prefix.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import { logitsRows } from './logits.ts';
import { applyChatTemplate, encode, encodeRecent, RequestError, type Loaded } from './loaded-model.ts';
import { cacheOf, countFor, disposeOutputs, forward, prefill, prefixCacheFor } from './scoring.ts';

/**
 * A context's state: its KV cache (owned by whoever made it), the logits row after its last token
 * and that row's log-sum-exp and argmax, computed once for every option that starts from it.
 */
interface ContextState {
  cache: DynamicCache;
  length: number;
  lastRow: Float32Array;
  lastStats: RowStats;
}

/** Scores kept after the answer cue alone before the map is cleared (a bound on the worker's memory over a 28,707-item run). */
const CUE_SCORES_KEPT = 20_000;

interface Cost {
  logitsCopied: number;
  passes: number;
}

/**
 * Rows one continuation pass may return: the memory bound of a chunked prefill (maxLogitsRows, from
 * the memory setting, or fixed for q8) and GroupQueryAttention's WebGPU pass limit.
 */
function rowsPerPass(m: Loaded): number {
  return Math.max(1, Math.min(m.maxLogitsRows, m.maxPassRows ?? Infinity));
}

/**
 * The score of `tokens` after `context`: the first token from the context's last row, the rest from
 * the rows of passes over tokens[0 … n − 2] on the context's cache. Intermediate caches are this
 * function's and are disposed; the context's cache is only read.
 */
export async function continuationOn(m: Loaded, context: ContextState, tokens: readonly number[], cost: Cost): Promise<ContinuationScore> {
  const vocab = context.lastRow.length;
  for (const t of tokens) if (t < 0 || t >= vocab) throw new RangeError(`token id ${t} is outside the vocabulary of ${vocab}`);
  const total = continuationScore([context.lastRow], [0], vocab, [tokens[0]], context.lastStats);
  const feed = tokens.slice(0, -1);
  const step = rowsPerPass(m);
  let cache: DynamicCache = context.cache;
  let length = context.length;
  for (let start = 0; start < feed.length; start += step) {
    const chunk = feed.slice(start, start + step);
    const outputs = await forward(m, chunk, cache, length, chunk.length);
    const logits = outputs.logits;
    const [, rows, width] = logits.dims as [number, number, number];
    const last = start + step >= feed.length;
    const next = last ? null : cacheOf(outputs);
    try {
      if (rows !== chunk.length || width !== vocab) throw new RangeError(`a continuation pass of ${chunk.length} tokens returned ${rows} rows of ${width}`);
      const data = logits.type === 'float32' ? (logits.data as Float32Array) : logitsRows(logits);
      const predicted = tokens.slice(start + 1, start + 1 + rows);
      const part = continuationScore(Array(rows).fill(data), Array.from({ length: rows }, (_, i) => i * vocab), vocab, predicted);
      total.logLikelihood += part.logLikelihood;
      total.isGreedy &&= part.isGreedy;
      cost.logitsCopied += rows * vocab;
      cost.passes++;
    } finally {
      await disposeOutputs(outputs, new Set(next ? Object.values(next) : []));
      if (cache !== context.cache) await cache.dispose();
    }
    cache = next!;
    length += chunk.length;
  }
  return total;
}

/**
 * The state after the answer cue alone (PMI's unconditional context), kept while the protocol's cue
 * stays the same (one per run): a few tokens, computed once. `ids` are the cue's own encoding.
 */
async function answerCueState(m: Loaded, cue: string, ids: readonly number[], cost: Cost): Promise<NonNullable<Loaded['answerCueCache']>> {
  const known = m.answerCueCache;
  if (known && known.text === cue) return known;
  await known?.state.cache.dispose();
  m.answerCueCache = null;
  const run = await prefill(m, ids, null, 0);
  cost.logitsCopied += run.logitsCopied;
  cost.passes += run.passes;
  // The row may be the logits tensor's own array; it is only read here, never sent.
  const state = { cache: run.cache, length: ids.length, lastRow: run.lastRow, lastStats: rowStats(run.lastRow, 0, run.lastRow.length) };
  m.answerCueCache = { text: cue, state, scores: new Map() };
  return m.answerCueCache;
}

export async function scoreClozeItem(m: Loaded, params: ScoreClozeItemParams): Promise<ScoreClozeItemResult> {
  const started = performance.now();
  const protocol = getProtocol(params.protocolId);
  const wrap = (text: string) => (params.chatTemplate ? applyChatTemplate(m.tokenizer, text) : text);
  const count = countFor(m, params.chatTemplate);
  const built = buildClozePrompt(protocol, params.item, params.exemplars, params.shots, { countTokens: (text) => count(text), contextLimit: params.contextLimit });
  const text = wrap(built.context);
  const encodeWhole = (t: string) => encodeRecent(m, t, true);
  const pairs = built.continuations.map((continuation) => encodePair(encodeWhole, text, continuation));
  if (built.overLimit) {
    const tokens = pairs[0].contextIds.length + Math.max(...pairs.map((p) => p.continuationIds.length));
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: params.item.id, tokens, limit: params.contextLimit }]));
  }
  const empty = pairs.findIndex((p) => p.continuationIds.length === 0);
  if (empty >= 0) throw new RequestError(modelError('bad-request', 'model.candidate-no-token', [{ candidate: built.continuations[empty] }]));
  // Every pair has the same context (one text, its whitespace moved the same way).
  const contextText = pairs[0].context;
  const contextIds = pairs[0].contextIds;
  if (contextIds.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));

  const cost: Cost = { logitsCopied: 0, passes: 0 };
  let reused = 0;
  let past: DynamicCache | null = null;
  const at = params.reusePrefix && built.prefix ? text.indexOf(built.prefix) : -1;
  if (at >= 0) {
    const prefixIds = encodeRecent(m, text.slice(0, at + built.prefix.length), true);
    if (prefixIds.length < contextIds.length && hasPrefix(contextIds, prefixIds)) {
      const prefix = await prefixCacheFor(m, prefixIds);
      past = prefix.cache;
      cost.logitsCopied += prefix.logitsCopied;
      cost.passes += prefix.passes;
      reused = prefixIds.length;
    }
  }
  const run = await prefill(m, contextIds.slice(reused), past, reused);
  cost.logitsCopied += run.logitsCopied;
  cost.passes += run.passes;
  const context: ContextState = { cache: run.cache, length: contextIds.length, lastRow: run.lastRow, lastStats: rowStats(run.lastRow, 0, run.lastRow.length) };
  const options: ClozeOptionScore[] = [];
  try {
    for (const pair of pairs) {
      const scored = await continuationOn(m, context, pair.continuationIds, cost);
      options.push({ continuation: pair.continuation, tokenIds: pair.continuationIds, logLikelihood: scored.logLikelihood, isGreedy: scored.isGreedy, contextIsPrefix: pair.contextIsPrefix });
    }
  } finally {
    await context.cache.dispose();
  }
  if (params.unconditional) {
    // The cue alone, as plain text (no chat template): what the option's form costs without the question.
    const cuePairs = params.item.options.map((option) => encodePair((t) => encode(m.tokenizer, t, true), built.domainContext, protocol.cloze.targetDelimiter + option));
    const cue = await answerCueState(m, cuePairs[0].context, cuePairs[0].contextIds, cost);
    for (const [k, pair] of cuePairs.entries()) {
      if (pair.continuationIds.length === 0) throw new RequestError(modelError('bad-request', 'model.candidate-no-token', [{ candidate: params.item.options[k] }]));
      // The same tokens after the same state give the same sum: an option text seen before is not run again.
      const key = pair.continuationIds.join(',');
      let score = cue.scores.get(key);
      if (score === undefined) {
        score = (await continuationOn(m, cue.state, pair.continuationIds, cost)).logLikelihood;
        if (cue.scores.size >= CUE_SCORES_KEPT) cue.scores.clear();
        cue.scores.set(key, score);
      }
      options[k].unconditional = score;
    }
  }
  return {
    context: built.context,
    prefix: built.prefix,
    shotsUsed: built.shotsUsed,
    exemplarIds: built.exemplarIds,
    droppedExemplarIds: built.droppedExemplarIds,
    overLimit: built.overLimit,
    text: contextText,
    contextIds: [...contextIds],
    options,
    reusedPrefixTokens: reused,
    logitsCopied: cost.logitsCopied,
    forwardPasses: cost.passes,
    forwardMs: performance.now() - started,
  };
}
