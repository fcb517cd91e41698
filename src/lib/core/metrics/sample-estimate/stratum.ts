// One task (stratum) of a run, sampled without replacement from its N items and fed its values in
// the order the run asked them. Two intervals for the task's mean μ (the score over all N items):
//
// (a) fixedN — for a sample size fixed before the run: x̄ ± t_{n−1}·√(v·(1 − n/N)/n), the
//     finite-population correction (1 − n/N) on the variance of the mean, v the larger of the sample
//     variance s² and an Agresti–Coull-style floor: the variance of the sample augmented by z²/2
//     pseudo-values at each end of the range (for 0/1 values p̃(1 − p̃), p̃ = (k + z²/2)/(n + z²)), so
//     a task at 0% or 100% after a few items is never "exact". Not mc-aggregate.ts' p̃(1 − p̃)/(n + z²):
//     around the plain mean, dividing by n + z² undercovered (86% at 100 items of ACLUE in the
//     simulations). Intersected with what the unseen items allow ([S/N, (S + N − n)/N] on the [0, 1]
//     scale), which makes it the exact score at n = N. Unbounded values (bits per byte): v = s², no
//     floor, no range.
//
// (b) sequence — valid at every n at once, whenever the user stops: grid.ts (the betting confidence
//     sequence for sampling without replacement), brought up to date only when asked for, so a
//     tracker read only for (a) never pays for it; the numbers are the same whenever it is asked.
//
// Values are kept on the [0, 1] scale of the tracker's range (a paired difference in [−1, 1] too).
import { BettingGrid } from './grid.ts';
import { normalQuantile, studentQuantile } from './quantiles.ts';
import type { ScoreInterval, StratumTracker } from './types.ts';

export { PRUNE_DELTA } from './grid.ts';

export interface StratumOptions {
  /** 1 − the confidence level; 0.05 by default. */
  alpha?: number;
  /** The values' range; [0, 1] by default, [−1, 1] for a paired difference. */
  range?: readonly [number, number];
  /** False for unbounded values (bits per byte): only the fixed-n interval, sequence() null. */
  bounded?: boolean;
  /**
   * The level of sequence() (the stratum's own betting grid); `alpha` by default. A run with planned
   * looks gives the grid the all-times share of α (combine.ts), while (a) keeps `alpha`.
   */
  sequenceAlpha?: number;
}

/** A tracker as combine.ts and aggregate-sequence.ts read it: values on the [0, 1] scale. */
export class Stratum implements StratumTracker {
  readonly range: readonly [number, number];
  readonly bounded: boolean;
  readonly alpha: number;
  readonly sequenceAlpha: number;
  private count = 0;
  // (a): on the [0, 1] scale when bounded (sum, sum of squares); Welford's mean and M2 otherwise.
  private sum = 0;
  private sumSq = 0;
  private welfordMean = 0;
  private welfordM2 = 0;
  private readonly z: number;
  /** Grown by doubling up to N: a tracker of a 28,707-item task that sees 100 values stays small. */
  private stored = new Float64Array(0);
  private grid: BettingGrid | null = null;

  constructor(
    readonly population: number,
    options: StratumOptions = {},
  ) {
    this.alpha = options.alpha ?? 0.05;
    this.sequenceAlpha = options.sequenceAlpha ?? this.alpha;
    this.range = options.range ?? [0, 1];
    this.bounded = options.bounded ?? true;
    const [low, high] = this.range;
    if (!Number.isInteger(population) || population < 1) throw new RangeError(`a stratum needs a population of at least one item, got ${population}`);
    if (!(this.alpha > 0 && this.alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${this.alpha}`);
    if (!(this.sequenceAlpha > 0 && this.sequenceAlpha < 1)) throw new RangeError(`sequenceAlpha must be in (0, 1), got ${this.sequenceAlpha}`);
    if (!(Number.isFinite(low) && Number.isFinite(high) && high > low)) throw new RangeError(`range must be finite and increasing, got [${low}, ${high}]`);
    this.z = normalQuantile(1 - this.alpha / 2);
  }

  get n(): number {
    return this.count;
  }

  push(value: number): void {
    const N = this.population;
    if (this.count >= N) throw new RangeError(`a stratum of ${N} items was given a value more`);
    if (!Number.isFinite(value)) throw new RangeError(`a stratum's value must be finite, got ${value}`);
    if (!this.bounded) {
      this.count += 1;
      const delta = value - this.welfordMean;
      this.welfordMean += delta / this.count;
      this.welfordM2 += delta * (value - this.welfordMean);
      return;
    }
    const [low, high] = this.range;
    if (value < low - 1e-9 || value > high + 1e-9) throw new RangeError(`value ${value} is outside the range [${low}, ${high}]`);
    const x = Math.min(1, Math.max(0, (value - low) / (high - low)));
    if (this.count >= this.stored.length) {
      const grown = new Float64Array(Math.min(N, Math.max(64, 2 * this.stored.length)));
      grown.set(this.stored);
      this.stored = grown;
    }
    this.stored[this.count] = x;
    this.sum += x;
    this.sumSq += x * x;
    this.count += 1;
  }

  mean(): number | null {
    if (this.count === 0) return null;
    return this.bounded ? this.toScore(this.sum / this.count) : this.welfordMean;
  }

  fixedN(): ScoreInterval | null {
    const variance = this.meanVariance();
    if (variance === null) return null;
    const n = this.count;
    const half = studentQuantile(1 - this.alpha / 2, Math.max(1, n - 1)) * Math.sqrt(variance);
    if (!this.bounded) return { low: this.welfordMean - half, high: this.welfordMean + half };
    const center = this.sum / n;
    return this.clamped(center - half, center + half);
  }

  sequence(): ScoreInterval | null {
    if (!this.bounded) return null;
    const [low, high] = this.upToDate().sequence();
    return this.clamped(low, high);
  }

  /** Mean on the [0, 1] scale (bounded) or the raw mean (unbounded); null before the first value. */
  scaledMean(): number | null {
    if (this.count === 0) return null;
    return this.bounded ? this.sum / this.count : this.welfordMean;
  }

  /** (a)'s variance of the sample mean, on the same scale; null when unknown (see the header). */
  meanVariance(): number | null {
    const n = this.count;
    const N = this.population;
    if (n === 0) return null;
    const fpc = 1 - n / N;
    if (this.bounded) {
      const z2 = this.z * this.z;
      const nTilde = n + z2;
      const pTilde = (this.sum + z2 / 2) / nTilde;
      const augmented = Math.max(0, (this.sumSq + z2 / 2) / nTilde - pTilde * pTilde);
      const sample = n > 1 ? Math.max(0, this.sumSq - (this.sum * this.sum) / n) / (n - 1) : 0;
      return (Math.max(augmented, sample) / n) * fpc;
    }
    if (n === N) return 0;
    if (n < 2) return null;
    return (this.welfordM2 / (n - 1) / n) * fpc;
  }

  /** The values pushed, in order, on the [0, 1] scale (bounded only; a view, not a copy). */
  values(): Float64Array {
    return this.stored.subarray(0, this.count);
  }

  /** [S/N, (S + N − n)/N] on the [0, 1] scale: where the mean can be, whatever the unseen items are. */
  feasible(): ScoreInterval {
    return { low: this.sum / this.population, high: (this.sum + this.population - this.count) / this.population };
  }

  /** grid.ts' plausible means at level δ, within the feasible range (bounded only). */
  plausible(delta: number): ScoreInterval {
    const [low, high] = this.upToDate().plausible(delta);
    const f = this.feasible();
    return { low: Math.min(Math.max(low, f.low), f.high), high: Math.max(Math.min(high, f.high), f.low) };
  }

  private upToDate(): BettingGrid {
    if (!this.grid) this.grid = new BettingGrid(this.population, this.sequenceAlpha, () => this.stored);
    this.grid.catchUp(this.count);
    return this.grid;
  }

  private toScore(u: number): number {
    return this.range[0] + (this.range[1] - this.range[0]) * u;
  }

  private clamped(lo: number, hi: number): ScoreInterval {
    const f = this.feasible();
    const low = Math.min(Math.max(lo, f.low), f.high);
    const high = Math.max(Math.min(hi, f.high), f.low);
    return { low: this.toScore(low), high: this.toScore(high) };
  }
}

export function stratumTracker(population: number, options: StratumOptions = {}): StratumTracker {
  return new Stratum(population, options);
}

/** The tracker as combine.ts reads it; undefined for a tracker not made by stratumTracker. */
export function internalsOf(tracker: StratumTracker): Stratum | undefined {
  return tracker instanceof Stratum ? tracker : undefined;
}
