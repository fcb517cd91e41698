// Calibration of multiple-choice answers: does a model that puts 80% on its chosen letter get about
// 80% of those items right? Method (stated in the signature):
//  - Confidence is probs[predicted], the probability of the chosen letter under the softmax over the
//    item's letters only (not the full vocabulary), so it is comparable across items with 4 or 5 options.
//  - Left out: items without an answer key (correct === null), without letter probabilities (answers
//    extracted from generated text have none) or without a prediction. Each reason is counted, so a
//    view can say why n is smaller than the run.
//  - B equal-width bins on [0, 1]: bin k = [k/B, (k+1)/B), the last one closed at 1.
//  - ECE = Σ_k (count_k / n)·|accuracy_k − meanConfidence_k| over non-empty bins (Guo et al. 2017,
//    "On Calibration of Modern Neural Networks"); MCE is the largest of those gaps.
//  - Brier = mean over the counted items that have a gold index of Σ_j (probs_j − [j = gold])², the
//    multi-class form (Brier 1950), on 0..2.
//  - n = 0: ECE, MCE and Brier are null (shown as "—"), never 0, so an empty set cannot pass for a
//    perfectly calibrated one.

export const CALIBRATION_VERSION = 1;

/** How far the letter probabilities of one item may sum from 1 (float32 softmax drifts by ~1e-7). */
export const PROBABILITY_SUM_TOLERANCE = 1e-6;

export interface CalibrationInput {
  /** Softmax over the item's letters; empty when the answer came from generated text. */
  probs: readonly number[];
  /** Index into probs of the chosen letter; null when nothing was chosen. */
  predicted: number | null;
  /** Whether the chosen letter is the answer; null when the item has no answer key. */
  correct: boolean | null;
  /** Index into probs of the answer; null when unknown (then the item is left out of Brier only). */
  gold: number | null;
}

export interface CalibrationBin {
  /** Lower edge, inclusive. */
  low: number;
  /** Upper edge, exclusive except for the last bin, which is closed at 1. */
  high: number;
  count: number;
  /** Mean confidence of the items in the bin; null when empty. */
  meanConfidence: number | null;
  /** Share correct in the bin; null when empty. */
  accuracy: number | null;
}

/** Why items were left out; an item is counted under the first reason that applies, in this order. */
export interface CalibrationExclusions {
  noAnswerKey: number;
  noProbabilities: number;
  noPrediction: number;
}

export interface Calibration {
  bins: CalibrationBin[];
  /** Items counted in the bins. */
  n: number;
  /** Expected calibration error, 0..1; null for n = 0. */
  ece: number | null;
  /** Maximum calibration error over non-empty bins, 0..1; null for n = 0. */
  maxCalibrationError: number | null;
  /** Multi-class Brier score, 0..2; null when no counted item has a gold index. */
  brier: number | null;
  /** Counted items that have a gold index: the Brier score's n. */
  brierN: number;
  excluded: CalibrationExclusions;
  signature: string;
}

/** e.g. `calibration|conf:predicted-letter-prob|bins:10-equal-width|ece:weighted-l1|brier:multiclass-sum|version:1`. */
export function calibrationSignature(binCount: number): string {
  return `calibration|conf:predicted-letter-prob|bins:${binCount}-equal-width|ece:weighted-l1|brier:multiclass-sum|version:${CALIBRATION_VERSION}`;
}

/**
 * The bin a confidence falls in. floor(c·B) alone can land one bin off at an edge (k/B·B is not
 * always exactly k in floating point), so the result is checked against the same edges the bins report.
 */
export function calibrationBinIndex(confidence: number, binCount: number): number {
  let k = Math.min(binCount - 1, Math.max(0, Math.floor(confidence * binCount)));
  if (k > 0 && confidence < k / binCount) k -= 1;
  else if (k < binCount - 1 && confidence >= (k + 1) / binCount) k += 1;
  return k;
}

function checkIndex(index: number | null, length: number, field: string, position: number): void {
  if (index !== null && !(Number.isInteger(index) && index >= 0 && index < length)) {
    throw new RangeError(`calibration: item at position ${position}: ${field} = ${index} is not an index into its ${length} letter probabilities`);
  }
}

function checkProbabilities(item: CalibrationInput, position: number): void {
  let sum = 0;
  item.probs.forEach((p, j) => {
    if (!Number.isFinite(p) || p < 0 || p > 1) {
      throw new RangeError(`calibration: item at position ${position}: probs[${j}] = ${p}; expected a finite probability in [0, 1]`);
    }
    sum += p;
  });
  if (Math.abs(sum - 1) > PROBABILITY_SUM_TOLERANCE) {
    throw new RangeError(
      `calibration: item at position ${position}: letter probabilities sum to ${sum}; expected 1 within ${PROBABILITY_SUM_TOLERANCE} (a softmax over the item's letters)`,
    );
  }
}

/** Reliability bins, ECE, MCE and Brier of the items' chosen-letter confidences. Throws RangeError on malformed probabilities. */
export function calibration(items: readonly CalibrationInput[], binCount = 10): Calibration {
  if (!Number.isInteger(binCount) || binCount < 1) throw new RangeError(`calibration: binCount must be a whole number ≥ 1, got ${binCount}`);

  const counts = new Array<number>(binCount).fill(0);
  const confidenceSums = new Array<number>(binCount).fill(0);
  const correctCounts = new Array<number>(binCount).fill(0);
  const excluded: CalibrationExclusions = { noAnswerKey: 0, noProbabilities: 0, noPrediction: 0 };
  let n = 0;
  let brierSum = 0;
  let brierN = 0;

  items.forEach((item, position) => {
    // Validate every item that carries probabilities, counted or not: a malformed softmax is a bug upstream.
    if (item.probs.length > 0) {
      checkProbabilities(item, position);
      checkIndex(item.predicted, item.probs.length, 'predicted', position);
      checkIndex(item.gold, item.probs.length, 'gold', position);
    }
    if (item.correct === null) return void excluded.noAnswerKey++;
    if (item.probs.length === 0) return void excluded.noProbabilities++;
    if (item.predicted === null) return void excluded.noPrediction++;

    const confidence = item.probs[item.predicted];
    const k = calibrationBinIndex(confidence, binCount);
    counts[k]++;
    confidenceSums[k] += confidence;
    if (item.correct) correctCounts[k]++;
    n++;

    if (item.gold !== null) {
      const gold = item.gold;
      brierSum += item.probs.reduce((sum, p, j) => sum + (p - (j === gold ? 1 : 0)) ** 2, 0);
      brierN++;
    }
  });

  const bins: CalibrationBin[] = counts.map((count, k) => ({
    low: k / binCount,
    high: (k + 1) / binCount,
    count,
    meanConfidence: count === 0 ? null : confidenceSums[k] / count,
    accuracy: count === 0 ? null : correctCounts[k] / count,
  }));

  let ece: number | null = null;
  let mce: number | null = null;
  if (n > 0) {
    ece = 0;
    mce = 0;
    for (const bin of bins) {
      if (bin.count === 0) continue;
      const gap = Math.abs(bin.accuracy! - bin.meanConfidence!);
      ece += (bin.count / n) * gap;
      mce = Math.max(mce, gap);
    }
  }

  return {
    bins,
    n,
    ece,
    maxCalibrationError: mce,
    brier: brierN === 0 ? null : brierSum / brierN,
    brierN,
    excluded,
    signature: calibrationSignature(binCount),
  };
}
