// How many items a precision stop ("stop when the benchmark's score is known within ±X points",
// engine/stop-rule.ts) should take, before the run starts: the run is simulated with every answer a
// coin flip (accuracy 0.5 in every task, the widest case for a score in [0, 1]), its items asked
// round-robin across tasks as a shuffled run asks them (every task early), and the confidence
// sequence the stop reads (the same trackers, weights and rule) decides the first round narrow enough. A real
// model's accuracy away from 0.5 stops sooner; this is the number to plan by, not a promise.
import type { DatasetId } from '../benchmarks/types.ts';
import { aggregationFor } from './mc-aggregate.ts';
import { combineStrata, scoreWeights, stratumTracker } from './sample-estimate/index.ts';

export interface PrecisionPlan {
  /** Items the run should ask before it stops; `planned` when it would not stop before its last. */
  items: number;
  /** Items the run would ask without the stop. */
  planned: number;
  /** Whether the rule stops it before its last item. */
  stopsEarly: boolean;
}

/**
 * `populations`: each chosen task's items (N); `limitPerTask`: the run's items per task (null: all).
 * The sample's trackers use the task's whole population, as a random sample's estimate does.
 */
export function itemsForPrecision(
  datasetId: DatasetId,
  populations: Readonly<Record<string, number>>,
  limitPerTask: number | null,
  halfWidth: number,
  alpha = 0.05,
): PrecisionPlan {
  const tasks = Object.keys(populations).filter((task) => populations[task] > 0);
  const asked = new Map(tasks.map((task) => [task, Math.min(populations[task], limitPerTask ?? Infinity)]));
  const planned = [...asked.values()].reduce((a, b) => a + b, 0);
  if (tasks.length === 0 || !(halfWidth > 0)) return { items: planned, planned, stopsEarly: false };
  const weights = scoreWeights(aggregationFor(datasetId), tasks, { ...populations }).overall;
  const rounds = Math.max(...asked.values());
  const itemsAfter = (r: number) => [...asked.values()].reduce((sum, n) => sum + Math.min(n, r), 0);
  /** Whether the confidence sequence after `r` rounds is within ±halfWidth (trackers built afresh: O(items) pushes and one combine). */
  const narrowAfter = (r: number): boolean => {
    const trackers = new Map(tasks.map((task) => [task, stratumTracker(populations[task], { alpha })]));
    for (let k = 0; k < r; k++) {
      for (const task of tasks) {
        // Alternating right and wrong: a task's running accuracy stays at 0.5, its variance the largest.
        if (k < asked.get(task)!) trackers.get(task)!.push(k % 2 === 0 ? 1 : 0);
      }
    }
    const sequence = combineStrata([...weights].filter(([, w]) => w > 0).map(([task, weight]) => ({ weight, tracker: trackers.get(task)! })), { alpha }).sequence;
    return sequence !== null && (sequence.high - sequence.low) / 2 <= halfWidth;
  };
  // The sequence narrows as rounds go on: doubling, then halving the gap, finds the first round
  // narrow enough in O(log rounds) combines (each costs milliseconds: sample-estimate/combine.ts).
  let high = 1;
  while (high < rounds && !narrowAfter(high)) high = Math.min(rounds, high * 2);
  if (high >= rounds && !narrowAfter(rounds)) return { items: planned, planned, stopsEarly: false };
  let low = Math.floor(high / 2);
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (narrowAfter(mid)) high = mid;
    else low = mid;
  }
  const items = itemsAfter(high);
  return { items, planned, stopsEarly: items < planned };
}
