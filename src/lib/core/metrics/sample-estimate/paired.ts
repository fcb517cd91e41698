// A paired difference (Compare): two models on the same items in the same random order. Each item
// gives a − b, a value in [lo − hi, hi − lo] ([−1, 1] for accuracies or p(gold)); the task's mean
// difference is the difference of the two models' task scores, so the stratum tracker's intervals
// (and combineStrata's, with the benchmark's weights) are intervals for "B minus A" on the whole
// benchmark. Push a pair only when both models have scored the item.
import { stratumTracker, type StratumOptions } from './stratum.ts';
import type { StratumTracker } from './types.ts';

export interface PairedTracker extends StratumTracker {
  /** Pushes a − b. */
  pushPair(a: number, b: number): void;
}

export function pairedTracker(population: number, options: { alpha?: number; range?: readonly [number, number] } = {}): PairedTracker {
  const [lo, hi] = options.range ?? [0, 1];
  const difference: StratumOptions = { alpha: options.alpha, range: [lo - hi, hi - lo] };
  const tracker = stratumTracker(population, difference);
  return Object.assign(tracker, { pushPair: (a: number, b: number) => tracker.push(a - b) });
}
