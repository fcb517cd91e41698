// 95% percentile-bootstrap intervals for corpus metrics (F1s, BLEU). Corpus metrics are functions of
// summed per-item statistics (tp/fp/fn; BLEU's lengths and n-gram counts), so a resample is a draw of
// n item indices with replacement, a sum of their statistic rows and one metric evaluation.
// Method (stated in every signature that uses it, see bootstrapSignature):
//  - mulberry32 seeded PRNG, so the same seed gives the same interval in a page, a worker and Node;
//    index = floor(u · n) for u in [0, 1).
//  - 1,000 resamples by default; seed 12345 by default (sacrebleu's default bootstrap seed).
//  - Percentile interval: the 2.5th and 97.5th percentiles of the resampled values, linear
//    interpolation between order statistics (numpy's default percentile method).
//  - A resample whose metric is undefined (e.g. F1 when it drew no entities at all) is left out of
//    the percentiles; `used` says how many counted. No defined resample, or no items: no interval.
import type { Interval } from '../accuracy.ts';

export const DEFAULT_BOOTSTRAP_RESAMPLES = 1000;
export const DEFAULT_BOOTSTRAP_SEED = 12345;
export const BOOTSTRAP_LEVEL = 0.95;

export interface BootstrapOptions {
  /** Number of resamples (default 1,000). */
  resamples?: number;
  /** PRNG seed, an unsigned 32-bit integer (default 12345). */
  seed?: number;
}

export interface BootstrapInterval extends Interval {
  /** Resamples drawn. */
  resamples: number;
  /** Resamples whose metric was defined, over which the percentiles were taken. */
  used: number;
  seed: number;
  level: number;
}

/** mulberry32: a small, fast 32-bit PRNG (Tommy Ettinger); returns uniforms in [0, 1). */
export function mulberry32(seed: number): () => number {
  let a = seed | 0;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** The q-quantile (0..1) of sorted values, numpy's 'linear' method. */
export function percentileSorted(sorted: ArrayLike<number>, q: number): number {
  const position = q * (sorted.length - 1);
  const lower = Math.floor(position);
  const upper = Math.min(lower + 1, sorted.length - 1);
  return sorted[lower] + (sorted[upper] - sorted[lower]) * (position - lower);
}

/**
 * The 95% (or `level`) percentile interval of resampled values (sorted in place) and the two-sided
 * bootstrap p that they are centred on 0: min(1, 2 · (1 + min(#{v ≤ 0}, #{v ≥ 0})) / (B + 1)).
 * Round-off of a weighted sum of zeros can leave ±1e-17, so 0 is compared within 1e-12.
 */
export function percentileAndP(values: Float64Array, level: number): { low: number; high: number; pValue: number } {
  const sorted = values.sort();
  let atOrBelow = 0;
  let atOrAbove = 0;
  for (const v of sorted) {
    if (v <= 1e-12) atOrBelow++;
    if (v >= -1e-12) atOrAbove++;
  }
  const tail = (1 - level) / 2;
  return {
    low: percentileSorted(sorted, tail),
    high: percentileSorted(sorted, 1 - tail),
    pValue: Math.min(1, (2 * (1 + Math.min(atOrBelow, atOrAbove))) / (sorted.length + 1)),
  };
}

/** The options with their defaults (`defaultResamples` for the caller's bootstrap), checked. */
export function resolveOptions(options: BootstrapOptions, defaultResamples = DEFAULT_BOOTSTRAP_RESAMPLES): { resamples: number; seed: number } {
  const resamples = options.resamples ?? defaultResamples;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  if (!Number.isInteger(resamples) || resamples < 1) throw new RangeError(`resamples must be a positive whole number, got ${resamples}`);
  if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new RangeError(`seed must be a whole number in 0..2^32 − 1, got ${seed}`);
  return { resamples, seed };
}

/**
 * Percentile bootstrap over items. `rows` holds one row of `width` statistics per item (row i at
 * i·width); each metric maps a column-sum vector to the corpus value, or null where it is undefined.
 * All metrics see the same resamples. One interval per metric, in order.
 */
export function bootstrapIntervals(
  rows: Float64Array,
  width: number,
  metrics: readonly ((sums: Float64Array) => number | null)[],
  options: BootstrapOptions = {},
): (BootstrapInterval | null)[] {
  const { resamples, seed } = resolveOptions(options);
  const n = rows.length / width;
  if (!Number.isInteger(n)) throw new RangeError(`${rows.length} statistics do not make rows of ${width}`);
  if (n === 0) return metrics.map(() => null);
  const random = mulberry32(seed);
  const sums = new Float64Array(width);
  const values: number[][] = metrics.map(() => []);
  for (let b = 0; b < resamples; b++) {
    sums.fill(0);
    for (let draw = 0; draw < n; draw++) {
      const offset = Math.floor(random() * n) * width;
      for (let j = 0; j < width; j++) sums[j] += rows[offset + j];
    }
    metrics.forEach((metric, m) => {
      const value = metric(sums);
      if (value !== null && Number.isFinite(value)) values[m].push(value);
    });
  }
  const tail = (1 - BOOTSTRAP_LEVEL) / 2;
  return values.map((defined) => {
    if (defined.length === 0) return null;
    const sorted = Float64Array.from(defined).sort();
    return {
      low: percentileSorted(sorted, tail),
      high: percentileSorted(sorted, 1 - tail),
      resamples,
      used: defined.length,
      seed,
      level: BOOTSTRAP_LEVEL,
    };
  });
}

/** bootstrapIntervals for one metric. */
export function bootstrapInterval(
  rows: Float64Array,
  width: number,
  metric: (sums: Float64Array) => number | null,
  options: BootstrapOptions = {},
): BootstrapInterval | null {
  return bootstrapIntervals(rows, width, [metric], options)[0];
}

/** The signature fragment of an interval, e.g. `bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items`. */
export function bootstrapSignature(options: BootstrapOptions = {}): string {
  const { resamples, seed } = resolveOptions(options);
  return `bs:${resamples}|seed:${seed}|ci:percentile-95|rng:mulberry32|resample:items`;
}
