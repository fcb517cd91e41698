// The vocabulary's punctuation tokens, for the probability that a punctuation mark comes next (断句,
// issue 37): a token counts when its text, with whitespace removed, is not empty and is made of the
// marks C3Bench's punctuation task removes (C3_PUNCTUATION, the adapters' own list: full-width and
// ASCII marks, quotes and brackets, … and —). So "，", "。」", " ," and "……" count, "，而" does not
// (it also carries a character), nor does a byte piece of a mark (its text is not the mark). The
// mass is therefore the probability that the next token is nothing but punctuation: a model whose
// vocabulary merges a mark with the following character puts some of its "a mark comes here" on
// tokens this leaves out, which the strip undercounts (said on the page).
import { C3_PUNCTUATION } from '../benchmarks/adapters/c3bench-values.ts';

const MARKS = new Set(C3_PUNCTUATION);
const WHITESPACE = /\s/u;

/** Whether a token's decoded text is punctuation only (see the header). */
export function isPunctuationPiece(text: string): boolean {
  let marks = 0;
  for (const char of text) {
    if (WHITESPACE.test(char)) continue;
    if (!MARKS.has(char)) return false;
    marks++;
  }
  return marks > 0;
}

/** The ids among `vocab` decoded texts (index = id) that are punctuation only, ascending. */
export function punctuationIds(pieces: readonly string[]): number[] {
  const ids: number[] = [];
  pieces.forEach((text, id) => {
    if (isPunctuationPiece(text)) ids.push(id);
  });
  return ids;
}
