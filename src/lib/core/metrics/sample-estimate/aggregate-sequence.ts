// (b) for a benchmark's score Y = Σ_s w_s μ_s over several strata (tasks): a confidence sequence,
// valid at every time at once, for strata sampled without replacement and asked in an order fixed
// before any value is seen (run-sampling.ts' round-robin blocks) or chosen from counts only.
//
// Construction (not a union bound over the strata's own sequences, which would add their widths):
// the predictable-plug-in empirical-Bernstein supermartingale of Waudby-Smith & Ramdas (JRSSB 2024,
// Thm 2; its without-replacement form, NeurIPS 2020), with each value centred on its OWN stratum's
// without-replacement conditional mean, summed over all the strata's items:
//   log M⁺_t(μ_1…μ_T) = Σ_s Σ_{j ≤ n_s} [ λ_{s,j} (X_{s,j} − μ_{s,j}) − ψ_E(λ_{s,j}) (X_{s,j} − μ̂_{s,j−1})² ],
//   μ_{s,j} = (N_s μ_s − S_{s,j−1}) / (N_s − j + 1) = a_{s,j} μ_s − b_{s,j},   ψ_E(λ) = −log(1 − λ) − λ,
// values on each stratum's [0, 1] scale, μ̂ the stratum's running mean (½ + S)/j.
// Why it is valid: for X ∈ [0, 1], a predictable μ̂ ∈ [0, 1] and λ ∈ [0, 1), Fan et al.'s inequality
// exp(λξ − ψ_E(λ)ξ²) ≤ 1 + λξ (ξ = X − μ̂ ≥ −1) gives E[exp(λ(X − μ) − ψ_E(λ)(X − μ̂)²) | past]
// ≤ (1 + λ(μ − μ̂))·e^{−λ(μ − μ̂)} ≤ 1 whatever the item's conditional mean μ is — here μ_{s,j}, since
// the strata are independent samples and the order never looks at values. So M⁺, and M⁻ (the same
// with −λ), are nonnegative supermartingales starting at 1 at the true means, over the run's items
// in the order asked; by Ville, P(∃t: M⁺_t ≥ 2/α′ or M⁻_t ≥ 2/α′) ≤ α′.
// log M⁺ is linear in the means: Σ_s (A_s − μ_s B_s − Ψ_s), A_s = Σ_j λ(X + b), B_s = Σ_j λa,
// Ψ_s = Σ_j ψ_E(λ)(X − μ̂)². Y is kept when SOME vector of means with Σ w_s μ_s = Y, each μ_s in a box
// (below), has M⁺ < 2/α′, and some (perhaps another) has M⁻ < 2/α′: a superset of the vectors not
// rejected, so it holds the true Y whenever the true vector is in the boxes and the event above fails.
// Each condition is a linear program over the boxes cut by one hyperplane, solved exactly by the
// fractional-knapsack order (strata by B_s/w_s); the two programs give the interval's two ends.
//
// The boxes: each stratum's plausible means at level δ = max(α/(10T), PRUNE_DELTA) from its own
// betting sequence (grid.ts), inside its deterministic range [S/N, (S + N − n)/N]. With α′ = α − T·δ,
// a union bound keeps the total at α. The boxes matter when the B_s/w_s differ (strata asked more
// often than others, as growing round-robin blocks make them mid-round): the linear program's worst
// vector moves the means of the steep strata against the flat ones, and only the boxes limit how
// far (simulated, 15 equal tasks at 2,000 items: ±6.2 points without them, ±5.4 with).
//
// The bets: stratum s's j-th item bets λ = min(½, c_s · ℓ(t)) / a_{s,j}, ℓ(t) the single-stream
// schedule √(2 log(2/α′) / (¼ · t · log(1 + t))) at the effective time t = j/π_s, π_s = 1/T (each
// stratum's share of a round-robin run), c_s = w_s / (π_s Σ w): the weight an item of s carries in Y.
// The common variance ¼ (not each stratum's own estimate) and the division by a_{s,j} keep
// B_s ≈ w_s × the same sum for strata asked equally often, so the worst vector costs little (each
// stratum's own running variance instead, simulated at 2,000 items: accuracy ±5.4 against ±5.1
// points on ACLUE, ±5.9 against ±4.9 on AncientBench; continuous scores, whose variance is far
// below ¼, ±2.2 against ±2.9 — accuracy is what most runs measure, so ¼ it is). A lone stratum
// (combine.ts uses this only when its α differs from the tracker's) has nothing to balance and
// bets without the division, keeping the without-replacement gain. Every choice is fixed before
// the run or read from the stratum's own count: predictable, as validity needs. Each stratum's
// sums are kept per aggregate (its c_s, π_s, α′), brought up to date from the tracker's stored
// values when asked: O(1) per new value.
import { PRUNE_DELTA } from './grid.ts';
import { internalsOf, type Stratum } from './stratum.ts';
import type { ScoreInterval, StratumTracker } from './types.ts';

const BET_CAP = 0.5;
/** The variance the bets assume: the largest a [0, 1] value can have, the same for every stratum (see above). */
const BET_VARIANCE = 0.25;
/** The share of α spent on the strata's own plausible ranges (the boxes), split equally among them. */
const BOX_SHARE = 0.1;

interface Accumulators {
  processed: number;
  prefix: number; // S_{j−1}
  A: number;
  B: number;
  psi: number;
}

const cache = new WeakMap<StratumTracker, Map<string, Accumulators>>();

const psiE = (lambda: number) => -Math.log(1 - lambda) - lambda;

/** Brings a stratum's accumulators for bets c_s, share π_s up to its current values. */
function accumulate(tracker: StratumTracker, inner: Stratum, carry: number, share: number, alpha: number, balance: boolean): Accumulators {
  let byKey = cache.get(tracker);
  if (!byKey) cache.set(tracker, (byKey = new Map()));
  const key = `${carry}|${share}|${alpha}|${balance}`;
  let acc = byKey.get(key);
  if (!acc) byKey.set(key, (acc = { processed: 0, prefix: 0, A: 0, B: 0, psi: 0 }));
  const values = inner.values();
  const N = tracker.population;
  const scale = 2 * Math.log(2 / alpha);
  for (let j = acc.processed + 1; j <= values.length; j++) {
    const x = values[j - 1];
    const t = j / share;
    const remaining = N - j + 1;
    const a = N / remaining;
    const b = acc.prefix / remaining;
    const lambda = Math.min(BET_CAP, carry * Math.sqrt(scale / (BET_VARIANCE * t * Math.log(1 + t)))) / (balance ? a : 1);
    const muHat = (0.5 + acc.prefix) / j;
    acc.A += lambda * (x + b);
    acc.B += lambda * a;
    acc.psi += psiE(lambda) * (x - muHat) ** 2;
    acc.prefix += x;
  }
  acc.processed = values.length;
  return acc;
}

interface Term {
  /** B_s / (w_s × span_s): how much Σ μ_s B_s moves per unit of the stratum's contribution to Y. */
  slope: number;
  /** The stratum's contribution w_s(lo_s + span_s μ_s) at the ends of its feasible range. */
  low: number;
  high: number;
}

/** The aggregate confidence sequence for bounded strata (weights > 0, at least one stratum). */
export function aggregateSequence(strata: readonly { weight: number; tracker: StratumTracker }[], alphaAll: number): ScoreInterval {
  const T = strata.length;
  const delta = Math.max((BOX_SHARE * alphaAll) / T, PRUNE_DELTA);
  const alpha = alphaAll - delta * T;
  if (!(alpha > 0)) throw new RangeError(`alpha ${alphaAll} is too small for ${T} strata`);
  const totalWeight = strata.reduce((sum, s) => sum + s.weight, 0);
  const share = 1 / T;
  const level = Math.log(2 / alpha);
  let plusConstant = -level; // Σ (A − Ψ) − log(2/α), less Σ B_s lo_s/span_s
  let minusConstant = level; // log(2/α) + Σ (A + Ψ), less the same
  const terms: Term[] = [];
  for (const { weight, tracker } of strata) {
    const inner = internalsOf(tracker)!;
    const [lo, hi] = inner.range;
    const span = hi - lo;
    const acc = accumulate(tracker, inner, weight / (share * totalWeight), share, alpha, T > 1);
    const feasible = inner.plausible(delta);
    plusConstant += acc.A - acc.psi + (acc.B * lo) / span;
    minusConstant += acc.A + acc.psi + (acc.B * lo) / span;
    terms.push({ slope: acc.B / (weight * span), low: weight * (lo + span * feasible.low), high: weight * (lo + span * feasible.high) });
  }
  // In terms of y_s, Σ μ_s B_s = Σ slope_s y_s − Σ B_s lo_s/span_s, hence the constants above.
  // Kept by M⁺: sup { Σ slope_s y_s : Σ y_s = Y, y in the box } > plusConstant.
  // Kept by M⁻: inf { Σ slope_s y_s : Σ y_s = Y, y in the box } < minusConstant.
  const byslope = [...terms].sort((p, q) => q.slope - p.slope);
  const yMin = terms.reduce((sum, t) => sum + t.low, 0);
  const yMax = terms.reduce((sum, t) => sum + t.high, 0);
  // Lower end: from every stratum at its low, raise the steepest first until the sup passes plusConstant.
  let low = yMax;
  {
    let value = terms.reduce((sum, t) => sum + t.slope * t.low, 0);
    let y = yMin;
    if (value > plusConstant) low = yMin;
    else {
      for (const t of byslope) {
        const room = t.high - t.low;
        const gain = t.slope * room;
        if (t.slope > 0 && value + gain > plusConstant) {
          low = y + (plusConstant - value) / t.slope;
          break;
        }
        value += gain;
        y += room;
      }
    }
  }
  // Upper end: from every stratum at its high, lower the steepest first until the inf drops below minusConstant.
  let high = yMin;
  {
    let value = terms.reduce((sum, t) => sum + t.slope * t.high, 0);
    let y = yMax;
    if (value < minusConstant) high = yMax;
    else {
      for (const t of byslope) {
        const room = t.high - t.low;
        const drop = t.slope * room;
        if (t.slope > 0 && value - drop < minusConstant) {
          high = y - (value - minusConstant) / t.slope;
          break;
        }
        value -= drop;
        y -= room;
      }
    }
  }
  // Both ends crossed: only on the ≤ α event where the sequence fails; report the point between.
  if (low > high) {
    const middle = (low + high) / 2;
    return { low: middle, high: middle };
  }
  return { low, high };
}
