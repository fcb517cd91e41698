import { describe, expect, it } from 'vitest';
import { classroomTally, classroomTopLetter } from '../../../src/lib/core/metrics/classroom.ts';

describe('classroomTally', () => {
  it('counts the class and the model against gold, leaving out items without a key', () => {
    expect(
      classroomTally([
        { guess: 'A', prediction: 'A', gold: 'A' },
        { guess: 'B', prediction: 'C', gold: 'C' },
        { guess: null, prediction: null, gold: 'D' },
        { guess: 'A', prediction: 'A', gold: null },
      ]),
    ).toEqual({ revealed: 3, classCorrect: 1, modelCorrect: 2 });
  });

  it('is all zeros before anything is revealed', () => {
    expect(classroomTally([])).toEqual({ revealed: 0, classCorrect: 0, modelCorrect: 0 });
  });
});

describe('classroomTopLetter', () => {
  const item = (prediction: 'A' | 'B' | 'C' | 'D' | null, gold: 'A' | 'B' | 'C' | 'D' | null, task = 't') => ({ task, letters: ['A', 'B', 'C', 'D'] as const, prediction, gold });

  it('the most chosen letter, its share and how often it is right, over revealed items with a letter and an answer', () => {
    // C chosen 3 times of 4 counted; C is the answer once of 4. The item without a key and the one
    // without a letter are not counted.
    const top = classroomTopLetter([item('C', 'A'), item('C', 'C', 'u'), item('C', 'B'), item('D', 'B'), item('C', null), item(null, 'C')]);
    expect(top).toEqual({ letter: 'C', share: 0.75, goldShare: 0.25, n: 4 });
  });

  it('is null before anything countable is revealed', () => {
    expect(classroomTopLetter([])).toBeNull();
    expect(classroomTopLetter([item(null, 'A')])).toBeNull();
  });
});
