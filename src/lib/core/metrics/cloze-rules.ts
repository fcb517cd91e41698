// The prediction rules of a cloze run, each a function of the numbers stored per option
// (ClozeScores), so switching rules never reruns the model. Where lm-evaluation-harness defines the
// rule, this is its number (lm_eval/api/task.py, ConfigurableTask.process_results for
// output_type multiple_choice):
//  - acc:       argmax of the summed log-likelihoods.
//  - acc_norm:  argmax of sum ÷ characters of the option text (the harness's completion_len:
//               Python len(), code points).
//  - acc_bytes: argmax of sum ÷ UTF-8 bytes of the option text.
//  - pmi:       argmax of sum − the same option's sum after the answer cue alone: the
//               domain-conditional PMI of Holtzman et al. 2021 ("Surface Form Competition", §3,
//               with the answer cue as the domain premise). Not the harness's acc_mutual_info,
//               which conditions on an empty context (its prefix token) instead.
// Ties go to the first option, as numpy.argmax does.
import type { ClozeScores, McItemResult } from '../record/run.ts';
import type { OptionLetter } from '../benchmarks/types.ts';
import { argmax } from '../logprobs.ts';
import { OPTION_LETTERS } from '../protocols/multiple-choice.ts';

export const CLOZE_RULES = ['acc', 'acc_norm', 'acc_bytes', 'pmi'] as const;
export type ClozeRule = (typeof CLOZE_RULES)[number];

/** Each option's value under `rule`, or null when the rule needs numbers this result lacks (PMI without unconditional sums). */
export function ruleValues(scores: ClozeScores, rule: ClozeRule): number[] | null {
  const lls = scores.logLikelihoods;
  switch (rule) {
    case 'acc':
      return [...lls];
    case 'acc_norm':
      return lls.map((ll, i) => ll / scores.charCounts[i]);
    case 'acc_bytes':
      return lls.map((ll, i) => ll / scores.byteCounts[i]);
    case 'pmi':
      return scores.unconditional ? lls.map((ll, i) => ll - scores.unconditional![i]) : null;
  }
}

/** The option index `rule` predicts (ties to the first), or null when it cannot be computed. */
export function clozePrediction(scores: ClozeScores, rule: ClozeRule): number | null {
  const values = ruleValues(scores, rule);
  return values === null ? null : argmax(values);
}

/**
 * A cloze result as `rule` would have scored it: prediction and correct recomputed, everything else
 * as stored. Results without cloze numbers (failed items) and unscored items (no key) pass through.
 * Null when the rule cannot be computed for a result that has cloze numbers (PMI on an import
 * without unconditional sums): the caller shows that rule as unavailable.
 */
export function underRule<T extends Pick<McItemResult, 'cloze' | 'gold' | 'correct' | 'prediction' | 'letters'>>(result: T, rule: ClozeRule): T | null {
  if (!result.cloze || rule === 'acc') return result;
  const index = clozePrediction(result.cloze, rule);
  if (index === null) return null;
  const prediction = (result.letters[index] ?? OPTION_LETTERS[index]) as OptionLetter;
  return { ...result, prediction, correct: result.gold === null ? null : prediction === result.gold };
}

/** Every result under `rule`, or null when any result with cloze numbers cannot be scored by it. */
export function resultsUnderRule<T extends Pick<McItemResult, 'cloze' | 'gold' | 'correct' | 'prediction' | 'letters'>>(results: readonly T[], rule: ClozeRule): T[] | null {
  const out: T[] = [];
  for (const result of results) {
    const scored = underRule(result, rule);
    if (scored === null) return null;
    out.push(scored);
  }
  return out;
}
