// Two runs of one benchmark on the same random sample, asked in the same random order (issue 36):
// the paired per-item difference "other − baseline" (accuracy: −1, 0 or +1 per item), per task a
// stratum of differences in [−1, 1] sampled without replacement (sample-estimate/), combined by the
// benchmark's own rule (scoreWeights). Its confidence sequence is valid whenever the user (or the
// sign-settled stop rule, engine/stop-rule-paired.ts) looks and stops: "B is better than A by 2 to 9
// points, at any stopping time", or "not settled yet: −1 to +6".
//
// Rules:
//  - Only runs whose configs drew the same items in the same order qualify (pairedOrderProblem): both
//    multiple choice on one dataset, both with `sampling` of equal draw, seed, order and block, order
//    'shuffled', and the same itemIds. What the interval describes follows the shared config
//    (estimateTargetOf): the benchmark for a random sample (or every item), the chosen items for the
//    first n in file order asked in a random order.
//  - Per task, differences are taken in the shared order, and only while both runs have a result for
//    the task's next item: the pairs taken are then the first k of the task's random order, a random
//    sample without replacement, which is what the confidence sequence needs. An item either run
//    could not score (failed, no answer key) gives no difference and is passed over, as the run
//    page's estimate leaves it out.
//  - An item whose task neither run states (neither has asked it) ends every task there: whatever
//    follows it in the order could be of any task, so no later pair is known to be in order.
import type { DatasetId } from '../benchmarks/types.ts';
import type { McRunConfig } from '../record/run.ts';
import { estimateTargetOf, type EstimateTarget } from './benchmark-estimate.ts';
import { aggregationFor } from './mc-aggregate.ts';
import { combineStrata, scoreWeights, stratumTracker } from './sample-estimate/index.ts';
import type { SampleEstimate, ScoreInterval, StratumTracker } from './sample-estimate/types.ts';
import { LOOK_SHARE, type RunLookPlan } from './sample-estimate/look-plan.ts';
import { looksOf, planForValues, runLookPlan } from './run-look-plan.ts';

export const PAIRED_SEQUENCE_ALPHA = 0.05;

/** What a run's config must share with the other's (a stored run's McRunConfig has it all). */
export type PairedConfig = Pick<McRunConfig, 'itemIds' | 'tasks' | 'limitPerTask' | 'sampling'> & { kind: 'multiple-choice' | 'generation'; datasetId?: DatasetId };

/** One item's outcome in a run: a stored McItemResult or Compare's ComparableMcItem. */
export interface PairedItem {
  itemId: string;
  task: string;
  correct: boolean | null;
  failure?: unknown;
}

/** Why two runs have no paired sequence. */
export type PairedOrderProblem =
  | 'not-multiple-choice'
  | 'other-dataset'
  | 'no-sampling'
  | 'file-order'
  | 'sampling-differs'
  | 'items-differ'
  /** A task has more items in the order than its sample's population says (an inconsistent record): nothing is estimated. */
  | 'sample-inconsistent';

/** "other − baseline", settled or not. `equal`: every item done and the difference is exactly 0. */
export type PairedVerdict = 'other-better' | 'baseline-better' | 'unsettled' | 'equal';

export interface PairedSequence {
  target: Exclude<EstimateTarget, 'asked-in-file-order'>;
  /** The difference of scores by the benchmark's rule, other − baseline, a share in [−1, 1]. */
  estimate: SampleEstimate;
  /** Per task: the task's own difference (weight 1). */
  tasks: { task: string; estimate: SampleEstimate }[];
  /** Pairs taken (both runs scored the item, in order). */
  pairs: number;
  alpha: number;
  verdict: PairedVerdict;
}

/** Null when the two configs asked the same items in the same random order; else why not. */
export function pairedOrderProblem(baseline: PairedConfig, other: PairedConfig): PairedOrderProblem | null {
  if (baseline.kind !== 'multiple-choice' || other.kind !== 'multiple-choice') return 'not-multiple-choice';
  if (baseline.datasetId !== undefined && other.datasetId !== undefined && baseline.datasetId !== other.datasetId) return 'other-dataset';
  const a = baseline.sampling;
  const b = other.sampling;
  if (!a || !b) return 'no-sampling';
  if (a.order !== 'shuffled' || b.order !== 'shuffled') return 'file-order';
  if (a.draw !== b.draw || a.seed !== b.seed || a.block !== b.block) return 'sampling-differs';
  if (baseline.itemIds.length !== other.itemIds.length || baseline.itemIds.some((id, i) => other.itemIds[i] !== id)) return 'items-differ';
  return null;
}

/** The verdict an interval of "other − baseline" gives. */
export function verdictOf(interval: ScoreInterval | null, exact: boolean): PairedVerdict {
  if (!interval) return 'unsettled';
  if (interval.low > 0) return 'other-better';
  if (interval.high < 0) return 'baseline-better';
  return exact && interval.low === 0 && interval.high === 0 ? 'equal' : 'unsettled';
}

const valueOf = (item: PairedItem): number | null => (item.failure !== undefined || item.correct === null ? null : item.correct ? 1 : 0);

/**
 * The paired difference of two runs on one order, fed results as they come (either run, any order):
 * each task's stratum takes its next pair once both runs have that item. O(1) amortized per result;
 * a snapshot costs O(tasks + groups).
 */
export class PairedSequenceEstimator {
  readonly target: Exclude<EstimateTarget, 'asked-in-file-order'>;
  private readonly alpha: number;
  private readonly populations: Record<string, number>;
  private readonly trackers = new Map<string, StratumTracker>();
  /** Each task's item ids in the shared order (up to the first item of unknown task). */
  private readonly order = new Map<string, string[]>();
  private readonly cursor = new Map<string, number>();
  private readonly values: [Map<string, number | null>, Map<string, number | null>] = [new Map(), new Map()];
  private pairCount = 0;
  /** The looks of the paired sequence, fixed by the shared config before any result. */
  readonly plan: RunLookPlan | null;
  /** Set when the order does not fit the sample (see the constructor): no pair is taken. */
  problem: 'sample-inconsistent' | null = null;

  /**
   * `config`: the shared config (pairedOrderProblem null). `taskOf`: each item's task as either run's
   * results state it; the order is cut at the first item not in it (see the header).
   */
  constructor(
    private readonly config: PairedConfig,
    private readonly datasetId: DatasetId,
    taskOf: ReadonlyMap<string, string>,
    options: { alpha?: number } = {},
  ) {
    const target = estimateTargetOf(config);
    if (target === 'asked-in-file-order') throw new RangeError('a paired sequence needs runs asked in a random order (config.sampling.order shuffled)');
    this.target = target;
    this.alpha = options.alpha ?? PAIRED_SEQUENCE_ALPHA;
    this.populations = {};
    for (const task of config.tasks) {
      const n = config.sampling?.population[task] ?? 0;
      this.populations[task] = target === 'chosen-items' && config.limitPerTask !== null ? Math.min(n, config.limitPerTask) : n;
    }
    // The paired looks (sample-estimate/look-plan.ts): where a difference would be known within ±10 to ±2.5 points.
    this.plan = config.sampling ? runLookPlan({ tasks: config.tasks, populations: this.populations, limitPerTask: config.limitPerTask, rule: config.sampling }, datasetId, { kind: 'paired' }, this.alpha, 2) : null;
    const sequenceAlpha = this.plan ? this.alpha * (1 - LOOK_SHARE) : this.alpha;
    for (const task of config.tasks) {
      this.trackers.set(task, stratumTracker(Math.max(1, this.populations[task]), { alpha: this.alpha, range: [-1, 1], sequenceAlpha }));
      this.order.set(task, []);
      this.cursor.set(task, 0);
    }
    for (const id of config.itemIds) {
      const task = taskOf.get(id);
      if (task === undefined) break;
      this.order.get(task)?.push(id);
    }
    // A record whose results put more items in a task than its population holds is not a sample of it:
    // no pair is taken (a tracker refuses a value past its population), and the callers say why.
    for (const [task, ids] of this.order) if (ids.length > (this.populations[task] ?? 0)) this.problem = 'sample-inconsistent';
  }

  /** Takes in one run's result for an item (side 0: the baseline, 1: the other run); a repeat is ignored. */
  observe(side: 0 | 1, item: PairedItem): void {
    const values = this.values[side];
    if (values.has(item.itemId)) return;
    values.set(item.itemId, valueOf(item));
    this.advance(item.task);
  }

  /** Takes the pairs of `task` that both runs now have, in order, up to the first item one lacks. */
  private advance(task: string): void {
    const order = this.order.get(task);
    const tracker = this.trackers.get(task);
    if (!order || !tracker || this.problem) return;
    let at = this.cursor.get(task)!;
    const [base, other] = this.values;
    for (; at < order.length; at++) {
      const a = base.get(order[at]);
      const b = other.get(order[at]);
      if (a === undefined || b === undefined) break;
      if (a !== null && b !== null) {
        tracker.push(b - a);
        this.pairCount++;
      }
    }
    this.cursor.set(task, at);
  }

  get pairs(): number {
    return this.pairCount;
  }

  /** The benchmark's difference, other − baseline, by its own rule (cheaper than a snapshot: no per-task rows). */
  overall(): SampleEstimate {
    return this.combine(this.strata());
  }

  private combine(strata: readonly { weight: number; tracker: StratumTracker; task: string }[]): SampleEstimate {
    const plan = this.plan;
    return combineStrata(
      strata.map(({ weight, tracker, task }) => ({ weight, tracker, looks: plan ? looksOf(plan, task) : undefined })),
      { alpha: this.alpha, plan: plan ? planForValues(plan, 'paired') : undefined },
    );
  }

  /** Whether the sign is settled now (what the sign-settled stop rule asks after each item). */
  verdict(): PairedVerdict {
    const estimate = this.overall();
    return verdictOf(estimate.sequence, estimate.exact);
  }

  snapshot(): PairedSequence {
    const estimate = this.overall();
    return {
      target: this.target,
      estimate,
      tasks: this.weighted().map((task) => ({ task, estimate: this.combine([{ weight: 1, tracker: this.trackers.get(task)!, task }]) })),
      pairs: this.pairCount,
      alpha: this.alpha,
      verdict: verdictOf(estimate.sequence, estimate.exact),
    };
  }

  /**
   * The tasks that weigh: a task none of whose pairs has a value yet still does (the estimate waits
   * for it: null), as a benchmark's score cannot leave a task out; a task with no items does not.
   */
  private weighted(): string[] {
    return this.config.tasks.filter((task) => this.populations[task] > 0);
  }

  private strataCache: { weight: number; tracker: StratumTracker; task: string }[] | null = null;
  private strata(): { weight: number; tracker: StratumTracker; task: string }[] {
    this.strataCache ??= [...scoreWeights(aggregationFor(this.datasetId), this.weighted(), this.populations).overall]
      .filter(([, w]) => w > 0)
      .map(([task, weight]) => ({ weight, tracker: this.trackers.get(task)!, task }));
    return this.strataCache;
  }
}

/** A run as the paired sequence reads it: its config and its items' outcomes. */
export interface PairedRun {
  config: PairedConfig;
  items: readonly PairedItem[];
}

/**
 * The paired sequence of two runs on one order ("other − baseline"), or why there is none. The
 * baseline's config is the shared one (pairedOrderProblem checked it equals the other's).
 */
export function pairedSequence(
  datasetId: DatasetId,
  baseline: PairedRun,
  other: PairedRun,
  options: { alpha?: number } = {},
): { sequence: PairedSequence } | { problem: PairedOrderProblem } {
  const problem = pairedOrderProblem(baseline.config, other.config);
  if (problem) return { problem };
  const taskOf = new Map<string, string>();
  for (const item of [...baseline.items, ...other.items]) taskOf.set(item.itemId, item.task);
  const estimator = new PairedSequenceEstimator(baseline.config, datasetId, taskOf, options);
  if (estimator.problem) return { problem: estimator.problem };
  for (const item of baseline.items) estimator.observe(0, item);
  for (const item of other.items) estimator.observe(1, item);
  return { sequence: estimator.snapshot() };
}
