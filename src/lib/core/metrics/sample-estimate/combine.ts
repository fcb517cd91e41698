// The benchmark's score Σ w_t μ_t from its strata (tasks), each a tracker of stratum.ts.
//
// (a) fixedN: Σ w_t x̄_t ± t·√(Σ w_t² Var_t) — the strata are independent samples, Var_t is each
//     task's finite-population-corrected variance of its mean (stratum.ts: never 0 before the last
//     item), t Student's at Welch–Satterthwaite's degrees of freedom — intersected with what the
//     unseen items allow (Σ w_t × each stratum's feasible range), so it is the exact score when every
//     item is done. Bounded or not, the same; only bounded values have a feasible range.
//
// (b) sequence: for one stratum, its own betting sequence (grid.ts). For several,
//     aggregate-sequence.ts: one empirical-Bernstein supermartingale over every stratum's items, each
//     centred on its own stratum's without-replacement conditional mean, inverted for Σ w_s μ_s by a
//     linear program over the strata's plausible boxes — not a union bound over the strata's own
//     sequences, which would add their widths; the header there says what it is and why it is valid.
//     A stratum with no value yet has its whole range as its box: it adds that range.
import { studentQuantile } from './quantiles.ts';
import { aggregateSequence } from './aggregate-sequence.ts';
import { internalsOf, type Stratum } from './stratum.ts';
import { plannedInterval, type LookPlan } from './planned-looks.ts';
import type { SampleEstimate, ScoreInterval, StratumTracker } from './types.ts';

export interface WeightedStratum {
  weight: number;
  tracker: StratumTracker;
  /** The stratum's values at each look of `CombineOptions.plan` (look-plan.ts). */
  looks?: readonly number[];
}

interface Part {
  weight: number;
  tracker: StratumTracker;
  inner: Stratum;
  looks?: readonly number[];
}

export interface CombineOptions {
  /** 1 − the confidence level; 0.05 by default. */
  alpha?: number;
  /** False: leave (b) out (sequence null), which saves the strata's grid work when only (a) is shown. */
  sequence?: boolean;
  /**
   * The run's planned looks (look-plan.ts): (b) is then the tuned sequence at the looks' share of α
   * (planned-looks.ts) intersected with the all-times one at the rest. Every stratum must carry its
   * `looks`. Absent: the all-times sequence alone, at all of α.
   */
  plan?: LookPlan;
}

export function combineStrata(strata: readonly WeightedStratum[], options: CombineOptions = {}): SampleEstimate {
  const alpha = options.alpha ?? 0.05;
  if (!(alpha > 0 && alpha < 1)) throw new RangeError(`alpha must be in (0, 1), got ${alpha}`);
  const parts: Part[] = [];
  for (const { weight, tracker, looks } of strata) {
    if (!(Number.isFinite(weight) && weight >= 0)) throw new RangeError(`a stratum's weight must be finite and ≥ 0, got ${weight}`);
    const inner = internalsOf(tracker);
    if (!inner) throw new RangeError('combineStrata takes trackers made by stratumTracker');
    if (options.plan && looks?.length !== options.plan.masses.length) throw new RangeError('a plan needs every stratum\'s count at each of its looks');
    if (weight > 0) parts.push({ weight, tracker, inner, looks });
  }
  const n = parts.reduce((total, p) => total + p.tracker.n, 0);
  const population = parts.reduce((total, p) => total + p.tracker.population, 0);
  const exact = parts.length > 0 && parts.every((p) => p.tracker.n === p.tracker.population);
  const means = parts.map((p) => p.tracker.mean());
  const estimate = parts.length > 0 && means.every((m) => m !== null) ? parts.reduce((total, p, i) => total + p.weight * means[i]!, 0) : null;
  const bounded = parts.every((p) => p.inner.bounded);
  if (parts.length === 0) return { estimate: null, fixedN: null, sequence: null, n, population, exact: false };
  return {
    estimate,
    fixedN: bounded ? fixedBounded(parts, alpha) : fixedUnbounded(parts, alpha, estimate),
    // (b) brings every stratum's grid up to date: a view that shows only (a) skips it.
    sequence: bounded && options.sequence !== false ? (options.plan ? plannedSequenceOf(parts, alpha, options.plan) : sequenceOf(parts, alpha)) : null,
    n,
    population,
    exact,
  };
}

/**
 * One stratum at the tracker's own α: its own betting sequence (grid.ts), tighter than the
 * aggregate's empirical-Bernstein one for a single stream (CMMLU's one task: ±10.3 against ±10.9
 * points at 100 of 164 items). Several strata, or another α: aggregate-sequence.ts.
 */
function sequenceOf(parts: readonly Part[], alpha: number): ScoreInterval {
  if (parts.length === 1 && parts[0].inner.sequenceAlpha === alpha) {
    const own = parts[0].tracker.sequence()!;
    return { low: parts[0].weight * own.low, high: parts[0].weight * own.high };
  }
  return aggregateSequence(parts, alpha);
}

/**
 * (b) with a plan: the tuned looks at share·α, intersected with the all-times sequence at the rest
 * (each stratum's tracker carries its grid at that level: stratumTracker's sequenceAlpha). Valid by
 * the union bound. Before the first look only the all-times sequence speaks.
 */
function plannedSequenceOf(parts: readonly Part[], alpha: number, plan: LookPlan): ScoreInterval {
  const allTimes = sequenceOf(parts, alpha * (1 - plan.share));
  const tuned = plannedInterval(parts.map((p) => ({ weight: p.weight, inner: p.inner, looks: p.looks! })), plan, alpha * plan.share);
  if (!tuned) return allTimes;
  const low = Math.max(allTimes.low, tuned.low);
  const high = Math.min(allTimes.high, tuned.high);
  // Disjoint only on the ≤ α event where one of them fails: the point between, as aggregate-sequence.ts does.
  return low <= high ? { low, high } : { low: (low + high) / 2, high: (low + high) / 2 };
}

/** A stratum's contribution w·(a + (b − a)·u) to the score, for u on its [0, 1] scale. */
const contribution = (p: Part, u: number) => p.weight * (p.inner.range[0] + (p.inner.range[1] - p.inner.range[0]) * u);

function fixedBounded(parts: readonly Part[], alpha: number): ScoreInterval {
  let center = 0;
  let low = 0;
  let high = 0;
  let feasibleLow = 0;
  let feasibleHigh = 0;
  const terms: { variance: number; n: number }[] = [];
  for (const p of parts) {
    const feasible = p.inner.feasible();
    feasibleLow += contribution(p, feasible.low);
    feasibleHigh += contribution(p, feasible.high);
    const mean = p.inner.scaledMean();
    const v = p.inner.meanVariance();
    if (mean === null || v === null) {
      // No value yet: the stratum may be anywhere in its range.
      low += contribution(p, 0);
      high += contribution(p, 1);
      continue;
    }
    const scale = p.weight * (p.inner.range[1] - p.inner.range[0]);
    center += contribution(p, mean);
    terms.push({ variance: scale * scale * v, n: p.tracker.n });
  }
  const half = halfWidth(terms, alpha);
  return clamp({ low: center + low - half, high: center + high + half }, feasibleLow, feasibleHigh);
}

/**
 * q·√(Σ v) for independent strata, q Student's t at Welch–Satterthwaite's degrees of freedom
 * (Σ v)² / Σ v²/(n − 1): a few strata of a handful of items each get the wider quantile they need
 * (the simulations found z alone a little short at 100 items of ACLUE and AC-EVAL).
 */
function halfWidth(terms: readonly { variance: number; n: number }[], alpha: number): number {
  const variance = terms.reduce((sum, t) => sum + t.variance, 0);
  if (!(variance > 0)) return 0;
  const spread = terms.reduce((sum, t) => sum + (t.variance * t.variance) / Math.max(1, t.n - 1), 0);
  const df = (variance * variance) / spread;
  return studentQuantile(1 - alpha / 2, Math.max(1, df)) * Math.sqrt(variance);
}

function fixedUnbounded(parts: readonly Part[], alpha: number, estimate: number | null): ScoreInterval | null {
  if (estimate === null) return null;
  const terms: { variance: number; n: number }[] = [];
  for (const p of parts) {
    const v = p.inner.meanVariance();
    if (v === null) return null;
    // A bounded stratum among unbounded ones keeps its variance on its [0, 1] scale: back to its range.
    const scale = p.weight * (p.inner.bounded ? p.inner.range[1] - p.inner.range[0] : 1);
    terms.push({ variance: scale * scale * v, n: p.tracker.n });
  }
  const half = halfWidth(terms, alpha);
  return { low: estimate - half, high: estimate + half };
}

const clamp = (interval: ScoreInterval, low: number, high: number): ScoreInterval => ({
  low: Math.min(Math.max(interval.low, low), high),
  high: Math.max(Math.min(interval.high, high), low),
});
