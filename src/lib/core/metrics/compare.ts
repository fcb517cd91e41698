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
//
// The work is split by what it compares: compare-types.ts (the shapes), compare-pairing.ts (matching
// items, the 2×2 counts), compare-differences.ts (each row's difference and test), compare-mc.ts and
// compare-generation.ts (the rows of each kind), compare-robustness.ts (issue 13's rows). This file
// checks the runs, adds the published columns and the signature, and re-exports the shapes.
import { publishedLabel, publishedRowsFor } from '../benchmarks/published-results.ts';
import type { DatasetId } from '../benchmarks/types.ts';
import type { Interval } from './accuracy.ts';
import { DIFFERENCE_INTERVAL_METHODS } from './difference-intervals.ts';
import { mcnemarSignature } from './mcnemar.ts';
import { pairedBootstrapSignature } from './paired-bootstrap.ts';
import { HOLM_SIGNATURE } from './holm.ts';
import { compareMultipleChoice } from './compare-mc.ts';
import { compareGeneration } from './compare-generation.ts';
import type { ComparableKind, ComparableRun, CompareRow, CompareRowKind, Comparison, PublishedColumn } from './compare-types.ts';

export type {
  ComparableGenResult,
  ComparableKind,
  ComparableMcItem,
  ComparableOrigin,
  ComparableRobustness,
  ComparableRun,
  ComparedRun,
  CompareBootstrap,
  CompareCell,
  CompareDifference,
  CompareMcnemar,
  CompareRow,
  CompareRowKind,
  Comparison,
  Pairing,
  PublishedColumn,
} from './compare-types.ts';

export const COMPARE_VERSION = 2;

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
      'ci:sample-estimate-fixed-n-95(task,group,overall;run-estimate;none-when-file-order)',
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
