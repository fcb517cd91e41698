// The temperature dial (issue 45 §3): one position's next-token distribution redrawn as a class
// moves the temperature, from the logits row alone (no model pass per move). The numbers are the
// sampler's own (sampling.ts: candidateIds, then candidateProbs), so a bar on the dial at T and top-k
// K is, to the last bit, the probability sampleStep draws that token with at the same T and K.
//
// The row is sorted once per top-k (prepareTemperatureRow: about 18 ms over Qwen's 151,936 logits);
// each move of the dial then costs one exp per candidate (T never changes which tokens are kept nor
// their order, sampling.ts' header says why).
//
// Entropy, in bits: H = −Σ_{v ∈ C} p_v log₂ p_v over the candidates (terms with p = 0 left out, as
// describeStep does), in float64. 2^H is "as uncertain as a choice among 2^H equally likely tokens":
// the words the dial gives a class.
import { candidateIds, candidateProbs, rowMaximum, samplingProblem, type SamplingDistribution } from './sampling.ts';

/** A row made ready for the dial at one top-k: checked, its maximum found, its candidates sorted. */
export interface TemperatureRow {
  logits: ArrayLike<number>;
  topK: number;
  max: number;
  argmax: number;
  /** The candidates' ids in the sampler's order (by logit descending, equal logits by the lower id). */
  ids: Int32Array;
}

/** A listed candidate: its id, probability at the dial's setting, and rank (1 + the tokens with a larger logit). */
export interface TemperatureCandidate {
  id: number;
  p: number;
  rank: number;
}

export interface TemperatureDistribution {
  temperature: number;
  topK: number;
  /** The first `n` candidates in the sampler's order. */
  top: TemperatureCandidate[];
  /** How many tokens can be drawn: K, the vocabulary when K keeps all, 1 when greedy. */
  candidates: number;
  /** −Σ p log₂ p over the candidates (0 when greedy). */
  entropyBits: number;
  /** Every candidate and its probability, in the sampler's order (what sampleStep's distribution holds). */
  distribution: SamplingDistribution;
}

/** Throws a RangeError for a top-k the sampler refuses, or a row without a distribution (sampling.ts' checks). */
export function prepareTemperatureRow(logits: ArrayLike<number>, topK: number): TemperatureRow {
  const problem = samplingProblem({ temperature: 1, topK });
  if (problem) throw new RangeError(`${problem.code}: ${problem.value}`);
  const { max, argmax } = rowMaximum(logits);
  return { logits, topK, max, argmax, ids: candidateIds(logits, topK) };
}

/** Ranks of the first n ids: equal logits share the better rank, as row-reading.ts and sampleStep rank. */
function ranksOf(logits: ArrayLike<number>, ids: ArrayLike<number>, n: number): number[] {
  const ranks: number[] = [];
  for (let j = 0; j < n; j++) ranks.push(j > 0 && logits[ids[j]] === logits[ids[j - 1]] ? ranks[j - 1] : j + 1);
  return ranks;
}

/** The distribution at `temperature` (0: greedy, as sampling.ts) over the row's candidates, listing the first `n`. */
export function distributionAt(row: TemperatureRow, temperature: number, n = 10): TemperatureDistribution {
  const problem = samplingProblem({ temperature, topK: row.topK });
  if (problem) throw new RangeError(`${problem.code}: ${problem.value}`);
  let distribution: SamplingDistribution;
  if (temperature === 0) {
    distribution = { ids: Int32Array.of(row.argmax), probs: Float64Array.of(1) };
  } else {
    const { probs } = candidateProbs(row.logits, row.ids, row.max, temperature);
    distribution = { ids: row.ids, probs };
  }
  const { ids, probs } = distribution;
  let entropy = 0;
  for (const p of probs) if (p > 0) entropy -= p * Math.log2(p);
  const shown = Math.max(0, Math.min(n, ids.length));
  const ranks = ranksOf(row.logits, ids, shown);
  const top: TemperatureCandidate[] = [];
  for (let j = 0; j < shown; j++) top.push({ id: ids[j], p: probs[j], rank: ranks[j] });
  return { temperature, topK: row.topK, top, candidates: ids.length, entropyBits: entropy, distribution };
}

/** The same in one call, for a row seen once (the dial keeps its TemperatureRow instead). */
export function temperatureDistribution(logits: ArrayLike<number>, options: { temperature: number; topK: number }, n = 10): TemperatureDistribution {
  return distributionAt(prepareTemperatureRow(logits, options.topK), options.temperature, n);
}

/**
 * One token's chance at the dial's setting: its probability (0 when top-k or greedy leaves it out)
 * and its rank in the whole row (1 + the tokens with a larger logit; the same at every T).
 */
export function chanceOf(row: TemperatureRow, at: TemperatureDistribution, id: number): { p: number; rank: number } {
  if (!(Number.isInteger(id) && id >= 0 && id < row.logits.length)) throw new RangeError(`token id ${id} is outside the vocabulary of ${row.logits.length}`);
  const { ids, probs } = at.distribution;
  let p = 0;
  for (let j = 0; j < ids.length; j++) {
    if (ids[j] === id) {
      p = probs[j];
      break;
    }
  }
  const logit = row.logits[id];
  let above = 0;
  for (let v = 0; v < row.logits.length; v++) if (row.logits[v] > logit) above++;
  return { p, rank: above + 1 };
}
