// Whether an option letter can be scored as one token after a prompt. The worker has the tokenizer;
// these pure checks decide what its encodings mean, so the rule is written and tested once.
import type { OptionLetter } from '../benchmarks/types.ts';

export interface LetterTokenInput {
  letter: OptionLetter;
  /** encode(letter), alone, without special tokens. */
  ids: readonly number[];
  /**
   * encode(prompt + letter) with the prompt's own ids removed from its start, or null when the
   * prompt's ids are not a prefix of encode(prompt + letter) (the tokenizer merged the letter into
   * the prompt's last token).
   */
  joinedTail: readonly number[] | null;
}

export interface LetterTokenReport {
  letter: OptionLetter;
  /** The id whose logit is read for this letter: the first of `ids`; null when `ids` is empty. */
  tokenId: number | null;
  /** encode(letter) is one token. */
  singleToken: boolean;
  /** After the prompt the letter does not start a token of its own: it merges with the prompt's last token. */
  mergesWithPrompt: boolean;
  /**
   * After the prompt the letter is encoded as `[tokenId]`, exactly what the letter encodes to alone.
   * False when it merges, when it becomes several tokens, or when the tokenizer picks another id in
   * context (e.g. a variant with a leading space).
   */
  sameInContext: boolean;
  /** The letter can be scored by its single token's logit at the prompt's last position. */
  ok: boolean;
  /** What is wrong and what it means for the score; absent when ok. */
  message?: string;
}

/**
 * What scoring `letter` by the logit of `tokenId` means. The score is exact only when the letter is
 * one token alone and the same single token after the prompt: then the logit at the prompt's last
 * position is the probability the model gives the letter as the next token. Otherwise the number is
 * a proxy (the first token of a longer encoding, or a token sequence the tokenizer would never
 * produce), and the report says so.
 */
export function letterTokenReport(input: LetterTokenInput): LetterTokenReport {
  const { letter, ids, joinedTail } = input;
  const tokenId = ids.length > 0 ? ids[0] : null;
  const singleToken = ids.length === 1;
  const mergesWithPrompt = joinedTail === null;
  const sameInContext = joinedTail !== null && singleToken && joinedTail.length === 1 && joinedTail[0] === tokenId;
  const problems: string[] = [];
  if (ids.length === 0) problems.push(`"${letter}" encodes to no token`);
  else if (!singleToken) problems.push(`"${letter}" encodes to ${ids.length} tokens [${ids.join(', ')}]; only the first, ${tokenId}, is scored`);
  if (joinedTail === null) {
    problems.push(`after the prompt "${letter}" merges with the prompt's last token, so the model never sees the prompt's tokens followed by ${tokenId ?? 'the letter'}`);
  } else if (singleToken && !sameInContext) {
    problems.push(`after the prompt "${letter}" encodes to [${joinedTail.join(', ')}], not [${tokenId}]`);
  }
  const report: LetterTokenReport = { letter, tokenId, singleToken, mergesWithPrompt, sameInContext, ok: problems.length === 0 };
  if (problems.length > 0) report.message = `${problems.join('; ')}: the letter's score is an approximation`;
  return report;
}

/** Every problem across an item's letters, including two letters read from the same token id. */
export function letterTokenProblems(reports: readonly LetterTokenReport[]): string[] {
  const problems = reports.flatMap((report) => (report.message ? [report.message] : []));
  const seen = new Map<number, OptionLetter>();
  for (const report of reports) {
    if (report.tokenId === null) continue;
    const earlier = seen.get(report.tokenId);
    if (earlier) problems.push(`"${earlier}" and "${report.letter}" are both read from token ${report.tokenId}: they cannot be told apart`);
    else seen.set(report.tokenId, report.letter);
  }
  return problems;
}

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
