// A run's planned looks (sample-estimate/look-plan.ts) from its record, before any result: the run
// page's estimate, the precision stop, the plan shown before a run and Compare's paired sequence all
// place the same looks for the same config, so a stored run's intervals are the ones it stopped by.
import type { DatasetId } from '../benchmarks/types.ts';
import { DEFAULT_BLOCK, DEFAULT_BLOCK_GROWTH, MAX_BLOCK, type RunSampling, type SamplingRule } from '../protocols/run-sampling.ts';
import { aggregationFor } from './mc-aggregate.ts';
import { scoreWeights } from './sample-estimate/index.ts';
import { boundFor, lookPlan, type PlanKind, type RunLookPlan } from './sample-estimate/look-plan.ts';
import type { LookPlan } from './sample-estimate/planned-looks.ts';

/** The blocks a new run asks in (run-sampling.ts newRunSampling): what a plan made before the run assumes. */
export const NEW_RUN_BLOCKS: Pick<SamplingRule, 'block' | 'growth' | 'maxBlock'> = { block: DEFAULT_BLOCK, growth: DEFAULT_BLOCK_GROWTH, maxBlock: MAX_BLOCK };

export interface PlannedRun {
  tasks: readonly string[];
  /** Each task's population for the estimate's target (the task's items, or the items chosen of it). */
  populations: Readonly<Record<string, number>>;
  limitPerTask: number | null;
  rule: Pick<RunSampling, 'block' | 'growth' | 'maxBlock'>;
}

/**
 * The looks of a run on `datasetId` by its benchmark's overall weights. `span`: 1 for a score in
 * [0, 1], 2 for a paired difference in [−1, 1]. Null when no task has an item.
 */
export function runLookPlan(run: PlannedRun, datasetId: DatasetId, kind: PlanKind, alpha: number, span = 1): RunLookPlan | null {
  const tasks = run.tasks.filter((task) => (run.populations[task] ?? 0) > 0);
  // A population that is no count of items (an edited record) has no plan; its trackers refuse it and the page says so.
  if (tasks.length === 0 || tasks.some((task) => !Number.isSafeInteger(run.populations[task]))) return null;
  if (run.limitPerTask !== null && !(Number.isSafeInteger(run.limitPerTask) && run.limitPerTask >= 0)) return null;
  const asked: Record<string, number> = {};
  for (const task of tasks) asked[task] = Math.min(run.populations[task], run.limitPerTask ?? Infinity);
  const weights = scoreWeights(aggregationFor(datasetId), tasks, run.populations).overall;
  const plan = lookPlan({ tasks, asked, populations: run.populations, weights, rule: run.rule, span, alpha }, kind);
  return plan.looks.length > 0 ? plan : null;
}

/** The plan as combineStrata reads it for values of one kind (the looks stay; the bets follow the values). */
export function planForValues(plan: RunLookPlan, values: 'accuracy' | 'paired' | 'continuous'): LookPlan {
  return { masses: plan.masses, share: plan.share, ...boundFor(values) };
}

/** A task's values at each look of the plan. */
export function looksOf(plan: RunLookPlan, task: string): number[] {
  return plan.looks.map((look) => look.counts[task] ?? 0);
}
