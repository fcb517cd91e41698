// The multiple-choice comparison's rows: task, group, Overall (the benchmark's rule), pooled, then
// the robustness rows. The rules are stated in compare.ts.
import { getDataset } from '../benchmarks/catalog.ts';
import { aggregateForDataset, aggregationFor, overallSignature, type McAggregate } from './mc-aggregate.ts';
import { pairedAggregates, type AggregateRow, type TaskPairing } from './compare-paired.ts';
import { accuracyDifference, aggregateDifference, holmAcrossTasks } from './compare-differences.ts';
import { EMPTY_CELL, mean, orderTasks, pairCounts, pct, pctInterval, scoredByTask, sumCounts, taskName, taskPairing, tasksOf, type PairCounts, type RowSpec } from './compare-pairing.ts';
import { robustnessRows } from './compare-robustness.ts';
import type { ComparableRun, CompareCell, CompareDifference, CompareRow } from './compare-types.ts';

function overallMetric(rule: 'mean-of-groups' | 'mean-of-tasks', kind: string): string {
  if (rule === 'mean-of-tasks') return 'mean of tasks';
  const plural: Record<string, string> = { competency: 'competencies', category: 'categories', supercategory: 'supercategories', domain: 'domains' };
  return `mean of ${plural[kind] ?? 'groups'}`;
}

export function compareMultipleChoice(runs: readonly ComparableRun[]): { rows: CompareRow[]; overall: string } {
  const datasetId = runs[0].datasetId;
  const rule = aggregationFor(datasetId);
  const aggregates: (McAggregate | null)[] = runs.map((run) => (run.mcItems ? aggregateForDataset(datasetId, run.mcItems) : null));
  const tasks = orderTasks(datasetId, new Set(runs.flatMap(tasksOf)));
  const present = new Set(tasks);
  const dataset = getDataset(datasetId);
  const groups = rule.grouping.groups.filter((g) => g.tasks.some((t) => present.has(t)));
  const specs: RowSpec[] = [
    ...tasks.map((key): RowSpec => ({ key, kind: 'task', name: taskName(datasetId, key), metric: 'accuracy', tasks: [key] })),
    ...groups.map((g): RowSpec => {
      const info = dataset.groups.find((x) => x.key === g.key);
      return { key: `group:${g.key}`, kind: 'group', name: info ? { zh: info.zh, en: info.en } : null, metric: 'mean of tasks', tasks: g.tasks, group: g.key };
    }),
    { key: 'overall', kind: 'overall', name: null, metric: overallMetric(rule.overallRule, rule.grouping.kind), tasks },
    { key: 'pooled', kind: 'pooled', name: null, metric: 'accuracy (micro)', tasks },
  ];
  const grouped = new Set(rule.grouping.groups.flatMap((g) => g.tasks));
  const mcTaskCount = dataset.tasks.filter((t) => t.kind === 'multiple-choice').length;
  /** The tasks a row's mean is over, for a run whose task scores are `scoreOf`. */
  const coveredTasks = (spec: RowSpec, scoreOf: (task: string) => number | null): string[] =>
    spec.tasks.filter((task) => scoreOf(task) !== null && (spec.kind !== 'overall' || rule.overallRule === 'mean-of-tasks' || grouped.has(task)));
  const coverageOf = (spec: RowSpec, scoreOf: (task: string) => number | null): { of: number; total: number } => {
    const covered = coveredTasks(spec, scoreOf);
    if (spec.kind === 'group') return { of: covered.length, total: spec.tasks.length };
    if (rule.overallRule === 'mean-of-tasks') return { of: covered.length, total: Math.max(covered.length, mcTaskCount) };
    const of = rule.grouping.groups.filter((g) => g.tasks.some((task) => covered.includes(task))).length;
    return { of, total: rule.grouping.groups.length };
  };

  const cellsFor = (run: ComparableRun, agg: McAggregate | null): Map<string, CompareCell> => {
    const cells = new Map<string, CompareCell>();
    if (agg) {
      const byTask = new Map(agg.tasks.map((t) => [t.task, t]));
      const scoreOf = (task: string) => byTask.get(task)?.accuracy ?? null;
      // One fixed-n interval everywhere (issue 44): the run's own estimate's (a), or none, with why.
      const fixed = (key: string, score: number | null): Pick<CompareCell, 'interval' | 'noInterval'> => {
        if (score === null) return { interval: null };
        if (run.fixedN?.none) return { interval: null, noInterval: run.fixedN.none };
        return { interval: pctInterval(run.fixedN?.byRow[key] ?? null) };
      };
      for (const key of tasks) {
        const t = byTask.get(key);
        cells.set(key, t ? { score: pct(t.accuracy), ...fixed(`task:${key}`, t.accuracy), n: t.n, correct: t.correct } : EMPTY_CELL);
      }
      for (const spec of specs.filter((x) => x.kind === 'group')) {
        const ga = agg.groups.find((x) => x.key === spec.group);
        const n = spec.tasks.reduce((sum, task) => sum + (byTask.get(task)?.n ?? 0), 0);
        const correct = spec.tasks.reduce((sum, task) => sum + (byTask.get(task)?.correct ?? 0), 0);
        cells.set(spec.key, { score: pct(ga?.accuracy ?? null), ...fixed(spec.key, ga?.accuracy ?? null), n, correct, coverage: coverageOf(spec, scoreOf) });
      }
      const overall = specs.find((x) => x.kind === 'overall')!;
      cells.set('overall', { score: pct(agg.overall.accuracy), ...fixed('overall', agg.overall.accuracy), n: agg.pooled.n, correct: agg.pooled.correct, coverage: coverageOf(overall, scoreOf) });
      // The items scored alike: a description of the sample; (a) is of the benchmark's item average, another number.
      cells.set('pooled', { score: pct(agg.pooled.accuracy), interval: null, n: agg.pooled.n, correct: agg.pooled.correct });
      return cells;
    }
    // Summary only: the link's own numbers; a group is the mean of its tasks' numbers, as aggregateMultipleChoice does.
    const summary = run.summaryOnly ?? {};
    const taskScore = (key: string): number | null => summary[`task:${key}`] ?? null;
    const only = (score: number | null): CompareCell => ({ score, interval: null, n: null, correct: null });
    for (const key of tasks) cells.set(key, only(taskScore(key)));
    for (const spec of specs.filter((x) => x.kind === 'group')) {
      const scores = spec.tasks.flatMap((task) => {
        const s = taskScore(task);
        return s === null ? [] : [s];
      });
      cells.set(spec.key, { ...only(mean(scores)), coverage: coverageOf(spec, taskScore) });
    }
    cells.set('overall', { ...only(summary.overall ?? null), coverage: coverageOf(specs.find((x) => x.kind === 'overall')!, taskScore) });
    cells.set('pooled', only(summary.pooled ?? null));
    return cells;
  };

  const cellMaps = runs.map((run, i) => cellsFor(run, aggregates[i]));
  const byTask = runs.map((run) => (run.mcItems ? scoredByTask(run) : null));
  const aggregateRows: AggregateRow[] = specs.flatMap((spec) => (spec.kind === 'group' || spec.kind === 'overall' ? [{ key: spec.key, kind: spec.kind, tasks: spec.tasks, group: spec.group }] : []));
  // Per later run, each task's counts against the baseline (null: either is summary-only), once:
  // the task rows, pooled (their sum), groups and Overall all read them.
  const counts = runs.map((_, i) => {
    const base = byTask[0];
    const other = byTask[i];
    if (i === 0 || !base || !other) return null;
    return new Map(tasks.map((task) => [task, pairCounts(base.get(task), other.get(task), false)]));
  });
  // Per later run: its group and Overall rows against the baseline on their common coverage.
  const paired = counts.map((byTaskCounts) => {
    if (!byTaskCounts) return null;
    const pairs = new Map<string, TaskPairing>([...byTaskCounts].map(([task, c]) => [task, taskPairing(c)]));
    return pairedAggregates(pairs, aggregateRows, rule.grouping, rule.overallRule);
  });
  const SUMMARY: PairCounts = { pairing: 'summary-only', common: 0, a: 0, onlyThis: 0, onlyBaseline: 0, d: 0, baseSize: 0, otherSize: 0 };
  const rows = specs.map((spec): CompareRow => {
    const cells = cellMaps.map((m) => m.get(spec.key) ?? EMPTY_CELL);
    const differences = runs.map((_, i): CompareDifference | null => {
      if (i === 0) return null;
      const byTaskCounts = counts[i];
      const summary = byTaskCounts === null;
      if (spec.kind === 'task' || spec.kind === 'pooled') {
        const rowCounts = byTaskCounts === null ? SUMMARY : spec.kind === 'task' ? byTaskCounts.get(spec.key)! : sumCounts([...byTaskCounts.values()]);
        return accuracyDifference(cells[0], cells[i], rowCounts);
      }
      const covered = (m: Map<string, CompareCell>) => coveredTasks(spec, (task) => m.get(task)?.score ?? null).join('\u0000');
      return aggregateDifference(cells[0], cells[i], paired[i]?.get(spec.key), summary, covered(cellMaps[0]) === covered(cellMaps[i]));
    });
    return { key: spec.key, kind: spec.kind, name: spec.name, metric: spec.metric, cells, differences };
  });
  holmAcrossTasks(rows, runs.length);
  const pooledPairing = rows.find((r) => r.key === 'pooled')!.differences.map((d) => d?.pairing ?? 'paired');
  return { rows: [...rows, ...robustnessRows(runs, pooledPairing)], overall: overallSignature(rule.grouping.kind, rule.overallRule) };
}
