// The whole benchmark's estimate from a run's results (core/metrics/benchmark-estimate.ts): the
// benchmark's own rule, fed in run order, what its intervals may describe, exact at the end. The
// statistics themselves (coverage) are sample-estimate's tests; these check how a run feeds them.
import { describe, expect, it } from 'vitest';
import { BenchmarkEstimator, estimateOfRun, estimateTargetOf, measuresOf } from '../../../src/lib/core/metrics/benchmark-estimate.ts';
import { aggregateForDataset } from '../../../src/lib/core/metrics/mc-aggregate.ts';
import { combineStrata, stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import { looksOf, planForValues, runLookPlan } from '../../../src/lib/core/metrics/run-look-plan.ts';
import type { McItemResult, McRunConfig } from '../../../src/lib/core/record/run.ts';
import type { RunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';

// Two ACLUE tasks (overall: the mean of tasks) in different categories.
const ACLUE = ['古文单字多义', '对联'];

function config(tasks: string[], population: Record<string, number>, sampling: Partial<RunSampling> | null, limitPerTask: number | null = null, scoring: McRunConfig['scoring'] = 'letter-logits'): McRunConfig {
  const itemIds = tasks.flatMap((task) => Array.from({ length: Math.min(population[task], limitPerTask ?? Infinity) }, (_, i) => `${task}/${i}`));
  return {
    kind: 'multiple-choice',
    tasks,
    limitPerTask,
    itemIds,
    scoring,
    ...(sampling ? { sampling: { draw: 'random', seed: 1, order: 'shuffled', block: 4, population, ...sampling } } : {}),
  } as McRunConfig;
}

/** A letter result with p(gold) `p`, right when `correct`. */
function result(task: string, i: number, index: number, correct: boolean | null, p = correct ? 0.7 : 0.2): McItemResult {
  return { itemId: `${task}/${i}`, task, index, correct, gold: correct === null ? null : 'A', letters: ['A', 'B', 'C', 'D'], probs: [p, (1 - p) / 3, (1 - p) / 3, (1 - p) / 3], logProbs: [Math.log(p), -2, -2, -2], prediction: correct ? 'A' : 'B' } as McItemResult;
}

/** Results of two tasks interleaved round-robin, item k right when right(task, k). */
function interleaved(tasks: string[], counts: Record<string, number>, right: (task: string, k: number) => boolean): McItemResult[] {
  const out: McItemResult[] = [];
  for (let k = 0; out.length < Object.values(counts).reduce((a, b) => a + b, 0); k++) for (const task of tasks) if (k < counts[task]) out.push(result(task, k, out.length, right(task, k)));
  return out;
}

describe('estimateTargetOf', () => {
  it('says what the intervals can describe from how the items were chosen and ordered', () => {
    expect(estimateTargetOf({ limitPerTask: 10 })).toBe('asked-in-file-order');
    expect(estimateTargetOf({ limitPerTask: null, sampling: { draw: 'first', seed: 1, order: 'file', block: 1, population: { a: 5 } } })).toBe('asked-in-file-order');
    expect(estimateTargetOf({ limitPerTask: 10, sampling: { draw: 'random', seed: 1, order: 'shuffled', block: 1, population: { a: 50 } } })).toBe('benchmark');
    expect(estimateTargetOf({ limitPerTask: 10, sampling: { draw: 'first', seed: 1, order: 'shuffled', block: 1, population: { a: 50 } } })).toBe('chosen-items');
    // The first 10 of a task of 8 items is the whole task.
    expect(estimateTargetOf({ limitPerTask: 10, sampling: { draw: 'first', seed: 1, order: 'shuffled', block: 1, population: { a: 8 } } })).toBe('benchmark');
  });

  it('gives the measures each scoring has: bits per byte and the other cloze rules for cloze only', () => {
    expect(measuresOf('letter-logits')).toEqual(['accuracy', 'pGold']);
    expect(measuresOf('generate-extract')).toEqual(['accuracy']);
    expect(measuresOf('cloze')).toEqual(['accuracy', 'acc_norm', 'acc_bytes', 'pmi', 'pGold', 'bitsPerByte']);
  });
});

describe('BenchmarkEstimator', () => {
  const population = { [ACLUE[0]]: 40, [ACLUE[1]]: 10 };

  it('estimates the mean of the tasks (not the item average) with both intervals, from a part of a random sample', () => {
    const c = config(ACLUE, population, {});
    const all = interleaved(ACLUE, population, (task, k) => (task === ACLUE[0] ? k % 4 !== 0 : k % 2 === 0));
    const part = all.slice(0, 15);
    const e = estimateOfRun(c, 'aclue', part);
    expect(e.target).toBe('benchmark');
    const overall = e.measures.find((m) => m.measure === 'accuracy')!.rows[0];
    expect(overall.key).toBe('overall');
    // The rule, recomputed here: each task's share of right answers, then their plain mean.
    const mean = (task: string) => part.filter((r) => r.task === task).reduce((s, r) => s + (r.correct ? 1 : 0), 0) / part.filter((r) => r.task === task).length;
    expect(overall.estimate.estimate).toBeCloseTo((mean(ACLUE[0]) + mean(ACLUE[1])) / 2, 12);
    expect(overall.estimate.exact).toBe(false);
    expect(overall.estimate.fixedN).not.toBeNull();
    expect(overall.estimate.sequence).not.toBeNull();
    // The same numbers as the trackers fed by hand in run order, with the benchmark's weights (½, ½)
    // and the run's looks (no stop: where ±5, ±3, ±2 points would be read, and the end).
    const plan = runLookPlan({ tasks: ACLUE, populations: population, limitPerTask: null, rule: c.sampling! }, 'aclue', { kind: 'watch' }, 0.05)!;
    expect(plan.looks.map((l) => l.at)).toEqual([50]);
    const a = stratumTracker(40, { sequenceAlpha: 0.01 }), b = stratumTracker(10, { sequenceAlpha: 0.01 });
    for (const r of part) (r.task === ACLUE[0] ? a : b).push(r.correct ? 1 : 0);
    const strata = [{ weight: 0.5, tracker: a, looks: looksOf(plan, ACLUE[0]) }, { weight: 0.5, tracker: b, looks: looksOf(plan, ACLUE[1]) }];
    expect(overall.estimate).toEqual(combineStrata(strata, { alpha: 0.05, plan: planForValues(plan, 'accuracy') }));

    // Pooled weighs tasks by their populations (40 : 10), unlike the rule.
    const pooled = e.measures[0].rows.find((r) => r.kind === 'pooled')!;
    expect(pooled.estimate.estimate).toBeCloseTo(0.8 * mean(ACLUE[0]) + 0.2 * mean(ACLUE[1]), 12);
    expect(e.measures[0].rows.filter((r) => r.kind === 'task').map((r) => r.of)).toEqual(ACLUE);
  });

  it('splits α: before the first look the all-times sequence at 0.01 alone; at a look, the tuned one cuts it', () => {
    const big = { [ACLUE[0]]: 400, [ACLUE[1]]: 100 };
    const c = config(ACLUE, big, {});
    const all = interleaved(ACLUE, big, (task, k) => (task === ACLUE[0] ? k % 4 !== 0 : k % 2 === 0));
    const plan = new BenchmarkEstimator(c, 'aclue').plan!;
    const first = plan.looks[0].at;
    const bare = (n: number, alpha: number) => {
      const a = stratumTracker(400, { sequenceAlpha: alpha }), b = stratumTracker(100, { sequenceAlpha: alpha });
      for (const r of all.slice(0, n)) (r.task === ACLUE[0] ? a : b).push(r.correct ? 1 : 0);
      return combineStrata([{ weight: 0.5, tracker: a }, { weight: 0.5, tracker: b }], { alpha }).sequence!;
    };
    const before = estimateOfRun(c, 'aclue', all.slice(0, first - 1)).measures[0].rows[0].estimate.sequence!;
    expect(before).toEqual(bare(first - 1, 0.01));
    expect(before.high - before.low).toBeGreaterThan(bare(first - 1, 0.05).high - bare(first - 1, 0.05).low);
    const at = estimateOfRun(c, 'aclue', all.slice(0, first)).measures[0].rows[0].estimate.sequence!;
    expect(at.high - at.low).toBeLessThan(bare(first, 0.01).high - bare(first, 0.01).low);
  });

  it('feeds results in the order the run asked them, whatever order they come in, and each item once', () => {
    const c = config(ACLUE, population, {});
    // Right first, then wrong: a confidence sequence (its running intersection) depends on the order.
    const part = interleaved(ACLUE, population, (_t, k) => k < 6).slice(0, 24);
    const inOrder = estimateOfRun(c, 'aclue', part);
    const shuffled = estimateOfRun(c, 'aclue', [...part].reverse());
    expect(shuffled).toEqual(inOrder);
    const fedReversed = new BenchmarkEstimator(c, 'aclue');
    for (const r of [...part].reverse()) fedReversed.observe(r);
    expect(fedReversed.snapshot().measures[0].rows[0].estimate.sequence).not.toEqual(inOrder.measures[0].rows[0].estimate.sequence);
    const twice = new BenchmarkEstimator(c, 'aclue');
    twice.observeAll(part);
    // An item that comes again (with its rotations) is the same item.
    for (const r of part.slice(0, 5)) twice.observe({ ...r, correct: !r.correct });
    expect(twice.snapshot()).toEqual(inOrder);
  });

  it('is the exact score, the aggregate’s own, when every item is done', () => {
    const c = config(ACLUE, population, {});
    const all = interleaved(ACLUE, population, (task, k) => (task === ACLUE[0] ? k % 4 !== 0 : k % 2 === 0));
    const e = estimateOfRun(c, 'aclue', all);
    const overall = e.measures[0].rows[0].estimate;
    expect(overall.exact).toBe(true);
    expect(overall.estimate).toBeCloseTo(aggregateForDataset('aclue', all).overall.accuracy!, 12);
    expect(overall.n).toBe(50);
    expect(overall.population).toBe(50);
  });

  it('describes the chosen items when they are the first of each task, and gives no interval for a run in file order', () => {
    const chosen = config(ACLUE, population, { draw: 'first' }, 5);
    const part = interleaved(ACLUE, { [ACLUE[0]]: 5, [ACLUE[1]]: 5 }, (_t, k) => k % 2 === 0);
    const e = estimateOfRun(chosen, 'aclue', part);
    expect(e.target).toBe('chosen-items');
    expect(e.measures[0].rows[0].estimate.population).toBe(10);
    expect(e.measures[0].rows[0].estimate.exact).toBe(true);
    const old = estimateOfRun(config(ACLUE, population, null, 5), 'aclue', part.slice(0, 4));
    expect(old.target).toBe('asked-in-file-order');
    expect(old.measures).toEqual([]);
    expect(old.asked).toBe(4);
  });

  it('leaves failed items and tasks without keys out, and counts the failures', () => {
    const c = config(ACLUE, population, {});
    const part = [result(ACLUE[0], 0, 0, true), { ...result(ACLUE[0], 1, 1, null), failure: { code: 'run.item-too-long', params: {} } } as McItemResult, result(ACLUE[1], 0, 2, null), result(ACLUE[1], 1, 3, null)];
    const e = estimateOfRun(c, 'aclue', part);
    expect(e.failed).toBe(1);
    expect(e.scored).toBe(1);
    // ACLUE[1] has only keyless results: left out of the weights, as the aggregate leaves it out of its mean.
    expect(e.measures[0].rows[0].estimate.estimate).toBe(1);
    expect(e.measures[0].rows.some((r) => r.of === ACLUE[1])).toBe(false);
  });

  it('gives p(gold) both intervals and bits per byte the fixed-n one only', () => {
    const c = config(ACLUE, population, {}, null, 'cloze');
    const cloze = (task: string, i: number, index: number) =>
      ({ ...result(task, i, index, i % 2 === 0), cloze: { logLikelihoods: [-2, -3, -4, -5], charCounts: [2, 2, 2, 2], byteCounts: [6, 6, 6, 6], tokenCounts: [1, 1, 1, 1], unconditional: [-1, -1, -1, -1] } }) as unknown as McItemResult;
    const part = [0, 1, 2, 3].flatMap((i) => [cloze(ACLUE[0], i, 2 * i), cloze(ACLUE[1], i, 2 * i + 1)]);
    const e = estimateOfRun(c, 'aclue', part);
    const byMeasure = new Map(e.measures.map((m) => [m.measure, m]));
    expect(byMeasure.get('pGold')!.rows[0].estimate.sequence).not.toBeNull();
    const bpb = byMeasure.get('bitsPerByte')!;
    expect(bpb.bounded).toBe(false);
    expect(bpb.rows[0].estimate.fixedN).not.toBeNull();
    expect(bpb.rows[0].estimate.sequence).toBeNull();
    // −log₂ p(gold text) ÷ bytes: 2/ln 2/6 for every item.
    expect(bpb.rows[0].estimate.estimate).toBeCloseTo(2 / Math.LN2 / 6, 12);
  });

  it('says it cannot estimate a record with more results of a task than its population, or results of a task it does not list, and never throws', () => {
    // A record whose sampling says 3 items of each task but that lists (and scored) 6: forged or edited.
    const small = { [ACLUE[0]]: 3, [ACLUE[1]]: 3 };
    const forged = { ...config(ACLUE, { [ACLUE[0]]: 6, [ACLUE[1]]: 6 }, {}), sampling: { draw: 'random', seed: 1, order: 'shuffled', block: 4, population: small } } as McRunConfig;
    const results = interleaved(ACLUE, { [ACLUE[0]]: 6, [ACLUE[1]]: 6 }, (_, k) => k % 2 === 0);
    const e = estimateOfRun(forged, 'aclue', results);
    expect(e.unavailable).toEqual({ code: 'more-results-than-items', task: ACLUE[0], population: 3 });
    expect(e.measures).toEqual([]);
    expect(e.asked).toBe(12);
    const estimator = new BenchmarkEstimator(forged, 'aclue');
    estimator.observeAll(results);
    expect(estimator.overall()).toBeNull();
    expect(estimator.fixedHalfWidth()).toBeNull();
    // Up to the population it is an estimate like any other.
    expect(estimateOfRun(forged, 'aclue', results.slice(0, 6)).unavailable).toBeUndefined();

    const c = config(ACLUE, population, {});
    const stray = [result(ACLUE[0], 0, 0, true), { ...result('诗词', 0, 1, true) }];
    expect(estimateOfRun(c, 'aclue', stray).unavailable).toEqual({ code: 'task-not-in-run', task: '诗词' });

    // A computation that throws (here a population of 2.5 items, which no stratum takes) is said, not thrown.
    const odd = { ...c, sampling: { ...c.sampling!, population: { [ACLUE[0]]: 2.5, [ACLUE[1]]: 3 } } };
    expect(() => new BenchmarkEstimator(odd, 'aclue')).toThrow(RangeError);
    const broken = estimateOfRun(odd, 'aclue', [result(ACLUE[0], 0, 0, true)]);
    expect(broken.unavailable?.code).toBe('failed');
    expect(broken.measures).toEqual([]);
    expect(broken.asked).toBe(1);
  });
});
