// Simulated runs for the tuned looks (sample-estimate/planned-looks.ts, look-plan.ts), shared by the
// unit tests and the bench (scripts/bench/sample-looks.ts): populations with real task sizes, asked
// in a run's order (sample-estimate-sim.ts runSchedule: blocks of 4, 8, …, 64), the looks placed by
// look-plan.ts for the benchmark's weights. The tuned interval changes only when a look is reached,
// so checking it at every look is checking it after every item.
import { combineStrata, stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import { internalsOf } from '../../../src/lib/core/metrics/sample-estimate/stratum.ts';
import { LOOK_SHARE, lookPlan, type PlanKind, type RunLookPlan } from '../../../src/lib/core/metrics/sample-estimate/look-plan.ts';
import { plannedInterval } from '../../../src/lib/core/metrics/sample-estimate/planned-looks.ts';
import { planForValues } from '../../../src/lib/core/metrics/run-look-plan.ts';
import type { ScoreInterval, StratumTracker } from '../../../src/lib/core/metrics/sample-estimate/types.ts';
import { aggregationFor } from '../../../src/lib/core/metrics/mc-aggregate.ts';
import { scoreWeights } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import type { DatasetId } from '../../../src/lib/core/benchmarks/types.ts';
import { ACLUE_SIZES, AC_EVAL_SIZES, ANCIENTBENCH_SIZES, CMMLU_ANCIENT_SIZES, mulberry32, population, runSchedule, shuffle } from './sample-estimate-sim.ts';

export const BLOCKS = { block: 4, growth: 2, maxBlock: 64 };

/**
 * The benchmarks simulated: real task sizes; AC-EVAL's 65 keyed dev items, and its test split's sizes
 * as if keyed (the public repository has no val split and no test keys).
 */
export const LOOK_BENCHMARKS: { name: string; id: DatasetId; sizes: Record<string, number> }[] = [
  { name: 'ACLUE (15 tasks, 4,966)', id: 'aclue', sizes: ACLUE_SIZES },
  { name: 'CMMLU 古汉语 (164)', id: 'cmmlu-ancient', sizes: CMMLU_ANCIENT_SIZES },
  { name: 'AC-EVAL dev (13 × 5)', id: 'ac-eval', sizes: Object.fromEntries(Object.keys(AC_EVAL_SIZES).map((task) => [task, 5])) },
  { name: 'AC-EVAL test sizes (3,180)', id: 'ac-eval', sizes: AC_EVAL_SIZES },
  { name: 'AncientBench (28,707)', id: 'ancientbench', sizes: ANCIENTBENCH_SIZES },
];

/** A benchmark's overall weights over these sizes (scoreWeights by its own rule). */
export const weightsOf = (id: DatasetId, sizes: Record<string, number>) => scoreWeights(aggregationFor(id), Object.keys(sizes), sizes).overall;

/** A way the construction can be broken on purpose, to show a coverage check sees it. */
export type Breakage = 'none' | 'order-peeks' | 'census-assumed' | 'alpha-doubled';

export interface LookSimOptions {
  sizes: Record<string, number>;
  weights: ReadonlyMap<string, number>;
  kind: PlanKind;
  paths: number;
  seed: number;
  /** Accuracy: per-task means drawn from [low, high] for each path. Paired: the difference and the share of items the models disagree on. */
  values: { kind: 'accuracy'; low: number; high: number } | { kind: 'paired'; difference: number; discordance: number };
  /** Also the all-times sequence (at its 0.01) at the end of every task's turn: slower; the bench's. */
  full?: boolean;
  /** Also (a) after every item: the fixed plan's stop (precision) or its lower end (paired, for its power). */
  fixedN?: boolean;
  breakage?: Breakage;
  alpha?: number;
}

export interface LookSimResult {
  paths: number;
  plan: RunLookPlan;
  /** Paths on which the tuned interval held the truth at every look. */
  covered: number;
  /** Paths whose interval at the stop (first moment within ±X, or the sign settled) held the truth. */
  coveredAtStop: number;
  /** Items at the stop, per path (Infinity: never). */
  stops: number[];
  /** Paired: paths whose sign settled on the wrong side. */
  wrongSign: number;
  /** fixedN: items until (a) is within ±X, (b) ÷ (a) half-widths at the stop, and (paired) (a)'s lower end after each item. */
  fixedStops: number[];
  ratios: number[];
  fixedLows: Float64Array[];
}

const holds = (interval: ScoreInterval | null, truth: number) => interval !== null && interval.low <= truth + 1e-9 && interval.high >= truth - 1e-9;

export function simulateLooks(options: LookSimOptions): LookSimResult {
  const alpha = options.alpha ?? 0.05;
  const random = mulberry32(options.seed);
  const tasks = Object.keys(options.sizes).filter((task) => (options.weights.get(task) ?? 0) > 0);
  const sizes = tasks.map((task) => options.sizes[task]);
  const weights = tasks.map((task) => options.weights.get(task)!);
  const paired = options.values.kind === 'paired';
  const span = paired ? 2 : 1;
  const plan = lookPlan({ tasks, asked: options.sizes, populations: options.sizes, weights: options.weights, rule: BLOCKS, span, alpha }, options.kind);
  const bets = planForValues(plan, paired ? 'paired' : 'accuracy');
  const schedule = runSchedule(sizes);
  const lookAt = new Set(plan.looks.map((l) => l.at));
  const last = Math.max(...plan.looks.map((l) => l.at));
  const target = options.kind.kind === 'precision' ? options.kind.halfWidth : null;
  const breakage = options.breakage ?? 'none';
  const tunedAlpha = alpha * LOOK_SHARE * (breakage === 'alpha-doubled' ? 2 : 1);
  const result: LookSimResult = { paths: 0, plan, covered: 0, coveredAtStop: 0, stops: [], wrongSign: 0, fixedStops: [], ratios: [], fixedLows: [] };
  for (let p = 0; p < options.paths; p++) {
    const values = sizes.map((size) => {
      if (options.values.kind === 'paired') {
        const { difference, discordance } = options.values;
        const v = new Float64Array(size);
        const up = Math.round((size * (discordance + difference)) / 2);
        const down = Math.round((size * (discordance - difference)) / 2);
        v.fill(1, 0, up);
        v.fill(-1, up, up + down);
        return shuffle(v, random);
      }
      const { low, high } = options.values;
      return population(size, low + (high - low) * random(), 'binary', random);
    });
    const truth = values.reduce((sum, v, t) => sum + (weights[t] * v.reduce((a, b) => a + b, 0)) / v.length, 0);
    // 'census-assumed': the construction told each task's population is what the last look asks (the FPC applied where it does not hold).
    const populations = sizes.map((size, t) => (breakage === 'census-assumed' ? Math.max(1, plan.looks[plan.looks.length - 1].counts[tasks[t]]) : size));
    const range: [number, number] = paired ? [-1, 1] : [0, 1];
    const trackers: StratumTracker[] = populations.map((N) => stratumTracker(N, { range, sequenceAlpha: alpha * (1 - LOOK_SHARE) }));
    const strata = trackers.map((tracker, t) => ({ weight: weights[t], tracker, inner: internalsOf(tracker)!, looks: plan.looks.map((l) => l.counts[tasks[t]]) }));
    // 'order-peeks': each task asks its right answers first (an order that looks at the values).
    if (breakage === 'order-peeks') for (const v of values) v.sort((a, b) => b - a);
    else for (const v of values) shuffle(v, random);
    const asked = new Array<number>(tasks.length).fill(0);
    let covered = true;
    let stop = Infinity;
    let fixedStop = Infinity;
    let stopHeld = true;
    const horizon = options.full || options.fixedN ? schedule.length : last;
    const lows = new Float64Array(options.fixedN && paired ? horizon : 0);
    for (let step = 0; step < horizon; step++) {
      const t = schedule[step];
      const x = values[t][asked[t]++];
      if (trackers[t].n < trackers[t].population) trackers[t].push(x);
      const n = step + 1;
      if (options.fixedN && (paired || fixedStop === Infinity)) {
        const f = combineStrata(strata, { alpha, sequence: false }).fixedN;
        if (paired) lows[step] = f ? f.low : -1;
        else if (f && (f.high - f.low) / 2 <= target!) fixedStop = n;
      }
      if (options.fixedN && !options.full && !paired && fixedStop !== Infinity && stop !== Infinity && n >= last) break;
      const turnEnds = options.full && (n === schedule.length || schedule[step + 1] !== t);
      if (!lookAt.has(n) && !(turnEnds && stop === Infinity)) continue;
      let interval: ScoreInterval | null;
      if (lookAt.has(n)) {
        const tuned = plannedInterval(strata, bets, tunedAlpha);
        // Null: nothing said at this look (every task done: the feasible range is the exact score).
        if (tuned && !holds(tuned, truth)) covered = false;
        interval = tuned;
        if (options.full) interval = intersect(tuned, combineStrata(strata, { alpha, plan: bets }).sequence);
      } else interval = combineStrata(strata, { alpha, plan: bets }).sequence;
      if (stop !== Infinity || !interval) continue;
      const settled = target !== null ? (interval.high - interval.low) / 2 <= target : interval.low > 0 || interval.high < 0;
      if (settled) {
        stop = n;
        stopHeld = holds(interval, truth);
        if (paired && (interval.low > 0) !== truth > 0) result.wrongSign++;
        if (options.fixedN && target !== null) {
          const f = combineStrata(strata, { alpha, sequence: false }).fixedN!;
          result.ratios.push((interval.high - interval.low) / (f.high - f.low));
        }
      }
      if (!options.full && !options.fixedN && n >= last) break;
    }
    result.paths++;
    if (covered) result.covered++;
    if (stopHeld) result.coveredAtStop++;
    result.stops.push(stop);
    result.fixedStops.push(fixedStop);
    if (lows.length > 0) result.fixedLows.push(lows);
  }
  return result;
}

function intersect(a: ScoreInterval | null, b: ScoreInterval | null): ScoreInterval | null {
  if (!a) return b;
  if (!b) return a;
  return { low: Math.max(a.low, b.low), high: Math.min(a.high, b.high) };
}

/** The q-quantile of numbers (nearest rank). */
export function quantile(values: readonly number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(q * sorted.length) - 1))];
}

/** Wilson's 95% interval for k of n: the error bars of a simulated coverage. */
export function wilson(k: number, n: number): { low: number; high: number } {
  const z = 1.959964;
  const p = k / n;
  const center = (p + (z * z) / (2 * n)) / (1 + (z * z) / n);
  const half = (z * Math.sqrt((p * (1 - p)) / n + (z * z) / (4 * n * n))) / (1 + (z * z) / n);
  return { low: center - half, high: center + half };
}

/** Paired: the fewest items after which (a), a fixed-n test, excludes 0 from below on at least `power` of the paths. */
export function fixedItemsForPower(lows: readonly Float64Array[], power: number): number {
  const length = lows[0]?.length ?? 0;
  for (let step = 0; step < length; step++) if (lows.filter((l) => l[step] > 0).length >= power * lows.length) return step + 1;
  return Infinity;
}
