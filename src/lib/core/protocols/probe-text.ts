// How a memorization run turns items into the texts it scores (issue 26). An item is its question and
// its options as one text, the options lettered as the benchmarks' own pages and CMMLU's prompt write
// them; a shard of the exchangeability test is its items' texts in one order, one per line. No
// instruction, no answer cue, no answer: the probes ask how familiar the item's own words are, and a
// shard's items must be the same pieces in every order, so only their order differs between texts.
// Changing anything here changes LAYOUT_VERSION and the layout's hash, so runs on other layouts are
// told apart.
import type { MultipleChoiceItem } from '../benchmarks/types.ts';
import { OPTION_LETTERS } from './multiple-choice.ts';
import { sha256Hex } from './template-hash.ts';

export const LAYOUT_VERSION = 1;

/** The layout as words, hashed into the run's template hash (as protocols hash their templates). */
const LAYOUT_DESCRIPTION = [
  'jiangu memorization text layout',
  `version: ${LAYOUT_VERSION}`,
  'item: {question}\\n{A}. {option A}\\n{B}. {option B}… (as many options as the item has; no answer, no instruction)',
  'shard: the items’ texts in the order scored, each followed by \\n\\n, encoded as one text with the tokenizer’s special tokens',
  'scored: every token but the first, at the position that predicts it',
].join('\n');

/** One item as the text the probes score. */
export function probeItemText(item: Pick<MultipleChoiceItem, 'question' | 'options'>): string {
  return [item.question, ...item.options.map((option, i) => `${OPTION_LETTERS[i]}. ${option}`)].join('\n');
}

/** A shard's items in `order` (indices into `items`) as one text. */
export function probeShardText(items: readonly Pick<MultipleChoiceItem, 'question' | 'options'>[], order: readonly number[]): string {
  return order.map((i) => `${probeItemText(items[i])}\n\n`).join('');
}

/** The layout's hash, the run's templateHash. */
export function probeLayoutHash(): Promise<string> {
  return sha256Hex(LAYOUT_DESCRIPTION);
}
