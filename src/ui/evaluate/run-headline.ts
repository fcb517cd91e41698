// What the run page leads with (issue 44): the benchmark's score, the one interval that is valid for
// how the run was stopped, and the fixed-n intervals (a) the rest of the page shows beside tasks,
// groups and the charts. Every number comes from the whole benchmark's estimate
// (core/metrics/benchmark-estimate.ts); this file only chooses among them, and the words are
// headline-text.ts's.
//
// Which interval: a run whose size was fixed before it started and that asked all of it has (a);
// a run whose stopping depended on what it saw (its stop rule, or a person who paused it early, or one
// still going that may be stopped at any time) has (b), the confidence sequence, which holds at any
// stopping time; a run that did every item has its exact score. A run asked in file order has no
// random sample behind it, and so no interval at all.
import type { BenchmarkEstimate, EstimateRow, EstimateTarget } from '../../lib/core/metrics/benchmark-estimate.ts';
import type { ScoreInterval } from '../../lib/core/metrics/sample-estimate/types.ts';

/** Which interval the headline shows. */
export type HeadlineInterval = 'exact' | 'fixed' | 'sequence' | 'none';

/**
 * Why that one: 'every-item' (exact), 'finished' (asked every planned item, no stop rule: (a)),
 * 'stop-rule' / 'stopped-early' / 'running' ((b)), 'not-sampled' / 'unavailable' / 'waiting' (none).
 */
export type HeadlineWhy = 'every-item' | 'finished' | 'stop-rule' | 'stopped-early' | 'running' | 'not-sampled' | 'unavailable' | 'waiting';

export interface Headline {
  /** The benchmark's accuracy by its own rule; null while some task has no value (or nothing is scored). */
  score: number | null;
  interval: ScoreInterval | null;
  kind: HeadlineInterval;
  why: HeadlineWhy;
  target: EstimateTarget | null;
  /** Items the estimate is of (the benchmark's items in the run's tasks, or the items chosen), and those scored. */
  population: number;
  scored: number;
}

export interface HeadlineInput {
  estimate: BenchmarkEstimate | null;
  /** The run's status, and whether it is running in this tab now. */
  status: string;
  live: boolean;
  /** Whether the run had a stop rule (precision, or a paired sign-settled one). */
  stopRule: boolean;
  /** Results so far, and the items the run planned to ask. */
  asked: number;
  planned: number;
  /** The run asked every item of its tasks (no per-task limit). */
  everyItem: boolean;
  /** The page's own overall accuracy (mc-aggregate), for a run the estimate gives no number of. */
  aggregateScore: number | null;
}

/** The overall accuracy row of an estimate, if it has one. */
export function overallRow(estimate: BenchmarkEstimate | null): EstimateRow | null {
  return estimate?.measures.find((m) => m.measure === 'accuracy')?.rows.find((r) => r.kind === 'overall') ?? null;
}

export function headlineOf(input: HeadlineInput): Headline {
  const { estimate } = input;
  const base = { target: estimate?.target ?? null, population: 0, scored: estimate?.scored ?? 0 };
  const none = (why: HeadlineWhy, score: number | null = input.aggregateScore): Headline => ({ ...base, score, interval: null, kind: 'none', why });
  if (!estimate) return none('waiting');
  if (estimate.target === 'asked-in-file-order') {
    // Every item of every task, asked in file order and done: no sample, the benchmark's own score.
    const all = input.everyItem && input.status === 'completed' && input.asked >= input.planned && input.aggregateScore !== null;
    return all ? { ...base, score: input.aggregateScore, interval: { low: input.aggregateScore!, high: input.aggregateScore! }, kind: 'exact', why: 'every-item' } : none('not-sampled');
  }
  if (estimate.unavailable) return none('unavailable');
  const row = overallRow(estimate);
  if (!row) return none('waiting');
  const e = row.estimate;
  const sized = { ...base, population: e.population, scored: e.n };
  if (e.estimate === null) return { ...sized, score: null, interval: null, kind: 'none', why: 'waiting' };
  if (e.exact) return { ...sized, score: e.estimate, interval: { low: e.estimate, high: e.estimate }, kind: 'exact', why: 'every-item' };
  const sequence = (why: HeadlineWhy): Headline => ({ ...sized, score: e.estimate, interval: e.sequence, kind: 'sequence', why });
  if (input.live) return sequence('running');
  if (input.stopRule) return sequence('stop-rule');
  if (input.status === 'completed' && input.asked >= input.planned) return { ...sized, score: e.estimate, interval: e.fixedN, kind: 'fixed', why: 'finished' };
  return sequence('stopped-early');
}

/**
 * The fixed-n intervals (a) of accuracy by row key (`overall`, `pooled`, `group:<key>`,
 * `task:<key>`), for the task table, the charts and Compare. `none` says why there are none:
 * 'not-sampled' (asked in file order: no sample, so no (a)), 'unavailable' (the record cannot be
 * estimated), 'pending' (not computed yet). A row whose score has no value yet has no interval; a row
 * whose items are all done has its exact score as a point.
 */
export interface FixedIntervals {
  none: null | 'not-sampled' | 'unavailable' | 'pending';
  byRow: ReadonlyMap<string, ScoreInterval>;
}

export function fixedIntervalsOf(estimate: BenchmarkEstimate | null): FixedIntervals {
  if (!estimate) return { none: 'pending', byRow: new Map() };
  if (estimate.target === 'asked-in-file-order') return { none: 'not-sampled', byRow: new Map() };
  if (estimate.unavailable) return { none: 'unavailable', byRow: new Map() };
  const rows = estimate.measures.find((m) => m.measure === 'accuracy')?.rows ?? [];
  const byRow = new Map<string, ScoreInterval>();
  for (const row of rows) {
    const e = row.estimate;
    if (e.estimate === null) continue;
    const interval = e.exact ? { low: e.estimate, high: e.estimate } : e.fixedN;
    if (interval) byRow.set(row.key, interval);
  }
  return { none: null, byRow };
}
