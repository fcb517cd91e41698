// Min-K%++ (Zhang et al., "Min-K%++: Improved Baseline for Detecting Pre-Training Data from Large
// Language Models", 2024): Min-K% over each token's log-probability standardised against the model's
// own next-token distribution at that position. A seen text's tokens sit near a local maximum of the
// likelihood, so they score high against what the model expected there, not just in absolute terms;
// a rare but expected character is no longer punished for being rare.
//
// Definition, as the reference code computes it (zjysteven/mink-plus-plus, run.py, the "mink and
// mink++" block; run_concat.py is the same):
//  - At each position t (predicting token t + 1, tokens 2..n as for Min-K%): with p the softmax and
//    log p the log-softmax of the row, μ = Σ p · log p and σ = sqrt(Σ p · (log p)² − μ²), the mean and
//    standard deviation of log p under the model's own next-token distribution. The reference names
//    the variance `sigma` and divides by its square root, with no epsilon: the standard deviation.
//  - z_t = (log p(actual token) − μ_t) / σ_t; then the lowest floor(n · k) of the z's, their mean
//    (min-k-prob.ts's selection, and its at-least-one rule when n · k < 1). The reference reports the
//    mean itself: higher = more familiar.
//  - Where Jiangu goes beyond the reference: a position with σ not > 0 (a distribution uniform over
//    its support, or a negative variance from round-off that gives NaN) has no z; the reference would
//    divide by 0. Such positions are left out and counted in `dropped`; n is the positions kept.
//
// The caller supplies μ and σ (the worker's statistics mode, or full rows). The variance as
// E[(log p)²] − μ² loses digits when a row is very peaked; Σ p · (log p − μ)² is the same number
// computed more safely, and either is this definition.
//
// What the number can and cannot show: like Min-K%, a relative score. It is less tied to how rare
// a text's characters are, but still depends on model, tokenizer and text kind: compare items under
// one model, or one item set under two models (compare-min-k.ts), not against a fixed line.
import { checkK, lowestKMean, MIN_K_DEFAULT, type MinKScore } from './min-k-prob.ts';

export const MIN_K_PLUS_PLUS_VERSION = 1;

/** What the model's next-token distribution says at one position (predicting the next token). */
export interface PositionStatistics {
  /** log p of the actual next token (natural log, full vocabulary). */
  logprob: number;
  /** μ = Σ p · log p over the vocabulary (minus the entropy). */
  mean: number;
  /** σ = sqrt(Σ p · (log p)² − μ²). */
  std: number;
}

export interface MinKPlusPlusScore extends MinKScore {
  /** Positions left out because their σ was not > 0 (see the header). */
  dropped: number;
}

/** Each usable position's z = (log p − μ)/σ, and how many positions had no z. */
export function standardisedLogProbs(positions: readonly PositionStatistics[]): { z: Float64Array; dropped: number } {
  const z: number[] = [];
  let dropped = 0;
  positions.forEach((p, i) => {
    if (!Number.isFinite(p.logprob) || !Number.isFinite(p.mean)) {
      throw new RangeError(`position ${i}: log-probability ${p.logprob} and mean ${p.mean} must be finite numbers`);
    }
    if (!(p.std > 0) || !Number.isFinite(p.std)) {
      dropped++;
      return;
    }
    z.push((p.logprob - p.mean) / p.std);
  });
  return { z: Float64Array.from(z), dropped };
}

/** Min-K%++ of one text from its positions 2..n (see the header); null when no position is usable. */
export function minKPlusPlus(positions: readonly PositionStatistics[], k: number = MIN_K_DEFAULT): MinKPlusPlusScore | null {
  checkK(k);
  const { z, dropped } = standardisedLogProbs(positions);
  const score = lowestKMean(z, k);
  return score === null ? null : { ...score, dropped };
}

/** `min-k%++|k:0.2|z:(logp-mu)/sigma|count:max(1,floor(k*n))|sigma<=0:dropped|score:mean|sign:higher-more-familiar|v:1`. */
export function minKPlusPlusSignature(k: number = MIN_K_DEFAULT): string {
  checkK(k);
  return `min-k%++|k:${k}|z:(logp-mu)/sigma|count:max(1,floor(k*n))|sigma<=0:dropped|score:mean|sign:higher-more-familiar|v:${MIN_K_PLUS_PLUS_VERSION}`;
}
