// Multiple-choice items whose options repeat one another (two options with the same text, once
// surrounding spaces are set aside): imported, since the file says so, but said on import with the
// items named. Such an item cannot be answered by reading: a model's pick between equal texts is
// the letter, or under cloze scoring equal log-likelihoods broken by position.
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

export function identicalOptions(items: readonly Item[]): IdenticalOptions {
  let count = 0;
  const examples: IdenticalOptionsItem[] = [];
  for (const item of items) {
    if (item.kind !== 'multiple-choice') continue;
    const texts = item.options.map((o) => o.trim());
    const letters = texts.flatMap((text, i) => (texts.indexOf(text) !== i || texts.lastIndexOf(text) !== i ? [LETTERS[i]] : []));
    if (letters.length === 0) continue;
    count++;
    if (examples.length < IDENTICAL_EXAMPLES) examples.push({ id: item.id, task: item.task, letters });
  }
  return { count, examples };
}
