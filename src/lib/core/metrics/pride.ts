// PriDe debiasing (Zheng et al., "Large Language Models Are Not Robust Multiple Choice Selectors",
// ICLR 2024). The model's observed probability of the option at position j is taken to factor as
// prior(j) · P(content of that option) / Z. Under the n cyclic rotations every option sits once at
// every position, so averaging log P_observed(j) over the rotations leaves log prior(j) plus terms
// that are the same for every j; a softmax over j removes them. Rules:
//  - Estimation items: in `estimationItemIds`, not failed (nor any rotation), complete
//    (rotationCount(letters) − 1 rotations) and letter-logits (probs for every letter, every rotation).
//  - Per estimation item: for each position j, the mean over rotations k of log probs_k[j] (probs: the
//    softmax over the letters only; the full-vocabulary log-probs give the same prior, since within a
//    rotation they differ from log probs by one constant), then a softmax over positions.
//  - Prior: the mean of those over the estimation items, one prior per option count (most items have
//    four options; an item with three is debiased with the three-option prior), and only from
//    PRIDE_MIN_ESTIMATION_ITEMS (20) complete items of that count up (estimation-set.ts says why);
//    a count with fewer gets no prior (listed in `belowMinimum`). No count with 20: no result (null),
//    the page says why (prideEstimationItems counts them). Each position's standard error: the
//    sample SD of the per-item priors over √m.
//  - Evaluated: every other item not failed, with a gold letter and letter-logits at rotation 0.
//    Prediction: argmax_j (log probs[j] − log prior[j]), ties to the lowest position. An item whose
//    option count has no prior keeps its raw prediction (counted in `withoutPrior`).
//  - raw and debiased accuracy are over the same evaluated items, Wilson 95%; `changed` counts the
//    evaluated items whose debiased prediction differs from the raw one. Wilson sees only the
//    evaluated items' sampling, as if the prior were known; `debiased.interval` also carries the
//    prior's error: a 95% percentile bootstrap (B = 1,000, mulberry32 seed 12345, as bootstrap.ts)
//    where each replicate draws, in this order, each prior's estimation items with replacement
//    (option counts ascending; floor(u·m) over them in the results' order), re-estimates that prior
//    as their mean, debiases every evaluated item with it, then draws the evaluated items with
//    replacement: the number right among n such draws is Binomial(n, share right), drawn from one
//    uniform (binomial-draw.ts). The replicate's value is that number over n.
//  - A probability of exactly 0 is read as the smallest double so its log stays finite.
import type { OptionLetter } from '../benchmarks/types.ts';
import { PRIDE_MIN_ESTIMATION_ITEMS } from '../protocols/estimation-set.ts';
import { rotationCount } from '../protocols/rotation.ts';
import { accuracyFromCounts, wilsonInterval } from './accuracy.ts';
import type { CountedAccuracy } from './circular.ts';
import { bootstrapSignature, type BootstrapInterval, type BootstrapOptions } from './generation/bootstrap.ts';
import { debiasedBootstrap, safeLog, type PrideEvaluated } from './pride-bootstrap.ts';

export const PRIDE_VERSION = 2;

export interface PrideRotationInput {
  rotation: number;
  probs: readonly number[];
  failure?: unknown;
}

export interface PrideInput {
  itemId: string;
  /** The option letters in the order shown (A, B, …): position j is letters[j]. */
  letters: readonly OptionLetter[];
  probs: readonly number[];
  prediction: OptionLetter | null;
  gold: OptionLetter | null;
  correct: boolean | null;
  failure?: unknown;
  rotations?: readonly PrideRotationInput[];
}

export interface PridePrior {
  optionCount: number;
  /** prior[j]: the model's prior probability of answering position j; sums to 1. */
  prior: number[];
  /** Estimation items the prior is the mean over. */
  estimationItems: number;
  /** standardError[j]: the per-item priors' sample standard deviation at j over √estimationItems. */
  standardError: number[];
}

/** Complete estimation items of one option count. */
export interface PrideEstimationCount {
  optionCount: number;
  items: number;
}

export interface PrideResult {
  priors: PridePrior[];
  /** Items debiased and scored: outside the estimation set, not failed, gold known, letter-logits. */
  evaluated: number;
  /** Evaluated items whose option count has no prior: their raw prediction is kept. */
  withoutPrior: number;
  raw: CountedAccuracy;
  /** `wilson`: the evaluated items' sampling only; `interval`: the bootstrap that re-estimates the prior too. */
  debiased: CountedAccuracy & { interval: BootstrapInterval | null };
  /** Option counts whose complete estimation items are fewer than `minimumEstimationItems`: no prior. */
  belowMinimum: PrideEstimationCount[];
  minimumEstimationItems: number;
  changed: number;
  /** The debiased prediction of every evaluated item. */
  predictions: Record<string, OptionLetter>;
  signature: string;
}

export function prideSignature(options: BootstrapOptions = {}): string {
  return `pride|prior:mean-over-estimation-items-of-softmax-of-mean-log-prob-over-cyclic-rotations|per-option-count|min-estimation-items:${PRIDE_MIN_ESTIMATION_ITEMS}|predict:argmax(log-p-minus-log-prior),ties-lowest|accuracy:wilson|debiased-interval:${bootstrapSignature(options)}+estimation-items-per-option-count,prior-re-estimated,right-count:binomial-kemp-modal|version:${PRIDE_VERSION}`;
}

const hasLogits = (probs: readonly number[], letters: readonly string[]): boolean => letters.length > 0 && probs.length === letters.length;
const failed = (r: PrideInput): boolean => r.failure !== undefined || (r.rotations ?? []).some((x) => x.failure !== undefined);

function softmax(values: readonly number[]): number[] {
  const max = Math.max(...values);
  const exps = values.map((v) => Math.exp(v - max));
  const sum = exps.reduce((s, e) => s + e, 0);
  return exps.map((e) => e / sum);
}

/** One estimation item's prior, or null when it cannot be one (see the header). */
export function itemPrior(result: PrideInput): number[] | null {
  const n = result.letters.length;
  const rotations = result.rotations ?? [];
  if (failed(result) || !hasLogits(result.probs, result.letters) || rotations.length < rotationCount(n) - 1) return null;
  const used = [...rotations].sort((a, b) => a.rotation - b.rotation).slice(0, rotationCount(n) - 1);
  const observed = [result.probs, ...used.map((r) => r.probs)];
  if (observed.some((probs) => probs.length !== n)) return null;
  const meanLog = Array.from({ length: n }, (_, j) => observed.reduce((s, probs) => s + safeLog(probs[j]), 0) / observed.length);
  return softmax(meanLog);
}

/** argmax_j (log probs[j] − log prior[j]), ties to the lowest position. */
export function debiasedPosition(probs: readonly number[], prior: readonly number[]): number {
  let best = 0;
  let bestScore = -Infinity;
  for (let j = 0; j < probs.length; j++) {
    const score = safeLog(probs[j]) - safeLog(prior[j]);
    if (score > bestScore) {
      best = j;
      bestScore = score;
    }
  }
  return best;
}

const counted = (k: number, n: number): CountedAccuracy => ({ k, n, accuracy: accuracyFromCounts(k, n), wilson: wilsonInterval(k, n) });

/** Every complete estimation item's prior, by option count (ascending), in the results' order. */
function estimationPriors(results: readonly PrideInput[], estimationItemIds: readonly string[]): Map<number, number[][]> {
  const estimation = new Set(estimationItemIds);
  const byCount = new Map<number, number[][]>();
  for (const r of results) {
    if (!estimation.has(r.itemId)) continue;
    const prior = itemPrior(r);
    if (prior === null) continue;
    const list = byCount.get(prior.length);
    if (list) list.push(prior);
    else byCount.set(prior.length, [prior]);
  }
  return new Map([...byCount].sort(([a], [b]) => a - b));
}

/** How many estimation items are complete, per option count: what the page says when PriDe gives no result. */
export function prideEstimationItems(results: readonly PrideInput[], estimationItemIds: readonly string[]): PrideEstimationCount[] {
  return [...estimationPriors(results, estimationItemIds)].map(([optionCount, priors]) => ({ optionCount, items: priors.length }));
}

function meanPrior(priors: readonly (readonly number[])[], width: number): number[] {
  const sum = new Array<number>(width).fill(0);
  for (const p of priors) for (let j = 0; j < width; j++) sum[j] += p[j];
  return sum.map((x) => x / priors.length);
}

function standardErrors(priors: readonly (readonly number[])[], mean: readonly number[]): number[] {
  const m = priors.length;
  return mean.map((mu, j) => Math.sqrt(priors.reduce((s, p) => s + (p[j] - mu) ** 2, 0) / (m - 1) / m));
}

/**
 * PriDe's prior and debiased accuracy; null when no option count has PRIDE_MIN_ESTIMATION_ITEMS
 * complete estimation items (prideEstimationItems says how many there are). `options`: the
 * bootstrap's resamples and seed (defaults 1,000 and 12345).
 */
export function prideDebias(results: readonly PrideInput[], estimationItemIds: readonly string[], options: BootstrapOptions = {}): PrideResult | null {
  const signature = prideSignature(options); // checks the options before any work
  const estimation = new Set(estimationItemIds);
  const all = estimationPriors(results, estimationItemIds);
  const strata = new Map([...all].filter(([, priors]) => priors.length >= PRIDE_MIN_ESTIMATION_ITEMS));
  if (strata.size === 0) return null;
  const belowMinimum = [...all].filter(([c]) => !strata.has(c)).map(([optionCount, priors]) => ({ optionCount, items: priors.length }));
  const priors: PridePrior[] = [...strata].map(([optionCount, list]) => {
    const prior = meanPrior(list, optionCount);
    return { optionCount, prior, estimationItems: list.length, standardError: standardErrors(list, prior) };
  });
  const priorFor = new Map(priors.map((p) => [p.optionCount, p.prior]));

  let rawRight = 0;
  let debiasedRight = 0;
  let changed = 0;
  let withoutPrior = 0;
  const predictions: Record<string, OptionLetter> = {};
  const evaluated: PrideEvaluated[] = [];
  for (const r of results) {
    if (estimation.has(r.itemId) || r.failure !== undefined || r.correct === null || r.gold === null || !hasLogits(r.probs, r.letters)) continue;
    evaluated.push({ probs: r.probs, gold: r.letters.indexOf(r.gold), rawRight: r.prediction === r.gold });
    if (r.correct) rawRight++;
    const prior = priorFor.get(r.letters.length);
    let prediction = r.prediction;
    if (prior === undefined) withoutPrior++;
    else prediction = r.letters[debiasedPosition(r.probs, prior)];
    if (prediction !== r.prediction) changed++;
    if (prediction !== null) predictions[r.itemId] = prediction;
    if (prediction === r.gold) debiasedRight++;
  }
  return {
    priors,
    evaluated: evaluated.length,
    withoutPrior,
    raw: counted(rawRight, evaluated.length),
    debiased: { ...counted(debiasedRight, evaluated.length), interval: debiasedBootstrap(strata, priorFor, evaluated, options) },
    belowMinimum,
    minimumEstimationItems: PRIDE_MIN_ESTIMATION_ITEMS,
    changed,
    predictions,
    signature,
  };
}
