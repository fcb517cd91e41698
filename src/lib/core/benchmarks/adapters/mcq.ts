// Options and answer letters of a multiple-choice row, checked the same way for every source.
import { DataError, shorten, type DataErrorLocation } from '../errors.ts';
import { checkVisible } from '../names.ts';
import type { OptionLetter } from '../types.ts';

export const OPTION_LETTERS: readonly OptionLetter[] = ['A', 'B', 'C', 'D'];

/**
 * The options of a row with one column per letter. Trailing empty options are dropped (a three-option
 * item may leave D empty); an empty option before a filled one, or fewer than two, is refused.
 */
export function readOptions(values: Readonly<Record<string, string>>, at: DataErrorLocation): string[] {
  const options = OPTION_LETTERS.map((letter) => values[letter] ?? '');
  // Before trailing empties are dropped: a D of U+200B is a mistake to show, not a missing option.
  options.forEach((option, k) => checkVisible(option, { ...at, field: OPTION_LETTERS[k] }));
  while (options.length > 0 && options[options.length - 1].trim() === '') options.pop();
  const gap = options.findIndex((option) => option.trim() === '');
  if (gap >= 0) throw new DataError({ ...at, field: OPTION_LETTERS[gap] }, 'data.option-gap');
  if (options.length < 2) throw new DataError({ ...at, field: OPTION_LETTERS[options.length] ?? 'B' }, 'data.too-few-options');
  return options;
}

/** An answer cell as a letter within the item's options. Surrounding spaces and lower case are accepted. */
export function readAnswer(raw: string, optionCount: number, at: DataErrorLocation): OptionLetter {
  const letter = raw.trim().toUpperCase();
  const index = OPTION_LETTERS.indexOf(letter as OptionLetter);
  if (index < 0) throw new DataError(at, 'data.not-a-letter', { got: shorten(raw) });
  if (index >= optionCount) {
    throw new DataError(at, 'data.answer-beyond-options', { letter, count: optionCount, last: OPTION_LETTERS[optionCount - 1] });
  }
  return OPTION_LETTERS[index];
}

/** Refuses a blank question, and one of nothing but invisible characters. */
export function readQuestion(raw: string, at: DataErrorLocation): string {
  if (raw.trim() === '') throw new DataError(at, 'data.empty-question');
  checkVisible(raw, at);
  return raw;
}
