// Accuracy of 0/1 scores, its standard error and a Wilson score interval. Conventions:
//  - n = 0: there is no accuracy, standard error or interval: each returns null (shown as "—"),
//    never 0 or [0, 1], so an empty task cannot pass for a measured one.
//  - Standard error: the sample standard deviation of the 0/1 scores (divisor n − 1, as numpy's
//    std(ddof=1) and lm-evaluation-harness's mean_stderr) over sqrt(n). With p = k/n this is
//    sqrt(p(1 − p)/(n − 1)). For n = 1 the sample deviation is undefined; we return 0.

/** 1.959963984540054: the 97.5th percentile of the standard normal, for two-sided 95%. */
export const Z_95 = 1.959963984540054;

export interface Interval {
  low: number;
  high: number;
}

function checkCounts(k: number, n: number): void {
  if (!Number.isInteger(n) || n < 0 || !Number.isInteger(k) || k < 0 || k > n) {
    throw new RangeError(`expected whole counts 0 ≤ correct ≤ n, got correct = ${k}, n = ${n}`);
  }
}

const countTrue = (correct: readonly boolean[]): number => correct.reduce((sum, c) => sum + (c ? 1 : 0), 0);

/** k/n; null for n = 0. */
export function accuracyFromCounts(k: number, n: number): number | null {
  checkCounts(k, n);
  return n === 0 ? null : k / n;
}

/** The share of true values; null when empty. */
export function accuracy(correct: readonly boolean[]): number | null {
  return accuracyFromCounts(countTrue(correct), correct.length);
}

/** sqrt(p(1 − p)/(n − 1)), the sample (n − 1) standard deviation over sqrt(n); 0 for n = 1, null for n = 0. */
export function standardErrorFromCounts(k: number, n: number): number | null {
  checkCounts(k, n);
  if (n === 0) return null;
  if (n === 1) return 0;
  const p = k / n;
  return Math.sqrt((p * (1 - p)) / (n - 1));
}

/** See standardErrorFromCounts. */
export function standardError(correct: readonly boolean[]): number | null {
  return standardErrorFromCounts(countTrue(correct), correct.length);
}

/**
 * Wilson score interval for k successes in n trials:
 * (k + z²/2 ± z·sqrt(k(n − k)/n + z²/4)) / (n + z²), clamped to [0, 1]. Null for n = 0.
 */
export function wilsonInterval(k: number, n: number, z: number = Z_95): Interval | null {
  checkCounts(k, n);
  return wilsonIntervalOfShares(k, n, z);
}

/**
 * The Wilson score formula with a sum of n values in [0, 1] in place of k (the items' shares of
 * right rotations, say). Var of a [0, 1] variable with mean p is at most p(1 − p), so this is the
 * Bernoulli worst case: conservative, and never of zero width when every item has the same share.
 * Null for n = 0.
 */
export function wilsonIntervalOfShares(sum: number, n: number, z: number = Z_95): Interval | null {
  if (!Number.isInteger(n) || n < 0 || !(sum >= 0) || sum > n) throw new RangeError(`expected 0 ≤ sum ≤ n with whole n, got sum = ${sum}, n = ${n}`);
  if (!(z > 0) || !Number.isFinite(z)) throw new RangeError(`z must be a positive number, got ${z}`);
  if (n === 0) return null;
  const k = sum;
  const z2 = z * z;
  const center = (k + z2 / 2) / (n + z2);
  const half = (z * Math.sqrt((k * (n - k)) / n + z2 / 4)) / (n + z2);
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}
