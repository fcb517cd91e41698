// How many items a precision stop should take (core/metrics/precision-items.ts): the run simulated
// with coin-flip answers, stopped by the same confidence sequence the scheduler reads.
import { describe, expect, it } from 'vitest';
import { itemsForPrecision } from '../../../src/lib/core/metrics/precision-items.ts';
import { combineStrata, scoreWeights, stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import { aggregationFor } from '../../../src/lib/core/metrics/mc-aggregate.ts';
import { ACLUE_SIZES, ANCIENTBENCH_SIZES } from './sample-estimate-sim.ts';

/** The overall half-width after `perTask` coin-flip items of each task (round-robin), computed here. */
function halfWidthAfter(sizes: Record<string, number>, perTask: number, datasetId: 'aclue' | 'ancientbench'): number {
  const tasks = Object.keys(sizes);
  const weights = scoreWeights(aggregationFor(datasetId), tasks, sizes).overall;
  const trackers = new Map(tasks.map((t) => [t, stratumTracker(sizes[t])]));
  for (let k = 0; k < perTask; k++) for (const t of tasks) if (k < sizes[t]) trackers.get(t)!.push(k % 2 === 0 ? 1 : 0);
  const s = combineStrata([...weights].map(([t, weight]) => ({ weight, tracker: trackers.get(t)! })), { alpha: 0.05 }).sequence!;
  return (s.high - s.low) / 2;
}

describe('itemsForPrecision', () => {
  it('stops at the first round whose confidence sequence is within ±X, and asks more for a narrower X', () => {
    const plan = itemsForPrecision('aclue', ACLUE_SIZES, null, 0.05);
    const tasks = Object.keys(ACLUE_SIZES).length;
    expect(plan.stopsEarly).toBe(true);
    expect(plan.planned).toBe(Object.values(ACLUE_SIZES).reduce((a, b) => a + b, 0));
    // The plan's items are whole rounds (a task that ran out of items adds none).
    const itemsAfter = (r: number) => Object.values(ACLUE_SIZES).reduce((sum, n) => sum + Math.min(n, r), 0);
    let rounds = 1;
    while (itemsAfter(rounds) < plan.items) rounds++;
    expect(itemsAfter(rounds)).toBe(plan.items);
    expect(plan.items).toBeGreaterThan(tasks);
    expect(halfWidthAfter(ACLUE_SIZES, rounds, 'aclue')).toBeLessThanOrEqual(0.05);
    expect(halfWidthAfter(ACLUE_SIZES, rounds - 1, 'aclue')).toBeGreaterThan(0.05);
    expect(itemsForPrecision('aclue', ACLUE_SIZES, null, 0.03).items).toBeGreaterThan(plan.items);
  });

  it('says when the run’s items are not enough, and runs them all', () => {
    const plan = itemsForPrecision('aclue', ACLUE_SIZES, 10, 0.01);
    expect(plan).toEqual({ items: 10 * Object.keys(ACLUE_SIZES).length, planned: 10 * Object.keys(ACLUE_SIZES).length, stopsEarly: false });
  });

  it('plans AncientBench’s 28,707 items by its competencies (the time it takes printed, not asserted)', () => {
    const started = performance.now();
    const plan = itemsForPrecision('ancientbench', ANCIENTBENCH_SIZES, null, 0.02);
    const ms = performance.now() - started;
    expect(plan.stopsEarly).toBe(true);
    expect(plan.planned).toBe(28_707);
    console.log(`AncientBench ±2 points: ${plan.items} items of ${plan.planned}, planned in ${ms.toFixed(0)} ms`);
  });
});
