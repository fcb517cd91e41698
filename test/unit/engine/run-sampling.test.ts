// The draw and the order of a run's items (core/protocols/run-sampling.ts): a seeded random sample of
// each task, asked in a seeded order whose every prefix holds every task, the same in every engine.
import { describe, expect, it } from 'vitest';
import { blockAt, drawSample, FILE_ORDER, newRunSampling, orderRun, sampleRun, type SamplingRule, type TaskItems } from '../../../src/lib/core/protocols/run-sampling.ts';

/** Tasks of the given sizes, each item's id naming its task and file position. */
function population(sizes: Record<string, number>): TaskItems[] {
  return Object.entries(sizes).map(([task, n]) => ({ task, itemIds: Array.from({ length: n }, (_, i) => `${task}#${i}`) }));
}

const taskOf = (id: string) => id.split('#')[0];
const positionOf = (id: string) => Number(id.split('#')[1]);
const shuffled = (seed: number): SamplingRule => newRunSampling('random', seed, {});

// ACLUE's 15 task sizes are of this kind: a few hundred items, unequal.
const SIZES = { 通假字: 500, 古文断句: 500, 字义: 190, 诗词: 470, 文白: 200, 单: 7 };

describe('drawSample', () => {
  it('draws limitPerTask of each task, from that task only, without replacement, in file order', () => {
    const drawn = drawSample(population(SIZES), 40, { draw: 'random', seed: 7 });
    for (const { task, itemIds } of drawn) {
      expect(itemIds.length).toBe(Math.min(40, SIZES[task as keyof typeof SIZES]));
      expect(new Set(itemIds).size).toBe(itemIds.length);
      expect(itemIds.every((id) => taskOf(id) === task)).toBe(true);
      const positions = itemIds.map(positionOf);
      expect(positions).toEqual([...positions].sort((a, b) => a - b));
    }
    // A task smaller than the limit is taken whole.
    expect(drawn.find((d) => d.task === '单')!.itemIds).toEqual(population({ 单: 7 })[0].itemIds);
  });

  it("'first' is the first limitPerTask in file order, whatever the seed", () => {
    const tasks = population(SIZES);
    for (const seed of [0, 1, 0xffffffff]) {
      const drawn = drawSample(tasks, 12, { draw: 'first', seed });
      expect(drawn.map((d) => d.itemIds)).toEqual(tasks.map((t) => t.itemIds.slice(0, 12)));
    }
  });

  it('gives the same sample for the same seed, and another for another seed', () => {
    const tasks = population(SIZES);
    const a = drawSample(tasks, 30, { draw: 'random', seed: 12345 });
    expect(drawSample(tasks, 30, { draw: 'random', seed: 12345 })).toEqual(a);
    for (const seed of [12346, 0, 2 ** 31, 0xffffffff]) {
      const b = drawSample(tasks, 30, { draw: 'random', seed });
      // Of 500, two draws of 30 share about 2 items by chance: never all 30.
      for (const task of ['通假字', '古文断句']) {
        const inA = new Set(a.find((d) => d.task === task)!.itemIds);
        expect(b.find((d) => d.task === task)!.itemIds.filter((id) => inA.has(id)).length).toBeLessThan(15);
      }
    }
  });

  it("a task's sample does not depend on the other tasks asked, and a smaller limit's sample lies inside a larger one's", () => {
    const all = drawSample(population(SIZES), 25, { draw: 'random', seed: 99 });
    const alone = drawSample(population({ 诗词: 470 }), 25, { draw: 'random', seed: 99 });
    expect(alone[0].itemIds).toEqual(all.find((d) => d.task === '诗词')!.itemIds);
    const larger = new Set(drawSample(population(SIZES), 60, { draw: 'random', seed: 99 }).flatMap((d) => d.itemIds));
    expect(all.flatMap((d) => d.itemIds).every((id) => larger.has(id))).toBe(true);
  });

  it('draws every item of a task equally often over seeds (uniform, so the sample is unbiased)', () => {
    const n = 20;
    const k = 5;
    const seeds = 4000;
    const counts = new Array<number>(n).fill(0);
    for (let seed = 0; seed < seeds; seed++) for (const id of drawSample(population({ t: n }), k, { draw: 'random', seed })[0].itemIds) counts[positionOf(id)]++;
    // Each count is Binomial(4000, 1/4): mean 1000, sd 27.4; 5 sd either side.
    for (const c of counts) expect(Math.abs(c - (seeds * k) / n)).toBeLessThan(5 * Math.sqrt(seeds * (k / n) * (1 - k / n)));
  });
});

describe('orderRun', () => {
  it("'file' asks task by task, each in file order: what a record without sampling did", () => {
    const tasks = population({ a: 3, b: 2 });
    expect(orderRun(tasks, FILE_ORDER)).toEqual(['a#0', 'a#1', 'a#2', 'b#0', 'b#1']);
    expect(sampleRun(tasks, 2, undefined).itemIds).toEqual(['a#0', 'a#1', 'b#0', 'b#1']);
  });

  it('asks every chosen item once, each task in a seeded random order, the same for the same seed', () => {
    const chosen = drawSample(population(SIZES), 100, { draw: 'random', seed: 5 });
    const order = orderRun(chosen, shuffled(5));
    expect([...order].sort()).toEqual(chosen.flatMap((c) => c.itemIds).sort());
    expect(orderRun(chosen, shuffled(5))).toEqual(order);
    expect(orderRun(chosen, shuffled(6))).not.toEqual(order);
    // Within a task, not file order: a shuffle of 100 items left sorted has probability 1/100!.
    const firstTask = order.filter((id) => taskOf(id) === '通假字').map(positionOf);
    expect(firstTask).not.toEqual([...firstTask].sort((a, b) => a - b));
  });

  it('starts every task within the first round, and keeps every prefix of the order a stratified sample', () => {
    const chosen = drawSample(population(SIZES), null, { draw: 'random', seed: 11 });
    const rule = shuffled(11);
    const order = orderRun(chosen, rule);
    const tasks = chosen.map((c) => c.task);
    // Every task's first item comes within tasks × the first block.
    for (const task of tasks) expect(order.findIndex((id) => taskOf(id) === task)).toBeLessThan(tasks.length * blockAt(rule, 0));
    // At every prefix, two tasks that both have items left differ by at most one block of the round
    // under way, so each task's share of a stopped run stays near the others'.
    const seen = new Map(tasks.map((t) => [t, 0]));
    const size = new Map(chosen.map((c) => [c.task, c.itemIds.length]));
    let round = 0;
    let roundEnd = tasks.reduce((n, t) => n + Math.min(size.get(t)!, blockAt(rule, 0)), 0);
    order.forEach((id, i) => {
      seen.set(taskOf(id), seen.get(taskOf(id))! + 1);
      if (i + 1 === roundEnd) {
        round++;
        let through = 0;
        for (let r = 0; r <= round; r++) through += blockAt(rule, r);
        roundEnd += tasks.reduce((n, t) => n + Math.max(0, Math.min(size.get(t)!, through) - Math.min(size.get(t)!, through - blockAt(rule, round))), 0);
      }
      const open = tasks.filter((t) => seen.get(t)! < size.get(t)!).map((t) => seen.get(t)!);
      if (open.length > 1) expect(Math.max(...open) - Math.min(...open)).toBeLessThanOrEqual(blockAt(rule, round));
    });
  });

  it('makes each prefix of a task a uniform sample of its chosen items (over seeds)', () => {
    const chosen = population({ a: 12, b: 12 });
    const counts = new Array<number>(12).fill(0);
    const seeds = 3000;
    // The first 4 items of the order are a's first block: which of a's 12 come first is uniform.
    for (let seed = 0; seed < seeds; seed++) for (const id of orderRun(chosen, shuffled(seed)).slice(0, 4)) counts[positionOf(id)]++;
    for (const c of counts) expect(Math.abs(c - seeds / 3)).toBeLessThan(5 * Math.sqrt(seeds * (1 / 3) * (2 / 3)));
  });

  it('grows its blocks from 4 by doubling to at most 64', () => {
    const rule = shuffled(1);
    expect([0, 1, 2, 3, 4, 5, 6, 7, 20].map((r) => blockAt(rule, r))).toEqual([4, 8, 16, 32, 64, 64, 64, 64, 64]);
    expect(blockAt({ block: 3 }, 9)).toBe(3);
  });

  it('is pinned: the same seed and items give these ids in every engine (links and reproductions rebuild them)', () => {
    // Written by this code in Node; the browser test (sampling.test.ts) checks a page gives the same.
    // A change here changes what every stored seed means: a new RunSampling version, not an edit.
    expect(sampleRun(population({ 甲: 10, 乙: 10 }), 3, shuffled(2026)).itemIds).toEqual(PINNED);
  });
});

const PINNED = ['甲#3', '甲#9', '甲#6', '乙#4', '乙#3', '乙#9'];
