// (b), tuned part: a confidence sequence for a benchmark's score Y = Σ_s w_s μ_s whose price over a
// fixed plan is small at the looks the run planned before it started (issue 44). combine.ts shows
// it intersected with the all-times sequence (aggregate-sequence.ts, or a lone stratum's own grid),
// which gives the early display; α is split between the two and the intersection is valid by the
// union bound.
//
// The process of one look. A look k is a moment of the run's order fixed before the run
// (look-plan.ts): stratum s has then m_s values (m_s ≤ N_s). Its process multiplies, over every
// stratum's first m_s values in the order asked, Waudby-Smith & Ramdas's empirical-Bernstein factors
//   exp( λ_{s,j} (X_{s,j} − μ_{s,j}) − ψ_E(λ_{s,j}) (X_{s,j} − μ̂_{s,j})² ),   ψ_E(λ) = −log(1 − λ) − λ,
// values on each stratum's [0, 1] scale, μ_{s,j} = (N_s μ_s − S_{s,j−1}) / (N_s − j + 1) = a_j μ_s − b_j
// the without-replacement conditional mean, μ̂ = (½ + S_{j−1})/j. For X ∈ [0, 1], μ̂ ∈ [0, 1] and
// λ ∈ [0, 1), Fan et al.'s inequality makes each factor's conditional expectation at most 1 whatever
// the item's conditional mean: the strata are independent samples and the order never looks at a
// value, so the product is a nonnegative supermartingale in the run's order (a stratum's factors are 1
// past its m_s: stopped there), as is the one with −λ.
// The bets are balanced so that the process is a function of Y alone at the look:
//   λ_{s,j} = θ · w_s · g_{s,j} / G_s,   G_s = Σ_{j ≤ m_s} g_{s,j} a_{s,j},   so Σ_j λ_{s,j} a_{s,j} = θ w_s,
// and log M⁺ = θ (Ŷ − Y) − Ψ, Ŷ = C + Σ_s Σ_j λ_{s,j} (X + b_j) / θ, Ψ = Σ ψ_E(λ)(X − μ̂)², C the
// part of Y that is known at the look (the strata the plan samples to their last item, m_s = N_s,
// are left out of the process and enter with their exact means; the issue's "fully sampled tasks
// treated as known"). No linear program and no boxes: the coefficient of every μ_s is w_s.
// The shape g_j = min(a_j, 8): minimising Σ λ² for a given Σ λ a gives λ ∝ a, whose variance term is
// then exactly the finite-population correction (1 − m/N)/m of the fixed-n interval (a); capped at
// 8 (past 7/8 of a stratum) so the bets stay small, and θ is kept below what keeps every λ ≤ ½.
// θ is tuned, before any value, to the look: it minimises the half-width the look would have if
// every value had the plan's variance σ² (¼ for accuracy, the largest a [0, 1] value can have):
//   h(θ) = (L_k + σ² Σ ψ_E(λ_j)) / θ,   L_k = log(2 / (α π_k)).
// Predictable: θ, w, g, G, m are fixed by the plan; the data enter only through X, S and μ̂.
//
// The mixture. With look masses π_k (Σ ≤ 1), M_t = Σ_k π_k ½ (M⁺_{k,t} + M⁻_{k,t}) is a nonnegative
// supermartingale with M_0 ≤ 1; by Ville's inequality P(∃t: M_t ≥ 1/α) ≤ α. At time t, the looks
// already reached are frozen (their processes stopped at the look) and depend on Y alone; the others
// are ≥ 0. So rejecting Y when Σ_{k reached} π_k ½ (M⁺_k(Y) + M⁻_k(Y)) ≥ 1/α rejects only where
// M_t ≥ 1/α at the true means: the set kept holds Y at every t outside an event of chance ≤ α. The
// sum is convex in Y (exponentials of affine functions), so the set kept is an interval: its ends
// are found by bisection on each side of the minimum. Before the first look nothing is said (null).
// A look is reached when every stratum has its m_s values; failed items (too long for the model)
// delay that, and a look whose stratum never gets its values is never reached: the all-times
// sequence alone then speaks.
import type { Stratum } from './stratum.ts';
import type { ScoreInterval } from './types.ts';

/** Each item's factor: Hoeffding's exp(λξ − λ²/8), or Bernstein's exp(λξ − ψ_E(λ)(X − μ̂)²) (see the header). */
export type LookBound = 'hoeffding' | 'bernstein';

/** The looks of a plan, as combine.ts reads them (look-plan.ts makes them). */
export interface LookPlan {
  /** Each look's mass in the mixture, in the order of the looks; Σ ≤ 1. */
  masses: readonly number[];
  bound: LookBound;
  /** The variance on the [0, 1] scale the Bernstein bets are tuned to (unused by Hoeffding's). */
  variance: number;
  /** The share of α given to the looks; the rest goes to the all-times sequence. */
  share: number;
}

/** A stratum of a row, with its number of values at each look of the plan. */
export interface LookStratum {
  weight: number;
  inner: Stratum;
  looks: readonly number[];
}

const BET_CAP = 0.5;
const SHAPE_CAP = 8;


const psiE = (lambda: number) => -Math.log(1 - lambda) - lambda;
const shapeAt = (N: number, j: number) => Math.min(N / (N - j + 1), SHAPE_CAP);

/** One partial stratum of a look as the tuning reads it: its coefficient w·span, N and m. */
interface LookPart {
  coefficient: number;
  population: number;
  count: number;
  /** G = Σ g a, Q = Σ g², and the largest g. */
  G: number;
  Q: number;
  gMax: number;
}

function lookPart(coefficient: number, population: number, count: number): LookPart {
  let G = 0;
  let Q = 0;
  for (let j = 1; j <= count; j++) {
    const g = shapeAt(population, j);
    G += g * (population / (population - j + 1));
    Q += g * g;
  }
  return { coefficient, population, count, G, Q, gMax: shapeAt(population, count) };
}

/** The largest θ that keeps every bet of these parts at most BET_CAP. */
function thetaCeiling(parts: readonly LookPart[]): number {
  return parts.reduce((ceiling, p) => Math.min(ceiling, (BET_CAP * p.G) / (p.coefficient * p.gMax)), Infinity);
}

/** One item's anticipated penalty: Hoeffding's λ²/8 (what it will be), or Bernstein's σ²ψ_E(λ) at the plan's variance. */
const anticipatedPenalty = (lambda: number, bound: LookBound, variance: number) => (bound === 'hoeffding' ? (lambda * lambda) / 8 : variance * psiE(lambda));

/** The parts' anticipated penalty at θ. */
function penaltySum(parts: readonly LookPart[], theta: number, bound: LookBound, variance: number): number {
  let sum = 0;
  for (const p of parts) {
    const c = (theta * p.coefficient) / p.G;
    for (let j = 1; j <= p.count; j++) sum += anticipatedPenalty(c * shapeAt(p.population, j), bound, variance);
  }
  return sum;
}

/**
 * The θ that minimises the look's anticipated half-width (L + σ² Σ ψ_E(λ)) / θ, and that half-width
 * (on the score's scale). Golden-section search on log θ: the half-width is unimodal in θ.
 */
export function tuneLook(parts: readonly LookPart[], bound: LookBound, variance: number, level: number): { theta: number; halfWidth: number } {
  if (parts.length === 0) return { theta: 0, halfWidth: 0 };
  const ceiling = thetaCeiling(parts);
  if (bound === 'hoeffding') {
    // Hoeffding's penalty θ² Σ (c g)²/8 is exactly quadratic: θ = √(8L / Σ (coef/G)² Q), in O(tasks).
    const q = parts.reduce((sum, p) => sum + (p.coefficient / p.G) ** 2 * p.Q, 0);
    const theta = Math.min(ceiling, Math.sqrt((8 * level) / q));
    return { theta, halfWidth: (level + (theta * theta * q) / 8) / theta };
  }
  const half = (theta: number) => (level + penaltySum(parts, theta, bound, variance)) / theta;
  // A first guess from the quadratic approximation ψ_E(λ) ≈ λ²/2: θ = √(2L / (σ² Σ c² g²)).
  let quadratic = 0;
  for (const p of parts) quadratic += (p.coefficient / p.G) ** 2 * p.Q;
  const guess = Math.min(ceiling, Math.sqrt((2 * level) / (variance * quadratic)));
  let lo = Math.log(guess / 2);
  let hi = Math.log(Math.min(ceiling, guess * 1.5));
  if (!(hi > lo)) return { theta: ceiling, halfWidth: half(ceiling) };
  const ratio = (Math.sqrt(5) - 1) / 2;
  let a = hi - ratio * (hi - lo);
  let b = lo + ratio * (hi - lo);
  let fa = half(Math.exp(a));
  let fb = half(Math.exp(b));
  for (let i = 0; i < 40 && hi - lo > 1e-3; i++) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - ratio * (hi - lo);
      fa = half(Math.exp(a));
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + ratio * (hi - lo);
      fb = half(Math.exp(b));
    }
  }
  const theta = Math.exp(fa <= fb ? a : b);
  return { theta, halfWidth: Math.min(fa, fb) };
}

/** What a look needs of each stratum before data: its coefficient on the [0, 1] scale, N, and m. */
export interface LookShape {
  coefficient: number;
  population: number;
  count: number;
}

/** The anticipated half-width of a look (look-plan.ts plans by it): the census strata are known. */
export function anticipatedHalfWidth(strata: readonly LookShape[], bound: LookBound, variance: number, level: number): number {
  const parts = strata.filter((s) => s.count < s.population && s.coefficient > 0);
  if (parts.some((s) => s.count === 0)) return Infinity;
  return tuneLook(tunedParts(parts), bound, variance, level).halfWidth;
}

const partCache = new Map<string, LookPart>();
function tunedParts(strata: readonly LookShape[]): LookPart[] {
  return strata.map((s) => {
    const key = `${s.coefficient}|${s.population}|${s.count}`;
    let part = partCache.get(key);
    if (!part) {
      if (partCache.size > 4096) partCache.clear();
      partCache.set(key, (part = lookPart(s.coefficient, s.population, s.count)));
    }
    return part;
  });
}

const thetaCache = new Map<string, number>();
function thetaFor(parts: readonly LookPart[], bound: LookBound, variance: number, level: number): number {
  const key = `${bound}|${variance}|${level}|${parts.map((p) => `${p.coefficient},${p.population},${p.count}`).join(';')}`;
  let theta = thetaCache.get(key);
  if (theta === undefined) {
    if (thetaCache.size > 4096) thetaCache.clear();
    thetaCache.set(key, (theta = tuneLook(parts, bound, variance, level).theta));
  }
  return theta;
}

/** A stratum's frozen sums at a look: Σ λ (X + b) and the penalty (Σ λ²/8, or Σ ψ_E(λ)(X − μ̂)²), for bets c·g_j. */
const sums = new WeakMap<Stratum, Map<string, { A: number; psi: number }>>();
function frozenSums(inner: Stratum, c: number, count: number, bound: LookBound, q: number): { A: number; psi: number } {
  let byKey = sums.get(inner);
  if (!byKey) sums.set(inner, (byKey = new Map()));
  const key = `${c}|${count}|${bound}`;
  let found = byKey.get(key);
  if (found) return found;
  const values = inner.values();
  const N = inner.population;
  if (bound === 'hoeffding') {
    // A = c Σ g (X + b) and Ψ = c² Σ g²/8: one data sum per stratum and count serves every row's c.
    const shared = `${count}|sum`;
    let sum = byKey.get(shared)?.A;
    if (sum === undefined) {
      sum = 0;
      let prefix = 0;
      for (let j = 1; j <= count; j++) {
        sum += shapeAt(N, j) * (values[j - 1] + prefix / (N - j + 1));
        prefix += values[j - 1];
      }
      byKey.set(shared, { A: sum, psi: 0 });
    }
    return { A: c * sum, psi: (c * c * q) / 8 };
  }
  let prefix = 0;
  let A = 0;
  let psi = 0;
  for (let j = 1; j <= count; j++) {
    const x = values[j - 1];
    const lambda = c * shapeAt(N, j);
    A += lambda * (x + prefix / (N - j + 1));
    psi += psiE(lambda) * (x - (0.5 + prefix) / j) ** 2;
    prefix += x;
  }
  byKey.set(key, (found = { A, psi }));
  return found;
}

/** One reached look: log M± = ±θ(Ŷ − Y) − Ψ + log(π/2). */
interface ReachedLook {
  theta: number;
  center: number;
  logWeight: number; // log(π/2) − Ψ
}

/**
 * The tuned part of (b) at level `alpha` (its share of α), or null before the first look is
 * reached (nothing to say yet). Strata with weight 0 must be left out by the caller.
 */
export function plannedInterval(strata: readonly LookStratum[], plan: LookPlan, alpha: number): ScoreInterval | null {
  let feasibleLow = 0;
  let feasibleHigh = 0;
  let rangeLow = 0;
  let rangeHigh = 0;
  for (const { weight, inner } of strata) {
    const [lo, hi] = inner.range;
    const f = inner.feasible();
    feasibleLow += weight * (lo + (hi - lo) * f.low);
    feasibleHigh += weight * (lo + (hi - lo) * f.high);
    rangeLow += weight * lo;
    rangeHigh += weight * hi;
  }
  const reached = plan.masses.map((mass, k) => mass > 0 && strata.every((s) => s.inner.n >= s.looks[k]));
  if (!reached.some(Boolean)) return null;
  // A reached look never changes (its values are frozen), so the kept set is computed once per set of
  // looks reached and kept with the row's strata: a live run page asks for it at every snapshot.
  const key = `${strata.map((s) => `${idOf(s.inner)}:${s.weight}:${s.looks.join('/')}`).join(',')}|${reached.map(Number).join('')}|${alpha}|${plan.bound}|${plan.variance}|${plan.masses.join('/')}`;
  let byKey = kept.get(strata[0].inner);
  if (!byKey) kept.set(strata[0].inner, (byKey = new Map()));
  let interval = byKey.get(key);
  if (interval === undefined) {
    interval = keptOfReached(strata, plan, alpha, reached, rangeLow, rangeHigh);
    byKey.set(key, interval);
  }
  if (!interval) return null;
  // The kept set is an interval: with what the unseen items allow, it is the clamp.
  const low = Math.min(Math.max(interval.low, feasibleLow), feasibleHigh);
  const high = Math.max(Math.min(interval.high, feasibleHigh), feasibleLow);
  return { low, high };
}

/**
 * Tunes every look's θ for these strata before any value (it depends only on the plan, the weights
 * and the counts), so the moment a look is reached costs its data sums alone: a live run page
 * reaching a look mid-run then pays no more than its snapshots (issue 22's constant cost per item).
 */
export function prepareLooks(strata: readonly LookStratum[], plan: LookPlan, alpha: number): void {
  for (let k = 0; k < plan.masses.length; k++) {
    if (!(plan.masses[k] > 0)) continue;
    const partial: LookShape[] = [];
    for (const { weight, inner, looks } of strata) {
      const m = looks[k];
      if (m < inner.population && m > 0) partial.push({ coefficient: weight * (inner.range[1] - inner.range[0]), population: inner.population, count: m });
    }
    if (partial.length > 0) thetaFor(tunedParts(partial), plan.bound, plan.variance, Math.log(2 / (alpha * plan.masses[k])));
  }
}

const kept = new WeakMap<Stratum, Map<string, ScoreInterval | null>>();
const ids = new WeakMap<Stratum, number>();
let nextId = 0;
const idOf = (inner: Stratum) => {
  let id = ids.get(inner);
  if (id === undefined) ids.set(inner, (id = nextId++));
  return id;
};

/** The kept set over the score's whole range from the looks reached; null when none says anything. */
function keptOfReached(strata: readonly LookStratum[], plan: LookPlan, alpha: number, reached: readonly boolean[], rangeLow: number, rangeHigh: number): ScoreInterval | null {
  const looks: ReachedLook[] = [];
  for (let k = 0; k < plan.masses.length; k++) {
    const mass = plan.masses[k];
    if (!reached[k]) continue;
    const level = Math.log(2 / (alpha * mass));
    let known = 0;
    let free = 0;
    const partial: { stratum: LookStratum; shape: LookShape }[] = [];
    for (const stratum of strata) {
      const [lo, hi] = stratum.inner.range;
      const N = stratum.inner.population;
      const m = stratum.looks[k];
      known += stratum.weight * lo;
      if (m >= N) known += stratum.weight * (hi - lo) * stratum.inner.scaledMean()!;
      else if (m === 0) free += stratum.weight * (hi - lo);
      else partial.push({ stratum, shape: { coefficient: stratum.weight * (hi - lo), population: N, count: m } });
    }
    // A stratum not yet asked at the look leaves its whole range open: no look worth keeping.
    if (free > 0 || partial.length === 0) continue;
    const parts = tunedParts(partial.map((p) => p.shape));
    const theta = thetaFor(parts, plan.bound, plan.variance, level);
    let A = 0;
    let psi = 0;
    partial.forEach(({ stratum }, i) => {
      const s = frozenSums(stratum.inner, (theta * parts[i].coefficient) / parts[i].G, parts[i].count, plan.bound, parts[i].Q);
      A += s.A;
      psi += s.psi;
    });
    looks.push({ theta, center: known + A / theta, logWeight: Math.log(mass / 2) - psi });
  }
  if (looks.length === 0) return null;
  return keptInterval(looks, Math.log(1 / alpha), rangeLow, rangeHigh);
}

/** log Σ_k (e^{logWeight + θ(c − y)} + e^{logWeight + θ(y − c)}), by log-sum-exp. */
function logMixture(looks: readonly ReachedLook[], y: number): number {
  let top = -Infinity;
  const terms: number[] = [];
  for (const l of looks) {
    const d = l.theta * (l.center - y);
    terms.push(l.logWeight + d, l.logWeight - d);
  }
  for (const t of terms) top = Math.max(top, t);
  let sum = 0;
  for (const t of terms) sum += Math.exp(t - top);
  return top + Math.log(sum);
}

/** The slope of the mixture (its sign: the mixture is convex in y). */
function slope(looks: readonly ReachedLook[], y: number): number {
  let top = -Infinity;
  for (const l of looks) top = Math.max(top, l.logWeight + Math.abs(l.theta * (l.center - y)));
  let s = 0;
  for (const l of looks) {
    const d = l.theta * (l.center - y);
    s += l.theta * (Math.exp(l.logWeight - d - top) - Math.exp(l.logWeight + d - top));
  }
  return s;
}

function keptInterval(looks: readonly ReachedLook[], threshold: number, low: number, high: number): ScoreInterval {
  // The minimum of the convex mixture, by bisection on its slope, within what is feasible.
  let a = low;
  let b = high;
  if (slope(looks, a) >= 0) b = a;
  else if (slope(looks, b) <= 0) a = b;
  for (let i = 0; i < 100 && b - a > 1e-12; i++) {
    const mid = (a + b) / 2;
    if (slope(looks, mid) < 0) a = mid;
    else b = mid;
  }
  const bottom = (a + b) / 2;
  // Everything rejected happens only on the ≤ α event where the sequence fails: the point, as aggregate-sequence.ts does.
  if (logMixture(looks, bottom) >= threshold) return { low: bottom, high: bottom };
  const edge = (from: number, to: number): number => {
    if (logMixture(looks, to) < threshold) return to;
    let inside = from;
    let outside = to;
    for (let i = 0; i < 100 && Math.abs(outside - inside) > 1e-12; i++) {
      const mid = (inside + outside) / 2;
      if (logMixture(looks, mid) < threshold) inside = mid;
      else outside = mid;
    }
    return inside;
  };
  return { low: edge(bottom, low), high: edge(bottom, high) };
}
