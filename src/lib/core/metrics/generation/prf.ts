// Precision, recall and F1 from summed counts (micro averaging), shared by NER and punctuation.
// Conventions, as accuracy.ts's "no number rather than a wrong one":
//  - precision = tp/(tp + fp), null when nothing was predicted;
//  - recall = tp/(tp + fn), null when there was nothing to find;
//  - F1 = 2tp/(2tp + fp + fn), which equals the harmonic mean when both are defined and is 0 when one
//    side is empty and the other is not (predictions with no reference entities score 0, not "—");
//    null only when nothing was predicted and nothing was to be found.
import type { BootstrapInterval } from './bootstrap.ts';

export interface MatchCounts {
  tp: number;
  fp: number;
  fn: number;
}

export interface PrecisionRecallF1 extends MatchCounts {
  precision: number | null;
  recall: number | null;
  f1: number | null;
}

/** F1 with a 95% bootstrap interval over items. */
export interface F1WithInterval extends PrecisionRecallF1 {
  f1Interval: BootstrapInterval | null;
}

export function f1FromCounts(tp: number, fp: number, fn: number): number | null {
  const denominator = 2 * tp + fp + fn;
  return denominator === 0 ? null : (2 * tp) / denominator;
}

export function precisionRecallF1({ tp, fp, fn }: MatchCounts): PrecisionRecallF1 {
  return {
    tp,
    fp,
    fn,
    precision: tp + fp === 0 ? null : tp / (tp + fp),
    recall: tp + fn === 0 ? null : tp / (tp + fn),
    f1: f1FromCounts(tp, fp, fn),
  };
}
