// What the model expected at one position of a passage, read from that position's logits row in
// float64 (the reading view and 断句, issue 37): the log-probability and rank of the token that came,
// the ten most likely tokens, and the probability mass on the vocabulary's punctuation tokens.
// Definitions, so a class can be told exactly what the colours and lists mean:
//   log p(v) = logit_v − log Σ_u exp(logit_u)         (the model's next-token distribution, T = 1)
//   rank(t)  = 1 + #{v : logit_v > logit_t}           (ties share the better rank: a token is never
//                                                       shown below another of equal probability)
//   top k    = the k largest logits, ties by the lower id (the order ArgMax and TopK use)
//   punctuation mass = Σ_{v ∈ P} p(v), P the ids punctuation-tokens.ts finds in the vocabulary.
// A logit of −∞ (a masked token) has probability 0 and ranks after every finite one.
import { rowStats } from '../logprobs.ts';

export interface RowReading {
  /** log p of the token that came next (natural log); null for the row after the passage's last token. */
  logprob: number | null;
  /** Its rank (1 = the model's first choice); null with logprob. */
  rank: number | null;
  /** The most likely tokens, best first, and their log-probabilities. */
  topIds: number[];
  topLogprobs: number[];
  /** p(next token is punctuation); null when no punctuation ids were given. */
  punctuationMass: number | null;
}

/** Reads logits[offset, offset + vocab): `target` the token that came (or null), `top` how many to list. */
export function readRow(row: ArrayLike<number>, offset: number, vocab: number, target: number | null, top: number, punctuation: readonly number[] | null): RowReading {
  if (target !== null && (!Number.isInteger(target) || target < 0 || target >= vocab)) throw new RangeError(`token id ${target} is outside the vocabulary of ${vocab}`);
  const { logZ } = rowStats(row, offset, vocab);
  const k = Math.max(0, Math.min(top, vocab));
  // A small sorted list of the k best so far: O(vocab · k) at worst, O(vocab) in practice (k = 10).
  const ids: number[] = [];
  const values: number[] = [];
  let above = 0;
  const targetLogit = target === null ? 0 : row[offset + target];
  for (let v = 0; v < vocab; v++) {
    const x = row[offset + v];
    if (target !== null && x > targetLogit) above++;
    if (k === 0 || (ids.length === k && !(x > values[k - 1]))) continue;
    let at = ids.length === k ? k - 1 : ids.length;
    // Strictly greater moves up: an equal logit stays after the lower id seen first.
    while (at > 0 && x > values[at - 1]) at--;
    ids.splice(at, 0, v);
    values.splice(at, 0, x);
    if (ids.length > k) {
      ids.pop();
      values.pop();
    }
  }
  let punctuationMass: number | null = null;
  if (punctuation) {
    punctuationMass = 0;
    for (const id of punctuation) if (id >= 0 && id < vocab) punctuationMass += Math.exp(row[offset + id] - logZ);
  }
  return {
    logprob: target === null ? null : targetLogit - logZ,
    rank: target === null ? null : above + 1,
    topIds: ids,
    topLogprobs: values.map((x) => x - logZ),
    punctuationMass,
  };
}

/** Surprise in bits: −log₂ p, from a natural-log probability. */
export const surpriseBits = (logprob: number): number => -logprob / Math.LN2;
