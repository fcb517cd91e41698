// Classroom mode's running score: the class's guesses and the model's picks on the items revealed so far.

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
