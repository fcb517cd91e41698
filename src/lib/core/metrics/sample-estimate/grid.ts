// (b) for one stratum: a confidence sequence for its mean μ (on the [0, 1] scale), valid at every n at
// once (so under optional stopping): the betting construction of Waudby-Smith & Ramdas for sampling
// without replacement (NeurIPS 2020; its betting form in "Estimating means of bounded random
// variables by betting", JRSSB 2024). For a candidate population mean m, the i-th value's
// conditional mean given the earlier ones is μ_i(m) = (N·m − S_{i−1}) / (N − i + 1), and
//   K⁺_t(m) = Π (1 + λ⁺_i(m)(X_i − μ_i(m))),  K⁻_t(m) = Π (1 − λ⁻_i(m)(X_i − μ_i(m))),
//   K_t(m) = θ·K⁺_t(m) + (1 − θ)·K⁻_t(m)   (θ = ½: the hedged capital, as the mixture rather than
//   the paper's max(θK⁺, (1 − θ)K⁻) — itself a martingale, never smaller, so never a wider set),
// with λ_i predictable: λ_i = √(2 log(2/α) / (σ̂²_{i−1} · i · log(1 + i))), σ̂² the paper's
// regularised running variance (¼ + Σ_{j<i} (X_j − μ̂_j)²)/i, truncated to λ⁺ ≤ c/μ_i(m) and
// λ⁻ ≤ c/(1 − μ_i(m)), c = ½, so every factor stays ≥ ½. At the true μ, K_t(μ) is a nonnegative
// martingale with K_0 = 1, so by Ville's inequality P(∃t: K_t(μ) ≥ 1/α) ≤ α, and
// C_t = {m: K_t(m) < 1/α} is a (1 − α) confidence sequence; so is the running intersection of the C_t.
//
// Computed on a grid of candidate means, exactly between its points: K⁺ is nonincreasing in m and K⁻
// nondecreasing (each factor is monotone in μ_i, even where the truncation binds, and μ_i increases
// with m), so on a cell [g_k, g_{k+1}], K(m) ≥ θ·K⁺(g_{k+1}) + (1 − θ)·K⁻(g_k). A cell is dropped
// only when that bound reaches 1/α — every mean in it is rejected — and only from the two ends
// inwards, so the set kept is an interval holding the true mean whenever C_t does. A candidate
// outside [S_t/N, (S_t + N − t)/N] is impossible (the unseen items would need values outside
// [0, 1]); those bounds are intersected in, which makes the sequence exact at t = N.
//
// Cost: the grid starts at 64 cells over [0, 1]; whenever fewer than 48 are live, every live cell is
// halved, so each value updates 48 to 96 points however narrow the sequence gets, and its ends are
// within a few percent of its width. A new point's K computed from every value so far costs O(n),
// at each refinement; late in a task sampled to its end, where sampling without replacement narrows
// the band fast, refinements come every few items, and a live run page paid O(n) per item for them
// (issue 22's constant cost per item). So past EXACT_REFINE_UNTIL values a new point m, between g_k
// and g_{k+1}, starts from bounds its neighbours give, and from then on takes its own exact factors:
// it stays a lower bound of its K, so every cell dropped is still rejected. The bounds: each factor
// is monotone in m, so log K⁺(m) ≥ log K⁺(g_{k+1}) and log K⁻(m) ≥ log K⁻(g_k); and a factor whose bet
// is at most ½ is never truncated, so it is log(1 ± λ(x − μ_i(m))), μ_i affine in m and unclipped
// over the feasible means: concave, and the part of log K made of such factors (most of it past the
// first few dozen values) is at least the mean of its values at g_k and g_{k+1}. The widths
// scripts/bench/sample-widths.ts measures did not move (to 0.01 point); feeding a 28,707-item run
// took half the time; test/unit/metrics/sample-estimate-grid.test.ts holds it to the definition. A
// new point next to an impossible one (whose K is no longer kept) is computed from the values.
// A cell goes for good once its bound reaches 1/PRUNE_DELTA: it is then outside every sequence and
// plausible() set at δ ≥ PRUNE_DELTA, whose running intersections would have dropped it at that
// moment too. A 28,707-item run is fed in about 50 ms (scripts/bench/sample-widths.ts).

/** The grid's first cells over [0, 1]… */
const INITIAL_CELLS = 64;
/** …every live cell halved whenever fewer than this many are live… */
const REFINE_BELOW = 48;
/** …down to cells this narrow (0.0015 points of a [0, 1] score). */
const MIN_CELL_WIDTH = 2 ** -16;
/** A cell whose every mean has K ≥ 1/PRUNE_DELTA is forgotten (aggregate-sequence.ts relies on it). */
export const PRUNE_DELTA = 1e-5;
const LOG_PRUNE = Math.log(1 / PRUNE_DELTA);
const BET_CAP = 0.5;
/** Up to this many values, a refinement computes its new points from the values (at most 128 × 96 × 2 factors). */
const EXACT_REFINE_UNTIL = 128;
const LOG_THETA = Math.log(0.5);
/** Rounding slack when a grid point sits exactly on a deterministic bound. */
const EPS = 1e-12;

const logSumExp = (a: number, b: number): number => {
  if (a === -Infinity) return b;
  if (b === -Infinity) return a;
  const m = Math.max(a, b);
  return m + Math.log(Math.exp(a - m) + Math.exp(b - m));
};

export class BettingGrid {
  private pos = new Float64Array(INITIAL_CELLS + 1);
  private kPlus = new Float64Array(INITIAL_CELLS + 1);
  private kMinus = new Float64Array(INITIAL_CELLS + 1);
  /** The part of kPlus, kMinus from bets λ ≤ ½: concave in m over the feasible means (see the header). */
  private cPlus = new Float64Array(INITIAL_CELLS + 1);
  private cMinus = new Float64Array(INITIAL_CELLS + 1);
  private bets: Float64Array;
  /** Values taken in so far, and their sum. */
  private n = 0;
  private sum = 0;
  private sumDev = 0; // Σ (X_i − μ̂_i)², the running variance's numerator
  private cellLo = 0; // cells [cellLo, cellHi] not pruned
  private cellHi = INITIAL_CELLS - 1;
  private seqLo = 0; // cells [seqLo, seqHi] not rejected at level α (running intersection)
  private seqHi = INITIAL_CELLS - 1;
  private readonly logInvAlpha: number;
  private readonly betScale: number;
  private plausibleCache: { n: number; delta: number; low: number; high: number } | null = null;

  constructor(
    private readonly N: number,
    alpha: number,
    /** The stratum's values on the [0, 1] scale, in the order pushed (read, never written). */
    private readonly values: () => Float64Array,
  ) {
    for (let k = 0; k <= INITIAL_CELLS; k++) this.pos[k] = k / INITIAL_CELLS;
    this.bets = new Float64Array(Math.min(N, 64));
    this.logInvAlpha = Math.log(1 / alpha);
    this.betScale = 2 * Math.log(2 / alpha);
  }

  /** Takes in every value pushed since the last call, one by one in order. */
  catchUp(count: number): void {
    const values = this.values();
    while (this.n < count) this.advance(values[this.n]);
  }

  /** The running-intersection sequence, [low, high] on the [0, 1] scale (before the feasible clip). */
  sequence(): [number, number] {
    return [this.pos[this.seqLo], this.pos[this.seqHi + 1]];
  }

  /**
   * The means whose cell is not rejected at level δ ≥ PRUNE_DELTA now (and was never pruned): with
   * probability ≥ 1 − δ it holds the true mean at every time at once (Ville on K_t(μ)).
   */
  plausible(delta: number): [number, number] {
    const cached = this.plausibleCache;
    if (cached?.n === this.n && cached.delta === delta) return [cached.low, cached.high];
    const level = Math.log(1 / Math.max(delta, PRUNE_DELTA));
    let lo = this.cellLo;
    let hi = this.cellHi;
    while (lo < hi && this.cellBound(lo) >= level) lo++;
    while (hi > lo && this.cellBound(hi) >= level) hi--;
    this.plausibleCache = { n: this.n, delta, low: this.pos[lo], high: this.pos[hi + 1] };
    return [this.pos[lo], this.pos[hi + 1]];
  }

  private lowBound(): number {
    return this.sum / this.N;
  }

  private highBound(): number {
    return (this.sum + this.N - this.n) / this.N;
  }

  private alive(k: number): boolean {
    const m = this.pos[k];
    return m >= this.lowBound() - EPS && m <= this.highBound() + EPS;
  }

  /** A lower bound of log K_t(m) over cell k, where it meets the feasible means. */
  private cellBound(k: number): number {
    const left = this.alive(k);
    const right = this.alive(k + 1);
    if (left && right) return logSumExp(LOG_THETA + this.kPlus[k + 1], LOG_THETA + this.kMinus[k]);
    if (right) return LOG_THETA + this.kPlus[k + 1];
    if (left) return LOG_THETA + this.kMinus[k];
    // The feasible means lie inside one cell, between two impossible points (the last few items of
    // a stratum): nothing is known of K there, so the cell is kept; it is narrower than a cell.
    return -Infinity;
  }

  private advance(x: number): void {
    const { N, pos, kPlus, kMinus } = this;
    const t = this.n; // values before this one
    const variance = (0.25 + this.sumDev) / (t + 1);
    const lambda = Math.sqrt(this.betScale / (variance * (t + 1) * Math.log(2 + t)));
    if (t >= this.bets.length) {
      const grown = new Float64Array(Math.min(N, 2 * this.bets.length));
      grown.set(this.bets);
      this.bets = grown;
    }
    this.bets[t] = lambda;
    const remaining = N - t;
    const lo = this.lowBound() - EPS;
    const hi = this.highBound() + EPS;
    const before = this.sum;
    const untruncated = lambda <= BET_CAP; // then λμ ≤ ½ and λ(1 − μ) ≤ ½ for every μ in [0, 1]
    const { cPlus, cMinus } = this;
    for (let k = this.cellLo; k <= this.cellHi + 1; k++) {
      const m = pos[k];
      if (m < lo || m > hi) continue;
      // The same arithmetic as factor() below, inlined: this loop is the tracker's whole cost.
      const raw = (N * m - before) / remaining;
      const mu = raw < 0 ? 0 : raw > 1 ? 1 : raw;
      const d = x - mu;
      if (untruncated) {
        const up = Math.log(1 + lambda * d);
        const down = Math.log(1 - lambda * d);
        kPlus[k] += up;
        kMinus[k] += down;
        cPlus[k] += up;
        cMinus[k] += down;
        continue;
      }
      const plus = lambda * mu > BET_CAP ? BET_CAP / mu : lambda;
      const minus = lambda * (1 - mu) > BET_CAP ? BET_CAP / (1 - mu) : lambda;
      kPlus[k] += Math.log(1 + plus * d);
      kMinus[k] += Math.log(1 - minus * d);
    }
    this.sum += x;
    this.n += 1;
    const muHat = (0.5 + this.sum) / (this.n + 1);
    this.sumDev += (x - muHat) ** 2;
    this.shrink();
    // Refined only while the evidence (not the unseen items' bounds, which end every stratum) narrows
    // the band: near a stratum's end the bounds clip the sequence exactly and finer cells buy nothing.
    const band = this.pos[this.cellHi + 1] - this.pos[this.cellLo];
    const clipped = this.highBound() - this.lowBound() <= band;
    const width = this.pos[this.cellLo + 1] - this.pos[this.cellLo];
    if (this.cellHi - this.cellLo + 1 < REFINE_BELOW && !clipped && width > MIN_CELL_WIDTH) {
      this.refine();
      this.shrink();
    }
  }

  /** log of one factor of K⁺ (side 1) or K⁻ (side −1) at m, for value x, bet λ, S and N − i before it. */
  private factor(side: 1 | -1, m: number, x: number, lambda: number, before: number, remaining: number): number {
    const raw = (this.N * m - before) / remaining;
    const mu = raw < 0 ? 0 : raw > 1 ? 1 : raw;
    const d = x - mu;
    if (side === 1) return Math.log(1 + (lambda * mu > BET_CAP ? BET_CAP / mu : lambda) * d);
    return Math.log(1 - (lambda * (1 - mu) > BET_CAP ? BET_CAP / (1 - mu) : lambda) * d);
  }

  /** Cells wholly outside the feasible means go; then pruned ones; then the sequence's ends move in. */
  private shrink(): void {
    const lo = this.lowBound() - EPS;
    const hi = this.highBound() + EPS;
    while (this.cellLo < this.cellHi && this.pos[this.cellLo + 1] < lo) this.cellLo++;
    while (this.cellHi > this.cellLo && this.pos[this.cellHi] > hi) this.cellHi--;
    while (this.cellLo < this.cellHi && this.cellBound(this.cellLo) >= LOG_PRUNE) this.cellLo++;
    while (this.cellHi > this.cellLo && this.cellBound(this.cellHi) >= LOG_PRUNE) this.cellHi--;
    this.seqLo = Math.min(Math.max(this.seqLo, this.cellLo), this.cellHi);
    this.seqHi = Math.max(Math.min(this.seqHi, this.cellHi), this.seqLo);
    while (this.seqLo < this.seqHi && this.cellBound(this.seqLo) >= this.logInvAlpha) this.seqLo++;
    while (this.seqHi > this.seqLo && this.cellBound(this.seqHi) >= this.logInvAlpha) this.seqHi--;
  }

  /**
   * Halves every live cell, in O(cells) past EXACT_REFINE_UNTIL values: a new point's K is bounded
   * from its neighbours' (see the header); before that, or next to an impossible neighbour, it is
   * computed from every value so far.
   */
  private refine(): void {
    const { cellLo, pos, kPlus, kMinus, cPlus, cMinus } = this;
    const cells = this.cellHi - cellLo + 1;
    const size = 2 * cells + 1;
    const next = { pos: new Float64Array(size), kPlus: new Float64Array(size), kMinus: new Float64Array(size), cPlus: new Float64Array(size), cMinus: new Float64Array(size) };
    const lo = this.lowBound() - EPS;
    const hi = this.highBound() + EPS;
    const possible = (m: number) => m >= lo && m <= hi;
    for (let c = 0; c <= cells; c++) {
      const l = cellLo + c;
      const at = 2 * c;
      next.pos[at] = pos[l];
      next.kPlus[at] = kPlus[l];
      next.kMinus[at] = kMinus[l];
      next.cPlus[at] = cPlus[l];
      next.cMinus[at] = cMinus[l];
      if (c === cells) break;
      const r = l + 1;
      const m = (pos[l] + pos[r]) / 2;
      next.pos[at + 1] = m;
      if (!possible(m)) continue; // its K is never read
      let bounds: [number, number, number, number];
      if (this.n > EXACT_REFINE_UNTIL && possible(pos[l]) && possible(pos[r])) {
        // K⁺'s truncated part is nonincreasing in m (so at m at least the right neighbour's), its
        // concave part at least the mean of the neighbours' (and, nonincreasing, the right one's);
        // K⁻ the mirror image.
        const concavePlus = Math.max((cPlus[l] + cPlus[r]) / 2, cPlus[r]);
        const concaveMinus = Math.max((cMinus[l] + cMinus[r]) / 2, cMinus[l]);
        bounds = [kPlus[r] - cPlus[r] + concavePlus, kMinus[l] - cMinus[l] + concaveMinus, concavePlus, concaveMinus];
      } else {
        bounds = this.fromValues(m);
      }
      [next.kPlus[at + 1], next.kMinus[at + 1], next.cPlus[at + 1], next.cMinus[at + 1]] = bounds;
    }
    this.seqLo = 2 * (this.seqLo - cellLo);
    this.seqHi = 2 * (this.seqHi - cellLo) + 1;
    this.cellLo = 0;
    this.cellHi = 2 * cells - 1;
    this.pos = next.pos;
    this.kPlus = next.kPlus;
    this.kMinus = next.kMinus;
    this.cPlus = next.cPlus;
    this.cMinus = next.cMinus;
  }

  /** log K⁺(m), log K⁻(m) from every value so far with the bets they were taken at, and their concave parts: O(n). */
  private fromValues(m: number): [number, number, number, number] {
    const values = this.values();
    let plus = 0;
    let minus = 0;
    let concavePlus = 0;
    let concaveMinus = 0;
    let before = 0;
    for (let j = 0; j < this.n; j++) {
      const up = this.factor(1, m, values[j], this.bets[j], before, this.N - j);
      const down = this.factor(-1, m, values[j], this.bets[j], before, this.N - j);
      plus += up;
      minus += down;
      if (this.bets[j] <= BET_CAP) {
        concavePlus += up;
        concaveMinus += down;
      }
      before += values[j];
    }
    return [plus, minus, concavePlus, concaveMinus];
  }
}
