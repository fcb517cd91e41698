/**
 * The exchangeability test's p-value on synthetic models, through its own plan. A "model" gives an
 * order of items the log-likelihood Σ base(item) + Σ over neighbours g(a, b), with base and g drawn
 * independently per item and per ordered pair: every order is as likely a priori, so the file order
 * is exchangeable with its shuffles. A contaminated model adds β for each neighbour pair that follows
 * the file order (a, a + 1), what a model that read the file would have learned.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { designNotes, EXCHANGEABILITY_WEAK_SHARDS, exchangeabilityPlan, exchangeabilityTest, type ExchangeabilityDesign } from '../../../src/lib/core/metrics/memorization/index.ts';

const ITEMS = 200;

function syntheticModel(seed: number, beta: number): (order: readonly number[]) => number {
  const random = mulberry32(seed);
  const base = Float64Array.from({ length: ITEMS }, () => -20 - 40 * random());
  // g(a, b) uniform on [−1, 1], one draw per ordered pair: mulberry32's first output hashes its seed.
  const g = (a: number, b: number) => 2 * mulberry32((seed ^ Math.imul(a * ITEMS + b + 1, 0x9e3779b1)) >>> 0)() - 1;
  return (order) => {
    let ll = base[order[0]];
    for (let i = 1; i < order.length; i++) {
      const a = order[i - 1];
      const b = order[i];
      ll += base[b] + g(a, b) + (b === a + 1 ? beta : 0);
    }
    return ll;
  };
}

/** Orders scored by a synthetic model so far: the work the tests below ask for, counted. */
let ordersScored = 0;

function pValueOf(seed: number, beta: number, design: Omit<ExchangeabilityDesign, 'seed' | 'itemCount'>): number {
  const full: ExchangeabilityDesign = { ...design, itemCount: ITEMS, seed };
  const model = syntheticModel(1_000_003 * seed + 17, beta);
  const shards = exchangeabilityPlan(full).map((shard) => ({ canonical: model(shard.items), permuted: shard.orders.map(model) }));
  ordersScored += shards.reduce((n, shard) => n + 1 + shard.permuted.length, 0);
  return exchangeabilityTest(full, shards).pValue!;
}

/** Kolmogorov–Smirnov distance of a sample from the uniform distribution on [0, 1]. */
function ksUniform(sample: readonly number[]): number {
  const sorted = [...sample].sort((a, b) => a - b);
  const n = sorted.length;
  return Math.max(...sorted.map((p, i) => Math.max((i + 1) / n - p, p - i / n)));
}
/** The asymptotic 1% critical value of KS against a fixed distribution (1.628/√n). */
const ksCritical01 = (n: number) => 1.628 / Math.sqrt(n);

describe('the exchangeability test on synthetic models', () => {
  const design = { shardCount: 20, permutations: 10 };
  let nullP: number[] | undefined;
  /** p over 1,000 seeds of an exchangeable file, computed once for the two tests that read them. */
  const exchangeableP = () => (nullP ??= Array.from({ length: 1000 }, (_, seed) => pValueOf(seed + 100, 0, design)));

  it('a model that learned the file order: p < 0.01 on every seed', () => {
    for (let seed = 1; seed <= 5; seed++) expect(pValueOf(seed, 0.3, design), `seed ${seed}`).toBeLessThan(0.01);
  });

  it('an exchangeable file: p roughly uniform over 1,000 seeds', () => {
    const before = ordersScored;
    const p = exchangeableP();
    const below = p.filter((x) => x < 0.05).length / p.length;
    // Binomial(1,000, 0.05) lands in [30, 70] with probability above 0.99.
    expect(below).toBeGreaterThanOrEqual(0.03);
    expect(below).toBeLessThanOrEqual(0.07);
    expect(ksUniform(p)).toBeLessThan(ksCritical01(p.length));
    // The work, counted rather than timed (a time bound fails on a loaded machine): each seed scores
    // its 20 shards' file order and 10 shuffles of each, and nothing more.
    expect(ordersScored - before).toBe(1000 * design.shardCount * (1 + design.permutations));
  });

  it('the uniformity check can fail: a contaminated model, or a two-sided p, is rejected', () => {
    const contaminated = Array.from({ length: 50 }, (_, seed) => pValueOf(seed + 100, 0.1, design));
    expect(ksUniform(contaminated)).toBeGreaterThan(ksCritical01(contaminated.length));
    // A test whose p is half what it should be (one that rejects twice as often as it says).
    const halved = exchangeableP().map((p) => p / 2);
    expect(ksUniform(halved)).toBeGreaterThan(ksCritical01(halved.length));
  });
});

describe('designNotes', () => {
  it('counts the 2-item shards (one other order each), the distinct orders a run scores, and calls fewer than 10 shards weak', () => {
    // 9 items in 4 shards: 3, 2, 2, 2.
    const small = designNotes({ itemCount: 9, shardCount: 4, permutations: 25, seed: 7 });
    expect(small.twoItemShards).toBe(3);
    // The 3-item shard has 5 other orders, 25 draws find them all; each 2-item shard has the swap only.
    expect(small.distinctOrders).toBe(5 + 3);
    expect(small.weak).toBe(true);
    const big = designNotes({ itemCount: 100, shardCount: 50, permutations: 3, seed: 7 });
    expect(big).toEqual({ twoItemShards: 50, distinctOrders: 50, weak: false });
    expect(designNotes({ itemCount: 20, shardCount: EXCHANGEABILITY_WEAK_SHARDS, permutations: 1, seed: 1 }).weak).toBe(false);
    expect(designNotes({ itemCount: 18, shardCount: EXCHANGEABILITY_WEAK_SHARDS - 1, permutations: 1, seed: 1 }).weak).toBe(true);
  });
});
