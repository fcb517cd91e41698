// Confidence intervals for the difference of two accuracies: Newcombe's "method 10" in both of his
// 1998 papers, the square-and-add (MOVER) combination of the two Wilson score intervals. Chosen over
// the Wald interval because runs are often small (a task of 20 items) and accuracies sit near 0 or 1,
// where Wald overshoots [−1, 1] and under-covers; both of Newcombe's papers recommend method 10.
//
// Unpaired (two runs on different items), Newcombe 1998a (Stat Med 17:873), with Wilson intervals
// (l1, u1) for p1 and (l2, u2) for p2, D = p1 − p2:
//   low  = D − sqrt((p1 − l1)² + (u2 − p2)²)
//   high = D + sqrt((u1 − p1)² + (p2 − l2)²)
// Paired (two runs on the same items), Newcombe 1998b (Stat Med 17:2635): the same with the
// correlation of the two estimates, phi, taken out of each sum of squares:
//   low  = D − sqrt((p1 − l1)² − 2·phi·(p1 − l1)(u2 − p2) + (u2 − p2)²)
//   high = D + sqrt((p2 − l2)² − 2·phi·(p2 − l2)(u1 − p1) + (u1 − p1)²)
// where phi = C / sqrt((a+b)(c+d)(a+c)(b+d)) and C is ad − bc made conservative as the paper does:
// ad − bc − n/2 when ad − bc > n/2, 0 when 0 ≤ ad − bc ≤ n/2, ad − bc when negative; phi = 0 when
// any margin is 0 (the denominator is 0).
import { Z_95, wilsonInterval } from './accuracy.ts';

export interface DifferenceInterval {
  /** p1 − p2, a fraction in [−1, 1]. */
  difference: number;
  low: number;
  high: number;
}

function checkCount(name: string, value: number): void {
  if (!Number.isInteger(value) || value < 0) throw new RangeError(`${name} must be a whole count ≥ 0, got ${value}`);
}

const clamp = (x: number): number => Math.min(1, Math.max(-1, x));

/**
 * Newcombe (1998a) method 10: 95% (by default) interval for k1/n1 − k2/n2 from two independent
 * samples. Null when either sample is empty.
 */
export function newcombeUnpaired(k1: number, n1: number, k2: number, n2: number, z: number = Z_95): DifferenceInterval | null {
  checkCount('k1', k1);
  checkCount('n1', n1);
  checkCount('k2', k2);
  checkCount('n2', n2);
  const w1 = wilsonInterval(k1, n1, z);
  const w2 = wilsonInterval(k2, n2, z);
  if (!w1 || !w2) return null;
  const p1 = k1 / n1;
  const p2 = k2 / n2;
  const difference = p1 - p2;
  return {
    difference,
    low: clamp(difference - Math.hypot(p1 - w1.low, w2.high - p2)),
    high: clamp(difference + Math.hypot(w1.high - p1, p2 - w2.low)),
  };
}

/** Newcombe's continuity-corrected phi for the 2×2 table of paired outcomes (0 when a margin is 0). */
export function pairedPhi(a: number, b: number, c: number, d: number): number {
  const n = a + b + c + d;
  const margins = (a + b) * (c + d) * (a + c) * (b + d);
  if (margins === 0) return 0;
  const cross = a * d - b * c;
  const corrected = cross > n / 2 ? cross - n / 2 : cross < 0 ? cross : 0;
  return corrected / Math.sqrt(margins);
}

/**
 * Newcombe (1998b) method 10: interval for p1 − p2 = (b − c)/n of paired proportions, where
 * a = both right, b = first right only, c = second right only, d = both wrong. Null when n = 0.
 */
export function newcombePaired(a: number, b: number, c: number, d: number, z: number = Z_95): DifferenceInterval | null {
  checkCount('a', a);
  checkCount('b', b);
  checkCount('c', c);
  checkCount('d', d);
  const n = a + b + c + d;
  const w1 = wilsonInterval(a + b, n, z);
  const w2 = wilsonInterval(a + c, n, z);
  if (!w1 || !w2) return null;
  const p1 = (a + b) / n;
  const p2 = (a + c) / n;
  const phi = pairedPhi(a, b, c, d);
  const difference = p1 - p2;
  // With |phi| ≤ 1 each sum is ≥ (x − y)² ≥ 0; max(0, …) only guards against rounding.
  const spread = (x: number, y: number): number => Math.sqrt(Math.max(0, x * x - 2 * phi * x * y + y * y));
  return {
    difference,
    low: clamp(difference - spread(p1 - w1.low, w2.high - p2)),
    high: clamp(difference + spread(p2 - w2.low, w1.high - p1)),
  };
}

/** How the difference intervals are computed, for signatures. */
export const DIFFERENCE_INTERVAL_METHODS = {
  unpaired: 'newcombe-1998a-method10',
  paired: 'newcombe-1998b-method10-phi',
} as const;
