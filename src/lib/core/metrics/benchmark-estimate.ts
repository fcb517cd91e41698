// The whole benchmark's score estimated from the items a multiple-choice run has scored so far
// (issue 36): what the run page shows while a run goes on and after it stops, and what the precision
// stop (engine/stop-rule.ts) reads. Each task is a stratum (sample-estimate/): its values are fed in
// the order the run asked them (position in config.itemIds), so that a prefix of a run asked in a
// seeded random order is a random sample without replacement of each task, and the benchmark's score
// by its own rule (scoreWeights: mean of tasks, or of competencies) is Σ weight × the task's mean.
//
// What the intervals describe depends on how the run chose and ordered its items (config.sampling):
//  - 'benchmark': a random sample of each task (or every item), asked in a random order: the
//    estimate and both intervals are of the whole benchmark's score.
//  - 'chosen-items': the first n of each task in file order, asked in a random order: the intervals
//    are of the score on those items, not of the benchmark (the first items of a file are no sample).
//  - 'asked-in-file-order': older runs, task by task in file order: a prefix is no sample of
//    anything, so no interval is given; the numbers are those of the items asked, nothing more.
//
// Failed items (too long for the model, or the model threw) and items without an answer key give no
// value: they are left out, as if not asked, and a task none of whose items has a key is left out of
// the weights (as the aggregate leaves it out of every mean).
import type { ClozeRule } from './cloze-rules.ts';
import { CLOZE_RULES, underRule } from './cloze-rules.ts';
import { continuousOf } from './continuous.ts';
import { aggregationFor } from './mc-aggregate.ts';
import { combineStrata, scoreWeights, stratumTracker } from './sample-estimate/index.ts';
import type { SampleEstimate, StratumTracker } from './sample-estimate/types.ts';
import { LOOK_SHARE, type PlanKind, type RunLookPlan } from './sample-estimate/look-plan.ts';
import { prepareLooks, type LookPlan } from './sample-estimate/planned-looks.ts';
import { internalsOf } from './sample-estimate/stratum.ts';
import { looksOf, planForValues, runLookPlan } from './run-look-plan.ts';
import type { McItemResult, McRunConfig } from '../record/run.ts';
import type { DatasetId } from '../benchmarks/types.ts';

/** The confidence level's complement used throughout: 95% intervals. */
export const ESTIMATE_ALPHA = 0.05;

/** What is estimated: accuracy under the run's own scoring, under another cloze rule, or a continuous score. */
export type EstimateMeasure = 'accuracy' | Exclude<ClozeRule, 'acc'> | 'pGold' | 'bitsPerByte';

/** Whether the intervals describe the benchmark, the items chosen, or nothing (see the header). */
export type EstimateTarget = 'benchmark' | 'chosen-items' | 'asked-in-file-order';

export interface EstimateRow {
  /** `overall`, `pooled`, `task:<key>` or `group:<key>`. */
  key: string;
  kind: 'overall' | 'pooled' | 'task' | 'group';
  /** The task's or group's key; null for overall and pooled. */
  of: string | null;
  estimate: SampleEstimate;
}

export interface MeasureEstimate {
  measure: EstimateMeasure;
  /** False for bits per byte: no bound, so no confidence sequence (only the fixed-n interval). */
  bounded: boolean;
  /** Overall first, then pooled, groups and tasks (in the run's task order). */
  rows: EstimateRow[];
}

/**
 * Why no estimate can be made of a record, as a value (the page says it in words; estimate-text.ts):
 * 'more-results-than-items': a task has more scored results than its recorded population (a forged
 * or edited record: a sample of N items cannot give N + 1 values); 'task-not-in-run': a result of a
 * task the run does not list; 'failed': the computation itself threw (`detail`: its message), so the
 * page shows the rest of the run and says so instead of breaking.
 */
export type EstimateUnavailable =
  | { code: 'more-results-than-items'; task: string; population: number }
  | { code: 'task-not-in-run'; task: string }
  | { code: 'failed'; detail: string };

export interface BenchmarkEstimate {
  target: EstimateTarget;
  /** Empty for 'asked-in-file-order' (no interval describes the benchmark there), and when `unavailable`. */
  measures: MeasureEstimate[];
  /** Set when the record cannot be estimated (see EstimateUnavailable); then `measures` is empty. */
  unavailable?: EstimateUnavailable;
  /** Results with a value of the main measure (accuracy), and the run's items. */
  scored: number;
  asked: number;
  items: number;
  /** Items that could not run so far: left out of every estimate. */
  failed: number;
}

/** The measures a run's scoring has: accuracy, the other cloze rules, p(gold), bits per byte (cloze). */
export function measuresOf(scoring: McRunConfig['scoring']): EstimateMeasure[] {
  if (scoring === 'cloze') return ['accuracy', ...CLOZE_RULES.filter((r): r is Exclude<ClozeRule, 'acc'> => r !== 'acc'), 'pGold', 'bitsPerByte'];
  if (scoring === 'letter-logits') return ['accuracy', 'pGold'];
  return ['accuracy'];
}

/** What the run's intervals can describe (see the header). */
export function estimateTargetOf(config: Pick<McRunConfig, 'sampling' | 'limitPerTask'>): EstimateTarget {
  const s = config.sampling;
  if (!s || s.order !== 'shuffled') return 'asked-in-file-order';
  if (s.draw === 'random' || config.limitPerTask === null) return 'benchmark';
  // The first n of a task that has no more than n items is the whole task.
  return Object.values(s.population).every((n) => n <= (config.limitPerTask ?? Infinity)) ? 'benchmark' : 'chosen-items';
}

/** Each task's population for the target: the task's items (N), or the items chosen of it. */
function populationsOf(config: Pick<McRunConfig, 'sampling' | 'limitPerTask' | 'tasks'>, target: EstimateTarget): Record<string, number> {
  const out: Record<string, number> = {};
  for (const task of config.tasks) {
    const n = config.sampling?.population[task] ?? 0;
    out[task] = target === 'chosen-items' && config.limitPerTask !== null ? Math.min(n, config.limitPerTask) : n;
  }
  return out;
}

/** One result's value of `measure`, or null when it has none (failed, no key, no numbers for it). */
export function valueOf(result: McItemResult, measure: EstimateMeasure): number | null {
  if (result.failure !== undefined || result.correct === null) return null;
  if (measure === 'accuracy') return result.correct ? 1 : 0;
  if (measure === 'pGold' || measure === 'bitsPerByte') {
    const value = continuousOf(result)?.[measure] ?? null;
    return value === null || !Number.isFinite(value) ? null : value;
  }
  if (!result.cloze) return null;
  const under = underRule(result, measure);
  return under === null || under.correct === null ? null : under.correct ? 1 : 0;
}

/**
 * Feeds a run's results in run order and says, at any moment, the benchmark's estimate. O(measures)
 * per result; a snapshot costs O(measures × (tasks + groups)) whatever the results so far, so a live
 * run's page can take one at each draw.
 */
export class BenchmarkEstimator {
  readonly target: EstimateTarget;
  private readonly measures: EstimateMeasure[];
  private readonly populations: Record<string, number>;
  private readonly trackers = new Map<EstimateMeasure, Map<string, StratumTracker>>();
  private readonly seen = new Set<string>();
  /** Tasks with a keyed result so far, and tasks with results all of which had no key. */
  private readonly keyed = new Set<string>();
  private readonly keyless = new Set<string>();
  private failedCount = 0;
  private scoredCount = 0;
  private readonly alpha: number;
  /** The run's planned looks (run-look-plan.ts): (b) is the tuned sequence there ∩ the all-times one. */
  readonly plan: RunLookPlan | null = null;
  /** The first inconsistency seen in the record; from then on nothing is estimated. */
  private unavailable: EstimateUnavailable | null = null;

  constructor(
    private readonly config: McRunConfig,
    private readonly datasetId: DatasetId,
    options: { measures?: readonly EstimateMeasure[]; alpha?: number } = {},
  ) {
    this.target = estimateTargetOf(config);
    this.alpha = options.alpha ?? ESTIMATE_ALPHA;
    this.measures = [...(options.measures ?? measuresOf(config.scoring))];
    this.populations = populationsOf(config, this.target);
    if (this.target === 'asked-in-file-order') return;
    this.plan = planOfRun(config, datasetId, this.populations, this.alpha);
    // With looks, each task's own grid (its row's all-times part) takes the all-times share of α.
    const sequenceAlpha = this.plan ? this.alpha * (1 - LOOK_SHARE) : this.alpha;
    for (const measure of this.measures) {
      const bounded = measure !== 'bitsPerByte';
      // Bits per byte has no upper bound: its range is never used (bounded false gives the fixed-n interval only).
      const byTask = new Map<string, StratumTracker>();
      for (const task of config.tasks) byTask.set(task, stratumTracker(Math.max(1, this.populations[task] ?? 1), { alpha: this.alpha, bounded, sequenceAlpha }));
      this.trackers.set(measure, byTask);
    }
    if (this.plan) this.prepareLooks(this.plan);
  }

  /** Takes in one result, the first time its item comes (a result that comes again with its rotations is the same item). */
  observe(result: McItemResult): void {
    if (this.seen.has(result.itemId)) return;
    this.seen.add(result.itemId);
    if (this.target !== 'asked-in-file-order' && !this.unavailable && !this.config.tasks.includes(result.task)) this.unavailable = { code: 'task-not-in-run', task: result.task };
    if (result.failure !== undefined) {
      this.failedCount++;
      return;
    }
    if (result.correct === null) {
      if (!this.keyed.has(result.task)) this.keyless.add(result.task);
      return;
    }
    this.keyed.add(result.task);
    this.keyless.delete(result.task);
    this.scoredCount++;
    if (this.unavailable) return;
    for (const [measure, byTask] of this.trackers) {
      const value = valueOf(result, measure);
      const tracker = byTask.get(result.task);
      if (value === null || !tracker) continue;
      // A task's population bounds its values: a record with more (forged, or its sampling edited) is no
      // sample of that population, and dropping the extra values would show an interval of nothing.
      if (tracker.n >= tracker.population) {
        this.unavailable = { code: 'more-results-than-items', task: result.task, population: this.populations[result.task] ?? 0 };
        return;
      }
      tracker.push(value);
    }
  }

  /** Takes in results in the order the run asked them (their index), whatever order they come in. */
  observeAll(results: readonly McItemResult[]): void {
    const sorted = results.length > 1 ? [...results].sort((a, b) => a.index - b.index) : results;
    for (const result of sorted) this.observe(result);
  }

  /** Items taken in so far (each once). */
  get asked(): number {
    return this.seen.size;
  }

  /** The tasks weighted now (keyless ones left out) and their weights by the benchmark's rule. */
  private weights() {
    const tasks = this.config.tasks.filter((task) => !this.keyless.has(task));
    return { tasks, weights: scoreWeights(aggregationFor(this.datasetId), tasks, this.populations) };
  }

  private combine(measure: EstimateMeasure, w: ReadonlyMap<string, number>): SampleEstimate {
    const byTask = this.trackers.get(measure)!;
    const plan = this.plan;
    return combineStrata(
      [...w].filter(([, weight]) => weight > 0).map(([task, weight]) => ({ weight, tracker: byTask.get(task)!, looks: plan ? looksOf(plan, task) : undefined })),
      { alpha: this.alpha, plan: plan ? lookPlanFor(plan, measure) : undefined },
    );
  }

  /** Tunes every row's looks now, before any result (planned-looks.ts prepareLooks). */
  private prepareLooks(plan: RunLookPlan): void {
    const { weights } = this.weights();
    const rows = [weights.overall, weights.pooled, ...weights.groups.values(), ...this.config.tasks.map((task) => new Map([[task, 1]]))];
    for (const measure of this.measures) {
      if (measure === 'bitsPerByte') continue;
      const byTask = this.trackers.get(measure)!;
      for (const w of rows) {
        const strata = [...w].filter(([task, weight]) => weight > 0 && byTask.has(task)).map(([task, weight]) => ({ weight, inner: internalsOf(byTask.get(task)!)!, looks: looksOf(plan, task) }));
        if (strata.length > 0) prepareLooks(strata, lookPlanFor(plan, measure), this.alpha * plan.share);
      }
    }
  }

  /** The overall score's estimate of one measure alone (the precision stop reads this after each item); null with no interval to give. */
  overall(measure: EstimateMeasure = 'accuracy'): SampleEstimate | null {
    if (this.target === 'asked-in-file-order' || this.unavailable || !this.trackers.has(measure)) return null;
    return this.combine(measure, this.weights().weights.overall);
  }

  /**
   * A cheap stand-in for the overall fixed-n interval's half-width, in O(tasks): √(Σ w²·h²) of the
   * tasks' own fixed-n half-widths h (each with its finite-population correction). Null while a
   * weighted task has no value. What the precision stop checks before it pays for the sequence.
   */
  fixedHalfWidth(measure: EstimateMeasure = 'accuracy'): number | null {
    const byTask = this.trackers.get(measure);
    if (this.target === 'asked-in-file-order' || this.unavailable || !byTask) return null;
    let sum = 0;
    for (const [task, weight] of this.weights().weights.overall) {
      const f = byTask.get(task)?.fixedN();
      if (!f) return null;
      sum += (weight * (f.high - f.low)) ** 2 / 4;
    }
    return Math.sqrt(sum);
  }

  snapshot(): BenchmarkEstimate {
    const base = { target: this.target, scored: this.scoredCount, asked: this.seen.size, items: this.config.itemIds.length, failed: this.failedCount };
    if (this.target === 'asked-in-file-order') return { ...base, measures: [] };
    if (this.unavailable) return { ...base, measures: [], unavailable: this.unavailable };
    const { tasks, weights } = this.weights();
    const measures = this.measures.map((measure): MeasureEstimate => {
      const combine = (w: ReadonlyMap<string, number>) => this.combine(measure, w);
      const rows: EstimateRow[] = [
        { key: 'overall', kind: 'overall', of: null, estimate: combine(weights.overall) },
        { key: 'pooled', kind: 'pooled', of: null, estimate: combine(weights.pooled) },
        ...[...weights.groups].map(([group, w]): EstimateRow => ({ key: `group:${group}`, kind: 'group', of: group, estimate: combine(w) })),
        ...tasks.map((task): EstimateRow => ({ key: `task:${task}`, kind: 'task', of: task, estimate: combine(new Map([[task, 1]])) })),
      ];
      return { measure, bounded: measure !== 'bitsPerByte', rows };
    });
    return { ...base, measures };
  }
}

/**
 * A run's looks: at its precision stop's target, or (no stop) where a user watching would read ±5, ±3
 * and ±2 points and at its end (sample-estimate/look-plan.ts). Placed by the benchmark's overall
 * weights over every task of the run, before any result.
 */
function planOfRun(config: McRunConfig, datasetId: DatasetId, populations: Record<string, number>, alpha: number): RunLookPlan | null {
  const sampling = config.sampling;
  if (!sampling) return null;
  const rule = config.stopRule;
  const kind: PlanKind = rule?.kind === 'precision' ? { kind: 'precision', halfWidth: rule.halfWidth } : { kind: 'watch' };
  return runLookPlan({ tasks: config.tasks, populations, limitPerTask: config.limitPerTask, rule: sampling }, datasetId, kind, alpha);
}

/** The bets a measure's values take: Hoeffding's for right-or-wrong, Bernstein's for p(gold) (look-plan.ts boundFor). */
function lookPlanFor(plan: RunLookPlan, measure: EstimateMeasure): LookPlan {
  return planForValues(plan, measure === 'pGold' ? 'continuous' : 'accuracy');
}

/** The estimate of a stored run from all its results (fed in run order); never throws (failedEstimate). */
export function estimateOfRun(config: McRunConfig, datasetId: DatasetId, results: readonly McItemResult[]): BenchmarkEstimate {
  try {
    const estimator = new BenchmarkEstimator(config, datasetId);
    estimator.observeAll(results);
    return estimator.snapshot();
  } catch (error) {
    return failedEstimate(config, results.length, error);
  }
}

/**
 * What the page shows when computing the estimate threw (a record no check foresaw): no numbers and
 * the reason, so the rest of the run page is drawn. `asked`: the results there were.
 */
export function failedEstimate(config: Pick<McRunConfig, 'sampling' | 'limitPerTask' | 'itemIds'>, asked: number, error: unknown): BenchmarkEstimate {
  let target: EstimateTarget = 'asked-in-file-order';
  try {
    target = estimateTargetOf(config);
  } catch {
    // A sampling without a population: said as the oldest kind of record.
  }
  const detail = error instanceof Error ? error.message : String(error);
  return { target, measures: [], unavailable: { code: 'failed', detail }, scored: 0, asked, items: Array.isArray(config.itemIds) ? config.itemIds.length : 0, failed: 0 };
}

/** Half the width of an interval: what "known within ±X" means. Null without one. */
export function halfWidthOf(interval: { low: number; high: number } | null): number | null {
  return interval === null ? null : (interval.high - interval.low) / 2;
}
