// The distribution of one probe's scores, per task and over a run: what the run page's charts and
// Compare draw. A small summary (n, min, quartiles, max, mean) rather than the scores themselves, so
// a link can carry it and check what it reproduces (link-scores.ts). Quartiles by numpy's default
// 'linear' method (generation/bootstrap.ts's percentileSorted), as every quantile in the metrics.
//
// Min-K% scores are relative (min-k-prob.ts): a task whose median is lower is not "less seen", it may
// just hold rarer characters. Read a distribution beside another model's on the same items, or one
// item against its task.
import { percentileSorted } from '../generation/bootstrap.ts';
import type { MemorizationItemScores, MemorizationProbe } from './item-scores.ts';

export interface ScoreSummary {
  n: number;
  min: number;
  q1: number;
  median: number;
  q3: number;
  max: number;
  mean: number;
}

export const SUMMARY_FIELDS = ['min', 'q1', 'median', 'q3', 'max', 'mean'] as const;

/** The summary of the finite values among `scores` (nulls and non-finite values are not scores); null when none. */
export function summarizeScores(scores: readonly (number | null)[]): ScoreSummary | null {
  const values = Float64Array.from(scores.filter((s): s is number => s !== null && Number.isFinite(s))).sort();
  const n = values.length;
  if (n === 0) return null;
  let sum = 0;
  for (const v of values) sum += v;
  return {
    n,
    min: values[0],
    q1: percentileSorted(values, 0.25),
    median: percentileSorted(values, 0.5),
    q3: percentileSorted(values, 0.75),
    max: values[n - 1],
    mean: sum / n,
  };
}

export interface ProbeDistribution {
  probe: MemorizationProbe;
  /** Tasks in the order given, then any others in first-seen order; a task with no score has a null summary. */
  tasks: { task: string; summary: ScoreSummary | null }[];
  /** Every item of the run together. */
  overall: ScoreSummary | null;
}

/** One probe's summary per task and over the run. */
export function probeDistribution(items: readonly MemorizationItemScores[], probe: MemorizationProbe, order: readonly string[]): ProbeDistribution {
  const byTask = new Map<string, (number | null)[]>(order.map((task) => [task, []]));
  for (const item of items) {
    if (!byTask.has(item.task)) byTask.set(item.task, []);
    byTask.get(item.task)!.push(item[probe]);
  }
  return {
    probe,
    tasks: [...byTask].map(([task, scores]) => ({ task, summary: summarizeScores(scores) })),
    overall: summarizeScores(items.map((item) => item[probe])),
  };
}

/**
 * The `count` items with the highest score (the most familiar to the model), highest first; ties
 * keep the run's order. Items without a score are left out. Familiar is relative: these are the
 * items this model finds likeliest by this probe, not items it has been shown to have seen.
 */
export function mostFamiliar(items: readonly MemorizationItemScores[], probe: MemorizationProbe, count: number): MemorizationItemScores[] {
  return items
    .map((item, index) => ({ item, index, score: item[probe] }))
    .filter((x): x is { item: MemorizationItemScores; index: number; score: number } => x.score !== null && Number.isFinite(x.score))
    .sort((a, b) => b.score - a.score || a.index - b.index)
    .slice(0, Math.max(0, count))
    .map((x) => x.item);
}
