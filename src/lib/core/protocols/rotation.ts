// Circular evaluation's option orders: the cyclic rotations of an item's options (OpenCompass's
// `circular`: ABCD, BCDA, CDAB, DABC for four options). Rotation k shows, at position j, the option
// that was at position (j + k) mod n; the gold letter moves with its option. Rotation 0 is the item
// as the benchmark wrote it. Exemplars are never rotated: only the asked item is, so a 5-shot prefix
// is the same under every rotation and its KV cache is reused.
import type { MultipleChoiceItem, OptionLetter } from '../benchmarks/types.ts';
import { OPTION_LETTERS } from './multiple-choice.ts';

/** How many cyclic rotations an item with `optionCount` options has: one per option (2, 3 or 4); 1 below 2. */
export function rotationCount(optionCount: number): number {
  return optionCount >= 2 ? optionCount : 1;
}

/** The original position of the option shown at `position` under rotation `k` of `n` options. */
export function originalPosition(position: number, k: number, n: number): number {
  return (((position + k) % n) + n) % n;
}

/** The position at which rotation `k` of `n` options shows the option originally at `original`. */
export function rotatedPosition(original: number, k: number, n: number): number {
  return (((original - k) % n) + n) % n;
}

/** The letter `letter` (a position) becomes under rotation `k` of `n` options; null stays null. */
export function rotatedLetter(letter: OptionLetter | null, k: number, n: number): OptionLetter | null {
  if (letter === null) return null;
  return OPTION_LETTERS[rotatedPosition(OPTION_LETTERS.indexOf(letter), k, n)] as OptionLetter;
}

/** The original letter of the option shown at `letter` under rotation `k` of `n` options; null stays null. */
export function originalLetter(letter: OptionLetter | null, k: number, n: number): OptionLetter | null {
  if (letter === null) return null;
  return OPTION_LETTERS[originalPosition(OPTION_LETTERS.indexOf(letter), k, n)] as OptionLetter;
}

/**
 * The item asked under rotation `k`: same id, task and question, options rotated, gold letter moved
 * with its option (null, for an item without a key, stays null).
 * @throws RangeError for k outside 0..rotationCount − 1.
 */
export function rotateItem(item: MultipleChoiceItem, k: number): MultipleChoiceItem {
  const n = item.options.length;
  if (!Number.isInteger(k) || k < 0 || k >= rotationCount(n)) throw new RangeError(`rotation ${k} of an item with ${n} options`);
  if (k === 0) return item;
  const options = item.options.map((_, j) => item.options[originalPosition(j, k, n)]);
  return { ...item, options, answer: rotatedLetter(item.answer, k, n) };
}
