// The shapes of a comparison (compare.ts): the runs it takes and the rows, cells and differences it
// gives. Kept apart so the files that compute each kind of row share one vocabulary.
import type { PublishedRow } from '../benchmarks/published-results.ts';
import type { DatasetId } from '../benchmarks/types.ts';
import type { Interval } from './accuracy.ts';
import type { GenerationResultLike } from './generation-run.ts';
import type { ContinuousRun } from './compare-continuous-runs.ts';
import type { McnemarResult } from './mcnemar.ts';

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
  /**
   * Multiple choice: the fixed-n intervals (a) of accuracy from the benchmark's estimate
   * (benchmark-estimate.ts), fractions by row key (`overall`, `group:<key>`, `task:<key>`), the only
   * interval a cell shows (issue 44); `none`: why the run has none (asked in file order: no sample;
   * or a record that cannot be estimated). Absent: not computed (a summary-only link).
   */
  fixedN?: { none: 'not-sampled' | 'unavailable' | null; byRow: Readonly<Record<string, Interval>> };
}

export type CompareRowKind = 'task' | 'group' | 'overall' | 'pooled' | 'robustness';

export interface CompareCell {
  /** Percent (BLEU on its own 0..100 scale); null when the run has nothing to score here. */
  score: number | null;
  /** 95%, percent: (a) of the run's estimate for MC tasks, groups and Overall (ComparableRun.fixedN), the metric's own for generation tasks; null otherwise. */
  interval: Interval | null;
  /** Multiple choice: why the cell has no interval although it has a score (the run's fixedN.none). */
  noInterval?: 'not-sampled' | 'unavailable';
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
