// Sampling, seen (issue 37 §4): Jiangu's own seeded sampler, so a class sees the same continuation on
// every screen and, at each step, the distribution the token was drawn from. transformers.js'
// generate() samples too, but inside: its distribution never comes out, and its draws come from a
// Mersenne Twister seeded through a module-wide `random.seed`, not a stream a page can replay.
//
// One step, from a logits row ℓ (ℓ_v for each vocabulary id v), a temperature T and a top-k K:
//   T = 0      greedy: the argmax (equal logits: the lowest id); the distribution is that one token
//              with p = 1. The draw is not read (but still spent: see `sampler`).
//   T > 0      candidates C = the K largest logits, ties at the boundary broken by the lower id
//              (ONNX TopK's order, what transformers.js and row-reading.ts use); K = 0 or K ≥ the
//              vocabulary keeps every token. Dividing by T > 0 keeps the order of the logits, so T never
//              changes which tokens are kept: "temperature, then top-k" and "top-k, then temperature"
//              are the same set.
//              p_v = exp((ℓ_v − ℓ_max) / T) / Σ_{u ∈ C} exp((ℓ_u − ℓ_max) / T)   for v ∈ C, in float64:
//              softmax(ℓ / T) renormalised over C, with the largest logit subtracted before dividing,
//              so no T > 0 overflows (a very small T underflows the others to exactly 0, which is
//              greedy). The sum runs over C in the sorted order below.
//   order      the candidates sorted by logit (so by probability) descending, equal logits by the
//              lower id. That is the order the page lists them in and the order the draw walks.
//   pick       with a draw u uniform in [0, 1): the first candidate whose cumulative probability
//              c_j = p_1 + … + p_j exceeds u; the token's interval is [c_{j−1}, c_j). If rounding
//              leaves c_|C| ≤ u (c_|C| can be 1 − 1e-16), the last candidate with p > 0 is taken.
//   rank       1 + the number of candidates with a larger logit: row-reading.ts' rank, so a token shown
//              in the reading view and in the sampler has one rank (equal logits share the better one).
// The same seed gives the same draws everywhere (mulberry32 is 32-bit integer arithmetic), and the
// same draw gives the same token unless a cumulative sum and the draw straddle each other by less
// than the rounding between two screens: Math.exp is not correctly rounded in every JavaScript
// engine (last-bit differences), and, far larger, logits differ between backends and dtypes (about
// 1e-6 between fp32 kernels, far more between q4 and fp32). A draw that close to a boundary picks
// the neighbouring token on the other machine, and every later step follows another text. Measured
// on jiangu-tiny fp32, onnxruntime-node against the TypeScript reference: cumulative sums at most
// 5.4e-7 apart over 933 steps at T = 1 (every token the same), so about one step in 10^6 would differ.
//
// How this relates to the others:
//  - transformers.js 4.3.2 (generation/logits_process.js, logits_sampler.js, models/modeling_utils.js):
//    with do_sample it divides the float32 logits by T (TemperatureLogitsWarper, skipped at T = 1;
//    T = 0 turns do_sample off: greedy), then MultinomialSampler takes the top k (k = 0: all) with the
//    ONNX TopK op (sorted descending, equal values by the lower index), softmaxes those k values into
//    a Float32Array and picks by `x = random() · Σw; x −= w_i until x < 0`: the first candidate, in the
//    same sorted order, whose cumulative weight exceeds the draw. Same definitions and order of
//    operations as here; it differs in float32 arithmetic and in its random stream (Python-compatible
//    Mersenne Twister), so the same seed does not give its continuation. Its TopKLogitsWarper and
//    TopPLogitsWarper are never added (a TODO in modeling_utils.js): top_p is ignored in 4.3.2.
//  - Hugging Face transformers (Python) applies TemperatureLogitsWarper, then TopKLogitsWarper, then
//    top-p, then softmax and torch.multinomial (its own draw, not a walk of the sorted list). Its
//    top-k removes `scores < topk(scores, k)[-1]`, so every token equal to the k-th logit is kept:
//    more than K at a tie, where this keeps exactly K (lowest ids).
//  - lm-evaluation-harness passes temperature and top_k to that generate(); a temperature of 0 with
//    do_sample unset becomes do_sample = False (greedy), as T = 0 is greedy here.
import { mulberry32 } from '../metrics/generation/bootstrap.ts';

export interface SamplingOptions {
  /** 0: greedy; otherwise a finite number > 0 dividing the logits. */
  temperature: number;
  /** Candidates kept: 0 for every token, else an integer ≥ 1. */
  topK: number;
}

/** The candidates a step drew from: ids and probabilities in the sorted order (see the header). */
export interface SamplingDistribution {
  ids: Int32Array;
  probs: Float64Array;
}

export interface SampledStep {
  token: number;
  distribution: SamplingDistribution;
  /** The chosen token's probability in `distribution`. */
  chosenProb: number;
  /** 1 + the candidates with a larger logit (1: the most probable). */
  chosenRank: number;
  /** The draw fell in [from, to), the chosen token's share of the cumulative sum ([0, 1) when greedy). */
  from: number;
  to: number;
  /** The share of softmax(ℓ / T) over the whole vocabulary that the candidates hold (1 when greedy or K keeps all). */
  keptMass: number;
  /** The chosen token's probability under the model itself: softmax(ℓ) at T = 1 over the whole vocabulary. */
  modelProb: number;
}

/** What is wrong with a sampling setting; the page turns it into a sentence. */
export type SamplingProblem =
  | { code: 'sampling.temperature'; value: number }
  | { code: 'sampling.top-k'; value: number }
  | { code: 'sampling.seed'; value: number };

/** Null when `options` (and `seed`, when given) can be used, else the first problem found. */
export function samplingProblem(options: SamplingOptions, seed?: number): SamplingProblem | null {
  if (!(Number.isFinite(options.temperature) && options.temperature >= 0)) return { code: 'sampling.temperature', value: options.temperature };
  if (!(Number.isSafeInteger(options.topK) && options.topK >= 0)) return { code: 'sampling.top-k', value: options.topK };
  if (seed !== undefined && !(Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff)) return { code: 'sampling.seed', value: seed };
  return null;
}

/**
 * The draws of a seed: one uniform in [0, 1) per step, step n taking the n-th, whatever the step
 * does with it (a greedy step spends one too). So the same seed at another temperature or top-k
 * meets the same draws, and a class can watch one draw pick differently as T moves.
 */
export function sampler(seed: number): () => number {
  const problem = samplingProblem({ temperature: 0, topK: 0 }, seed);
  if (problem) throw new RangeError(`seed ${seed} is not an integer in [0, 2^32)`);
  return mulberry32(seed);
}

/**
 * The row's largest logit and its lowest id (greedy's token), checking the row on the way: a NaN or
 * +∞ logit, or a row with no finite logit, has no distribution to show.
 */
export function rowMaximum(row: ArrayLike<number>): { max: number; argmax: number } {
  if (row.length === 0) throw new RangeError('an empty logits row');
  let max = -Infinity;
  let argmax = -1;
  for (let v = 0; v < row.length; v++) {
    const x = row[v];
    if (Number.isNaN(x) || x === Infinity) throw new RangeError(`logit ${x} at id ${v}`);
    if (x > max) {
      max = x;
      argmax = v;
    }
  }
  if (argmax < 0) throw new RangeError('every logit is −∞');
  return { max, argmax };
}

/** True when (id a, logit x) comes before (id b, logit y) in the candidates' order. */
const before = (x: number, a: number, y: number, b: number) => x > y || (x === y && a < b);

/** Ids below this fit beside a float32's 32 bits in one float64 key (32 + 21 = 53 bits). */
const PACKED_IDS = 2 ** 21;

/**
 * Every id of a row of float32 values in the candidates' order, by one native sort of float64 keys
 * (the logit's bits made to sort descending, then the id): a whole step over Qwen's 151,936 logits
 * keeping every token takes about 18 ms this way and 39 ms with a comparator sort (Node 20, one core).
 * Null when a value is not a float32 (a float64 row) or the row is too long.
 */
function packedOrder(row: ArrayLike<number>): Int32Array | null {
  const vocab = row.length;
  if (vocab > PACKED_IDS) return null;
  const bits = new Float32Array(1);
  const word = new Uint32Array(bits.buffer);
  const keys = new Float64Array(vocab);
  for (let v = 0; v < vocab; v++) {
    const x = row[v];
    if (Math.fround(x) !== x) return null;
    bits[0] = x === 0 ? 0 : x; // −0 and +0 are one logit
    const w = word[0];
    // IEEE bits ordered as the numbers are: negatives' bits flipped, positives' sign bit set.
    const ascending = w & 0x80000000 ? ~w >>> 0 : (w | 0x80000000) >>> 0;
    keys[v] = (0xffffffff - ascending) * PACKED_IDS + v;
  }
  keys.sort();
  const ids = new Int32Array(vocab);
  for (let j = 0; j < vocab; j++) ids[j] = keys[j] % PACKED_IDS;
  return ids;
}

/**
 * The K best ids of `row` in the candidates' order. For K well under the vocabulary a heap of K
 * (O(V log K): a whole step over Qwen's 151,936 logits with K = 50 in about 5 ms); otherwise one
 * sort of every id.
 */
function bestIds(row: ArrayLike<number>, k: number): Int32Array {
  const vocab = row.length;
  if (k * 8 >= vocab) {
    let all = packedOrder(row);
    if (all === null) {
      all = new Int32Array(vocab);
      for (let v = 0; v < vocab; v++) all[v] = v;
      all.sort((a, b) => (before(row[a], a, row[b], b) ? -1 : 1));
    }
    return k === vocab ? all : all.slice(0, k);
  }
  // A heap whose root is the worst of the K kept so far.
  const heap = new Int32Array(k);
  let size = 0;
  const worse = (i: number, j: number) => before(row[heap[j]], heap[j], row[heap[i]], heap[i]);
  const swap = (i: number, j: number) => {
    const t = heap[i];
    heap[i] = heap[j];
    heap[j] = t;
  };
  const siftDown = (i: number) => {
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let w = i;
      if (l < size && worse(l, w)) w = l;
      if (r < size && worse(r, w)) w = r;
      if (w === i) return;
      swap(i, w);
      i = w;
    }
  };
  for (let v = 0; v < vocab; v++) {
    if (size < k) {
      heap[size] = v;
      let i = size++;
      while (i > 0 && worse(i, (i - 1) >> 1)) {
        swap(i, (i - 1) >> 1);
        i = (i - 1) >> 1;
      }
    } else if (before(row[v], v, row[heap[0]], heap[0])) {
      heap[0] = v;
      siftDown(0);
    }
  }
  return heap.sort((a, b) => (before(row[a], a, row[b], b) ? -1 : 1));
}

/** Σ_v exp((ℓ_v − ℓ_max) / T) over the whole row: the softmax's denominator at T. */
function expSum(row: ArrayLike<number>, max: number, temperature: number): number {
  let sum = 0;
  for (let v = 0; v < row.length; v++) sum += Math.exp((row[v] - max) / temperature);
  return sum;
}

/** The distribution a step draws from (see the header), before any draw. */
export interface StepDistribution extends SamplingDistribution {
  /** The row's largest logit and its lowest id (greedy's token). */
  max: number;
  argmax: number;
  /** Σ over the candidates of exp((ℓ_v − ℓ_max) / T) before normalising (1 when greedy). */
  weightSum: number;
}

/** The candidates' ids in their order for top-k `topK` (every id for 0 or ≥ the vocabulary). T > 0 never changes them. */
export function candidateIds(logitsRow: ArrayLike<number>, topK: number): Int32Array {
  const vocab = logitsRow.length;
  return bestIds(logitsRow, topK === 0 || topK >= vocab ? vocab : topK);
}

/**
 * p over the candidates `ids` (in their order) at a temperature T > 0, `max` the row's largest
 * logit: the header's formula, summed in the candidates' order. Split from the ids so a page that
 * moves T over one row (the temperature dial) sorts the row once and gets these very numbers.
 */
export function candidateProbs(logitsRow: ArrayLike<number>, ids: Int32Array, max: number, temperature: number): { probs: Float64Array; weightSum: number } {
  const k = ids.length;
  const probs = new Float64Array(k);
  let sum = 0;
  for (let j = 0; j < k; j++) {
    probs[j] = Math.exp((logitsRow[ids[j]] - max) / temperature);
    sum += probs[j];
  }
  for (let j = 0; j < k; j++) probs[j] /= sum;
  return { probs, weightSum: sum };
}

/** The candidates of one step and their probabilities: what sampleStep draws from. */
export function stepDistribution(logitsRow: ArrayLike<number>, options: SamplingOptions): StepDistribution {
  const problem = samplingProblem(options);
  if (problem) throw new RangeError(`${problem.code}: ${problem.value}`);
  const { max, argmax } = rowMaximum(logitsRow);
  if (options.temperature === 0) return { ids: Int32Array.of(argmax), probs: Float64Array.of(1), max, argmax, weightSum: 1 };
  const ids = candidateIds(logitsRow, options.topK);
  return { ids, ...candidateProbs(logitsRow, ids, max, options.temperature), max, argmax };
}

/** One step of the sampler (see the header for every definition). `draw` is uniform in [0, 1). */
export function sampleStep(logitsRow: ArrayLike<number>, options: SamplingOptions, draw: number): SampledStep {
  const problem = samplingProblem(options);
  if (problem) throw new RangeError(`${problem.code}: ${problem.value}`);
  if (!(draw >= 0 && draw < 1)) throw new RangeError(`draw ${draw} is not in [0, 1)`);
  const { ids, probs, max, argmax, weightSum: sum } = stepDistribution(logitsRow, options);
  const { temperature } = options;
  if (temperature === 0) {
    return {
      token: argmax,
      distribution: { ids, probs },
      chosenProb: 1,
      chosenRank: 1,
      from: 0,
      to: 1,
      keptMass: 1,
      modelProb: 1 / expSum(logitsRow, max, 1),
    };
  }
  const vocab = logitsRow.length;
  const k = ids.length;
  let chosen = -1;
  let from = 0;
  let cumulative = 0;
  for (let j = 0; j < k; j++) {
    const next = cumulative + probs[j];
    if (next > draw) {
      chosen = j;
      from = cumulative;
      cumulative = next;
      break;
    }
    cumulative = next;
  }
  if (chosen < 0) {
    // Rounding left the total at or under the draw: the last candidate that has any probability.
    chosen = k - 1;
    while (chosen > 0 && probs[chosen] === 0) chosen--;
    from = cumulative - probs[chosen];
  }
  const token = ids[chosen];
  let rank = 1;
  for (let j = 0; j < chosen; j++) if (logitsRow[ids[j]] > logitsRow[token]) rank++;
  // The model's own denominator (T = 1), and at T the whole row's when top-k cut some of it.
  const plain = temperature === 1 && k === vocab ? sum : expSum(logitsRow, max, 1);
  const tempered = k === vocab ? sum : temperature === 1 ? plain : expSum(logitsRow, max, temperature);
  return {
    token,
    distribution: { ids, probs },
    chosenProb: probs[chosen],
    chosenRank: rank,
    from,
    to: cumulative,
    keptMass: k === vocab ? 1 : sum / tempered,
    modelProb: Math.exp(logitsRow[token] - max) / plain,
  };
}

/** The setting as a page states it: values and codes only; the page supplies the words. */
export interface SamplingDescription {
  mode: 'greedy' | 'sample';
  temperature: number;
  /** The number of candidates each step keeps; the vocabulary when top-k keeps every token (or 1 when greedy). */
  candidates: number;
  /** Whether top-k cuts anything (false when K = 0 or K ≥ the vocabulary, and when greedy). */
  truncated: boolean;
  /** The seed of the draws; null when greedy (no draw decides). */
  seed: number | null;
  rng: 'mulberry32';
  /** One line for a record or a share link, e.g. `sample|t:0.8|k:40|seed:7|rng:mulberry32|pick:cumulative-sorted`. */
  signature: string;
}

export function describeSampling(options: SamplingOptions, seed: number, vocabSize: number): SamplingDescription {
  const greedy = options.temperature === 0;
  const keepsAll = options.topK === 0 || options.topK >= vocabSize;
  const candidates = greedy ? 1 : keepsAll ? vocabSize : options.topK;
  const signature = greedy ? 'greedy|t:0|argmax:lowest-id' : `sample|t:${options.temperature}|k:${keepsAll ? 'all' : options.topK}|seed:${seed}|rng:mulberry32|pick:cumulative-sorted`;
  return { mode: greedy ? 'greedy' : 'sample', temperature: options.temperature, candidates, truncated: !greedy && !keepsAll, seed: greedy ? null : seed, rng: 'mulberry32', signature };
}

/** Numbers about one step the page shows beside its bar: how spread the distribution was and how surprising the pick. */
export interface StepDescription {
  /** Entropy of the candidates' distribution, in bits (0 when greedy). */
  entropyBits: number;
  /** −log2 of the chosen token's probability in that distribution. */
  surpriseBits: number;
  /** −log2 of its probability under the model at T = 1 over the whole vocabulary. */
  modelSurpriseBits: number;
  /** Candidates with p > 0. */
  live: number;
}

export function describeStep(step: SampledStep): StepDescription {
  let entropy = 0;
  let live = 0;
  for (const p of step.distribution.probs) {
    if (p > 0) {
      entropy -= p * Math.log2(p);
      live++;
    }
  }
  return { entropyBits: entropy, surpriseBits: -Math.log2(step.chosenProb), modelSurpriseBits: -Math.log2(step.modelProb), live };
}

/** A `sampleSteps` request: a prompt continued by this sampler, step by step. */
export interface SampleStepsParams extends SamplingOptions {
  prompt: string;
  /** Wrap the prompt as the user turn of the model's chat template. */
  chatTemplate?: boolean;
  /** At most this many tokens (and never past the model's last position). */
  maxNewTokens: number;
  /** An integer in [0, 2^32): the draws (see `sampler`). */
  seed: number;
  /** Candidates listed per step, best first (at most MAX_SHOWN_CANDIDATES). */
  showTop: number;
}

/** The most candidates a step lists: a projector shows a handful; the rest stay in the worker. */
export const MAX_SHOWN_CANDIDATES = 100;

/** A step as the worker sends it: SampledStep's numbers without its whole distribution, with texts. */
export interface SampledTokenStep extends Omit<SampledStep, 'distribution'> {
  /** The token's own text (special tokens as written: `</s>`; a byte piece as its bytes). */
  text: string;
  draw: number;
  /** How many candidates the step drew from (K, the vocabulary, or 1 when greedy). */
  candidates: number;
  /** The first `showTop` candidates in the sorted order. */
  top: { id: number; text: string; prob: number }[];
}

export interface SampleStepsResult {
  inputIds: number[];
  /** The exact text tokenized (the prompt, or the prompt inside the chat template). */
  promptText: string;
  steps: SampledTokenStep[];
  /** The continuation decoded as a whole, special tokens skipped (multi-token characters whole). */
  text: string;
  stoppedBy: 'eos' | 'max-tokens' | 'cancelled';
  sampling: SamplingDescription;
  forwardPasses: number;
  ms: number;
}
