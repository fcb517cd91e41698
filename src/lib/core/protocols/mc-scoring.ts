// The letter-logits scoring rule (McScoringRule 'letter-logits') applied to one item: from the
// letters' log-probabilities under the full vocabulary to a prediction and whether it is correct.
import type { OptionLetter } from '../benchmarks/types.ts';
import { argmax, renormalize } from '../logprobs.ts';

export interface LetterScore {
  letters: OptionLetter[];
  /** log p(letter) under the full vocabulary at the prompt's last position, in letter order. */
  logProbs: number[];
  /** Softmax over the letters only (sums to 1). */
  letterProbs: number[];
  /** argmax; ties go to the earlier letter. */
  prediction: OptionLetter;
  /** null when the item has no answer key (AC-EVAL test): predicted, not scored. */
  correct: boolean | null;
}

export function scoreLetters(letters: readonly OptionLetter[], logProbs: readonly number[], answer: OptionLetter | null): LetterScore {
  if (letters.length < 2 || letters.length !== logProbs.length) {
    throw new RangeError(`expected one log-probability per letter (2 to 4), got ${logProbs.length} for ${letters.length} letters`);
  }
  if (logProbs.some((lp) => Number.isNaN(lp) || lp > 0)) throw new RangeError(`log-probabilities must be ≤ 0 and not NaN, got [${logProbs.join(', ')}]`);
  const prediction = letters[argmax(logProbs)];
  return {
    letters: [...letters],
    logProbs: [...logProbs],
    letterProbs: renormalize(logProbs),
    prediction,
    correct: answer === null ? null : prediction === answer,
  };
}
