// The bootstrap behind PriDe's debiased interval (pride.ts states the method): split out for size.
import { binomialDraw, logFactorials } from './binomial-draw.ts';
import { BOOTSTRAP_LEVEL, DEFAULT_BOOTSTRAP_RESAMPLES, DEFAULT_BOOTSTRAP_SEED, mulberry32, percentileSorted, type BootstrapInterval, type BootstrapOptions } from './generation/bootstrap.ts';

/** log p, with p = 0 read as the smallest double so the log stays finite (PriDe's rule). */
export const safeLog = (p: number): number => Math.log(Math.max(p, Number.MIN_VALUE));

/** An evaluated item as the bootstrap needs it. */
export interface PrideEvaluated {
  /** Letter probabilities by position; their count is the option count. */
  probs: readonly number[];
  /** Position of the gold letter. */
  gold: number;
  /** The raw prediction is right (kept where the option count has no prior). */
  rawRight: boolean;
}

/** argmax_j (logProbs[base + j] − logPrior[j]), ties to the lowest position; its lead over the runner-up in `lead[i]` when given. */
function decide(logProbs: Float64Array, base: number, logPrior: Float64Array, lead?: Float64Array, i = 0): number {
  let best = 0;
  let bestScore = -Infinity;
  let second = -Infinity;
  for (let j = 0; j < logPrior.length; j++) {
    const score = logProbs[base + j] - logPrior[j];
    if (score > bestScore) {
      second = bestScore;
      best = j;
      bestScore = score;
    } else if (score > second) second = score;
  }
  if (lead) lead[i] = bestScore - second;
  return best;
}

/**
 * The bootstrap of the header: estimation items and evaluated items resampled, the prior re-estimated.
 * The evaluated items' draw is its count of right answers, Binomial(n, share right under the
 * replicate's prior), which is what n draws with replacement give, drawn from one uniform
 * (binomial-draw.ts) rather than n. A 28,707-item run is 27 million debiased answers over 1,000
 * replicates, so each replicate decides again only the items whose answer its prior can move: with
 * Δ_j = log π_b[j] − log π[j] (π: the prior of the whole estimation set), score j moves by −Δ_j, so
 * the best score's lead over any other shrinks by at most max Δ − min Δ; an item leading by more
 * (plus 1e-9 for rounding) keeps its answer under π. The result is that of deciding every item.
 */
export function debiasedBootstrap(strata: ReadonlyMap<number, number[][]>, pointPriors: ReadonlyMap<number, number[]>, evaluated: readonly PrideEvaluated[], options: BootstrapOptions): BootstrapInterval | null {
  const resamples = options.resamples ?? DEFAULT_BOOTSTRAP_RESAMPLES;
  const seed = options.seed ?? DEFAULT_BOOTSTRAP_SEED;
  const n = evaluated.length;
  if (n === 0) return null;
  const counts = [...strata.keys()];
  const offsets = new Int32Array(n + 1);
  evaluated.forEach((e, i) => (offsets[i + 1] = offsets[i] + e.probs.length));
  const logProbs = new Float64Array(offsets[n]);
  evaluated.forEach((e, i) => e.probs.forEach((p, j) => (logProbs[offsets[i] + j] = safeLog(p))));
  const pointLogPrior = counts.map((c) => Float64Array.from(pointPriors.get(c)!, safeLog));
  // Under the point prior: each item's right/wrong and lead; per stratum, its items by lead.
  const pointRight = new Uint8Array(n);
  const lead = new Float64Array(n);
  const byLead: number[][] = counts.map(() => []);
  evaluated.forEach((e, i) => {
    const s = counts.indexOf(e.probs.length);
    if (s < 0) {
      pointRight[i] = e.rawRight ? 1 : 0;
      return;
    }
    pointRight[i] = decide(logProbs, offsets[i], pointLogPrior[s], lead, i) === e.gold ? 1 : 0;
    byLead[s].push(i);
  });
  const sortedByLead = byLead.map((list) => Int32Array.from(list.sort((a, b) => lead[a] - lead[b])));
  const pointK = pointRight.reduce((sum, x) => sum + x, 0);
  const logFactorial = logFactorials(n);
  const logPrior = counts.map((c) => new Float64Array(c));
  const random = mulberry32(seed);
  const values = new Float64Array(resamples);
  for (let b = 0; b < resamples; b++) {
    let k = pointK;
    counts.forEach((optionCount, s) => {
      const priors = strata.get(optionCount)!;
      const sum = new Float64Array(optionCount);
      for (let draw = 0; draw < priors.length; draw++) {
        const p = priors[Math.floor(random() * priors.length)];
        for (let j = 0; j < optionCount; j++) sum[j] += p[j];
      }
      let up = -Infinity;
      let down = Infinity;
      for (let j = 0; j < optionCount; j++) {
        logPrior[s][j] = safeLog(sum[j] / priors.length);
        up = Math.max(up, logPrior[s][j] - pointLogPrior[s][j]);
        down = Math.min(down, logPrior[s][j] - pointLogPrior[s][j]);
      }
      const movable = up - down + 1e-9;
      const order = sortedByLead[s];
      for (let x = 0; x < order.length && lead[order[x]] <= movable; x++) {
        const i = order[x];
        k += (decide(logProbs, offsets[i], logPrior[s]) === evaluated[i].gold ? 1 : 0) - pointRight[i];
      }
    });
    values[b] = binomialDraw(random(), n, k / n, logFactorial) / n;
  }
  values.sort();
  return { low: percentileSorted(values, 0.025), high: percentileSorted(values, 0.975), resamples, used: resamples, seed, level: BOOTSTRAP_LEVEL };
}
