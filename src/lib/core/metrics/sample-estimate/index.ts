// The whole benchmark's score estimated from a stratified random sample of its items (issue 36).
//  - stratumTracker(N, { alpha, range, bounded }): one task, fed its values in the order asked;
//    mean(), (a) fixedN() for a sample size fixed in advance (stratum.ts), (b) sequence() valid
//    whenever the user stops (grid.ts). O(1) a value; (b)'s grid only when (b) is read.
//  - combineStrata([{ weight, tracker }], { alpha, sequence }): the score Σ w·mean by the benchmark's
//    weights, with (a) and (b) for it (combine.ts, aggregate-sequence.ts); exact when every item is done.
//  - scoreWeights(aggregation, tasks, populations): the weights — the benchmark's own rule, pooled, per group.
//  - pairedTracker(N): B − A on the same items (Compare): pushPair(a, b), values in [−1, 1].
export { stratumTracker, type StratumOptions } from './stratum.ts';
export { combineStrata, type CombineOptions, type WeightedStratum } from './combine.ts';
export { scoreWeights, type ScoreWeights } from './weights.ts';
export { pairedTracker, type PairedTracker } from './paired.ts';
export type { SampleEstimate, ScoreInterval, StratumTracker } from './types.ts';
