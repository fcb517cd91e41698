// Compare's paired difference on one random order (compare-sequence.ts): which runs qualify, that
// pairs are taken per task in order only while both runs have the item, that a finished pair over
// every item gives the exact difference of the benchmark's scores (checked against mc-aggregate), and
// that the confidence sequence of "B − A" covers the population's difference at every time on
// ≥ 95% of simulated paths.
import { describe, expect, it } from 'vitest';
import {
  PairedSequenceEstimator,
  pairedOrderProblem,
  pairedSequence,
  verdictOf,
  type PairedConfig,
  type PairedItem,
} from '../../../src/lib/core/metrics/compare-sequence.ts';
import { aggregateMultipleChoice, aggregationFor } from '../../../src/lib/core/metrics/mc-aggregate.ts';
import type { RunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';

const TASKS = ['古文单字多义', '通假字', '古汉语命名体识别'];

/** A seeded generator (mulberry32): the tests' paths are the same on every run. */
function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function shuffle<T>(xs: T[], random: () => number): T[] {
  for (let i = xs.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [xs[i], xs[j]] = [xs[j], xs[i]];
  }
  return xs;
}

/** Every item of each task (population sizes), each task in a random order, tasks interleaved in blocks of 5. */
function configOf(populations: Record<string, number>, seed: number, overrides: Partial<RunSampling> = {}): PairedConfig & { itemIds: string[] } {
  const random = rng(seed);
  const queues = Object.entries(populations).map(([task, n]) => shuffle(Array.from({ length: n }, (_, i) => `${task}/${i}`), random));
  const itemIds: string[] = [];
  while (queues.some((q) => q.length > 0)) for (const q of queues) itemIds.push(...q.splice(0, 5));
  return {
    kind: 'multiple-choice',
    datasetId: 'aclue',
    tasks: Object.keys(populations),
    limitPerTask: null,
    itemIds,
    sampling: { draw: 'random', seed, order: 'shuffled', block: 5, population: { ...populations }, ...overrides },
  };
}

const taskOfId = (id: string) => id.slice(0, id.lastIndexOf('/'));
const item = (id: string, correct: boolean | null): PairedItem => ({ itemId: id, task: taskOfId(id), correct });

describe('pairedOrderProblem', () => {
  const base = configOf({ [TASKS[0]]: 20, [TASKS[1]]: 20 }, 7);
  it('accepts two runs with the same sampling and items', () => {
    expect(pairedOrderProblem(base, { ...base })).toBeNull();
  });
  it('names what differs', () => {
    expect(pairedOrderProblem(base, { ...base, sampling: undefined })).toBe('no-sampling');
    expect(pairedOrderProblem(base, { ...base, sampling: { ...base.sampling!, order: 'file' } })).toBe('file-order');
    expect(pairedOrderProblem(base, { ...base, sampling: { ...base.sampling!, seed: 8 } })).toBe('sampling-differs');
    expect(pairedOrderProblem(base, { ...base, itemIds: [...base.itemIds].reverse() })).toBe('items-differ');
    expect(pairedOrderProblem(base, { ...base, datasetId: 'ac-eval' })).toBe('other-dataset');
    expect(pairedOrderProblem(base, { ...base, kind: 'generation' })).toBe('not-multiple-choice');
  });
});

describe('verdictOf', () => {
  it('is settled only when the interval excludes 0', () => {
    expect(verdictOf({ low: 0.02, high: 0.09 }, false)).toBe('other-better');
    expect(verdictOf({ low: -0.09, high: -0.01 }, false)).toBe('baseline-better');
    expect(verdictOf({ low: -0.01, high: 0.06 }, false)).toBe('unsettled');
    expect(verdictOf({ low: 0, high: 0 }, true)).toBe('equal');
    expect(verdictOf(null, false)).toBe('unsettled');
  });
});

describe('pairedSequence', () => {
  const populations = { [TASKS[0]]: 60, [TASKS[1]]: 40, [TASKS[2]]: 20 };
  const config = configOf(populations, 11);
  const random = rng(5);
  const a = config.itemIds.map((id) => item(id, random() < 0.5));
  const b = config.itemIds.map((id) => item(id, random() < 0.7));

  it('over every item is the exact difference of the benchmark scores (mean of tasks), a point', () => {
    const result = pairedSequence('aclue', { config, items: a }, { config, items: b });
    if (!('sequence' in result)) throw new Error(`refused: ${result.problem}`);
    const rule = aggregationFor('aclue');
    expect(rule.overallRule).toBe('mean-of-tasks');
    const score = (items: PairedItem[]) => aggregateMultipleChoice(items, rule.grouping, rule.overallRule).overall.accuracy!;
    const exact = score(b) - score(a);
    const { estimate } = result.sequence;
    expect(estimate.exact).toBe(true);
    expect(estimate.estimate).toBeCloseTo(exact, 12);
    expect(estimate.sequence!.low).toBeCloseTo(exact, 9);
    expect(estimate.sequence!.high).toBeCloseTo(exact, 9);
    expect(result.sequence.pairs).toBe(config.itemIds.length);
    // Each task's own difference too.
    for (const { task, estimate: e } of result.sequence.tasks) {
      const mean = (items: PairedItem[]) => items.filter((x) => x.task === task).reduce((s, x) => s + (x.correct ? 1 : 0), 0) / populations[task];
      expect(e.estimate).toBeCloseTo(mean(b) - mean(a), 12);
    }
  });

  it('refuses runs on another order, saying why', () => {
    const other = { ...config, sampling: { ...config.sampling!, seed: 12 } };
    expect(pairedSequence('aclue', { config, items: a }, { config: other, items: b })).toEqual({ problem: 'sampling-differs' });
  });

  it('takes a task’s pairs in order only while both runs have the item', () => {
    // B stops after its first 30 items; in task 0 it also lacks its 2nd item: that task's pairs end before it.
    const firstOfTask0 = config.itemIds.filter((id) => taskOfId(id) === TASKS[0]);
    const gap = firstOfTask0[1];
    const partial = b.slice(0, 30).filter((x) => x.itemId !== gap);
    const result = pairedSequence('aclue', { config, items: a }, { config, items: partial });
    if (!('sequence' in result)) throw new Error('refused');
    const inFirst30 = (task: string) => config.itemIds.slice(0, 30).filter((id) => taskOfId(id) === task).length;
    const pairsOf = (task: string) => result.sequence.tasks.find((t) => t.task === task)!.estimate.n;
    expect(pairsOf(TASKS[0])).toBe(1);
    expect(pairsOf(TASKS[1])).toBe(inFirst30(TASKS[1]));
    expect(pairsOf(TASKS[2])).toBe(inFirst30(TASKS[2]));
    expect(result.sequence.estimate.exact).toBe(false);
    expect(result.sequence.verdict).toBe('unsettled');
  });

  it('passes over an item either run could not score, and ends every task at an item neither has asked', () => {
    const failedA = a.map((x, i) => (i === 3 ? { ...x, failure: { code: 'run.item-too-long' } } : x));
    const withFailure = pairedSequence('aclue', { config, items: failedA }, { config, items: b });
    if (!('sequence' in withFailure)) throw new Error('refused');
    expect(withFailure.sequence.pairs).toBe(config.itemIds.length - 1);
    // Neither run has item 10 (both have every later one): its task is unknown, so the order is cut there for every task.
    const cut = pairedSequence('aclue', { config, items: a.filter((_, i) => i !== 10) }, { config, items: b.filter((_, i) => i !== 10) });
    if (!('sequence' in cut)) throw new Error('refused');
    expect(cut.sequence.pairs).toBe(10);
  });

  it('settles the sign when B is clearly better, and says it is the other run', () => {
    const big = configOf({ [TASKS[0]]: 400, [TASKS[1]]: 400 }, 3);
    const r = rng(9);
    const weak = big.itemIds.map((id) => item(id, r() < 0.3));
    const strong = big.itemIds.map((id) => item(id, r() < 0.8));
    const result = pairedSequence('aclue', { config: big, items: weak.slice(0, 300) }, { config: big, items: strong.slice(0, 300) });
    if (!('sequence' in result)) throw new Error('refused');
    expect(result.sequence.verdict).toBe('other-better');
    expect(result.sequence.estimate.sequence!.low).toBeGreaterThan(0);
    const reversed = pairedSequence('aclue', { config: big, items: strong.slice(0, 300) }, { config: big, items: weak.slice(0, 300) });
    if (!('sequence' in reversed)) throw new Error('refused');
    expect(reversed.sequence.verdict).toBe('baseline-better');
  });
});

describe('the paired confidence sequence covers the population difference at every time', () => {
  it('on at least 95% of 50 paths (two tasks, accuracies 0.45 against 0.55)', () => {
    const populations = { [TASKS[0]]: 40, [TASKS[1]]: 30 };
    const r = rng(2024);
    // One fixed population of paired outcomes; each path is a fresh random order of it.
    const ids = Object.entries(populations).flatMap(([task, n]) => Array.from({ length: n }, (_, i) => `${task}/${i}`));
    const outcomeA = new Map(ids.map((id) => [id, r() < 0.45]));
    const outcomeB = new Map(ids.map((id) => [id, r() < 0.55]));
    const taskMean = (task: string, o: Map<string, boolean>) => ids.filter((id) => taskOfId(id) === task).filter((id) => o.get(id)).length / populations[task as keyof typeof populations];
    const truth = Object.keys(populations).reduce((s, task) => s + (taskMean(task, outcomeB) - taskMean(task, outcomeA)) / 2, 0);
    const taskOf = new Map(ids.map((id) => [id, taskOfId(id)]));
    let covered = 0;
    const paths = 50;
    for (let p = 0; p < paths; p++) {
      const config = configOf(populations, 1000 + p);
      const estimator = new PairedSequenceEstimator(config, 'aclue', taskOf);
      for (const id of config.itemIds) estimator.observe(0, item(id, outcomeA.get(id)!));
      let ok = true;
      for (const id of config.itemIds) {
        estimator.observe(1, item(id, outcomeB.get(id)!));
        const s = estimator.overall().sequence;
        if (s && (truth < s.low - 1e-12 || truth > s.high + 1e-12)) {
          ok = false;
          break;
        }
      }
      if (ok) covered++;
    }
    expect(covered / paths).toBeGreaterThanOrEqual(0.95);
  });
});

describe('a record whose order does not fit its sample', () => {
  it('gives no paired sequence (sample-inconsistent) and takes no pair, instead of throwing', () => {
    // 20 items of the first task in the order, but the sampling says the task has 12.
    const config = configOf({ [TASKS[0]]: 20, [TASKS[1]]: 10 }, 3, { population: { [TASKS[0]]: 12, [TASKS[1]]: 10 } });
    const items = config.itemIds.map((id, i) => item(id, i % 2 === 0));
    const result = pairedSequence('aclue', { config, items }, { config, items: items.map((x) => ({ ...x, correct: !x.correct })) });
    expect(result).toEqual({ problem: 'sample-inconsistent' });
    const estimator = new PairedSequenceEstimator(config, 'aclue', new Map(config.itemIds.map((id) => [id, taskOfId(id)])));
    expect(estimator.problem).toBe('sample-inconsistent');
    for (const x of items) estimator.observe(0, x);
    for (const x of items) estimator.observe(1, x);
    expect(estimator.pairs).toBe(0);
  });
});
