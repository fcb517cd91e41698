// Two runs of the same formulation compared on a continuous score (p(gold), or bits per byte when
// both are cloze), on the items both scored: per item d = this run's value − the baseline's.
//  - Per task: the mean of d, and the Wilcoxon signed-rank p (two-sided; zeros dropped, average
//    ranks for ties, normal approximation with the tie correction of the variance, no continuity
//    correction: scipy.stats.wilcoxon(d, zero_method='wilcox', correction=False, method='approx')),
//    Holm-adjusted over the tasks tested, as McNemar's p on accuracy is.
//  - Groups and Overall (the benchmark's rule over task means of d): the task-stratified bootstrap
//    (stratified-bootstrap.ts) gives the interval and p.
//  - The smallest accuracy difference the items could detect (two-sided α = 0.05, power 0.8) for a
//    paired design: (z₀.₉₇₅ + z₀.₈) · √(ψ / n), ψ the share of items on which the two runs' 0/1
//    outcomes differ (Connor 1987's approximation for McNemar's test, its Δ² term left out). A page
//    sentence says which test separates the runs and sets this beside the accuracy difference.
import type { DatasetId } from '../benchmarks/types.ts';
import { chiSquareSurvival } from './goodness-of-fit.ts';
import { holmAdjust } from './holm.ts';
import { aggregationFor } from './mc-aggregate.ts';
import { rowWeights, type AggregateRow } from './compare-paired.ts';
import { stratifiedMeanBootstrap, type StratifiedEstimate } from './stratified-bootstrap.ts';
import type { BootstrapOptions } from './generation/bootstrap.ts';

export interface WilcoxonResult {
  /** Non-zero differences ranked. */
  n: number;
  /** Sum of the ranks of the positive differences. */
  rankSumPositive: number;
  z: number;
  pValue: number;
}

/** The signed-rank test of d (see the header); null when every difference is 0. */
export function wilcoxonSignedRank(differences: readonly number[]): WilcoxonResult | null {
  const d = differences.filter((x) => x !== 0);
  const n = d.length;
  if (n === 0) return null;
  const order = d.map((x, i) => ({ a: Math.abs(x), i })).sort((x, y) => x.a - y.a);
  const ranks = new Float64Array(n);
  let tieTerm = 0;
  for (let start = 0; start < n; ) {
    let end = start;
    while (end + 1 < n && order[end + 1].a === order[start].a) end++;
    const rank = (start + end) / 2 + 1;
    for (let k = start; k <= end; k++) ranks[order[k].i] = rank;
    const t = end - start + 1;
    tieTerm += t * t * t - t;
    start = end + 1;
  }
  let rankSumPositive = 0;
  for (let i = 0; i < n; i++) if (d[i] > 0) rankSumPositive += ranks[i];
  const mean = (n * (n + 1)) / 4;
  const variance = (n * (n + 1) * (2 * n + 1)) / 24 - tieTerm / 48;
  const z = variance > 0 ? (rankSumPositive - mean) / Math.sqrt(variance) : 0;
  return { n, rankSumPositive, z, pValue: variance > 0 ? chiSquareSurvival(z * z, 1) : 1 };
}

/** One item's value in both runs. */
export interface PairedValue {
  itemId: string;
  task: string;
  baseline: number;
  other: number;
}

export interface ContinuousDifferenceTask {
  task: string;
  n: number;
  meanDifference: number | null;
  wilcoxon: WilcoxonResult | null;
  /** Holm-adjusted over the tasks with a test. */
  pHolm: number | null;
  estimate: StratifiedEstimate | null;
}

export interface ContinuousDifference {
  tasks: ContinuousDifferenceTask[];
  groups: { key: string; of: number; estimate: StratifiedEstimate | null }[];
  overall: { of: number; estimate: StratifiedEstimate | null };
}

/** Per-task, group and Overall paired differences (other − baseline) on common items, tasks in `order`. */
export function compareContinuous(datasetId: DatasetId, pairs: readonly PairedValue[], order: readonly string[], options: BootstrapOptions = {}): ContinuousDifference {
  const { grouping, overallRule } = aggregationFor(datasetId);
  const byTask = new Map<string, number[]>(order.map((task) => [task, []]));
  for (const p of pairs) {
    if (!Number.isFinite(p.baseline) || !Number.isFinite(p.other)) continue;
    if (!byTask.has(p.task)) byTask.set(p.task, []);
    byTask.get(p.task)!.push(p.other - p.baseline);
  }
  const tasks = [...byTask.keys()];
  const strata = tasks.map((task) => Float64Array.from(byTask.get(task)!));
  const covered = new Set(tasks.filter((_, t) => strata[t].length > 0));
  const groupRows: AggregateRow[] = grouping.groups.map((g) => ({ key: `group:${g.key}`, kind: 'group', tasks: g.tasks, group: g.key }));
  const targets = [
    ...tasks.map((_, t) => tasks.map((__, k) => (k === t && strata[t].length > 0 ? 1 : 0))),
    ...groupRows.map((row) => rowWeights(row, tasks, covered, grouping, overallRule)),
    rowWeights({ key: 'overall', kind: 'overall', tasks }, tasks, covered, grouping, overallRule),
  ];
  const estimates = stratifiedMeanBootstrap(strata, targets, options);
  const tests = strata.map((column) => wilcoxonSignedRank(Array.from(column)));
  const holm = holmAdjust(tests.map((w) => w?.pValue ?? null));
  return {
    tasks: tasks.map((task, t) => ({
      task,
      n: strata[t].length,
      meanDifference: strata[t].length === 0 ? null : strata[t].reduce((a, b) => a + b, 0) / strata[t].length,
      wilcoxon: tests[t],
      pHolm: holm[t],
      estimate: estimates[t],
    })),
    groups: grouping.groups
      .map((g, j) => ({ key: g.key, of: g.tasks.filter((task) => covered.has(task)).length, estimate: estimates[tasks.length + j] }))
      .filter((g) => g.of > 0),
    overall: {
      of: overallRule === 'mean-of-groups' ? grouping.groups.filter((g) => g.tasks.some((task) => covered.has(task))).length : covered.size,
      estimate: estimates[estimates.length - 1],
    },
  };
}

const Z_975 = 1.959963984540054;
const Z_80 = 0.8416212335729143;

/**
 * The smallest accuracy difference (a fraction) a paired test on `n` items detects with power 0.8
 * at two-sided α = 0.05, given the share `discordant` of items the runs' outcomes differ on (see
 * the header); null without items. With no discordant item, one item in n stands in for ψ (nothing
 * smaller can differ).
 */
export function minimumDetectableAccuracyDifference(n: number, discordant: number): number | null {
  if (n <= 0) return null;
  const psi = Math.max(discordant, 1 / n);
  return Math.min(1, (Z_975 + Z_80) * Math.sqrt(psi / n));
}

/** Which of the two tests separates the runs at 0.05: what the page's sentence says. */
export type Separation = 'both' | 'continuous-only' | 'accuracy-only' | 'neither';

export function separation(accuracyP: number | null, continuousP: number | null): Separation {
  const a = accuracyP !== null && accuracyP < 0.05;
  const c = continuousP !== null && continuousP < 0.05;
  return a && c ? 'both' : c ? 'continuous-only' : a ? 'accuracy-only' : 'neither';
}
