// The exchangeability test (Oren et al. 2023, "Proving test set contamination in black box language
// models", arXiv 2310.17623; its sharded test): if nobody has seen a benchmark file, its items are
// exchangeable and the file's own order is no likelier than a shuffle; a model that has seen the file
// can have learned its order. Needs only the model and the items, no reference corpus.
//
// Per shard i (exchangeability-plan.ts says which items and orders): d_i = log p(shard in file order)
// − mean over its r permuted orders of log p(shard in that order), each log p the summed
// log-likelihood of the shard's items concatenated in that order. How that text is built is the
// caller's (the reference tokenizes each item on its own, a file line keeping its newline, joins the
// token ids, and scores a long shard in windows of 2,048 tokens with a stride of 1,024); it must be
// the same for every order. Under exchangeability E[d_i] = 0; an order the model has seen makes
// d_i > 0. Over the m shards, a one-sided one-sample t-test of mean(d) > 0:
//   t = mean(d) / (s / √m), s the sample standard deviation (m − 1 in the denominator),
//   p = P(T_{m−1} ≥ t), Student's t with m − 1 degrees of freedom (student-t.ts).
// The reference (tatsu-lab/test_set_contamination, compute_sharded_comparison_test.py, main, "T-test")
// computes the same difference per shard and the same one-sided t tail with m − 1 degrees of freedom,
// but divides by numpy's default std, the population one (m in the denominator): its statistic is
// this t times √(m/(m − 1)) (1% larger at 50 shards), and its p a little smaller. Jiangu takes the
// t-test the paper names, whose size is exact when the d_i are normal; the reference's p follows
// from `statistic` by that factor where someone needs to match it.
//
// What the p-value can and cannot show:
//  - A low p is evidence that the model prefers this file's order to shuffles of it, which is what a
//    model that saw the file in that order would do. It proves contamination only as far as the
//    items are exchangeable: a file sorted by source text, topic or difficulty lets neighbouring items
//    predict each other, and its own order then wins with no contamination at all.
//  - A high p proves nothing: the model may have seen the items in another order, seen them once,
//    seen them without the layout Jiangu joins them with, or be too small to keep an order; the paper
//    reports its power falling for small files and files seen only once, with models of 1.4B
//    parameters and more.
//  - It is a test of the file, not of any item: it says nothing about which items were seen.
import { exchangeabilityDesignSignature, type ExchangeabilityDesign } from './exchangeability-plan.ts';
import { studentTSurvival } from './student-t.ts';

export const EXCHANGEABILITY_VERSION = 1;

/** One shard's log-likelihoods (nats): in file order, and in each of its r permuted orders. */
export interface ShardLogLikelihoods {
  canonical: number;
  permuted: readonly number[];
}

export interface ExchangeabilityResult {
  /** m. */
  shards: number;
  /** r. */
  permutations: number;
  /** mean(d), nats: how much likelier the file's order is than a shuffle, per shard. */
  meanDifference: number;
  /** s, the sample standard deviation of d. */
  sdDifference: number;
  /** t; null when every d_i is the same (s = 0: no spread to test against). */
  statistic: number | null;
  df: number;
  /** One-sided p; null with the statistic. */
  pValue: number | null;
  signature: string;
}

/** Each shard's d_i (see the header). */
export function shardDifferences(shards: readonly ShardLogLikelihoods[]): Float64Array {
  return Float64Array.from(shards, (shard, i) => {
    if (shard.permuted.length === 0) throw new RangeError(`shard ${i} has no permuted log-likelihood`);
    if (!Number.isFinite(shard.canonical) || !shard.permuted.every(Number.isFinite)) throw new RangeError(`shard ${i} has a log-likelihood that is not a finite number`);
    let sum = 0;
    for (const value of shard.permuted) sum += value;
    return shard.canonical - sum / shard.permuted.length;
  });
}

/**
 * The test over a complete plan's log-likelihoods, shards in plan order (see the header). Throws when
 * the numbers do not fit the design (a shard missing, a permutation missing or extra).
 */
export function exchangeabilityTest(design: ExchangeabilityDesign, shards: readonly ShardLogLikelihoods[]): ExchangeabilityResult {
  const signature = exchangeabilitySignature(design);
  if (shards.length !== design.shardCount) throw new RangeError(`the design has ${design.shardCount} shards, the log-likelihoods ${shards.length}`);
  shards.forEach((shard, i) => {
    if (shard.permuted.length !== design.permutations) throw new RangeError(`shard ${i} has ${shard.permuted.length} permuted log-likelihoods, the design ${design.permutations}`);
  });
  const d = shardDifferences(shards);
  const m = d.length;
  const mean = d.reduce((a, b) => a + b, 0) / m;
  let squares = 0;
  for (const x of d) squares += (x - mean) ** 2;
  const sd = Math.sqrt(squares / (m - 1));
  const df = m - 1;
  // Equal differences leave round-off of order 1e-16 · |mean|, which is no spread.
  if (!(sd > 1e-12 * Math.max(1, Math.abs(mean)))) {
    return { shards: m, permutations: design.permutations, meanDifference: mean, sdDifference: sd, statistic: null, df, pValue: null, signature };
  }
  const statistic = mean / (sd / Math.sqrt(m));
  return { shards: m, permutations: design.permutations, meanDifference: mean, sdDifference: sd, statistic, df, pValue: studentTSurvival(statistic, df), signature };
}

/** `exchangeability|shards:50|r:25|seed:12345|…|d:canonical-mean(permuted)|t:mean/(sd1/sqrt(m))|p:one-sided-t(m-1)|v:1`. */
export function exchangeabilitySignature(design: ExchangeabilityDesign): string {
  return `exchangeability|${exchangeabilityDesignSignature(design)}|d:canonical-mean(permuted)|t:mean/(sd1/sqrt(m))|p:one-sided-t(m-1)|v:${EXCHANGEABILITY_VERSION}`;
}
