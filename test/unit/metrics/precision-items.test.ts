// How many items a precision stop will take (core/metrics/precision-items.ts), said before the run:
// the planned look for ±X. Checked against the run itself: a run of ACLUE's real task sizes, in the
// order a new run asks (run-sampling.ts sampleRun), with right and wrong answers alternating in every
// task, fed to the estimator the stop reads, is within ±X after exactly that many items and not one
// item before.
import { describe, expect, it } from 'vitest';
import { itemsForPrecision } from '../../../src/lib/core/metrics/precision-items.ts';
import { BenchmarkEstimator, halfWidthOf } from '../../../src/lib/core/metrics/benchmark-estimate.ts';
import { newRunSampling, sampleRun } from '../../../src/lib/core/protocols/run-sampling.ts';
import type { McItemResult, McRunConfig } from '../../../src/lib/core/record/run.ts';
import { ACLUE_SIZES, ANCIENTBENCH_SIZES } from './sample-estimate-sim.ts';

/** The overall half-width after each of the first `upTo` items of a precision-stopped ACLUE run. */
function widthsOfRun(halfWidth: number, upTo: number, right: (k: number, task: string) => boolean): { widths: Map<number, number>; estimator: BenchmarkEstimator } {
  const tasks = Object.keys(ACLUE_SIZES);
  const population = tasks.map((task) => ({ task, itemIds: Array.from({ length: ACLUE_SIZES[task] }, (_, i) => `${task}/${i}`) }));
  const sampling = newRunSampling('random', 12345, { ...ACLUE_SIZES });
  const { itemIds } = sampleRun(population, null, sampling);
  const config = { kind: 'multiple-choice', tasks, limitPerTask: null, itemIds, scoring: 'letter-logits', sampling, stopRule: { kind: 'precision', halfWidth, alpha: 0.05 } } as McRunConfig;
  const estimator = new BenchmarkEstimator(config, 'aclue', { measures: ['accuracy'] });
  const seen = new Map<string, number>();
  const widths = new Map<number, number>();
  for (let index = 0; index < upTo; index++) {
    const id = itemIds[index];
    const task = id.slice(0, id.lastIndexOf('/'));
    const k = seen.get(task) ?? 0;
    seen.set(task, k + 1);
    estimator.observe({ itemId: id, task, index, correct: right(k, task) } as McItemResult);
    widths.set(index + 1, halfWidthOf(estimator.overall()?.sequence ?? null) ?? Infinity);
  }
  return { widths, estimator };
}

describe('itemsForPrecision', () => {
  it('is the moment the run’s sequence is within ±X, whatever the answers, and asks more for a narrower X', () => {
    const plan = itemsForPrecision('aclue', ACLUE_SIZES, null, 0.05);
    expect(plan.stopsEarly).toBe(true);
    expect(plan.planned).toBe(4966);
    expect(itemsForPrecision('aclue', ACLUE_SIZES, null, 0.03).items).toBeGreaterThan(plan.items);
    // Coin flips (accuracy ½, the widest case) and a model right on 7 items in 8: the same moment.
    for (const right of [(k: number) => k % 2 === 0, (k: number) => k % 8 !== 3]) {
      const { widths } = widthsOfRun(0.05, plan.items, right);
      expect(widths.get(plan.items)!).toBeLessThanOrEqual(0.05);
      expect(widths.get(plan.items - 1)!).toBeGreaterThan(0.05);
    }
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
