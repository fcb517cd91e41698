// Multiple-choice items whose options repeat one another (two options a reader sees as the same
// text): imported, since the file says so, but said on import with the items named. Such an item
// cannot be answered by reading: a model's pick between equal texts is the letter, or under cloze
// scoring equal log-likelihoods broken by position.
//
// Options are compared as they are seen, not as stored (issue 46: four options that each showed as
// 氵, told apart only by zero-width characters, imported without a word): invisible and direction
// characters are set aside (text-safety.ts), the text is put in Unicode's composed form (é written
// as e and an accent; a CJK compatibility ideograph such as U+F900 豈 and its unified form U+8C48),
// and runs of spaces count as one, none at either end.
import { stripInvisible } from '../text-safety.ts';
import type { Item } from './types.ts';

export interface IdenticalOptionsItem {
  id: string;
  task: string;
  /** The letters of the options whose text another option repeats, e.g. ['A', 'C']. */
  letters: string[];
}

export interface IdenticalOptions {
  count: number;
  /** The first few, in file order, for the message. */
  examples: IdenticalOptionsItem[];
}

const LETTERS = 'ABCDEFGHIJ';
export const IDENTICAL_EXAMPLES = 3;

/** An option as a reader sees it: what two options must share to look the same. */
function asSeen(option: string): string {
  // Line breaks and tabs show as spaces: made spaces before the invisible characters go.
  return stripInvisible(option.replace(/\s+/gu, ' ')).normalize('NFC').replace(/ {2,}/g, ' ').trim();
}

export function identicalOptions(items: readonly Item[]): IdenticalOptions {
  let count = 0;
  const examples: IdenticalOptionsItem[] = [];
  for (const item of items) {
    if (item.kind !== 'multiple-choice') continue;
    const texts = item.options.map(asSeen);
    const letters = texts.flatMap((text, i) => (texts.indexOf(text) !== i || texts.lastIndexOf(text) !== i ? [LETTERS[i]] : []));
    if (letters.length === 0) continue;
    count++;
    if (examples.length < IDENTICAL_EXAMPLES) examples.push({ id: item.id, task: item.task, letters });
  }
  return { count, examples };
}
