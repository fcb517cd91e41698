// The derived numbers of a multiple-choice result that a run file also writes: `probs`, the softmax
// of `logProbs` over the letters (mc-scoring.ts scoreLetters, logprobs.ts renormalize). Every p(gold),
// calibration chart, Brier score and Compare's Wilcoxon on p(gold) reads them, so a file's own values
// are never stored: they are compared with the recomputation and the file refused, naming the entry,
// when they differ (a file whose probs say 1 on the gold letter beside log-probabilities that do not,
// or that sum to 3.6, was edited or broken, and the user should know), and the recomputation is what
// is stored. Compared rather than silently recomputed so that a forged file is named, not laundered.
import { renormalize } from '../../logprobs.ts';
import { fail } from '../import-validate.ts';

/**
 * How far a file's probability may be from the recomputation: both are float64 softmaxes of the same
 * numbers (JSON keeps a double exactly), so only another engine's Math.exp can differ, by an ulp or so.
 */
export const PROBS_TOLERANCE = 1e-9;

/**
 * The probabilities to store for a result: the softmax of `logProbs` (none when there are none, as a
 * generate-extract or failed result), after checking the file's `fileProbs` against it.
 *
 * @param fileProbs The file's probs, each already checked to be in [0, 1].
 * @param logProbs The result's log-probabilities, already checked (finite, ≤ 0, one per letter or none).
 * @param probsPath Where the file's probs are (`results[3].probs`), for the refusal.
 * @param logProbsPath Where the log-probabilities are, named in the refusal.
 * @throws FieldProblem (import.field-wrong, expected 'softmax-of') naming the first entry that differs.
 */
export function derivedProbs(fileProbs: readonly number[], logProbs: readonly number[], probsPath: string, logProbsPath: string): number[] {
  const recomputed = logProbs.length === 0 ? [] : renormalize(logProbs);
  const expected = { expected: 'softmax-of', of: logProbsPath, value: recomputed.map((p) => p.toPrecision(6)).join(', ') } as const;
  if (fileProbs.length !== recomputed.length) fail(probsPath, expected, fileProbs);
  fileProbs.forEach((p, i) => {
    if (!(Math.abs(p - recomputed[i]) <= PROBS_TOLERANCE)) fail(`${probsPath}[${i}]`, expected, p);
  });
  return recomputed;
}
