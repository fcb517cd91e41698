// Group and Overall differences of two runs on their common coverage: the items both runs scored,
// task by task, aggregated by the benchmark's own rule (aggregateFromCounts), with the paired
// bootstrap's interval and p. An Overall over one competency is never set against one over four:
// both runs' scores here are over the same tasks, groups and items.
import { aggregateFromCounts, type Grouping, type OverallRule, type TaskCounts } from './mc-aggregate.ts';
import { pairedBootstrap, type PairedBootstrapOptions, type PairedBootstrapResult, type PairedTable } from './paired-bootstrap.ts';

/** Two runs under one task: the 2×2 table on their common items and the items each has beyond them. */
export interface TaskPairing {
  table: PairedTable;
  /** Items both runs scored. */
  common: number;
  /** Scored items only this run has, only the baseline has. */
  thisOnly: number;
  baselineOnly: number;
}

export interface PairedAggregate {
  /** Each run's score on the common items (a fraction), by the benchmark's rule; null when none. */
  baseline: number | null;
  other: number | null;
  /** Tasks (group row, mean-of-tasks Overall) or groups (mean-of-groups Overall) the scores cover. */
  of: number;
  common: number;
  thisOnly: number;
  baselineOnly: number;
  /** `paired`: both runs scored exactly the same items under the row. */
  pairing: 'paired' | 'partly-paired';
  bootstrap: PairedBootstrapResult | null;
}

export interface AggregateRow {
  key: string;
  kind: 'group' | 'overall';
  /** The group's tasks; for Overall, every task of the comparison. */
  tasks: readonly string[];
  /** The group's key (group rows). */
  group?: string;
}

const tableTotal = (t: PairedTable): number => t.both + t.onlyThis + t.onlyBaseline + t.neither;

/**
 * Each task's weight in a row's mean over the covered tasks: 1/T in a group or a mean-of-tasks
 * Overall, 1/(G·T_g) in a mean-of-groups Overall (tasks in no group are left out, as
 * aggregateFromCounts leaves them out).
 */
export function rowWeights(row: AggregateRow, order: readonly string[], covered: ReadonlySet<string>, grouping: Grouping, rule: OverallRule): number[] {
  const weights = order.map(() => 0);
  const index = new Map(order.map((task, i) => [task, i]));
  const spread = (tasks: readonly string[], share: number) => {
    const inIt = tasks.filter((task) => covered.has(task) && index.has(task));
    for (const task of inIt) weights[index.get(task)!] += share / inIt.length;
  };
  if (row.kind === 'group') {
    spread(row.tasks, 1);
  } else if (rule === 'mean-of-tasks') {
    spread(row.tasks, 1);
  } else {
    const groups = grouping.groups.filter((g) => g.tasks.some((task) => covered.has(task)));
    for (const g of groups) spread(g.tasks, 1 / groups.length);
  }
  return weights;
}

/**
 * The group and Overall rows of one run against the baseline on their common coverage. A row whose
 * tasks share no item is left out (the caller treats it as unpaired). `pairs`: per task, in task order.
 */
export function pairedAggregates(
  pairs: ReadonlyMap<string, TaskPairing>,
  rows: readonly AggregateRow[],
  grouping: Grouping,
  rule: OverallRule,
  options: PairedBootstrapOptions = {},
): Map<string, PairedAggregate> {
  const order = [...pairs.keys()].filter((task) => pairs.get(task)!.common > 0);
  const covered = new Set(order);
  const counts = (pick: (t: PairedTable) => number) =>
    new Map<string, TaskCounts>(order.map((task) => {
      const table = pairs.get(task)!.table;
      return [task, { n: tableTotal(table), correct: pick(table), unscored: 0, failed: 0 }];
    }));
  const out = new Map<string, PairedAggregate>();
  if (order.length === 0) return out;
  const base = aggregateFromCounts(counts((t) => t.both + t.onlyBaseline), grouping, rule);
  const other = aggregateFromCounts(counts((t) => t.both + t.onlyThis), grouping, rule);
  const present = rows.filter((row) => row.tasks.some((task) => covered.has(task)));
  const results = pairedBootstrap(
    order.map((task) => pairs.get(task)!.table),
    present.map((row) => rowWeights(row, order, covered, grouping, rule)),
    options,
  );
  present.forEach((row, j) => {
    const inRow = row.tasks.flatMap((task) => (pairs.has(task) ? [pairs.get(task)!] : []));
    const sum = (f: (p: TaskPairing) => number) => inRow.reduce((s, p) => s + f(p), 0);
    const scores =
      row.kind === 'group'
        ? { baseline: base.groups.find((g) => g.key === row.group)?.accuracy ?? null, other: other.groups.find((g) => g.key === row.group)?.accuracy ?? null, of: row.tasks.filter((t) => covered.has(t)).length }
        : { baseline: base.overall.accuracy, other: other.overall.accuracy, of: base.overall.of };
    out.set(row.key, {
      ...scores,
      common: sum((p) => p.common),
      thisOnly: sum((p) => p.thisOnly),
      baselineOnly: sum((p) => p.baselineOnly),
      pairing: inRow.every((p) => p.thisOnly === 0 && p.baselineOnly === 0) ? 'paired' : 'partly-paired',
      bootstrap: results[j],
    });
  });
  return out;
}
