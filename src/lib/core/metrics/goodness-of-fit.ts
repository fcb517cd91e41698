// Goodness of fit of observed counts against expected counts over a few categories, and the
// chi-square survival function. Letter bias used goodnessOfFit until its version 2; it now tests the
// paired gold × predicted table (marginal-homogeneity.ts), since a fit against the sample's own gold
// counts took them as exact. The chi-square functions serve that test. Method (stated in `method`):
//  - The statistic is always Pearson's X² = Σ (O − E)²/E over categories with E > 0.
//  - Exact multinomial test when the outcomes can be enumerated cheaply: every composition of n into
//    the m categories with E > 0 (C(n + m − 1, m − 1) of them) is visited, and
//    p = Σ P(x) over outcomes with P(x) ≤ P(observed)·(1 + 1e-7). The relative tolerance is R's EMT
//    and XNomial's: outcomes as likely as the observed one must not be lost to rounding.
//    Feasible: at most EXACT_COMPOSITION_LIMIT (50,000) compositions: n ≤ 64 for four letters,
//    n ≤ 314 for three, n < 50,000 for two. (200,000, n ≤ 100 for four letters, took over 1 s for
//    a run of 70 tasks of 100 items in Node: each task is tested on its own.)
//  - Otherwise the chi-square approximation: df = m − 1, p = Q(df/2, X²/2), the regularized upper
//    incomplete gamma function (series below a + 1, Lentz continued fraction above; Numerical Recipes).
//  - A category with E = 0 but O > 0 (a letter predicted whose gold count is 0): the observed outcome
//    is impossible under H0, so p = 0 and X² = Infinity, whichever method would have been used.

export const GOODNESS_OF_FIT_VERSION = 1;
export const EXACT_COMPOSITION_LIMIT = 50_000;
/** R's EMT / XNomial: outcomes within this relative distance of P(observed) count as equally likely. */
export const EXACT_RELATIVE_TOLERANCE = 1e-7;

export type FitMethod = 'exact-multinomial' | 'chi-square';

export interface GoodnessOfFit {
  /** Pearson X²; Infinity when an outcome impossible under H0 was observed. */
  statistic: number;
  /** Categories with expected > 0, minus 1. */
  df: number;
  pValue: number;
  method: FitMethod;
}

/** ln Γ(x) for x > 0, Lanczos approximation (Numerical Recipes' gammln, |error| < 2e-10). */
export function logGamma(x: number): number {
  if (!(x > 0)) throw new RangeError(`logGamma needs x > 0, got ${x}`);
  const c = [76.18009172947146, -86.50532032941677, 24.01409824083091, -1.231739572450155, 0.1208650973866179e-2, -0.5395239384953e-5];
  let y = x;
  const tmp = x + 5.5 - (x + 0.5) * Math.log(x + 5.5);
  let ser = 1.000000000190015;
  for (const cj of c) ser += cj / ++y;
  return -tmp + Math.log((2.5066282746310005 * ser) / x);
}

const EPS = 1e-15;
const MAX_ITERATIONS = 10_000;

/** P(a, x) by its series, for x < a + 1. */
function lowerSeries(a: number, x: number): number {
  let sum = 1 / a;
  let term = sum;
  for (let n = 1; n < MAX_ITERATIONS; n++) {
    term *= x / (a + n);
    sum += term;
    if (Math.abs(term) < Math.abs(sum) * EPS) break;
  }
  return sum * Math.exp(-x + a * Math.log(x) - logGamma(a));
}

/** Q(a, x) by its continued fraction (modified Lentz), for x ≥ a + 1. */
function upperFraction(a: number, x: number): number {
  const tiny = 1e-300;
  let b = x + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < MAX_ITERATIONS; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < EPS) break;
  }
  return Math.exp(-x + a * Math.log(x) - logGamma(a)) * h;
}

/** Q(a, x) = Γ(a, x)/Γ(a), the regularized upper incomplete gamma function, a > 0, x ≥ 0. */
export function regularizedUpperGamma(a: number, x: number): number {
  if (!(a > 0) || !(x >= 0)) throw new RangeError(`regularizedUpperGamma needs a > 0 and x ≥ 0, got a = ${a}, x = ${x}`);
  if (x === 0) return 1;
  if (x === Infinity) return 0;
  return x < a + 1 ? Math.max(0, 1 - lowerSeries(a, x)) : upperFraction(a, x);
}

/** P(χ²(df) ≥ x): the chi-square survival function. */
export function chiSquareSurvival(x: number, df: number): number {
  if (!Number.isInteger(df) || df < 1) throw new RangeError(`chi-square needs df ≥ 1, got ${df}`);
  return regularizedUpperGamma(df / 2, Math.max(0, x) / 2);
}

/** C(n + m − 1, m − 1), the number of ways to put n items in m categories (Infinity past 2^53). */
export function compositionCount(n: number, m: number): number {
  if (m <= 1) return 1;
  let count = 1;
  for (let i = 1; i < m; i++) count = (count * (n + i)) / i;
  return Math.round(count);
}

function checkCounts(observed: readonly number[], expected: readonly number[]): void {
  if (observed.length !== expected.length) throw new RangeError(`observed has ${observed.length} categories, expected ${expected.length}`);
  for (const o of observed) if (!Number.isInteger(o) || o < 0) throw new RangeError(`observed counts must be whole and ≥ 0, got ${o}`);
  for (const e of expected) if (!(e >= 0) || !Number.isFinite(e)) throw new RangeError(`expected counts must be finite and ≥ 0, got ${e}`);
}

/** Pearson X² over categories with E > 0; Infinity when some category with E = 0 was observed. */
export function pearsonStatistic(observed: readonly number[], expected: readonly number[]): number {
  checkCounts(observed, expected);
  let x2 = 0;
  for (let i = 0; i < observed.length; i++) {
    if (expected[i] === 0) {
      if (observed[i] > 0) return Infinity;
      continue;
    }
    x2 += (observed[i] - expected[i]) ** 2 / expected[i];
  }
  return x2;
}

/**
 * The exact multinomial p-value of `observed` under cell probabilities `probabilities` (all > 0,
 * summing to 1): the probability of every outcome at most as likely as the observed one. Log
 * probabilities throughout (log n! − Σ log x_i! + Σ x_i log p_i) so large n neither overflows nor
 * underflows to 0 term by term.
 */
export function exactMultinomialPValue(observed: readonly number[], probabilities: readonly number[]): number {
  const n = observed.reduce((s, x) => s + x, 0);
  const m = probabilities.length;
  const logFactorial = new Float64Array(n + 1);
  for (let i = 2; i <= n; i++) logFactorial[i] = logFactorial[i - 1] + Math.log(i);
  // term[c][x] = x·log p_c − log x!: one cell's share of log P(x).
  const term = probabilities.map((p) => {
    const row = new Float64Array(n + 1);
    const logP = Math.log(p);
    for (let x = 0; x <= n; x++) row[x] = x * logP - logFactorial[x];
    return row;
  });
  const logObserved = logFactorial[n] + observed.reduce((s, x, c) => s + term[c][x], 0);
  const threshold = logObserved + Math.log1p(EXACT_RELATIVE_TOLERANCE);
  if (m === 1) return 1;
  let p = 0;
  const last = term[m - 1];
  const beforeLast = term[m - 2];
  // The last two cells are one loop (the rest of the count goes to the last cell): no call per outcome.
  const visit = (cell: number, left: number, logSoFar: number): void => {
    if (cell === m - 2) {
      const base = logFactorial[n] + logSoFar;
      for (let x = 0; x <= left; x++) {
        const logP = base + beforeLast[x] + last[left - x];
        if (logP <= threshold) p += Math.exp(logP);
      }
      return;
    }
    for (let x = 0; x <= left; x++) visit(cell + 1, left - x, logSoFar + term[cell][x]);
  };
  visit(0, n, 0);
  return Math.min(1, p);
}

/**
 * Observed counts against expected counts of the same total n (expected_i = n·share_i). Null when
 * n = 0 or no category is expected.
 */
export function goodnessOfFit(observed: readonly number[], expected: readonly number[]): GoodnessOfFit | null {
  checkCounts(observed, expected);
  const n = observed.reduce((s, x) => s + x, 0);
  const expectedTotal = expected.reduce((s, e) => s + e, 0);
  if (n === 0 || expectedTotal === 0) return null;
  const cells = expected.map((e, i) => i).filter((i) => expected[i] > 0);
  const df = cells.length - 1;
  const method: FitMethod = compositionCount(n, cells.length) <= EXACT_COMPOSITION_LIMIT ? 'exact-multinomial' : 'chi-square';
  const statistic = pearsonStatistic(observed, expected.map((e) => (e * n) / expectedTotal));
  // A letter observed where none is expected: impossible under H0 (see the header).
  if (statistic === Infinity) return { statistic, df, pValue: 0, method };
  if (df === 0) return { statistic, df, pValue: 1, method };
  const pValue =
    method === 'exact-multinomial'
      ? exactMultinomialPValue(
          cells.map((i) => observed[i]),
          cells.map((i) => expected[i] / expectedTotal),
        )
      : chiSquareSurvival(statistic, df);
  return { statistic, df, pValue, method };
}
