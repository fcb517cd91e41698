// Cloze scoring in the worker: each option's text is scored as the continuation of the item's
// context, the harness's way (encode-pair.ts for the split, statistics.ts for the sums). The
// context is run once per item, on the task's exemplar prefix cache when it has one; each option then
// runs its own tokens (all but the last: the context's last row predicts the first) on that one
// context state, keeping every row it computes, and disposes only what it made. The state it branched
// from is never written: the next option starts from it as the first did (gqa-cloze is the proof on
// GroupQueryAttention, whose WebGPU kernel may share past and present buffers).
import type { DynamicCache } from '@huggingface/transformers';
import type { ClozeOptionScore, ScoreClozeItemParams, ScoreClozeItemResult } from '../src/lib/engine/messages.ts';
import { buildClozePrompt, encodePair, getProtocol } from '../src/lib/core/protocols/index.ts';
import { rowStats, type ContinuationScore } from '../src/lib/core/logprobs.ts';
import { hasPrefix } from '../src/lib/core/token-prefix.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import { applyChatTemplate, encode, encodeRecent, RequestError, type Loaded } from './loaded-model.ts';
import { countFor, prefill, prefixCacheFor } from './scoring.ts';
import { sequenceStatistics, type PassCost, type SequenceState } from './statistics.ts';

/** Scores kept after the answer cue alone before the map is cleared (a bound on the worker's memory over a 28,707-item run). */
const CUE_SCORES_KEPT = 20_000;

/**
 * The score of `tokens` after `context`: the first token from the context's last row, the rest from
 * the rows of passes over tokens[0 … n − 2] on the context's cache (statistics.ts: Jiangu's
 * statistics outputs when the graph has them, else whole rows read here). The context's cache is
 * only read.
 */
export async function continuationOn(m: Loaded, context: SequenceState, tokens: readonly number[], cost: PassCost): Promise<ContinuationScore> {
  const stats = await sequenceStatistics(m, context, tokens, false, cost);
  let logLikelihood = 0;
  let isGreedy = true;
  tokens.forEach((token, j) => {
    logLikelihood += stats.logprob[j];
    if (stats.argmax[j] !== token) isGreedy = false;
  });
  return { logLikelihood, isGreedy };
}

/**
 * The state after the answer cue alone (PMI's unconditional context), kept while the protocol's cue
 * stays the same (one per run): a few tokens, computed once. `ids` are the cue's own encoding.
 */
async function answerCueState(m: Loaded, cue: string, ids: readonly number[], cost: PassCost): Promise<NonNullable<Loaded['answerCueCache']>> {
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

  const cost: PassCost = { logitsCopied: 0, passes: 0 };
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
  const context: SequenceState = { cache: run.cache, length: contextIds.length, lastRow: run.lastRow, lastStats: rowStats(run.lastRow, 0, run.lastRow.length) };
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
