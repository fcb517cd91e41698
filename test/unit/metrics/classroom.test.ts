import { describe, expect, it } from 'vitest';
import { classroomTally } from '../../../src/lib/core/metrics/classroom.ts';

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
