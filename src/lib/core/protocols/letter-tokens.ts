// Which token an option letter is where it is scored, right after the prompt. The worker has the
// tokenizer; this pure rule decides what its encodings mean, so it is written and tested once.

/** A tokenizer's encode, as the worker calls it. */
export type EncodeText = (text: string, addSpecialTokens: boolean) => number[];

/** How a letter tokenizes where it is scored: right after the prompt's answer cue. */
export interface LetterInContext {
  /**
   * The id scored: the first token the letter becomes when written after the prompt (CMMLU's code
   * scores `convert_tokens_to_ids("A")`, the bare letter, which is that token). Where the letter
   * merges with the prompt's end there is no such token: the letter alone's first id, flagged.
   */
  tokenId: number | null;
  /** How many tokens the letter becomes after the prompt (alone, when it merges). */
  tokenCount: number;
  /** Those tokens: encode(prompt + letter) past the prompt's ids (the letter alone's, when it merges). */
  idsInContext: number[];
  /** After the prompt the letter does not start a token of its own. */
  mergesWithPrompt: boolean;
  /** encode(letter) alone, without special tokens: with a `▁`-prepending tokenizer `▁A`, not the letter in context. */
  aloneIds: number[];
}

/**
 * The letter's token after the prompt: encode(prompt + letter) with the prompt's own ids taken off
 * its start. Encoding the letter alone is not enough: a SentencePiece tokenizer that prepends `▁`
 * gives `▁A` for "A", while after `答案是：` the text continues with the token `A`.
 */
export function letterInContext(encode: EncodeText, promptText: string, promptIds: readonly number[], letter: string): LetterInContext {
  const aloneIds = encode(letter, false);
  const joined = encode(promptText + letter, true);
  const isPrefix = joined.length > promptIds.length && promptIds.every((id, i) => joined[i] === id);
  if (!isPrefix) return { tokenId: aloneIds[0] ?? null, tokenCount: aloneIds.length, idsInContext: aloneIds, mergesWithPrompt: true, aloneIds };
  const tail = joined.slice(promptIds.length);
  return { tokenId: tail[0], tokenCount: tail.length, idsInContext: tail, mergesWithPrompt: false, aloneIds };
}
