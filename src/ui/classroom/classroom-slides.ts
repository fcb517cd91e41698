// What classroom mode reveals for one item of a stored run. A run may be imported (or forged): its
// stored `gold` is the file's claim, while the item stored here carries the benchmark's own answer
// key. The class is taught and scored against the key; a stored gold that differs is kept only to
// say so on the slide.
import type { MultipleChoiceItem, OptionLetter } from '../../lib/core/benchmarks/types.ts';
import type { McItemResult } from '../../lib/core/record/run.ts';

const LETTERS: readonly OptionLetter[] = ['A', 'B', 'C', 'D'];

/** What the model said about one item, and the answer to reveal. */
export interface SlideAnswer {
  letters: OptionLetter[];
  /** Softmax over the letters; empty when unknown (a shared link, a generated answer). */
  probs: number[];
  prediction: OptionLetter | null;
  /** The answer of the item stored here (null: not released, as AC-EVAL's test split). */
  gold: OptionLetter | null;
  /** The run's own stored gold, when it differs from the item's: the run's claim, not taught. */
  claimedGold?: OptionLetter | null;
}

/** A stored run's result for `item`, revealed against the item's own answer. */
export function answerFromRun(item: MultipleChoiceItem, result: Pick<McItemResult, 'letters' | 'probs' | 'prediction' | 'gold'>): SlideAnswer {
  const letters = result.letters.length > 0 ? [...result.letters] : LETTERS.slice(0, item.options.length);
  const probs = result.probs.length === letters.length ? [...result.probs] : [];
  const answer: SlideAnswer = { letters, probs, prediction: result.prediction, gold: item.answer };
  if (result.gold !== item.answer) answer.claimedGold = result.gold;
  return answer;
}

/** A shared link's letter for `item` (a link carries letters, not probabilities), against the item's own answer. */
export function answerFromLink(item: MultipleChoiceItem, prediction: OptionLetter | null): SlideAnswer {
  return { letters: LETTERS.slice(0, item.options.length), probs: [], prediction, gold: item.answer };
}
