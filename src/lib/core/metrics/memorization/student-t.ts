// Student's t upper tail, for the exchangeability test's p-value. The project had the chi-square
// survival (goodness-of-fit.ts) but no t. P(T_ν ≥ t) = ½ · I_x(ν/2, ½) with x = ν/(ν + t²) for
// t ≥ 0 (Abramowitz & Stegun 26.7.1 with 26.5.27), and 1 minus that below 0; I_x(a, b) is the
// regularized incomplete beta function by its continued fraction (modified Lentz), taken on the side
// where it converges fast (x < (a + 1)/(a + b + 2), else through I_x(a, b) = 1 − I_{1−x}(b, a)), as
// Numerical Recipes' betai does. The upper tail is computed directly, not as 1 − CDF, so a small p
// keeps its digits (the reference script's 1 − t.cdf turns anything below 1e-16 into 0).
import { logGamma } from '../goodness-of-fit.ts';

const EPS = 1e-15;
const TINY = 1e-300;
const MAX_ITERATIONS = 10_000;

function betaContinuedFraction(a: number, b: number, x: number): number {
  const qab = a + b;
  const qap = a + 1;
  const qam = a - 1;
  let c = 1;
  let d = 1 - (qab * x) / qap;
  if (Math.abs(d) < TINY) d = TINY;
  d = 1 / d;
  let h = d;
  for (let m = 1; m <= MAX_ITERATIONS; m++) {
    const m2 = 2 * m;
    let aa = (m * (b - m) * x) / ((qam + m2) * (a + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    h *= d * c;
    aa = (-(a + m) * (qab + m) * x) / ((a + m2) * (qap + m2));
    d = 1 + aa * d;
    if (Math.abs(d) < TINY) d = TINY;
    c = 1 + aa / c;
    if (Math.abs(c) < TINY) c = TINY;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return h;
}

/** I_x(a, b), the regularized incomplete beta function, a, b > 0, 0 ≤ x ≤ 1. */
export function regularizedIncompleteBeta(a: number, b: number, x: number): number {
  if (!(a > 0) || !(b > 0) || !(x >= 0 && x <= 1)) throw new RangeError(`regularizedIncompleteBeta needs a, b > 0 and 0 ≤ x ≤ 1, got a = ${a}, b = ${b}, x = ${x}`);
  if (x === 0) return 0;
  if (x === 1) return 1;
  const front = Math.exp(logGamma(a + b) - logGamma(a) - logGamma(b) + a * Math.log(x) + b * Math.log1p(-x));
  if (x < (a + 1) / (a + b + 2)) return (front * betaContinuedFraction(a, b, x)) / a;
  return 1 - (front * betaContinuedFraction(b, a, 1 - x)) / b;
}

/** P(T ≥ t) for Student's t with ν > 0 degrees of freedom. */
export function studentTSurvival(t: number, df: number): number {
  if (!(df > 0) || !Number.isFinite(df)) throw new RangeError(`Student's t needs ν > 0, got ${df}`);
  if (Number.isNaN(t)) throw new RangeError('Student\'s t survival of NaN');
  if (t === Infinity) return 0;
  if (t === -Infinity) return 1;
  const tail = 0.5 * regularizedIncompleteBeta(df / 2, 0.5, df / (df + t * t));
  return t >= 0 ? tail : 1 - tail;
}
