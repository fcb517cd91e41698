// Which texts the exchangeability test (exchangeability-test.ts) scores: the shards of a benchmark
// file and, per shard, the shuffled orders. Pure and seeded, so a run that resumes after a reload, a
// worker and a test all rebuild the same plan from its design.
//
// Shards (as the reference, tatsu-lab/test_set_contamination, compute_sharded_comparison_test.py,
// main: shard_counts and shard_example_indices): m shards of consecutive items in file order; with n
// items, the first n mod m shards hold ⌊n/m⌋ + 1 items and the rest ⌊n/m⌋.
//
// Orders: per shard, r permutations drawn one after another from one mulberry32 stream seeded with
// the design's seed, shards in order: Durstenfeld's Fisher–Yates over the shard's positions (for
// i = s − 1 … 1, j = floor(u · (i + 1)), swap i and j), drawn again whenever it gives back the file's
// own order, so every permuted order differs from the canonical one and is uniform among those that
// do. The reference samples from all s! orders (random.sample), the canonical one included; either way
// the canonical order is, under exchangeability, a draw from the same distribution as the mean it is
// compared with, so the per-shard difference has mean 0; leaving the identity out keeps a draw from
// wasting a forward pass on a zero difference. Orders may repeat (a 2-item shard has one other order,
// so all r are the swap): a caller may score each distinct order once; the mean is over all r.
//
// A shard needs 2 items at least: a single item has no other order, its difference would be 0 by
// construction and would only shrink the spread the test measures against. So m ≤ ⌊n/2⌋; m ≥ 2 for
// the t-test's one degree of freedom. shardCountFor picks m for a file.
//
// One file at a time: the items of a shard must be exchangeable when nobody has seen the file. Items
// of two files (two tasks) are not: a shard spanning both has its canonical order grouped by task,
// and any model finds a run of similar items more predictable than a mix, so the canonical order
// wins with no contamination at all. Run one plan per file, as the paper's Llama-2 audit tests MMLU
// file by file, and adjust the p-values across files (holm.ts).
import { mulberry32 } from '../generation/bootstrap.ts';

/** The reference's default shard count. */
export const EXCHANGEABILITY_DEFAULT_SHARDS = 50;
/**
 * Permutations per shard. The reference defaults to 250. When orders' log-likelihoods scatter
 * independently about their mean, the per-shard difference's spread is √(1 + 1/r) times the
 * scatter of one order: at r = 25 within 2% of r → ∞, so 250 would raise the expected t by under 2%
 * for ten times the forward passes, which a browser pays for.
 */
export const EXCHANGEABILITY_DEFAULT_PERMUTATIONS = 25;
/**
 * The most permutations a shard may have: the Evaluate page's most, and what a run file or a link may
 * state. 250 is the reference's default; past 25 the t gains under 2% (see above) for the forward passes.
 */
export const EXCHANGEABILITY_MAX_PERMUTATIONS = 250;
/** The project's seed (generation/bootstrap.ts). The reference seeds Python's Mersenne Twister with 0: a different stream, so no order could match it anyway. */
export const EXCHANGEABILITY_DEFAULT_SEED = 12345;

/** Everything that fixes a plan, and goes into the test's signature. */
export interface ExchangeabilityDesign {
  /** Items in the file. */
  itemCount: number;
  /** m. */
  shardCount: number;
  /** r, permuted orders per shard. */
  permutations: number;
  seed: number;
}

export interface PlannedShard {
  /** The shard's items as indices into the file's order (consecutive). */
  items: readonly number[];
  /** r orders of those same indices, none equal to `items`. */
  orders: readonly (readonly number[])[];
}

/**
 * The shard count for a file of `itemCount` items: `wanted`, lowered to ⌊n/2⌋ so every shard has 2
 * items; null when the file has fewer than 4 items (2 shards of 2 are the least the test can use).
 */
export function shardCountFor(itemCount: number, wanted: number = EXCHANGEABILITY_DEFAULT_SHARDS): number | null {
  const m = Math.min(wanted, Math.floor(itemCount / 2));
  return m >= 2 ? m : null;
}

/** Each shard's size, the reference's split (see the header). */
export function shardSizes(itemCount: number, shardCount: number): number[] {
  const base = Math.floor(itemCount / shardCount);
  const extra = itemCount % shardCount;
  return Array.from({ length: shardCount }, (_, i) => base + (i < extra ? 1 : 0));
}

function checkDesign(design: ExchangeabilityDesign): void {
  const { itemCount, shardCount, permutations, seed } = design;
  for (const [name, value] of [['itemCount', itemCount], ['shardCount', shardCount], ['permutations', permutations]] as const) {
    if (!Number.isInteger(value)) throw new RangeError(`${name} must be a whole number, got ${value}`);
  }
  if (shardCount < 2) throw new RangeError(`the test needs 2 shards at least, got ${shardCount}`);
  if (itemCount < 2 * shardCount) throw new RangeError(`${itemCount} items make fewer than 2 items per shard for ${shardCount} shards: use at most ${Math.floor(itemCount / 2)} (shardCountFor)`);
  if (permutations < 1) throw new RangeError(`each shard needs 1 permutation at least, got ${permutations}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed must be a whole number in 0..2^32 − 1, got ${seed}`);
}

/** The shards and their permuted orders (see the header). */
export function exchangeabilityPlan(design: ExchangeabilityDesign): PlannedShard[] {
  checkDesign(design);
  const random = mulberry32(design.seed);
  const shards: PlannedShard[] = [];
  let start = 0;
  for (const size of shardSizes(design.itemCount, design.shardCount)) {
    const items = Array.from({ length: size }, (_, i) => start + i);
    const orders: number[][] = [];
    for (let j = 0; j < design.permutations; j++) {
      let order: number[];
      do {
        order = items.slice();
        for (let i = size - 1; i > 0; i--) {
          const k = Math.floor(random() * (i + 1));
          const held = order[i];
          order[i] = order[k];
          order[k] = held;
        }
      } while (order.every((item, i) => item === items[i]));
      orders.push(order);
    }
    shards.push({ items, orders });
    start += size;
  }
  return shards;
}

/** `shards:50|r:25|seed:12345|split:consecutive-file-order,first-n%m-one-more|orders:fisher-yates-mulberry32,not-canonical` */
export function exchangeabilityDesignSignature(design: ExchangeabilityDesign): string {
  checkDesign(design);
  return `shards:${design.shardCount}|r:${design.permutations}|seed:${design.seed}|split:consecutive-file-order,first-n%m-one-more|orders:fisher-yates-mulberry32,not-canonical`;
}

/**
 * Below this many shards the t-test is weak: m − 1 < 9 degrees of freedom, so a one-sided p < 0.05
 * needs t above 1.83 (9), 2.35 (3) or 6.31 (1) where 50 shards need 1.68; the paper reports its
 * power falling for small files. 10 shards of 2 items are 20 items a task.
 */
export const EXCHANGEABILITY_WEAK_SHARDS = 10;

/** What a page says about a design before and after it runs: its 2-item shards, the texts it scores, whether it is weak. */
export interface DesignNotes {
  /** Shards of 2 items: their only other order is the swap, so all r permutations are it. */
  twoItemShards: number;
  /** Distinct orders over all shards: the texts scored beside the m canonical ones (a repeated order is scored once). */
  distinctOrders: number;
  /** Fewer than EXCHANGEABILITY_WEAK_SHARDS shards. */
  weak: boolean;
}

export function designNotes(design: ExchangeabilityDesign): DesignNotes {
  const shards = exchangeabilityPlan(design);
  return {
    twoItemShards: shards.filter((s) => s.items.length === 2).length,
    distinctOrders: shards.reduce((sum, s) => sum + new Set(s.orders.map((o) => o.join(','))).size, 0),
    weak: design.shardCount < EXCHANGEABILITY_WEAK_SHARDS,
  };
}
