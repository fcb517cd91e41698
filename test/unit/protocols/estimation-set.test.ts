import { describe, expect, it } from 'vitest';
import { DEFAULT_ESTIMATION_SHARE, drawEstimationSet, estimationSetSize, itemsForMinimumEstimationSet, PRIDE_MIN_ESTIMATION_ITEMS } from '../../../src/lib/core/protocols/estimation-set.ts';

const ids = Array.from({ length: 200 }, (_, i) => `item-${String(i).padStart(3, '0')}`);

describe('estimationSetSize', () => {
  it('round(share × count), at least 1, at most all, 0 of nothing', () => {
    expect(DEFAULT_ESTIMATION_SHARE).toBe(0.05);
    expect(estimationSetSize(200, 0.05)).toBe(10);
    expect(estimationSetSize(28_707, 0.05)).toBe(1435);
    expect(estimationSetSize(30, 0.05)).toBe(2); // 1.5 rounds up
    expect(estimationSetSize(4, 0.05)).toBe(1);
    expect(estimationSetSize(3, 2)).toBe(3);
    expect(estimationSetSize(0, 0.05)).toBe(0);
  });
});

describe('PRIDE_MIN_ESTIMATION_ITEMS', () => {
  it('is 20, which the default 5% reaches from 390 items; the draw itself is not raised to it', () => {
    expect(PRIDE_MIN_ESTIMATION_ITEMS).toBe(20);
    expect(estimationSetSize(390, DEFAULT_ESTIMATION_SHARE)).toBe(20);
    expect(estimationSetSize(389, DEFAULT_ESTIMATION_SHARE)).toBe(19);
    expect(itemsForMinimumEstimationSet(DEFAULT_ESTIMATION_SHARE)).toBe(390);
    // The fewest items, checked against the size rule itself for shares whose products round near .5.
    for (const share of [0.05, 0.1, 0.3, 0.4, 0.5, 0.07, 1]) {
      const count = itemsForMinimumEstimationSet(share);
      expect(estimationSetSize(count, share), `share ${share}`).toBeGreaterThanOrEqual(20);
      expect(estimationSetSize(count - 1, share), `share ${share}`).toBeLessThan(20);
    }
    // Stored runs and share links recompute their set from share and seed: its size must not move.
    expect(drawEstimationSet(ids.slice(0, 30), DEFAULT_ESTIMATION_SHARE, 1)).toHaveLength(2);
  });
});

describe('drawEstimationSet', () => {
  it('is the same for the same seed and differs for another', () => {
    const a = drawEstimationSet(ids, 0.05, 12345);
    expect(drawEstimationSet(ids, 0.05, 12345)).toEqual(a);
    expect(drawEstimationSet(ids, 0.05, 54321)).not.toEqual(a);
  });

  it('has the right size, no duplicates, only run items, in run order', () => {
    for (const seed of [1, 2, 3, 99, 2 ** 31 - 1]) {
      const set = drawEstimationSet(ids, 0.1, seed);
      expect(set).toHaveLength(20);
      expect(new Set(set).size).toBe(20);
      const positions = set.map((id) => ids.indexOf(id));
      expect(positions.every((p) => p >= 0)).toBe(true);
      expect(positions).toEqual([...positions].sort((x, y) => x - y));
    }
  });

  it('the first draw is mulberry32(seed)’s first number times the item count', () => {
    // The partial Fisher–Yates: with a share that takes one item, it is ids[floor(u₁ · count)].
    // mulberry32(7)'s first value, from its definition (as in bootstrap.ts): a = 7 + 0x6d2b79f5, …
    const a = (7 + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    const u = ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    expect(drawEstimationSet(ids, 0.001, 7)).toEqual([ids[Math.floor(u * ids.length)]]);
  });

  it('matches an independent Python implementation of mulberry32 and the partial Fisher–Yates', () => {
    // Computed once with a 40-line Python port (32-bit masks for Math.imul, j = i + int(u·(n − i)),
    // the first `size` positions sorted): draw(10, 3, 42) = [5, 6, 8];
    // draw(200, 10, 12345) = [20, 62, 72, 97, 103, 154, 164, 166, 195, 199].
    expect(drawEstimationSet(ids.slice(0, 10), 0.3, 42)).toEqual([5, 6, 8].map((i) => ids[i]));
    expect(drawEstimationSet(ids, 0.05, 12345)).toEqual([20, 62, 72, 97, 103, 154, 164, 166, 195, 199].map((i) => ids[i]));
  });

  it('covers every item over many seeds (a uniform draw, not a fixed slice)', () => {
    const seen = new Set<string>();
    for (let seed = 0; seed < 400; seed++) for (const id of drawEstimationSet(ids, 0.05, seed)) seen.add(id);
    expect(seen.size).toBe(ids.length);
  });

  it('all items when the share is 1, none of none', () => {
    expect(drawEstimationSet(ids.slice(0, 5), 1, 3)).toEqual(ids.slice(0, 5));
    expect(drawEstimationSet([], 0.05, 3)).toEqual([]);
  });
});
