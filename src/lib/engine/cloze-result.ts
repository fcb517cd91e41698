// A cloze item's stored result from what the worker scored: the per-option numbers every rule and
// continuous score is computed from (ClozeScores), and the acc rule's prediction as the result's own,
// so every plain metric of the run (accuracy, McNemar, the tables) reads it as any other run.
import type { MultipleChoiceItem, OptionLetter } from '../core/benchmarks/types.ts';
import type { McItemResult } from '../core/record/run.ts';
import { OPTION_LETTERS, pythonLength, utf8Length, scoreLetters } from '../core/protocols/index.ts';
import type { ScoreClozeItemResult } from './messages.ts';

/**
 * The harness's counts are of the option text itself (doc_to_choice; its target delimiter here is
 * ''): characters as Python's len() for acc_norm, UTF-8 bytes for acc_bytes and bits per byte.
 */
export function clozeResult(
  runId: string,
  index: number,
  item: MultipleChoiceItem,
  scored: ScoreClozeItemResult,
  promptHash: string,
): McItemResult {
  if (scored.options.length !== item.options.length) throw new RangeError(`item ${item.id}: ${scored.options.length} option scores for ${item.options.length} options`);
  const letters = OPTION_LETTERS.slice(0, item.options.length) as OptionLetter[];
  const logLikelihoods = scored.options.map((o) => o.logLikelihood);
  // The acc rule: largest summed log-likelihood, ties to the first; probs are the softmax over the options.
  const outcome = scoreLetters(letters, logLikelihoods, item.answer);
  const unconditional = scored.options.every((o) => o.unconditional !== undefined) ? scored.options.map((o) => o.unconditional!) : undefined;
  return {
    runId,
    itemId: item.id,
    task: item.task,
    index,
    prompt: scored.context,
    promptHash,
    tokenCount: scored.contextIds.length,
    shotsUsed: scored.shotsUsed,
    exemplarIds: scored.exemplarIds,
    letters,
    tokenIds: [],
    logProbs: outcome.logProbs,
    probs: outcome.letterProbs,
    cloze: {
      logLikelihoods,
      tokenCounts: scored.options.map((o) => o.tokenIds.length),
      charCounts: item.options.map(pythonLength),
      byteCounts: item.options.map(utf8Length),
      isGreedy: scored.options.map((o) => o.isGreedy),
      ...(unconditional ? { unconditional } : {}),
      contextTokens: scored.contextIds.length,
      contextIsPrefix: scored.options.map((o) => o.contextIsPrefix),
    },
    prediction: outcome.prediction,
    gold: item.answer,
    correct: outcome.correct,
    reusedPrefixTokens: scored.reusedPrefixTokens,
    forwardMs: scored.forwardMs,
    completedAt: new Date().toISOString(),
  };
}
