// Classroom mode's running score: the class's guesses and the model's picks on the items revealed so far.
import type { OptionLetter } from '../benchmarks/types.ts';
import { letterBias, type LetterBiasInput } from './letter-bias.ts';

export interface ClassroomEntry {
  /** The class's letter, or null when it did not guess. */
  guess: string | null;
  /** The model's letter (null when a generated answer named none). */
  prediction: string | null;
  /** The gold letter; items without one are not counted. */
  gold: string | null;
}

export interface ClassroomTally {
  revealed: number;
  classCorrect: number;
  modelCorrect: number;
}

export function classroomTally(entries: readonly ClassroomEntry[]): ClassroomTally {
  const scored = entries.filter((e) => e.gold !== null);
  return {
    revealed: scored.length,
    classCorrect: scored.filter((e) => e.guess !== null && e.guess === e.gold).length,
    modelCorrect: scored.filter((e) => e.prediction !== null && e.prediction === e.gold).length,
  };
}

/** The model's favourite letter so far, for the sentence a teacher shows the class. */
export interface ClassroomTopLetter {
  letter: OptionLetter;
  /** Share of the counted items the model answered with `letter`. */
  share: number;
  /** Share of the same items whose answer is `letter`. */
  goldShare: number;
  /** Items counted: revealed, with a predicted letter and an answer. */
  n: number;
}

/**
 * letterBias's overall top letter over the revealed items ("the model chose C for 61% of the
 * questions; C is right for 27%"); null while no revealed item has both a letter and an answer.
 */
export function classroomTopLetter(revealed: readonly LetterBiasInput[]): ClassroomTopLetter | null {
  const overall = letterBias(revealed).overall;
  return overall.top ? { ...overall.top, n: overall.n } : null;
}
