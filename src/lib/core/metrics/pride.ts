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
//    four options; an item with three is debiased with the three-option prior).
//  - Evaluated: every other item not failed, with a gold letter and letter-logits at rotation 0.
//    Prediction: argmax_j (log probs[j] − log prior[j]), ties to the lowest position. An item whose
//    option count has no prior keeps its raw prediction (counted in `withoutPrior`).
//  - raw and debiased accuracy are over the same evaluated items, Wilson 95%; `changed` counts the
//    evaluated items whose debiased prediction differs from the raw one.
//  - A probability of exactly 0 is read as the smallest double so its log stays finite.
import type { OptionLetter } from '../benchmarks/types.ts';
import { rotationCount } from '../protocols/rotation.ts';
import { accuracyFromCounts, wilsonInterval } from './accuracy.ts';
import type { CountedAccuracy } from './circular.ts';

export const PRIDE_VERSION = 1;

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
}

export interface PrideResult {
  priors: PridePrior[];
  /** Items debiased and scored: outside the estimation set, not failed, gold known, letter-logits. */
  evaluated: number;
  /** Evaluated items whose option count has no prior: their raw prediction is kept. */
  withoutPrior: number;
  raw: CountedAccuracy;
  debiased: CountedAccuracy;
  changed: number;
  /** The debiased prediction of every evaluated item. */
  predictions: Record<string, OptionLetter>;
  signature: string;
}

export function prideSignature(): string {
  return `pride|prior:mean-over-estimation-items-of-softmax-of-mean-log-prob-over-cyclic-rotations|per-option-count|predict:argmax(log-p-minus-log-prior),ties-lowest|accuracy:wilson|version:${PRIDE_VERSION}`;
}

const safeLog = (p: number): number => Math.log(Math.max(p, Number.MIN_VALUE));
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

/** PriDe's prior and debiased accuracy; null when no estimation item is complete. */
export function prideDebias(results: readonly PrideInput[], estimationItemIds: readonly string[]): PrideResult | null {
  const estimation = new Set(estimationItemIds);
  const sums = new Map<number, { sum: number[]; count: number }>();
  for (const r of results) {
    if (!estimation.has(r.itemId)) continue;
    const prior = itemPrior(r);
    if (prior === null) continue;
    const entry = sums.get(prior.length) ?? { sum: prior.map(() => 0), count: 0 };
    prior.forEach((p, j) => (entry.sum[j] += p));
    entry.count++;
    sums.set(prior.length, entry);
  }
  if (sums.size === 0) return null;
  const priors: PridePrior[] = [...sums]
    .sort(([a], [b]) => a - b)
    .map(([optionCount, { sum, count }]) => ({ optionCount, prior: sum.map((s) => s / count), estimationItems: count }));
  const priorFor = new Map(priors.map((p) => [p.optionCount, p.prior]));

  let evaluated = 0;
  let withoutPrior = 0;
  let rawRight = 0;
  let debiasedRight = 0;
  let changed = 0;
  const predictions: Record<string, OptionLetter> = {};
  for (const r of results) {
    if (estimation.has(r.itemId) || r.failure !== undefined || r.correct === null || r.gold === null || !hasLogits(r.probs, r.letters)) continue;
    evaluated++;
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
    evaluated,
    withoutPrior,
    raw: counted(rawRight, evaluated),
    debiased: counted(debiasedRight, evaluated),
    changed,
    predictions,
    signature: prideSignature(),
  };
}
