// PriDe's estimation set: the items whose every cyclic rotation is asked so that the model's prior
// over option positions can be estimated (Zheng et al., ICLR 2024). Drawn once, when the run is
// created, from the run's items by a recorded seed, so the same seed and items give the same set in
// any browser and in Node.
import { mulberry32 } from '../metrics/generation/bootstrap.ts';

/** The default share of a run's items asked under every rotation to estimate the prior (the paper's 5%). */
export const DEFAULT_ESTIMATION_SHARE = 0.05;

/** How many items an estimation set of `share` takes from `itemCount`: round(share × count), at least 1, at most all. */
export function estimationSetSize(itemCount: number, share: number): number {
  if (itemCount <= 0) return 0;
  return Math.min(itemCount, Math.max(1, Math.round(share * itemCount)));
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
