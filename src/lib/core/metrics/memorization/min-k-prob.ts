// Min-K% Prob (Shi et al., "Detecting Pretraining Data from Large Language Models", ICLR 2024): the
// mean of the lowest k% of a text's token log-probabilities. A text the model has seen has few
// surprising tokens, so even its least likely tokens are not very unlikely.
//
// Definition, as the reference code computes it (swj0419/detect-pretrain-code, src/run.py: the
// per-token list from calculatePerplexity, the selection in inference):
//  - The input is the log-probability (natural log, full vocabulary) of each actual next token, for
//    tokens 2..n of the encoded text: the first token has no prediction. Whether the text's first
//    word is scored depends on the tokenizer: the reference encodes with its default, which adds a
//    BOS token for Llama tokenizers (the first word is then token 2) and none for GPT-NeoX ones.
//  - count = floor(n · k) of the n scored tokens, the floor of the double product as Python's int()
//    takes it (k = 0.29 on 100 tokens gives 28, since 0.29 · 100 = 28.999…); the lowest `count`
//    values after an ascending sort; their mean. Ties do not matter: tied values are equal.
//  - Sign: the reference stores −mean (higher = less likely = "not seen") and hands −score to its
//    ROC. Jiangu reports the mean itself, in nats, as Min-K%++'s reference (zjysteven/mink-plus-plus,
//    run.py) does: higher = more familiar, for both probes alike. The ordering of texts is the same.
//  - Where Jiangu goes beyond the reference: when n · k < 1 the reference takes the mean of an empty
//    list (NaN). Jiangu takes at least one token (the text's least likely one): the limit of the
//    definition as the text shrinks, and the same count as the reference for every n ≥ 1/k (5 tokens
//    at k = 20%). A text with no scored token (n = 0) has no score.
//
// What the number can and cannot show: it is relative. It depends on the model, the tokenizer and the
// kind of text (classical Chinese with rare characters scores lower than plain prose for any model),
// so compare texts of one kind under one model, or one text set under two models; never read a single
// value as "seen" or "not seen". The paper sets a threshold on labelled data; Jiangu has none.

export const MIN_K_DEFAULT = 0.2;
export const MIN_K_VERSION = 1;

/** One text's score: the mean of its `selected` lowest values among `positions` scored tokens. */
export interface MinKScore {
  score: number;
  selected: number;
  positions: number;
}

/** Checks k: a fraction in (0, 1], 0.2 for 20%. */
export function checkK(k: number): void {
  if (!(k > 0 && k <= 1)) throw new RangeError(`k must be a fraction in (0, 1] (0.2 for 20%), got ${k}`);
}

/** How many of n values the probes average: max(1, floor(n · k)), 0 when n = 0 (see the header). */
export function minKCount(n: number, k: number): number {
  checkK(k);
  return n === 0 ? 0 : Math.max(1, Math.floor(n * k));
}

/** The mean of the lowest minKCount(n, k) values; null for no values. `values` is not modified. */
export function lowestKMean(values: ArrayLike<number>, k: number): MinKScore | null {
  const n = values.length;
  const count = minKCount(n, k);
  if (count === 0) return null;
  const sorted = Float64Array.from(values).sort();
  let sum = 0;
  for (let i = 0; i < count; i++) sum += sorted[i];
  return { score: sum / count, selected: count, positions: n };
}

/**
 * Min-K% Prob of one text from the log-probabilities of its tokens 2..n (see the header); null when
 * no token was scored. Every value must be a finite log-probability (≤ 0 but for round-off).
 */
export function minKProb(logProbs: ArrayLike<number>, k: number = MIN_K_DEFAULT): MinKScore | null {
  for (let i = 0; i < logProbs.length; i++) {
    if (!Number.isFinite(logProbs[i])) throw new RangeError(`the log-probability at position ${i} is ${logProbs[i]}, not a finite number`);
  }
  return lowestKMean(logProbs, k);
}

/** `min-k%|k:0.2|count:max(1,floor(k*n))|of:logp(tokens 2..n)|score:mean|sign:higher-more-familiar|v:1`. */
export function minKProbSignature(k: number = MIN_K_DEFAULT): string {
  checkK(k);
  return `min-k%|k:${k}|count:max(1,floor(k*n))|of:logp(tokens 2..n)|score:mean|sign:higher-more-familiar|v:${MIN_K_VERSION}`;
}
