// A paired, task-stratified bootstrap for the difference of two runs' group and Overall scores
// (means of task accuracies, by the benchmark's own rule), on the items both runs scored.
//
// What is resampled: within each task, its n common items with replacement (Efron & Tibshirani
// 1993 ch. 6; stratified, Davison & Hinkley 1997 §3.7), both runs' outcomes on an item kept
// together, so the correlation of two models' answers is kept. Tasks are resampled independently.
//
// Why it can be exact and cheap: on common items, a group or Overall difference is linear in the
// tasks' accuracy differences, Σ_t w_t · d_t with the same weights for both runs (the same tasks are
// covered), and d_t = (X − Y)/n where X and Y count the drawn items only this run got right and only
// the baseline got right. (X, Y, rest) of n draws with replacement is Multinomial(n; b/n, c/n,
// 1 − (b + c)/n), so S = X − Y has an exact distribution that is computed once per task (over
// X, Y within mean ± (8σ + 8), leaving out less than 1e-12 of its mass, below the PRNG's 2^-32
// resolution) and sampled by inverting its CDF: one uniform per task per resample, where drawing
// items would take n (28,707 items × 10,000 resamples would be ~3 s; this is a few ms).
//
// Stated with every result (pairedBootstrapSignature):
//  - B = 10,000 resamples, mulberry32 seeded with 12345 (the generation bootstrap's PRNG and seed),
//    so the numbers are the same in a page, a worker and Node.
//  - 95% percentile interval, numpy's linear interpolation between order statistics.
//  - Two-sided bootstrap p = min(1, 2 · (1 + min(#{Δ* ≤ 0}, #{Δ* ≥ 0})) / (B + 1)): the share of
//    resampled differences on the far side of 0 (ties with 0 count against the difference), doubled,
//    with the +1 that keeps a Monte Carlo p above 0 (Davison & Hinkley 1997 eq. 4.11). It is the p at
//    which the equal-tailed percentile interval would just reach 0.
import { mulberry32, percentileAndP, resolveOptions } from './generation/bootstrap.ts';

export const PAIRED_BOOTSTRAP_RESAMPLES = 10_000;
export const PAIRED_BOOTSTRAP_LEVEL = 0.95;

/** One task's paired outcomes on the items both runs scored. */
export interface PairedTable {
  both: number;
  /** Right in this run only. */
  onlyThis: number;
  /** Right in the baseline only. */
  onlyBaseline: number;
  neither: number;
}

export interface PairedBootstrapOptions {
  resamples?: number;
  seed?: number;
}

export interface PairedBootstrapResult {
  /** Σ w_t · d_t on the data, a fraction. */
  difference: number;
  low: number;
  high: number;
  pValue: number;
  resamples: number;
  seed: number;
  level: number;
}

/** The exact resampling distribution of S = X − Y for one task: P(S ≤ offset + k) at k. */
interface DifferenceCdf {
  n: number;
  offset: number;
  cdf: Float64Array;
  /**
   * Chen & Asau's guide table: guide[k] is the first index whose CDF passes k/K (K = its length),
   * where the search for a u in [k/K, (k+1)/K) starts; under two steps on average, where a binary
   * search took ten unpredictable branches.
   */
  guide: Int32Array;
}

const logFactorials: number[] = [0];
function logFactorial(k: number): number {
  for (let i = logFactorials.length; i <= k; i++) logFactorials.push(logFactorials[i - 1] + Math.log(i));
  return logFactorials[k];
}

function countRange(n: number, p: number): [number, number] {
  const mean = n * p;
  const spread = 8 * Math.sqrt(n * p * (1 - p)) + 8;
  return [Math.max(0, Math.floor(mean - spread)), Math.min(n, Math.ceil(mean + spread))];
}

function checkTable(t: PairedTable): number {
  for (const v of [t.both, t.onlyThis, t.onlyBaseline, t.neither]) {
    if (!Number.isInteger(v) || v < 0) throw new RangeError(`paired counts must be whole numbers ≥ 0, got ${JSON.stringify(t)}`);
  }
  return t.both + t.onlyThis + t.onlyBaseline + t.neither;
}

/**
 * The distribution of X − Y for n draws with replacement from the task's common items. Each row x
 * of the joint pmf starts at its mode in y (from log-factorials) and walks outwards by the ratio of
 * neighbouring terms, so the inner loop has no log or exp (a task of 2,870 items: ~1 ms).
 */
export function differenceDistribution(t: PairedTable): DifferenceCdf {
  const n = checkTable(t);
  if (n === 0) throw new RangeError('a task with no common items has no resampling distribution');
  const pb = t.onlyThis / n;
  const pc = t.onlyBaseline / n;
  const pz = (t.both + t.neither) / n;
  const kLog = (k: number, p: number) => (k === 0 ? 0 : k * Math.log(p));
  const logPmf = (x: number, y: number) =>
    logFactorial(n) - logFactorial(x) - logFactorial(y) - logFactorial(n - x - y) + kLog(x, pb) + kLog(y, pc) + kLog(n - x - y, pz);
  const [xLow, xHigh] = countRange(n, pb);
  const [yLow, yHigh] = countRange(n, pc);
  const offset = xLow - yHigh;
  const mass = new Float64Array(xHigh - yLow - offset + 1);
  const modeX = Math.round(n * pb);
  const top = logPmf(modeX, pz === 0 ? n - modeX : Math.min(n - modeX, Math.round(n * pc)));
  const up = pz === 0 ? 0 : pc / pz;
  const down = pc === 0 ? 0 : pz / pc;
  for (let x = xLow; x <= xHigh; x++) {
    const rest = n - x;
    const last = Math.min(yHigh, rest);
    if (last < yLow) break;
    // Given x, y is Binomial(rest, pc / (pc + pz)): its mode, or the only value a 0 allows.
    const q = pc + pz === 0 ? 0 : pc / (pc + pz);
    const start = pz === 0 ? rest : pc === 0 ? 0 : Math.min(last, Math.max(yLow, Math.floor((rest + 1) * q)));
    if (start < yLow || start > last) continue;
    const first = Math.exp(logPmf(x, start) - top);
    mass[x - start - offset] += first;
    if (pz === 0 || pc === 0) continue;
    let v = first;
    for (let y = start + 1; y <= last; y++) {
      v *= ((rest - y + 1) / y) * up;
      mass[x - y - offset] += v;
    }
    v = first;
    for (let y = start - 1; y >= yLow; y--) {
      v *= ((y + 1) / (rest - y)) * down;
      mass[x - y - offset] += v;
    }
  }
  let total = 0;
  for (let k = 0; k < mass.length; k++) total += mass[k];
  let running = 0;
  for (let k = 0; k < mass.length; k++) {
    running += mass[k];
    mass[k] = running / total;
  }
  mass[mass.length - 1] = 1;
  const guide = new Int32Array(mass.length);
  for (let k = 0, i = 0; k < guide.length; k++) {
    while (mass[i] <= k / guide.length) i++;
    guide[k] = i;
  }
  return { n, offset, cdf: mass, guide };
}

/** The smallest s with P(S ≤ s) > u, for u in [0, 1). */
function sample(d: DifferenceCdf, u: number): number {
  let i = d.guide[Math.floor(u * d.guide.length)];
  while (d.cdf[i] <= u) i++;
  return d.offset + i;
}

/**
 * The bootstrap of Σ_t w_t · (this run's accuracy − the baseline's) on common items, for each set
 * of weights (one per target: a group, the Overall), all from the same resamples. `strata[t]` is
 * task t's table; `targets[j][t]` its weight in target j (0: not in it). A target with no
 * positive weight gets null.
 */
export function pairedBootstrap(
  strata: readonly PairedTable[],
  targets: readonly (readonly number[])[],
  options: PairedBootstrapOptions = {},
): (PairedBootstrapResult | null)[] {
  const { resamples, seed } = resolveOptions(options, PAIRED_BOOTSTRAP_RESAMPLES);
  for (const weights of targets) {
    if (weights.length !== strata.length) throw new RangeError(`a target has ${weights.length} weights for ${strata.length} tasks`);
  }
  const used = strata.map((_, t) => targets.some((w) => w[t] !== 0));
  const distributions = strata.map((table, t) => (used[t] ? differenceDistribution(table) : null));
  const observed = strata.map((table) => {
    const n = checkTable(table);
    return n === 0 ? 0 : (table.onlyThis - table.onlyBaseline) / n;
  });
  const values = targets.map(() => new Float64Array(resamples));
  // Each target's tasks and weights, so a resample touches only the terms it has.
  const terms = targets.map((weights) => weights.flatMap((w, t) => (w === 0 ? [] : [{ t, w }])));
  const random = mulberry32(seed);
  const drawn = new Float64Array(strata.length);
  for (let b = 0; b < resamples; b++) {
    for (let t = 0; t < strata.length; t++) {
      const d = distributions[t];
      if (d) drawn[t] = sample(d, random()) / d.n;
    }
    for (let j = 0; j < terms.length; j++) {
      let sum = 0;
      for (const { t, w } of terms[j]) sum += w * drawn[t];
      values[j][b] = sum;
    }
  }
  return targets.map((weights, j): PairedBootstrapResult | null => {
    if (!weights.some((w) => w > 0)) return null;
    return {
      difference: weights.reduce((sum, w, t) => sum + w * observed[t], 0),
      ...percentileAndP(values[j], PAIRED_BOOTSTRAP_LEVEL),
      resamples,
      seed,
      level: PAIRED_BOOTSTRAP_LEVEL,
    };
  });
}

/** How the group and Overall difference intervals and p-values are computed. */
export function pairedBootstrapSignature(options: PairedBootstrapOptions = {}): string {
  const { resamples, seed } = resolveOptions(options, PAIRED_BOOTSTRAP_RESAMPLES);
  return `paired-bootstrap(strata:task,resample:common-items-with-replacement,exact-multinomial-per-task,bs:${resamples},seed:${seed},rng:mulberry32,ci:percentile-95-linear,p:two-sided-2x(1+min(#<=0,#>=0))/(B+1))`;
}
