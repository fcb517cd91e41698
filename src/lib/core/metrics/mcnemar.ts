// McNemar's test for two paired multiple-choice runs (same items, models A and B), exact form.
//
// Only the discordant items carry information: b = items A got right and B got wrong, c = items A got
// wrong and B got right. Under the null hypothesis (A and B equally accurate) each discordant item is
// a fair coin, so min(b, c) is the lower tail of X ~ Binomial(n = b + c, 1/2), and
//   two-sided p = min(1, 2 · P(X ≤ min(b, c))),  with p = 1 when b + c = 0.
//
// The tail is computed in log space so that it neither overflows nor turns into NaN for n in the
// hundreds of thousands: the largest term of the tail, P(X = m) with m = min(b, c) ≤ n/2, is taken as
// exp(log C(n, m) − n·ln 2), with log C(n, m) summed as Σ_{i=1..m} ln((n − m + i) / i); the smaller
// terms are added as ratios to it (P(X = k − 1) / P(X = k) = k / (n − k + 1) ≤ 1), stopping once they
// no longer change the sum. A p-value below the smallest double (e.g. b = 0, c = 100,000) is 0.

export type McnemarMethod = 'exact-binomial-two-sided';

export interface McnemarResult {
  /** Items A right and B wrong. */
  b: number;
  /** Items A wrong and B right. */
  c: number;
  /** Discordant items, b + c. */
  n: number;
  /** Two-sided exact p-value in [0, 1]. */
  pValue: number;
  /** min(b, c), the binomial tail's bound. */
  statistic: number;
  method: McnemarMethod;
  signature: string;
}

export interface PairedOutcome {
  /** Model A answered this item correctly. */
  a: boolean;
  /** Model B answered this item correctly. */
  b: boolean;
}

export interface PairedAgreement {
  /** Items where both runs predicted the same letter (both null counts as the same). */
  same: number;
  /** Items where the predictions differ. */
  different: number;
  /** Indices of the differing items, ascending. */
  differentIndices: number[];
  /** same / items, percent; null when there are no items. */
  percentSame: number | null;
}

/** The signature stated beside every McNemar p-value. */
export function mcnemarSignature(): string {
  return 'mcnemar|exact-binomial|p0:0.5|two-sided:2x-lower-tail|clamp:1';
}

function assertCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`McNemar count ${name} must be a non-negative integer, got ${value}`);
}

/** ln P(X ≤ m) for X ~ Binomial(n, 1/2), m ≤ n/2 (so the terms rise up to k = m). */
function logLowerTailHalf(n: number, m: number): number {
  // ln P(X = m) = ln C(n, m) − n ln 2
  let logChoose = 0;
  for (let i = 1; i <= m; i++) logChoose += Math.log((n - m + i) / i);
  const logTop = logChoose - n * Math.LN2;
  // Σ_{k ≤ m} P(X = k) / P(X = m), terms descending from 1.
  let sum = 1;
  let term = 1;
  for (let k = m; k >= 1; k--) {
    term *= k / (n - k + 1);
    const next = sum + term;
    if (next === sum) break;
    sum = next;
  }
  return logTop + Math.log(sum);
}

/** Exact two-sided McNemar test from the discordant counts b (A right, B wrong) and c (A wrong, B right). */
export function mcnemarExactFromCounts(b: number, c: number): McnemarResult {
  assertCount('b', b);
  assertCount('c', c);
  const n = b + c;
  const m = Math.min(b, c);
  let pValue = 1;
  if (n > 0 && 2 * m < n) {
    // 2·P(X ≤ m) < 1 only when m < n/2; at m = n/2 the tail is above 1/2 and p clamps to 1.
    pValue = Math.min(1, Math.exp(Math.LN2 + logLowerTailHalf(n, m)));
  }
  return { b, c, n, pValue, statistic: m, method: 'exact-binomial-two-sided', signature: mcnemarSignature() };
}

/** Exact two-sided McNemar test from per-item correctness of the two runs on the same items. */
export function mcnemarExact(pairs: readonly PairedOutcome[]): McnemarResult {
  let b = 0;
  let c = 0;
  for (const pair of pairs) {
    if (pair.a && !pair.b) b++;
    else if (!pair.a && pair.b) c++;
  }
  return mcnemarExactFromCounts(b, c);
}

/** Compares two runs' predicted letters item by item (null = no letter extracted). */
export function pairedAgreement(predictionsA: readonly (string | null)[], predictionsB: readonly (string | null)[]): PairedAgreement {
  if (predictionsA.length !== predictionsB.length) {
    throw new RangeError(`paired runs must cover the same items: ${predictionsA.length} vs ${predictionsB.length} predictions`);
  }
  let same = 0;
  const differentIndices: number[] = [];
  for (let i = 0; i < predictionsA.length; i++) {
    if (predictionsA[i] === predictionsB[i]) same++;
    else differentIndices.push(i);
  }
  const n = predictionsA.length;
  return { same, different: differentIndices.length, differentIndices, percentSame: n === 0 ? null : (100 * same) / n };
}
