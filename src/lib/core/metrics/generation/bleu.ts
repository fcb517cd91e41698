// BLEU exactly as sacrebleu 2.6.0 computes it with tokenize='zh' (sacrebleu/metrics/bleu.py:
// compute_bleu, _get_closest_ref_len, _extract_reference_info, _compute_segment_statistics; base.py:
// corpus_score, sentence_score), so a number here equals the number sacrebleu prints for the same
// text. Defaults as sacrebleu's: smooth 'exp', max order 4, mixed case, closest reference length
// (ties go to the shorter reference), reference n-gram counts clipped by the maximum over references.
// The arithmetic follows the Python expression by expression (100 * c / t, a left-to-right sum of
// logs, e.g. 100.00000000000004 for a perfect match); Math.exp/Math.log may round the last bit
// differently from C's libm, so scores agree to about 1e-13, well inside the golden 1e-9.
import { tokensZh } from './bleu-tokenizer-zh.ts';

export const BLEU_MAX_ORDER = 4;
/** The sacrebleu release whose behaviour this reproduces; the signature's `version`. */
export const SACREBLEU_VERSION = '2.6.0';
/** sacrebleu's my_log floor for log(0). */
const LOG_ZERO = -9999999999;

export interface BleuScore {
  /** 0..100. */
  score: number;
  /** Clipped n-gram matches, orders 1..4. */
  counts: number[];
  /** Hypothesis n-grams, orders 1..4. */
  totals: number[];
  /** 100 · counts/totals, smoothed ('exp') where counts is 0; 0 beyond the last order with n-grams. */
  precisions: number[];
  /** Brevity penalty. */
  bp: number;
  /** Hypothesis tokens, summed over sentences. */
  sys_len: number;
  /** Closest reference lengths, summed over sentences. */
  ref_len: number;
}

/**
 * A sentence's sufficient statistics, sacrebleu's layout: [sys_len, ref_len, counts × 4, totals × 4].
 * Corpus BLEU is BLEU of their sum, which is what makes bootstrap resampling cheap.
 */
export type BleuStats = Float64Array;
export const BLEU_STATS_WIDTH = 2 + 2 * BLEU_MAX_ORDER;

/**
 * N-gram keys. The tokens of a sentence and its references get ids 1..V; an n-gram is the number
 * whose base-(V + 1) digits are its ids, exact while (V + 1)^4 stays under 2^53. Much faster than
 * joined strings; a sentence with more distinct tokens than that falls back to string keys.
 */
const MAX_NUMERIC_BASE = Math.floor(Math.pow(Number.MAX_SAFE_INTEGER, 1 / BLEU_MAX_ORDER));

type NgramCounts = Map<number | string, number>;

/** counts[n − 1]: how often each n-gram of order n occurs. */
function countNgrams(ids: Int32Array, base: number, numeric: boolean): NgramCounts[] {
  const counts: NgramCounts[] = Array.from({ length: BLEU_MAX_ORDER }, () => new Map());
  for (let i = 0; i < ids.length; i++) {
    let key: number | string = numeric ? ids[i] : String(ids[i]);
    for (let n = 1; n <= BLEU_MAX_ORDER && i + n <= ids.length; n++) {
      if (n > 1) key = numeric ? (key as number) * base + ids[i + n - 1] : `${key as string} ${ids[i + n - 1]}`;
      const map = counts[n - 1];
      map.set(key, (map.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

/** sacrebleu's _get_closest_ref_len: the reference length nearest the hypothesis, the shorter on a tie. */
function closestRefLen(hypLen: number, refLens: readonly number[]): number {
  let closestDiff = -1;
  let closestLen = -1;
  for (const refLen of refLens) {
    const diff = Math.abs(hypLen - refLen);
    if (closestDiff === -1 || diff < closestDiff) {
      closestDiff = diff;
      closestLen = refLen;
    } else if (diff === closestDiff && refLen < closestLen) {
      closestLen = refLen;
    }
  }
  return closestLen;
}

/** Statistics of one hypothesis against its references (one or more strings). */
export function bleuSentenceStats(hypothesis: string, references: readonly string[]): BleuStats {
  if (references.length === 0) throw new RangeError('BLEU needs at least one reference per sentence');
  // sacrebleu: each segment rstrip()ped, tokenized by TokenizerZh, split on whitespace.
  const vocabulary = new Map<string, number>();
  const toIds = (tokens: readonly string[]): Int32Array => {
    const ids = new Int32Array(tokens.length);
    for (let i = 0; i < tokens.length; i++) {
      let id = vocabulary.get(tokens[i]);
      if (id === undefined) vocabulary.set(tokens[i], (id = vocabulary.size + 1));
      ids[i] = id;
    }
    return ids;
  };
  const refIds = references.map((reference) => toIds(tokensZh(reference)));
  const hypIds = toIds(tokensZh(hypothesis));
  const base = vocabulary.size + 1;
  const numeric = base <= MAX_NUMERIC_BASE;

  // Reference counts: the maximum over references (sacrebleu's _extract_reference_info).
  let refCounts: NgramCounts[] | null = null;
  for (const ids of refIds) {
    const counts = countNgrams(ids, base, numeric);
    if (refCounts === null) refCounts = counts;
    else counts.forEach((map, n) => map.forEach((count, key) => refCounts![n].set(key, Math.max(refCounts![n].get(key) ?? 0, count))));
  }
  const stats = new Float64Array(BLEU_STATS_WIDTH);
  stats[0] = hypIds.length;
  stats[1] = closestRefLen(
    hypIds.length,
    refIds.map((ids) => ids.length),
  );
  countNgrams(hypIds, base, numeric).forEach((map, n) => {
    const ref = refCounts![n];
    map.forEach((count, key) => {
      stats[2 + BLEU_MAX_ORDER + n] += count;
      const refCount = ref.get(key);
      if (refCount !== undefined) stats[2 + n] += Math.min(count, refCount);
    });
  });
  return stats;
}

/** sacrebleu's BLEU.compute_bleu with smooth_method 'exp' and max order 4. */
export function bleuFromStats(stats: ArrayLike<number>, effectiveOrder = false): BleuScore {
  const sysLen = stats[0];
  const refLen = stats[1];
  const counts: number[] = [];
  const totals: number[] = [];
  for (let n = 0; n < BLEU_MAX_ORDER; n++) {
    counts.push(stats[2 + n]);
    totals.push(stats[2 + BLEU_MAX_ORDER + n]);
  }
  let bp = 1.0;
  if (sysLen < refLen) bp = sysLen > 0 ? Math.exp(1 - refLen / sysLen) : 0.0;
  const precisions = new Array<number>(BLEU_MAX_ORDER).fill(0.0);
  // sacrebleu's early stop (#141): no match at any order is a score of 0 with zero precisions.
  if (!counts.some((c) => c !== 0)) return { score: 0.0, counts, totals, precisions, bp, sys_len: sysLen, ref_len: refLen };

  let smoothMteval = 1.0;
  let effOrder = BLEU_MAX_ORDER;
  for (let n = 1; n <= BLEU_MAX_ORDER; n++) {
    if (totals[n - 1] === 0) break;
    if (effectiveOrder) effOrder = n;
    if (counts[n - 1] === 0) {
      smoothMteval *= 2;
      precisions[n - 1] = 100.0 / (smoothMteval * totals[n - 1]);
    } else {
      precisions[n - 1] = (100.0 * counts[n - 1]) / totals[n - 1];
    }
  }
  let logSum = 0;
  for (let n = 0; n < effOrder; n++) logSum += precisions[n] === 0.0 ? LOG_ZERO : Math.log(precisions[n]);
  const score = bp * Math.exp(logSum / effOrder);
  return { score, counts, totals, precisions, bp, sys_len: sysLen, ref_len: refLen };
}

function checkStreams(hyps: readonly string[], refs: readonly (readonly string[])[]): void {
  if (refs.length === 0) throw new RangeError('corpus BLEU needs at least one reference stream');
  refs.forEach((stream, k) => {
    if (stream.length !== hyps.length) {
      throw new RangeError(`reference stream ${k + 1} has ${stream.length} sentences, the hypotheses ${hyps.length}`);
    }
  });
}

/** Per-sentence statistics of a corpus, flattened: row i is sentence i (BLEU_STATS_WIDTH wide). */
export function corpusBleuStats(hyps: readonly string[], refs: readonly (readonly string[])[]): Float64Array {
  checkStreams(hyps, refs);
  const all = new Float64Array(hyps.length * BLEU_STATS_WIDTH);
  for (let i = 0; i < hyps.length; i++) {
    all.set(
      bleuSentenceStats(
        hyps[i],
        refs.map((stream) => stream[i]),
      ),
      i * BLEU_STATS_WIDTH,
    );
  }
  return all;
}

/** Column sums of flattened per-sentence statistics. */
export function sumBleuStats(rows: Float64Array): Float64Array {
  const sum = new Float64Array(BLEU_STATS_WIDTH);
  for (let i = 0; i < rows.length; i++) sum[i % BLEU_STATS_WIDTH] += rows[i];
  return sum;
}

/**
 * `BLEU(tokenize='zh').corpus_score(hyps, refs)`. `refs[k][i]` is the k-th reference of sentence i
 * (sacrebleu's reference streams); every stream has one string per hypothesis.
 */
export function corpusBleu(hyps: readonly string[], refs: readonly (readonly string[])[]): BleuScore {
  return bleuFromStats(sumBleuStats(corpusBleuStats(hyps, refs)));
}

/**
 * `BLEU(tokenize='zh', effective_order=True).sentence_score(hyp, refs)`: one sentence against its
 * references, averaging only the orders that have hypothesis n-grams (the per-item view).
 */
export function sentenceBleu(hypothesis: string, references: readonly string[]): BleuScore {
  return bleuFromStats(bleuSentenceStats(hypothesis, references), true);
}

/**
 * sacrebleu's signature, e.g. `nrefs:1|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0`; with
 * `bootstrap` (our fragment, see bootstrapSignature) it goes after nrefs where sacrebleu puts its
 * own `bs`/`seed`.
 */
export function bleuSignature(options: { nrefs: number | string; effectiveOrder?: boolean; bootstrap?: string }): string {
  const parts = [`nrefs:${options.nrefs}`];
  if (options.bootstrap) parts.push(options.bootstrap);
  parts.push('case:mixed', `eff:${options.effectiveOrder ? 'yes' : 'no'}`, 'tok:zh', 'smooth:exp', `version:${SACREBLEU_VERSION}`);
  return parts.join('|');
}
