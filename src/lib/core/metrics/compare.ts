// Two or more runs of one benchmark side by side: per task, per group (competency, category, …),
// overall (the benchmark's own rule) and pooled, with each run's difference from the first run (the
// baseline). Every number the Compare page shows comes from here.
//
// Rules:
//  - Runs must share dataset and kind; anything else is refused (a RangeError naming the run).
//  - A cell is the run's own score over all it scored under the row (what its run page shows).
//  - Items are matched by (task, item id), scored items only (correct ≠ null). A row is `paired`
//    when both runs scored exactly the same items under it, `partly-paired` when they share some,
//    `unpaired` when they share none, `summary-only` when either run has no per-item results.
//  - A difference ("this run − baseline", points) is measured on the items both runs scored: for a
//    paired row that is the two cells' difference; for a partly paired one it is the two runs'
//    scores on the common items, stated with it (`common`), with the items each run has beyond them
//    (`beyond`). An unpaired interval is never set beside a paired test, nor a score over more items
//    against one over fewer.
//  - Task, pooled and perf rows with common items: Newcombe's paired method 10 interval and the
//    exact McNemar test (A = baseline, B = this run) on the common items. With none (unpaired): the
//    two cells' difference, Newcombe's unpaired method 10 interval, no test. Task-row McNemar
//    p-values are also given Holm-adjusted over the task rows of their run (holm.ts); the raw p stays.
//  - Group and Overall rows: both runs scored on their common coverage (the common items, task by
//    task, aggregated by the benchmark's rule: compare-paired.ts), with a paired, task-stratified
//    bootstrap interval and p (paired-bootstrap.ts). Each cell states the groups or tasks its own
//    score covers (`coverage`). Unpaired or summary-only: the cells' difference only when both
//    cover the same tasks, else none (`withheld: 'coverage-differs'`); no interval.
//  - Generation rows carry the metric's own interval per run and none for differences (a bootstrap
//    of F1 or BLEU differences would need paired resampling).
//  - Robustness rows (issue 13), present when any run has them: circular `perf` (right under every
//    rotation) is an accuracy over items, tested as the task rows on the all-rotations-right
//    outcome. A run asked in one order only enters it with its plain outcome (right under the one
//    order it was asked in), flagged `oneOrderOnly`, so a circular run can be tested against a plain
//    run of the same items. Mean circular accuracy and PriDe's debiased accuracy come from the run's
//    own metrics (circularSummary, prideDebias) with their intervals and a difference in points only
//    (their items differ from perf's, so no pairing); letter bias shows the top letter's share of
//    predictions, with a difference only when both runs' top letter is the same letter
//    (`withheld: 'letters-differ'` otherwise), and the Stuart–Maxwell test's p-value (letter-bias.ts).
//    None of the three has a difference when the runs share only some items (`withheld:
//    'items-differ'`: each number is over the run's own items).
//  - Published rows (C3Bench, AncientBench only) are mapped onto the rows they name and labelled as
//    the paper's; they are never computed with.
import { findTask, getDataset } from '../benchmarks/catalog.ts';
import { publishedLabel, publishedRowsFor, type PublishedRow } from '../benchmarks/published-results.ts';
import type { DatasetId, GenerationTask } from '../benchmarks/types.ts';
import { accuracyFromCounts, wilsonInterval, type Interval } from './accuracy.ts';
import { DIFFERENCE_INTERVAL_METHODS, newcombePaired, newcombeUnpaired } from './difference-intervals.ts';
import { scoreGenerationRun, type GenerationResultLike } from './generation-run.ts';
import { aggregateForDataset, aggregationFor, overallSignature, type McAggregate } from './mc-aggregate.ts';
import type { ContinuousRun } from './compare-continuous-runs.ts';
import { mcnemarExactFromCounts, mcnemarSignature, type McnemarResult } from './mcnemar.ts';
import { pairedAggregates, type AggregateRow, type PairedAggregate, type TaskPairing } from './compare-paired.ts';
import { pairedBootstrapSignature, type PairedBootstrapResult } from './paired-bootstrap.ts';
import { HOLM_SIGNATURE, holmAdjust } from './holm.ts';

export const COMPARE_VERSION = 2;

export type ComparableOrigin = 'local' | 'imported' | 'shared';
export type ComparableKind = 'multiple-choice' | 'generation';

/** One multiple-choice item's outcome in a run. */
export interface ComparableMcItem {
  itemId: string;
  task: string;
  /** null: no answer key, so not scored. */
  correct: boolean | null;
  prediction: string | null;
  /**
   * Circular runs: right under every rotation (allRotationsCorrect); null when the item's rotations
   * are incomplete, failed or unscored. Absent when the run asked the item in one order only.
   */
  allRotationsCorrect?: boolean | null;
}

/** A run's robustness numbers, as its own metric functions give them (fractions, not percent). */
export interface ComparableRobustness {
  /** circularSummary's mean accuracy over rotations and its interval; absent: no rotations. */
  circularMean?: { accuracy: number | null; interval: Interval | null; n: number };
  /** prideDebias's debiased accuracy on the items outside the estimation set; absent: no PriDe. */
  pride?: { k: number; n: number; accuracy: number | null; wilson: Interval | null; /** prideDebias's bootstrap, with the prior's error; shown instead of Wilson. */ interval?: Interval | null };
  /** letterBias's overall part: the most predicted letter, its share and the Stuart–Maxwell p-value. */
  letterBias?: { n: number; letter: string | null; share: number | null; pValue: number | null };
}

/** A stored generation result; the item id is what pairs two runs. */
export interface ComparableGenResult extends GenerationResultLike {
  itemId: string;
}

export interface ComparableRun {
  id: string;
  label: string;
  origin: ComparableOrigin;
  datasetId: DatasetId;
  kind: ComparableKind;
  /** Multiple choice: per-item outcomes (enable intervals and pairing). */
  mcItems?: ComparableMcItem[];
  /** Generation: the stored per-item results (scored with scoreGenerationRun). */
  genResults?: ComparableGenResult[];
  /** A shared link whose data is not here: only its summary (percent, runSummary keys). */
  summaryOnly?: Record<string, number | null>;
  /** Multiple choice: letter bias, circular and PriDe numbers (absent for a summary-only run). */
  robustness?: ComparableRobustness;
  /** Multiple choice stored here: the run's scoring and its items' continuous scores (compare-continuous-runs.ts); links carry none. */
  continuous?: ContinuousRun;
}

export type CompareRowKind = 'task' | 'group' | 'overall' | 'pooled' | 'robustness';

export interface CompareCell {
  /** Percent (BLEU on its own 0..100 scale); null when the run has nothing to score here. */
  score: number | null;
  /** 95%, percent: Wilson for MC tasks and pooled, the metric's own for generation tasks; null otherwise. */
  interval: Interval | null;
  /** Scored items behind the cell; null for a summary-only run. */
  n: number | null;
  /** Multiple choice: how many of the n were right; null for generation and summary-only runs. */
  correct: number | null;
  /** The perf row: this run was asked in one order only, so its cell is its plain accuracy. */
  oneOrderOnly?: boolean;
  /** The letter-bias share row: which letter the share is of. */
  letter?: string | null;
  /**
   * Group and Overall rows: how many tasks (group; mean-of-tasks Overall) or groups (mean-of-groups
   * Overall) the score is a mean of, out of how many the benchmark has there.
   */
  coverage?: { of: number; total: number };
}

/** How a run's items relate to the baseline's under one row. */
export type Pairing = 'paired' | 'partly-paired' | 'unpaired' | 'summary-only';

export interface CompareMcnemar extends McnemarResult {
  /** Items both runs scored, the test's sample. */
  paired: number;
  /** Task rows: the p-value Holm-adjusted over the task rows tested for this run (`family` of them). */
  holm?: { pValue: number; family: number };
}

/** The group and Overall rows' paired bootstrap (see paired-bootstrap.ts), in points. */
export interface CompareBootstrap {
  pValue: number;
  resamples: number;
  seed: number;
}

export interface CompareDifference {
  /** This run − baseline, points, on the common items where there are any; null when either score is missing. */
  points: number | null;
  /** 95% interval of the difference, points. */
  interval: Interval | null;
  /** Which method gave `interval`. */
  intervalMethod: 'newcombe-paired' | 'newcombe-unpaired' | 'paired-bootstrap' | null;
  pairing: Pairing;
  /** Exact McNemar over the common scored items, A = baseline, B = this run. */
  mcnemar: CompareMcnemar | null;
  /**
   * The items both runs scored under the row and each run's score on them (percent; group and
   * Overall rows by the benchmark's rule, over `of` tasks or groups): what `points` is the difference of.
   * Absent for summary-only and non-accuracy rows.
   */
  common?: { n: number; baseline: number | null; other: number | null; of?: number };
  /** Scored items beyond the common ones: only in this run, only in the baseline. */
  beyond?: { thisRun: number; baseline: number };
  /** Group and Overall rows: the paired bootstrap's p (its interval is `interval`). */
  bootstrap?: CompareBootstrap | null;
  /** Why there is no difference though both cells have a score. */
  withheld?: 'coverage-differs' | 'letters-differ' | 'items-differ';
}

export interface CompareRow {
  /**
   * Task key, `group:<key>`, `overall`, `pooled`, or a robustness row: `circular:perf`,
   * `circular:mean`, `pride:debiased`, `bias:top-share`, `bias:p-value` (whose score is a p-value in [0, 1]).
   */
  key: string;
  kind: CompareRowKind;
  /** The catalog's names for task and group rows; null for others and for tasks the catalog lacks. */
  name: { zh: string; en: string } | null;
  /** What the cells measure, e.g. `accuracy`, `BLEU`, `mean of competencies`. */
  metric: string;
  /** One per run, in run order. */
  cells: CompareCell[];
  /** One per run, in run order; null at 0 (the baseline). */
  differences: (CompareDifference | null)[];
}

export interface PublishedColumn {
  row: PublishedRow;
  /** Always the paper's (publishedLabel). */
  label: string;
  /** Row key → the paper's number; null where the paper gives none. Only keys of the comparison's rows. */
  scores: Record<string, number | null>;
}

export interface ComparedRun {
  id: string;
  label: string;
  origin: ComparableOrigin;
  /** True when only summary numbers were available (no intervals, no pairing). */
  summaryOnly: boolean;
}

export interface Comparison {
  datasetId: DatasetId;
  kind: ComparableKind;
  /** In input order; the first is the baseline. */
  runs: ComparedRun[];
  rows: CompareRow[];
  published: PublishedColumn[];
  /** How every number was computed, sacrebleu-style. */
  signature: string;
}

const GEN_METRIC: Record<GenerationTask, string> = {
  classification: 'accuracy',
  retrieval: 'level-1 accuracy',
  ner: 'entity F1',
  punctuation: 'mark F1',
  translation: 'BLEU',
};

const pct = (x: number | null): number | null => (x === null ? null : 100 * x);
const pctInterval = (i: Interval | null | undefined): Interval | null => (i ? { low: 100 * i.low, high: 100 * i.high } : null);
const itemKey = (task: string, itemId: string): string => `${task}\u0000${itemId}`;
const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
const EMPTY_CELL: CompareCell = { score: null, interval: null, n: 0, correct: null };

function named(run: ComparableRun): string {
  return `"${run.label}" (${run.id})`;
}

function checkRuns(runs: readonly ComparableRun[]): void {
  if (runs.length === 0) throw new RangeError('nothing to compare: no runs were given');
  const first = runs[0];
  for (const run of runs) {
    if (run.datasetId !== first.datasetId || run.kind !== first.kind) {
      throw new RangeError(
        `run ${named(run)} is a ${run.kind} run on ${run.datasetId}, but the first run ${named(first)} is a ${first.kind} run on ${first.datasetId}: only runs of one benchmark and one kind can be compared`,
      );
    }
    const items = run.kind === 'multiple-choice' ? run.mcItems : run.genResults;
    const wrong = run.kind === 'multiple-choice' ? run.genResults : run.mcItems;
    if (wrong) throw new RangeError(`run ${named(run)} is a ${run.kind} run but carries ${run.kind === 'multiple-choice' ? 'generation results' : 'multiple-choice items'}`);
    if (!items && !run.summaryOnly) throw new RangeError(`run ${named(run)} has neither per-item results nor a summary to compare`);
  }
}

/** Scored items per row key, for pairing; null for a summary-only run. */
type ItemSets = Map<string, Map<string, boolean>> | null;

/**
 * Task key → its scored items (key → correct; generation results count as scored, correct = false).
 * Multiple-choice maps are keyed by item id alone (each map is one task's; a built key per item
 * cost a third of a 28,707-item comparison), generation ones by task and id, as their rows merge tasks.
 */
function scoredByTask(run: ComparableRun): Map<string, Map<string, boolean>> | null {
  const out = new Map<string, Map<string, boolean>>();
  const add = (task: string, itemId: string, correct: boolean) => {
    let set = out.get(task);
    if (!set) out.set(task, (set = new Map()));
    set.set(run.kind === 'multiple-choice' ? itemId : itemKey(task, itemId), correct);
  };
  if (run.kind === 'multiple-choice' && run.mcItems) {
    for (const item of run.mcItems) if (item.correct !== null) add(item.task, item.itemId, item.correct);
    return out;
  }
  if (run.kind === 'generation' && run.genResults) {
    for (const r of run.genResults) add(r.task, r.itemId, false);
    return out;
  }
  return null;
}

function rowItemSets(byTask: Map<string, Map<string, boolean>> | null, rows: readonly { key: string; tasks: readonly string[] }[]): ItemSets {
  if (!byTask) return null;
  const sets = new Map<string, Map<string, boolean>>();
  for (const row of rows) {
    const merged = new Map<string, boolean>();
    for (const task of row.tasks) for (const [k, v] of byTask.get(task) ?? []) merged.set(k, v);
    sets.set(row.key, merged);
  }
  return sets;
}

interface PairCounts {
  pairing: Pairing;
  common: number;
  /** Both right, only this run right, only baseline right, both wrong (over common items). */
  a: number;
  onlyThis: number;
  onlyBaseline: number;
  d: number;
  /** Scored items of each run under the row. */
  baseSize: number;
  otherSize: number;
}

const pairingOf = (c: Pick<PairCounts, 'common' | 'baseSize' | 'otherSize'>): Pairing =>
  c.common > 0 && c.common === c.baseSize && c.common === c.otherSize ? 'paired' : c.common > 0 ? 'partly-paired' : 'unpaired';

/** The counts of several rows' items together (the pooled row from its tasks'). */
function sumCounts(list: readonly PairCounts[]): PairCounts {
  const sum = (f: (c: PairCounts) => number) => list.reduce((total, c) => total + f(c), 0);
  const counts = { common: sum((c) => c.common), a: sum((c) => c.a), onlyThis: sum((c) => c.onlyThis), onlyBaseline: sum((c) => c.onlyBaseline), d: sum((c) => c.d), baseSize: sum((c) => c.baseSize), otherSize: sum((c) => c.otherSize) };
  return { ...counts, pairing: pairingOf(counts) };
}

function pairCounts(base: Map<string, boolean> | undefined, other: Map<string, boolean> | undefined, summary: boolean): PairCounts {
  const counts: PairCounts = { pairing: 'summary-only', common: 0, a: 0, onlyThis: 0, onlyBaseline: 0, d: 0, baseSize: base?.size ?? 0, otherSize: other?.size ?? 0 };
  if (summary) return counts;
  if (!base || !other) return { ...counts, pairing: 'unpaired' };
  for (const [key, baseRight] of base) {
    const thisRight = other.get(key);
    if (thisRight === undefined) continue;
    counts.common++;
    if (baseRight && thisRight) counts.a++;
    else if (thisRight) counts.onlyThis++;
    else if (baseRight) counts.onlyBaseline++;
    else counts.d++;
  }
  counts.pairing = pairingOf(counts);
  return counts;
}

interface RowSpec {
  key: string;
  kind: CompareRowKind;
  name: { zh: string; en: string } | null;
  metric: string;
  /** The tasks whose items the row covers (for pairing). */
  tasks: readonly string[];
  /** Group rows: the group's key. */
  group?: string;
}

/** Tasks in catalog order, then tasks the catalog does not list, in order of first appearance. */
function orderTasks(datasetId: DatasetId, present: ReadonlySet<string>): string[] {
  const catalog = getDataset(datasetId).tasks.map((t) => t.key).filter((k) => present.has(k));
  return [...new Set([...catalog, ...present])];
}

function tasksOf(run: ComparableRun): string[] {
  if (run.mcItems) return run.mcItems.map((i) => i.task);
  if (run.genResults) return run.genResults.map((r) => r.task);
  return Object.keys(run.summaryOnly ?? {})
    .filter((k) => k.startsWith('task:'))
    .map((k) => k.slice(5));
}

const taskName = (datasetId: DatasetId, key: string) => {
  const task = findTask(datasetId, key);
  return task ? { zh: task.zh, en: task.en } : null;
};

function compareMultipleChoice(runs: readonly ComparableRun[]): { rows: CompareRow[]; overall: string } {
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
      for (const key of tasks) {
        const t = byTask.get(key);
        cells.set(key, t ? { score: pct(t.accuracy), interval: pctInterval(t.wilson), n: t.n, correct: t.correct } : EMPTY_CELL);
      }
      for (const spec of specs.filter((x) => x.kind === 'group')) {
        const ga = agg.groups.find((x) => x.key === spec.group);
        const n = spec.tasks.reduce((sum, task) => sum + (byTask.get(task)?.n ?? 0), 0);
        const correct = spec.tasks.reduce((sum, task) => sum + (byTask.get(task)?.correct ?? 0), 0);
        cells.set(spec.key, { score: pct(ga?.accuracy ?? null), interval: null, n, correct, coverage: coverageOf(spec, scoreOf) });
      }
      const overall = specs.find((x) => x.kind === 'overall')!;
      cells.set('overall', { score: pct(agg.overall.accuracy), interval: null, n: agg.pooled.n, correct: agg.pooled.correct, coverage: coverageOf(overall, scoreOf) });
      cells.set('pooled', { score: pct(agg.pooled.accuracy), interval: pctInterval(agg.pooled.wilson), n: agg.pooled.n, correct: agg.pooled.correct });
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

/** Two runs' counts under one task as the paired table on their common items. */
function taskPairing(c: PairCounts): TaskPairing {
  return {
    table: { both: c.a, onlyThis: c.onlyThis, onlyBaseline: c.onlyBaseline, neither: c.d },
    common: c.common,
    thisOnly: c.otherSize - c.common,
    baselineOnly: c.baseSize - c.common,
  };
}

/** Adds the Holm-adjusted p over each run's task rows to their McNemar results (pooled, group, Overall and robustness rows are single tests, left as they are). */
function holmAcrossTasks(rows: readonly CompareRow[], runCount: number): void {
  const taskRows = rows.filter((r) => r.kind === 'task');
  for (let i = 1; i < runCount; i++) {
    const adjusted = holmAdjust(taskRows.map((r) => r.differences[i]?.mcnemar?.pValue ?? null));
    const family = adjusted.filter((p) => p !== null).length;
    taskRows.forEach((r, t) => {
      const m = r.differences[i]?.mcnemar;
      if (m && adjusted[t] !== null) m.holm = { pValue: adjusted[t]!, family };
    });
  }
}

const pointsBetween = (base: CompareCell, cell: CompareCell): number | null => (base.score !== null && cell.score !== null ? cell.score - base.score : null);
const percentOf = (k: number, n: number): number | null => (n === 0 ? null : (100 * k) / n);

/**
 * "This run − baseline" for an accuracy row (task, pooled, perf). With common items: on them, with
 * Newcombe's paired interval and exact McNemar. With none: the cells' difference and Newcombe's
 * unpaired interval, no test.
 */
function accuracyDifference(base: CompareCell, cell: CompareCell, counts: PairCounts): CompareDifference {
  const none = { interval: null, intervalMethod: null, mcnemar: null };
  if (counts.pairing === 'summary-only') return { points: pointsBetween(base, cell), pairing: counts.pairing, ...none };
  const beyond = { thisRun: counts.otherSize - counts.common, baseline: counts.baseSize - counts.common };
  if (counts.common === 0) {
    const r = base.n && cell.n && base.correct !== null && cell.correct !== null ? newcombeUnpaired(cell.correct, cell.n, base.correct, base.n) : null;
    const interval = r ? { low: 100 * r.low, high: 100 * r.high } : null;
    return { points: pointsBetween(base, cell), interval, intervalMethod: r ? 'newcombe-unpaired' : null, pairing: counts.pairing, mcnemar: null, common: { n: 0, baseline: null, other: null }, beyond };
  }
  const { a, onlyThis, onlyBaseline, d, common } = counts;
  const r = newcombePaired(a, onlyThis, onlyBaseline, d)!;
  return {
    // Paired: exactly the cells' difference; partly paired: the two runs on their common items.
    points: counts.pairing === 'paired' ? pointsBetween(base, cell) : 100 * r.difference,
    interval: { low: 100 * r.low, high: 100 * r.high },
    intervalMethod: 'newcombe-paired',
    pairing: counts.pairing,
    mcnemar: { ...mcnemarExactFromCounts(onlyBaseline, onlyThis), paired: common },
    common: { n: common, baseline: percentOf(a + onlyBaseline, common), other: percentOf(a + onlyThis, common) },
    beyond,
  };
}

/**
 * "This run − baseline" for a group or Overall row: on the common coverage with the paired
 * bootstrap when the runs share items under it; otherwise the cells' difference, only when both
 * cover the same tasks.
 */
function aggregateDifference(base: CompareCell, cell: CompareCell, paired: PairedAggregate | undefined, summary: boolean, sameCoverage: boolean): CompareDifference {
  if (!summary && paired) {
    const b: PairedBootstrapResult | null = paired.bootstrap;
    const points = paired.pairing === 'paired' ? pointsBetween(base, cell) : paired.baseline !== null && paired.other !== null ? 100 * (paired.other - paired.baseline) : null;
    return {
      points,
      interval: b ? { low: 100 * b.low, high: 100 * b.high } : null,
      intervalMethod: b ? 'paired-bootstrap' : null,
      pairing: paired.pairing,
      mcnemar: null,
      common: { n: paired.common, baseline: pct(paired.baseline), other: pct(paired.other), of: paired.of },
      beyond: { thisRun: paired.thisOnly, baseline: paired.baselineOnly },
      bootstrap: b ? { pValue: b.pValue, resamples: b.resamples, seed: b.seed } : null,
    };
  }
  const pairing: Pairing = summary ? 'summary-only' : 'unpaired';
  const points = pointsBetween(base, cell);
  const none = { interval: null, intervalMethod: null, mcnemar: null, pairing };
  if (points !== null && !sameCoverage) return { points: null, ...none, withheld: 'coverage-differs' };
  return { points, ...none };
}

/**
 * Points only, no interval and no test (the robustness rows other than perf), paired as the pooled row.
 * A difference of two runs' own numbers (circular mean, PriDe, top-letter share): each is over all the
 * run's items, so where the runs share only some items the two numbers cover different items and no
 * difference is given (`withheld: 'items-differ'`), as the accuracy rows never set a score over more
 * items against one over fewer.
 */
function pointsOnly(base: CompareCell, cell: CompareCell, pairing: Pairing): CompareDifference {
  const points = base.score !== null && cell.score !== null ? cell.score - base.score : null;
  if (pairing === 'partly-paired' && points !== null) return { points: null, interval: null, intervalMethod: null, pairing, mcnemar: null, withheld: 'items-differ' };
  return { points, interval: null, intervalMethod: null, pairing, mcnemar: null };
}

/**
 * Per-item outcome behind perf: all rotations right for a run with rotations (null ones left out),
 * the plain outcome for a run asked in one order only; null for a summary-only run.
 */
function perfOutcomes(run: ComparableRun): { outcomes: Map<string, boolean>; oneOrderOnly: boolean } | null {
  if (!run.mcItems) return null;
  const oneOrderOnly = !run.mcItems.some((item) => item.allRotationsCorrect !== undefined);
  const outcomes = new Map<string, boolean>();
  for (const item of run.mcItems) {
    const outcome = oneOrderOnly ? item.correct : item.allRotationsCorrect;
    if (outcome !== null && outcome !== undefined) outcomes.set(itemKey(item.task, item.itemId), outcome);
  }
  return { outcomes, oneOrderOnly };
}

const fractionCell = (x: { accuracy: number | null; interval: Interval | null; n: number; correct: number | null } | undefined): CompareCell =>
  x ? { score: pct(x.accuracy), interval: pctInterval(x.interval), n: x.n, correct: x.correct } : EMPTY_CELL;

/** The robustness rows, each only when some run has its numbers. */
function robustnessRows(runs: readonly ComparableRun[], pooledPairing: readonly Pairing[]): CompareRow[] {
  const rows: CompareRow[] = [];
  const push = (key: string, metric: string, cells: CompareCell[], differences: (CompareDifference | null)[]) =>
    rows.push({ key, kind: 'robustness', name: null, metric, cells, differences });

  // Only a run with rotations makes a perf row: no per-item maps are built otherwise.
  const perf = runs.some((run) => run.mcItems?.some((item) => item.allRotationsCorrect !== undefined)) ? runs.map(perfOutcomes) : [];
  if (perf.some((p) => p !== null && !p.oneOrderOnly)) {
    const cells = perf.map((p): CompareCell => {
      if (!p) return { score: null, interval: null, n: null, correct: null };
      const n = p.outcomes.size;
      const k = [...p.outcomes.values()].filter(Boolean).length;
      return { score: pct(accuracyFromCounts(k, n)), interval: pctInterval(wilsonInterval(k, n)), n, correct: k, oneOrderOnly: p.oneOrderOnly };
    });
    const differences = runs.map((_, i) =>
      i === 0 ? null : accuracyDifference(cells[0], cells[i], pairCounts(perf[0]?.outcomes, perf[i]?.outcomes, perf[0] === null || perf[i] === null)),
    );
    push('circular:perf', 'all rotations right', cells, differences);
  }

  const robust = runs.map((run) => run.robustness);
  const summaryCell = (i: number): CompareCell | null => (runs[i].mcItems ? null : { score: null, interval: null, n: null, correct: null });
  const fromMetric = (key: string, metric: string, cellOf: (r: ComparableRobustness) => CompareCell | null) => {
    if (!robust.some((r) => r && cellOf(r))) return;
    const cells = robust.map((r, i) => summaryCell(i) ?? (r ? cellOf(r) ?? EMPTY_CELL : EMPTY_CELL));
    push(key, metric, cells, cells.map((cell, i) => (i === 0 ? null : pointsOnly(cells[0], cell, pooledPairing[i]))));
  };
  fromMetric('circular:mean', 'mean accuracy over rotations', (r) =>
    r.circularMean ? fractionCell({ ...r.circularMean, correct: null }) : null,
  );
  fromMetric('pride:debiased', 'PriDe debiased accuracy', (r) => (r.pride ? fractionCell({ ...r.pride, interval: r.pride.interval ?? r.pride.wilson, correct: r.pride.k }) : null));
  fromMetric('bias:top-share', 'share of the most predicted letter', (r) =>
    r.letterBias ? { ...fractionCell({ accuracy: r.letterBias.share, interval: null, n: r.letterBias.n, correct: null }), letter: r.letterBias.letter } : null,
  );
  // A share of letter B less a share of letter A measures nothing: a difference only for the same letter.
  const share = rows.find((r) => r.key === 'bias:top-share');
  if (share) {
    share.differences = share.differences.map((d, i) =>
      d && d.points !== null && share.cells[i].letter !== share.cells[0].letter ? { ...d, points: null, withheld: 'letters-differ' as const } : d,
    );
  }
  if (robust.some((r) => r?.letterBias)) {
    const cells = robust.map((r, i): CompareCell => summaryCell(i) ?? (r?.letterBias ? { score: r.letterBias.pValue, interval: null, n: r.letterBias.n, correct: null } : EMPTY_CELL));
    push('bias:p-value', 'letter-bias fit p-value', cells, cells.map((_, i) => (i === 0 ? null : { ...pointsOnly(cells[0], cells[i], pooledPairing[i]), points: null })));
  }
  return rows;
}

function overallMetric(rule: 'mean-of-groups' | 'mean-of-tasks', kind: string): string {
  if (rule === 'mean-of-tasks') return 'mean of tasks';
  const plural: Record<string, string> = { competency: 'competencies', category: 'categories', supercategory: 'supercategories', domain: 'domains' };
  return `mean of ${plural[kind] ?? 'groups'}`;
}

function compareGeneration(runs: readonly ComparableRun[]): CompareRow[] {
  const datasetId = runs[0].datasetId;
  const scores = runs.map((run) => (run.genResults ? scoreGenerationRun(datasetId, run.genResults) : null));
  const tasks = orderTasks(datasetId, new Set(runs.flatMap(tasksOf)));
  const metricOf = (key: string): string => {
    const info = findTask(datasetId, key);
    if (info?.generationTask) return GEN_METRIC[info.generationTask];
    const generationTask = runs.flatMap((r) => r.genResults ?? []).find((r) => r.task === key)?.generationTask;
    return generationTask ? GEN_METRIC[generationTask] : 'score';
  };
  const specs: RowSpec[] = [
    ...tasks.map((key): RowSpec => ({ key, kind: 'task', name: taskName(datasetId, key), metric: metricOf(key), tasks: [key] })),
    { key: 'overall', kind: 'overall', name: null, metric: 'average of the five task scores', tasks },
  ];
  const cellOf = (i: number, spec: RowSpec): CompareCell => {
    const s = scores[i];
    if (!s) {
      const summary = runs[i].summaryOnly ?? {};
      return { score: (spec.kind === 'overall' ? summary.overall : summary[`task:${spec.key}`]) ?? null, interval: null, n: null, correct: null };
    }
    if (spec.kind === 'overall') return { score: s.overall, interval: null, n: s.tasks.reduce((sum, t) => sum + t.n, 0), correct: null };
    const t = s.tasks.find((x) => x.task === spec.key);
    return t ? { score: t.score, interval: t.interval, n: t.n, correct: null } : EMPTY_CELL;
  };
  const itemSets = runs.map((run) => rowItemSets(run.genResults ? scoredByTask(run) : null, specs));
  return specs.map((spec): CompareRow => {
    const cells = runs.map((_, i) => cellOf(i, spec));
    const differences = runs.map((_, i): CompareDifference | null => {
      if (i === 0) return null;
      const points = cells[0].score !== null && cells[i].score !== null ? cells[i].score! - cells[0].score! : null;
      const summary = itemSets[0] === null || itemSets[i] === null;
      const { pairing } = pairCounts(itemSets[0]?.get(spec.key), itemSets[i]?.get(spec.key), summary);
      return { points, interval: null, intervalMethod: null, pairing, mcnemar: null };
    });
    return { key: spec.key, kind: spec.kind, name: spec.name, metric: spec.metric, cells, differences };
  });
}

/** A published score key → the comparison's row key, per benchmark. */
function publishedRowKey(datasetId: DatasetId, key: string): string {
  if (datasetId === 'c3bench') return key === 'average' ? 'overall' : key;
  return key === 'overall' ? 'overall' : `group:${key}`;
}

function publishedColumns(datasetId: DatasetId, rows: readonly CompareRow[]): PublishedColumn[] {
  const rowKeys = rows.map((r) => r.key);
  return publishedRowsFor(datasetId).flatMap((row): PublishedColumn[] => {
    const mapped = new Map(Object.entries(row.scores).map(([k, v]) => [publishedRowKey(datasetId, k), v]));
    const scores: Record<string, number | null> = {};
    for (const key of rowKeys) scores[key] = mapped.get(key) ?? null;
    return Object.values(scores).some((v) => v !== null) ? [{ row, label: publishedLabel(row), scores }] : [];
  });
}

function signatureFor(kind: ComparableKind, overall: string | null): string {
  if (kind === 'multiple-choice') {
    return [
      'compare',
      'kind:mc',
      'baseline:first',
      'diff:points(run-baseline,on-common-items)',
      'ci:wilson-95(task,pooled)',
      `diff-ci:${DIFFERENCE_INTERVAL_METHODS.paired}(task+pooled,common-items)`,
      `${DIFFERENCE_INTERVAL_METHODS.unpaired}(no-common-items)`,
      `${pairedBootstrapSignature()}(group+overall,common-coverage)`,
      `test:${mcnemarSignature()}(task+pooled,common-items,A:baseline)`,
      `task-p:${HOLM_SIGNATURE}(per-run,over-task-rows;raw-kept)`,
      'group+overall-p:paired-bootstrap(unadjusted)',
      'pairing:task+item-id,scored-only',
      `overall:[${overall}]`,
      'coverage:common(no-diff-when-unpaired-coverage-differs)',
      'robustness:perf(all-rotations-right,one-order-only:plain,ci+test-as-task),circular-mean+pride+letter-bias(run-own-metrics,diff:points),top-share(diff:same-letter-only)',
      `version:${COMPARE_VERSION}`,
    ].join('|');
  }
  return ['compare', 'kind:generation', 'baseline:first', 'diff:points(run-baseline)', 'ci:metric-own(task)', 'diff-ci:none', 'test:none', 'pairing:task+item-id', `version:${COMPARE_VERSION}`].join('|');
}

/**
 * Compares runs of one dataset and one kind; the first is the baseline. Throws a RangeError naming
 * the run when one is of another dataset or kind, or carries no data of its kind.
 */
export function compareRuns(runs: readonly ComparableRun[]): Comparison {
  checkRuns(runs);
  const { datasetId, kind } = runs[0];
  let rows: CompareRow[];
  let overall: string | null = null;
  if (kind === 'multiple-choice') ({ rows, overall } = compareMultipleChoice(runs));
  else rows = compareGeneration(runs);
  return {
    datasetId,
    kind,
    runs: runs.map((r) => ({ id: r.id, label: r.label, origin: r.origin, summaryOnly: !(kind === 'multiple-choice' ? r.mcItems : r.genResults) })),
    rows,
    published: publishedColumns(datasetId, rows),
    signature: signatureFor(kind, overall),
  };
}

/** What a chart needs: for chosen row kinds, each run's scores and intervals in row order. */
export interface ComparisonSeries {
  rowKeys: string[];
  rowNames: ({ zh: string; en: string } | null)[];
  runs: { id: string; label: string; scores: (number | null)[]; intervals: (Interval | null)[] }[];
}

/** Per-row scores and intervals per run (tasks by default; competencies with kinds = ['group']). */
export function comparisonSeries(comparison: Comparison, kinds: readonly CompareRowKind[] = ['task']): ComparisonSeries {
  const rows = comparison.rows.filter((r) => kinds.includes(r.kind));
  return {
    rowKeys: rows.map((r) => r.key),
    rowNames: rows.map((r) => r.name),
    runs: comparison.runs.map((run, i) => ({
      id: run.id,
      label: run.label,
      scores: rows.map((r) => r.cells[i].score),
      intervals: rows.map((r) => r.cells[i].interval),
    })),
  };
}
