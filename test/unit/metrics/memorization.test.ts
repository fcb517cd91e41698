/**
 * The memorization probes (src/lib/core/metrics/memorization), hand-worked on arrays small enough to
 * check on paper: Min-K% and Min-K%++ (ties, k · n < 1, positions with σ = 0), the t tail, the
 * exchangeability test and its plan, the distributions, the paired comparison and the share link's
 * rounding. memorization-reference.test.ts checks the same functions against an independent numpy
 * script; memorization-exchangeability.test.ts checks the test's p-values on synthetic models.
 */
import { describe, expect, it } from 'vitest';
import { wilcoxonSignedRank } from '../../../src/lib/core/metrics/compare-continuous.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import {
  checkLinkSummary,
  compareMemorization,
  exchangeabilityPlan,
  exchangeabilitySignature,
  exchangeabilityTest,
  LINK_SCORE_NONE,
  memorizationScoresOf,
  minKCount,
  minKPlusPlus,
  minKPlusPlusSignature,
  minKProb,
  minKProbSignature,
  mostFamiliar,
  pairMemorizationScores,
  probeDistribution,
  regularizedIncompleteBeta,
  scoreFromLinkCode,
  scoresFromLink,
  scoresToLink,
  scoreToLinkCode,
  shardCountFor,
  shardSizes,
  studentTSurvival,
  summarizeScores,
  type MemorizationItemScores,
  type PositionStatistics,
} from '../../../src/lib/core/metrics/memorization/index.ts';

describe('Min-K% Prob, hand-worked', () => {
  const lp = [-1, -3, -3, -0.5, -2];
  it('the mean of the lowest floor(n · k), ties counted once each', () => {
    // n = 5: k = 0.2 → 1 value (one of the tied −3s); 0.4 → both −3s; 0.6 → −3, −3, −2; 1 → all.
    expect(minKProb(lp, 0.2)).toEqual({ score: -3, selected: 1, positions: 5 });
    expect(minKProb(lp, 0.4)!.score).toBe(-3);
    expect(minKProb(lp, 0.6)!.score).toBeCloseTo(-8 / 3, 15);
    expect(minKProb(lp, 1)!.score).toBeCloseTo(-1.9, 15);
    expect(minKProb(lp)!.selected).toBe(1); // k = 20% by default
    expect(lp).toEqual([-1, -3, -3, -0.5, -2]); // not sorted in place
  });
  it('k · n < 1 takes the least likely token (the reference would average nothing); no token, no score', () => {
    expect(minKProb([-1, -2, -0.5, -4], 0.2)).toEqual({ score: -4, selected: 1, positions: 4 });
    expect(minKProb([-0.7], 0.2)!.score).toBe(-0.7);
    expect(minKProb([], 0.2)).toBeNull();
  });
  it('the count is the floor of the double product, as Python int() takes it', () => {
    expect(minKCount(100, 0.29)).toBe(28); // 0.29 · 100 = 28.999…
    expect(minKCount(5, 0.6)).toBe(3);
    expect(minKCount(4, 0.2)).toBe(1);
    expect(minKCount(0, 0.2)).toBe(0);
  });
  it('refuses a k that is not a fraction and a log-probability that is not a number', () => {
    expect(() => minKProb(lp, 20)).toThrow(RangeError);
    expect(() => minKProb(lp, 0)).toThrow(RangeError);
    expect(() => minKProb(lp, Number.NaN)).toThrow(RangeError);
    expect(() => minKProb([-1, Number.NaN], 0.5)).toThrow(/position 1/);
  });
  it('says k, the count rule and the sign in its signature', () => {
    expect(minKProbSignature()).toBe('min-k%|k:0.2|count:max(1,floor(k*n))|of:logp(tokens 2..n)|score:mean|sign:higher-more-familiar|v:1');
    expect(minKProbSignature(0.1)).toContain('k:0.1|');
  });
});

describe('Min-K%++, hand-worked', () => {
  const positions: PositionStatistics[] = [
    { logprob: -2, mean: -1, std: 1 }, // z = −1
    { logprob: -1, mean: -1, std: 2 }, // z = 0
    { logprob: -5, mean: -2, std: 1.5 }, // z = −2
    { logprob: -0.5, mean: -2, std: 0.5 }, // z = 3
    { logprob: -3, mean: -1, std: 0 }, // no z: σ = 0
  ];
  it('standardises by μ and σ, drops σ = 0, then averages the lowest floor(n · k) of the rest', () => {
    // 4 usable: k = 0.5 → −2 and −1; k = 0.2 → 0.8 → 1 → −2; k = 1 → (−1 + 0 − 2 + 3)/4 = 0.
    expect(minKPlusPlus(positions, 0.5)).toEqual({ score: -1.5, selected: 2, positions: 4, dropped: 1 });
    expect(minKPlusPlus(positions, 0.2)!.score).toBe(-2);
    expect(minKPlusPlus(positions, 1)!.score).toBe(0);
  });
  it('ties among z, a NaN σ, and no usable position', () => {
    const tied: PositionStatistics[] = [-1, -1, 0, 2, 2].map((z) => ({ logprob: z, mean: 0, std: 1 }));
    expect(minKPlusPlus(tied, 0.4)!.score).toBe(-1);
    expect(minKPlusPlus([{ logprob: -1, mean: -2, std: Number.NaN }, { logprob: -4, mean: -2, std: 2 }], 0.2)).toEqual({ score: -1, selected: 1, positions: 1, dropped: 1 });
    expect(minKPlusPlus([{ logprob: -1, mean: -1, std: 0 }])).toBeNull();
    expect(() => minKPlusPlus([{ logprob: Number.NEGATIVE_INFINITY, mean: -1, std: 1 }])).toThrow(RangeError);
  });
  it('one item: Min-K% over every position, Min-K%++ over those with σ > 0', () => {
    // Min-K% at k = 0.5 over −2, −1, −5, −0.5, −3: floor(2.5) = 2 → (−5 − 3)/2.
    expect(memorizationScoresOf('i1', 't', positions, 0.5)).toEqual({ itemId: 'i1', task: 't', positions: 5, minKProb: -4, minKPlusPlus: -1.5, dropped: 1 });
    expect(memorizationScoresOf('i2', 't', [])).toEqual({ itemId: 'i2', task: 't', positions: 0, minKProb: null, minKPlusPlus: null, dropped: 0 });
  });
  it('signature', () => {
    expect(minKPlusPlusSignature()).toBe('min-k%++|k:0.2|z:(logp-mu)/sigma|count:max(1,floor(k*n))|sigma<=0:dropped|score:mean|sign:higher-more-familiar|v:1');
  });
});

describe("Student's t tail, closed forms", () => {
  it('ν = 1 (Cauchy: ½ − atan(t)/π) and ν = 2 (½ − t/(2√(t² + 2)))', () => {
    expect(studentTSurvival(1, 1)).toBeCloseTo(0.25, 12);
    expect(studentTSurvival(-1, 1)).toBeCloseTo(0.75, 12);
    expect(studentTSurvival(3, 1)).toBeCloseTo(0.5 - Math.atan(3) / Math.PI, 12);
    expect(studentTSurvival(2 * Math.sqrt(3), 2)).toBeCloseTo(0.5 - Math.sqrt(3 / 14), 12);
    expect(studentTSurvival(0, 7)).toBe(0.5);
    expect(studentTSurvival(Infinity, 3)).toBe(0);
  });
  it('goes to the normal tail as ν grows, and keeps small tails', () => {
    expect(studentTSurvival(1.959963984540054, 1e7)).toBeCloseTo(0.025, 6);
    // ν = 1: ½ − atan(1e6)/π = atan(1e-6)/π ≈ 3.183e-7, which 1 − CDF would round badly.
    expect(studentTSurvival(1e6, 1) / (Math.atan(1e-6) / Math.PI)).toBeCloseTo(1, 8);
    expect(regularizedIncompleteBeta(2, 3, 0.4)).toBeCloseTo(0.5248, 12); // I_0.4(2, 3) = 1 − 0.6⁴ − 4·0.4·0.6³
  });
});

describe('the exchangeability test, hand-worked', () => {
  const design = { itemCount: 6, shardCount: 3, permutations: 2, seed: 1 };
  it('d = canonical − mean(permuted) per shard; a one-sided t-test over shards', () => {
    // d = 1, 2, 3: mean 2, s = 1, t = 2/(1/√3) = 2√3, p = P(T₂ ≥ 2√3) = ½ − √(3/14).
    const r = exchangeabilityTest(design, [
      { canonical: -10, permuted: [-11, -11] },
      { canonical: -20, permuted: [-23, -21] },
      { canonical: -30, permuted: [-33, -33] },
    ]);
    expect(r.meanDifference).toBeCloseTo(2, 12);
    expect(r.sdDifference).toBeCloseTo(1, 12);
    expect(r.statistic).toBeCloseTo(2 * Math.sqrt(3), 12);
    expect(r.df).toBe(2);
    expect(r.pValue).toBeCloseTo(0.5 - Math.sqrt(3 / 14), 12);
    expect([r.shards, r.permutations]).toEqual([3, 2]);
    expect(r.signature).toBe(exchangeabilitySignature(design));
    expect(r.signature).toContain('shards:3|r:2|seed:1|');
  });
  it('a file order less likely than its shuffles has p above ½', () => {
    const r = exchangeabilityTest(design, [
      { canonical: -12, permuted: [-11, -11] },
      { canonical: -23, permuted: [-20, -21] },
      { canonical: -35, permuted: [-33, -33] },
    ]);
    expect(r.statistic!).toBeLessThan(0);
    expect(r.pValue!).toBeGreaterThan(0.5);
  });
  it('no spread, no test; numbers that do not fit the design are refused', () => {
    const same = exchangeabilityTest(design, [1, 2, 3].map((i) => ({ canonical: -i, permuted: [-i - 1, -i - 1] })));
    expect([same.meanDifference, same.statistic, same.pValue]).toEqual([1, null, null]);
    expect(() => exchangeabilityTest(design, [{ canonical: -1, permuted: [-2, -2] }])).toThrow(/3 shards/);
    expect(() => exchangeabilityTest(design, [1, 2, 3].map(() => ({ canonical: -1, permuted: [-2] })))).toThrow(/permuted/);
    expect(() => exchangeabilityTest(design, [1, 2, 3].map(() => ({ canonical: Number.NaN, permuted: [-2, -1] })))).toThrow(/finite/);
  });
});

describe('the exchangeability plan', () => {
  it('consecutive shards in file order, the first n mod m one item longer (the reference split)', () => {
    expect(shardSizes(10, 4)).toEqual([3, 3, 2, 2]);
    expect(shardSizes(11, 4)).toEqual([3, 3, 3, 2]);
    const plan = exchangeabilityPlan({ itemCount: 11, shardCount: 4, permutations: 7, seed: 9 });
    expect(plan.map((s) => s.items)).toEqual([[0, 1, 2], [3, 4, 5], [6, 7, 8], [9, 10]]);
  });
  it('every order is a permutation of its shard, never the file order; a 2-item shard can only swap', () => {
    const plan = exchangeabilityPlan({ itemCount: 23, shardCount: 5, permutations: 40, seed: 3 });
    for (const shard of plan) {
      expect(shard.orders).toHaveLength(40);
      for (const order of shard.orders) {
        expect([...order].sort((a, b) => a - b)).toEqual(shard.items);
        expect(order).not.toEqual(shard.items);
      }
    }
    const pairs = exchangeabilityPlan({ itemCount: 4, shardCount: 2, permutations: 3, seed: 0 });
    expect(pairs[1].orders).toEqual([[3, 2], [3, 2], [3, 2]]);
  });
  it('the same seed gives the same plan; another seed another', () => {
    const design = { itemCount: 40, shardCount: 4, permutations: 5, seed: 12345 };
    expect(exchangeabilityPlan(design)).toEqual(exchangeabilityPlan({ ...design }));
    expect(exchangeabilityPlan({ ...design, seed: 12346 })).not.toEqual(exchangeabilityPlan(design));
  });
  it('uniform over the orders other than the file order', () => {
    // 3 items: 5 other orders, 5,000 draws → 1,000 each; a standard deviation is about 28.
    const [shard] = exchangeabilityPlan({ itemCount: 6, shardCount: 2, permutations: 5000, seed: 5 });
    const counts = new Map<string, number>();
    for (const order of shard.orders) counts.set(order.join(), (counts.get(order.join()) ?? 0) + 1);
    expect(counts.size).toBe(5);
    for (const count of counts.values()) expect(Math.abs(count - 1000)).toBeLessThan(150);
  });
  it('at least 2 items and 2 shards: shardCountFor lowers the count, the plan refuses less', () => {
    expect(shardCountFor(1000)).toBe(50);
    expect(shardCountFor(7)).toBe(3);
    expect(shardCountFor(4)).toBe(2);
    expect(shardCountFor(3)).toBeNull();
    expect(() => exchangeabilityPlan({ itemCount: 5, shardCount: 3, permutations: 1, seed: 0 })).toThrow(/at most 2/);
    expect(() => exchangeabilityPlan({ itemCount: 5, shardCount: 1, permutations: 1, seed: 0 })).toThrow(RangeError);
    expect(() => exchangeabilityPlan({ itemCount: 6, shardCount: 2, permutations: 0, seed: 0 })).toThrow(RangeError);
    expect(() => exchangeabilityPlan({ itemCount: 6, shardCount: 2, permutations: 1, seed: -1 })).toThrow(RangeError);
  });
});

function item(itemId: string, task: string, minKPlusPlus: number | null, minKProb: number | null = null): MemorizationItemScores {
  return { itemId, task, positions: 10, minKProb, minKPlusPlus, dropped: 0 };
}

describe('distributions', () => {
  it('n, min, quartiles (numpy linear), max and mean of the scores; nulls are not scores', () => {
    // sorted 1 1 3 4 5: q1 at position 1, median at 2, q3 at 3.
    expect(summarizeScores([3, 1, null, 4, 1, Number.NaN, 5])).toEqual({ n: 5, min: 1, q1: 1, median: 3, q3: 4, max: 5, mean: 2.8 });
    // 1 2 3 4: positions 0.75, 1.5, 2.25.
    expect(summarizeScores([4, 3, 2, 1])).toEqual({ n: 4, min: 1, q1: 1.75, median: 2.5, q3: 3.25, max: 4, mean: 2.5 });
    expect(summarizeScores([null])).toBeNull();
  });
  it('per task in the run order, tasks outside it after, and overall', () => {
    const items = [item('1', 'a', 1), item('2', 'a', 3), item('3', 'c', -1), item('4', 'a', null)];
    const dist = probeDistribution(items, 'minKPlusPlus', ['b', 'a']);
    expect(dist.tasks.map((t) => [t.task, t.summary?.n ?? 0, t.summary?.median ?? null])).toEqual([['b', 0, null], ['a', 2, 2], ['c', 1, -1]]);
    expect(dist.overall).toMatchObject({ n: 3, min: -1, max: 3, mean: 1 });
    expect(probeDistribution(items, 'minKProb', []).overall).toBeNull();
  });
  it('the most familiar items: highest first, ties in run order, unscored left out', () => {
    const items = [item('a', 't', 0.5), item('b', 't', null), item('c', 't', 2), item('d', 't', 2), item('e', 't', -1)];
    expect(mostFamiliar(items, 'minKPlusPlus', 3).map((i) => i.itemId)).toEqual(['c', 'd', 'a']);
    expect(mostFamiliar(items, 'minKPlusPlus', 0)).toEqual([]);
  });
});

describe('two models on the same items', () => {
  const baseline = [item('1', 'a', -2, -5), item('2', 'a', -1, -4), item('3', 'b', -3, -6), item('4', 'b', -0.5, null), item('5', 'b', -1)];
  const other = [item('1', 'a', -1, -5), item('2', 'a', 0.5, -3), item('3', 'b', -3.5, -7), item('4', 'b', 1, -1), item('6', 'b', 0)];
  it('pairs by task and item id, on items both scored', () => {
    expect(pairMemorizationScores(baseline, other, 'minKPlusPlus').map((p) => [p.itemId, p.other - p.baseline])).toEqual([['1', 1], ['2', 1.5], ['3', -0.5], ['4', 1.5]]);
    expect(pairMemorizationScores(baseline, other, 'minKProb').map((p) => p.itemId)).toEqual(['1', '2', '3']);
    expect(pairMemorizationScores(baseline, [item('1', 'b', 0)], 'minKPlusPlus')).toEqual([]); // same id, another task
  });
  it("other − baseline: per-task means, the signed-rank test and the stratified bootstrap of compare-continuous", () => {
    const c = compareMemorization('aclue', baseline, other, ['a', 'b'], 0.2, 'minKPlusPlus', { resamples: 200, seed: 1 });
    expect(c.pooled.n).toBe(4);
    expect(c.pooled.meanDifference).toBeCloseTo(3.5 / 4, 12);
    expect(c.pooled.wilcoxon).toEqual(wilcoxonSignedRank([1, 1.5, -0.5, 1.5]));
    expect(c.difference.tasks.map((t) => [t.task, t.n, t.meanDifference])).toEqual([['a', 2, 1.25], ['b', 2, 0.5]]);
    expect(c.difference.overall.estimate!.estimate).toBeCloseTo((1.25 + 0.5) / 2, 12);
    expect(c.signature.startsWith(minKPlusPlusSignature(0.2) + '|d:other-baseline|')).toBe(true);
    expect(c.signature).toContain('bs:200,seed:1');
    expect(compareMemorization('aclue', baseline, other, ['a', 'b'], 0.2, 'minKProb').signature.startsWith('min-k%|')).toBe(true);
  });
});

describe('share-link scores', () => {
  it('hundredths, clamped to ±40.96, with a code for no score', () => {
    expect(scoreToLinkCode(-1.234)).toBe(-123);
    expect(scoreToLinkCode(2.996)).toBe(300);
    expect(Object.is(scoreToLinkCode(-0.004), 0)).toBe(true);
    expect(scoreToLinkCode(100)).toBe(4096);
    expect(scoreToLinkCode(Number.NEGATIVE_INFINITY)).toBe(-4096);
    expect(scoreToLinkCode(null)).toBe(LINK_SCORE_NONE);
    expect(scoreToLinkCode(Number.NaN)).toBe(LINK_SCORE_NONE);
    expect(scoreFromLinkCode(-123)).toBe(-1.23);
    expect(scoreFromLinkCode(LINK_SCORE_NONE)).toBeNull();
    expect(() => scoreFromLinkCode(5000)).toThrow(RangeError);
    expect(() => scoreFromLinkCode(1.5)).toThrow(RangeError);
  });
  it('every score comes back within half a step', () => {
    const random = mulberry32(11);
    const scores = Array.from({ length: 2000 }, () => (random() - 0.5) * 80);
    const back = scoresFromLink(scoresToLink(scores));
    scores.forEach((s, i) => expect(Math.abs(back[i]! - s)).toBeLessThanOrEqual(0.005 + 1e-12));
  });
  it('a summary recomputed from a link matches the sender’s within the rounding, and a changed link does not', () => {
    const random = mulberry32(12);
    const scores: (number | null)[] = Array.from({ length: 300 }, (_, i) => (i % 17 === 0 ? null : -8 * random() + 1));
    const recorded = summarizeScores(scores);
    const codes = scoresToLink(scores);
    expect(checkLinkSummary(recorded, scoresFromLink(codes))).toEqual({ kind: 'matches' });
    // The largest score moved by one step more than the rounding allows: its max differs.
    const top = scores.indexOf(recorded!.max);
    const moved = Int16Array.from(codes);
    moved[top] += 2;
    expect(checkLinkSummary(recorded, scoresFromLink(moved))).toMatchObject({ kind: 'differs', field: 'max' });
    // Every score shifted by one step: the quartiles and mean move by 0.01, past the tolerance.
    const shifted = codes.map((c) => (c === LINK_SCORE_NONE ? c : c + 1));
    expect(checkLinkSummary(recorded, scoresFromLink(shifted)).kind).toBe('differs');
    const lost = Int16Array.from(codes);
    lost[1] = LINK_SCORE_NONE;
    expect(checkLinkSummary(recorded, scoresFromLink(lost))).toEqual({ kind: 'differs', field: 'n', recorded: recorded!.n, fromLink: recorded!.n - 1 });
  });
  it('clamped scores are counted, not checked; nothing against nothing matches', () => {
    const scores = [-50, -1, 0.5];
    expect(checkLinkSummary(summarizeScores(scores), scoresFromLink(scoresToLink(scores)))).toEqual({ kind: 'clamped', count: 1 });
    expect(checkLinkSummary(null, [null, null])).toEqual({ kind: 'matches' });
    expect(checkLinkSummary(null, [1])).toMatchObject({ kind: 'differs', field: 'n' });
  });
});
