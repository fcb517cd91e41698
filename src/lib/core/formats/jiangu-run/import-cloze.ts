// A cloze result's per-option numbers as a run file writes them (ClozeScores), read for
// import-jiangu.ts: every rule, p(gold), log p(gold) and bits per byte is computed from them, so each
// is bounded by what a model can produce (RAW_BOUNDS) and tied to the result's own log-probabilities.
import type { OptionLetter } from '../../benchmarks/types.ts';
import type { ClozeScores } from '../../record/run.ts';
import { FieldReader, RAW_BOUNDS, RUN_IMPORT_LIMITS, bool, fail, finite, int, list, lowestLogLikelihood, problem, type Obj } from '../import-validate.ts';

const { tokens: MAX_TOKENS, contextTokens: MAX_OPTION_TOKENS, tokenLogProb: TOKEN_LOG_PROB_MIN } = RAW_BOUNDS;
const MAX_TEXT = RUN_IMPORT_LIMITS.textChars;
/** The loosest bound of any option's sum: one token's lowest times the most tokens a context can hold (2^17: −2^34 nats). */
export const OPTION_LOG_PROB_MIN = TOKEN_LOG_PROB_MIN * MAX_OPTION_TOKENS;

/**
 * A cloze result's per-option numbers (ClozeScores), required where `expected`, refused elsewhere.
 * The rules are computed from them, so each list has one entry per letter and the sums are the
 * result's own logProbs (whose highest letter was checked as the prediction).
 */
export function clozeOf(r: FieldReader, o: Obj, path: string, letters: readonly OptionLetter[], logProbs: readonly number[], expected: boolean): ClozeScores | null {
  const p = `${path}.cloze`;
  if (!expected) {
    if (o.cloze !== undefined) throw problem('import.cloze-in-letter-run', { path: p });
    return null;
  }
  const c = r.object(o.cloze, p, ['logLikelihoods', 'charCounts', 'byteCounts', 'isGreedy'], ['tokenCounts', 'unconditional', 'contextTokens', 'contextIsPrefix']);
  const perOption = <T>(v: unknown, q: string, each: (v: unknown, q: string) => T): T[] => {
    const values = list(v, q, 4, each);
    if (values.length !== letters.length) fail(q, { expected: 'per-letter', count: letters.length, orNone: false }, v);
    return values;
  };
  // An option's text is at most a prompt's length (RUN_IMPORT_LIMITS.textChars); Python's len counts
  // code points, each 1 to 4 UTF-8 bytes. Replaced by the local options' own counts when the
  // benchmark is stored here (record/key-check.ts).
  const charCounts = perOption(c.charCounts, `${p}.charCounts`, (v, q) => int(v, q, 1, MAX_TEXT));
  const byteCounts = perOption(c.byteCounts, `${p}.byteCounts`, (v, q) => int(v, q, 1, 4 * MAX_TEXT));
  byteCounts.forEach((bytes, i) => int(bytes, `${p}.byteCounts[${i}]`, charCounts[i], 4 * charCounts[i]));
  // What a harness import (and a file made from one) cannot know: tokens and the context's split.
  // An option is scored inside one context, so it has no more tokens than a context holds (RAW_BOUNDS.contextTokens).
  const tokenCounts = c.tokenCounts === undefined ? undefined : perOption(c.tokenCounts, `${p}.tokenCounts`, (v, q) => int(v, q, 1, MAX_OPTION_TOKENS));
  // An option's summed log-likelihood is at least its tokens' count times one token's lowest
  // (RAW_BOUNDS.tokenLogProb); without token counts, a byte-level tokenizer's most (one a byte, and a
  // few markers), at most a context's (lowestLogLikelihood).
  const optionMin = (i: number): number => (tokenCounts ? TOKEN_LOG_PROB_MIN * tokenCounts[i] : lowestLogLikelihood(byteCounts[i]));
  const logLikelihoods = perOption(c.logLikelihoods, `${p}.logLikelihoods`, (v, q) => finite(v, q, OPTION_LOG_PROB_MIN, 0));
  logLikelihoods.forEach((ll, i) => {
    finite(ll, `${p}.logLikelihoods[${i}]`, optionMin(i), 0);
    if (ll !== logProbs[i]) fail(`${p}.logLikelihoods[${i}]`, { expected: 'same-as', value: String(logProbs[i]), sameAs: `${path}.logProbs[${i}]` }, ll);
  });
  const scores: ClozeScores = {
    logLikelihoods,
    charCounts,
    byteCounts,
    isGreedy: perOption(c.isGreedy, `${p}.isGreedy`, (v, q) => bool(v, q)),
  };
  if (c.contextTokens !== undefined) scores.contextTokens = int(c.contextTokens, `${p}.contextTokens`, 0, MAX_TOKENS);
  if (c.contextIsPrefix !== undefined) scores.contextIsPrefix = perOption(c.contextIsPrefix, `${p}.contextIsPrefix`, (v, q) => bool(v, q));
  if (tokenCounts) scores.tokenCounts = tokenCounts;
  // The option after the answer cue alone: the same option text, so the same bound.
  if (c.unconditional !== undefined) scores.unconditional = perOption(c.unconditional, `${p}.unconditional`, (v, q) => finite(v, q, OPTION_LOG_PROB_MIN, 0));
  scores.unconditional?.forEach((ll, i) => finite(ll, `${p}.unconditional[${i}]`, optionMin(i), 0));
  return scores;
}
