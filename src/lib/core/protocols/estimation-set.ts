// PriDe's estimation set: the items whose every cyclic rotation is asked so that the model's prior
// over option positions can be estimated (Zheng et al., ICLR 2024). Drawn once, when the run is
// created, from the run's items by a recorded seed, so the same seed and items give the same set in
// any browser and in Node.
import { mulberry32 } from '../metrics/generation/bootstrap.ts';

/** The default share of a run's items asked under every rotation to estimate the prior (the paper's 5%). */
export const DEFAULT_ESTIMATION_SHARE = 0.05;

/**
 * The fewest complete estimation items (of one option count) PriDe estimates a prior from; below it
 * the run page gives no debiased accuracy and says why. Why 20:
 *  - The debiased accuracy's interval carries the prior's error by a bootstrap that resamples the
 *    estimation items (pride.ts). A percentile bootstrap of a mean of m values covers less than it
 *    says when m is small: for a nominal 95%, 50% at m = 2, 84% at m = 5, 89% at m = 10, 93% at
 *    m = 20, 94% at m = 30 (4,000 normal samples of each size, 1,000 resamples each; numpy).
 *    From 20 the interval is within two points of what it claims.
 *  - Each position's prior is a mean of m per-item priors in [0, 1], whose spread is at most ½
 *    (Popoviciu), so its standard error is at most 0.5/√m: 0.11 at m = 20, against 0.35 at m = 2.
 *    The run page shows the measured standard error beside each position.
 *  - The paper's default, 5% of the test items (Zheng et al., ICLR 2024), reaches 20 from 390 items;
 *    the paper's benchmarks have a thousand items or more, so its estimation sets are larger still.
 * Not applied to the draw: the set a seed draws stays what it was, so stored runs and links still
 * check (run files and share links recompute it).
 */
export const PRIDE_MIN_ESTIMATION_ITEMS = 20;

/** How many items an estimation set of `share` takes from `itemCount`: round(share × count), at least 1, at most all. */
export function estimationSetSize(itemCount: number, share: number): number {
  if (itemCount <= 0) return 0;
  return Math.min(itemCount, Math.max(1, Math.round(share * itemCount)));
}

/** The fewest run items whose estimation set at `share` has PRIDE_MIN_ESTIMATION_ITEMS (what the run page suggests). */
export function itemsForMinimumEstimationSet(share: number): number {
  if (!(share > 0 && share <= 1)) throw new RangeError(`share must be in (0, 1], got ${share}`);
  // round(share × count) ≥ 20 from share × count ≥ 19.5; step past any rounding of the division.
  let count = Math.max(PRIDE_MIN_ESTIMATION_ITEMS, Math.floor((PRIDE_MIN_ESTIMATION_ITEMS - 0.5) / share) - 1);
  while (estimationSetSize(count, share) < PRIDE_MIN_ESTIMATION_ITEMS) count++;
  return count;
}

/**
 * The estimation set: a uniform draw without replacement (a partial Fisher–Yates shuffle driven by
 * mulberry32(seed)) of estimationSetSize(itemIds.length, share) ids, returned in the run's item
 * order so a reader sees them as they are run.
 */
export function drawEstimationSet(itemIds: readonly string[], share: number, seed: number): string[] {
  const size = estimationSetSize(itemIds.length, share);
  const random = mulberry32(seed);
  const order = itemIds.map((_, i) => i);
  for (let i = 0; i < size; i++) {
    const j = i + Math.floor(random() * (order.length - i));
    [order[i], order[j]] = [order[j], order[i]];
  }
  return order
    .slice(0, size)
    .sort((a, b) => a - b)
    .map((i) => itemIds[i]);
}
