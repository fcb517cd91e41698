// How many items a precision stop ("stop when the benchmark's score is known within ±X points",
// engine/stop-rule.ts) will take, before the run starts: the run's planned look for ±X
// (sample-estimate/look-plan.ts). The sequence the stop reads is Hoeffding's at that look, whose
// width does not depend on the answers, so a run whose look is reached stops there, whatever the
// model's accuracy. A model far from accuracy ½ may stop sooner, when the all-times sequence (which
// reads each task's own variance) gets there first; this is the number to plan by, not a promise.
import type { DatasetId } from '../benchmarks/types.ts';
import type { SamplingRule } from '../protocols/run-sampling.ts';
import { NEW_RUN_BLOCKS, runLookPlan } from './run-look-plan.ts';

export interface PrecisionPlan {
  /** Items the run should ask before it stops; `planned` when it would not stop before its last. */
  items: number;
  /** Items the run would ask without the stop. */
  planned: number;
  /** Whether the rule stops it before its last item. */
  stopsEarly: boolean;
}

/**
 * `populations`: each chosen task's items (N), in the run's task order; `limitPerTask`: the run's
 * items per task (null: all); `rule`: the order's blocks (a new run's by default).
 */
export function itemsForPrecision(
  datasetId: DatasetId,
  populations: Readonly<Record<string, number>>,
  limitPerTask: number | null,
  halfWidth: number,
  alpha = 0.05,
  rule: Pick<SamplingRule, 'block' | 'growth' | 'maxBlock'> = NEW_RUN_BLOCKS,
): PrecisionPlan {
  const tasks = Object.keys(populations).filter((task) => populations[task] > 0);
  const planned = tasks.reduce((sum, task) => sum + Math.min(populations[task], limitPerTask ?? Infinity), 0);
  if (tasks.length === 0 || !(halfWidth > 0)) return { items: planned, planned, stopsEarly: false };
  const plan = runLookPlan({ tasks, populations, limitPerTask, rule }, datasetId, { kind: 'precision', halfWidth }, alpha);
  // The first look is the target's own; a target the run cannot reach has its one look at the end.
  const items = Math.min(planned, plan?.looks[0]?.at ?? planned);
  return { items, planned, stopsEarly: items < planned };
}
