// The shapes shared by the estimate of a whole benchmark from a sample of its items (issue 36):
// core/metrics/sample-estimate/ computes them; the run page, the Evaluate page's precision stop and
// Compare read them. Every value is a score in [0, 1] (accuracy 0/1, p(gold)), or an unbounded one
// (bits per byte) that gets only the fixed-n interval.

export interface ScoreInterval {
  low: number;
  high: number;
}

/**
 * One task (stratum) of a run, sampled without replacement from `population` items; fed its scored
 * values in the order the run asked them.
 */
export interface StratumTracker {
  push(value: number): void;
  readonly n: number;
  readonly population: number;
  /** Mean of the values so far; null before the first. */
  mean(): number | null;
  /** (a) Finite-population-corrected interval for the task's mean at a sample size fixed in advance. */
  fixedN(): ScoreInterval | null;
  /** (b) Confidence sequence for the task's mean, valid at any stopping time; null for unbounded values. */
  sequence(): ScoreInterval | null;
}

/** A benchmark's score estimated from its strata: Σ weight_t × mean_t by the benchmark's rule. */
export interface SampleEstimate {
  /** The estimated score; null while some weighted stratum has no value yet. */
  estimate: number | null;
  /** (a) For a sample size fixed before the run. */
  fixedN: ScoreInterval | null;
  /** (b) Valid whenever the user stops; null for unbounded values. */
  sequence: ScoreInterval | null;
  /** Values scored, and the population they estimate. */
  n: number;
  population: number;
  /** Every item of every weighted stratum done: the estimate is the exact score and both intervals are that point. */
  exact: boolean;
}
