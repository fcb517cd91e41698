import { describe, expect, it } from 'vitest';
import { scoreLetters } from '../../../src/lib/core/protocols/mc-scoring.ts';

describe('scoreLetters', () => {
  it('predicts the argmax, ties to the earlier letter, softmax over the letters', () => {
    const score = scoreLetters(['A', 'B', 'C', 'D'], [-3, -1, -1, -2], 'C');
    expect(score.prediction).toBe('B');
    expect(score.correct).toBe(false);
    // exp(-3), exp(-1), exp(-1), exp(-2) over their sum
    const e = [Math.exp(-3), Math.exp(-1), Math.exp(-1), Math.exp(-2)];
    const sum = e.reduce((a, b) => a + b);
    score.letterProbs.forEach((p, i) => expect(p).toBeCloseTo(e[i] / sum, 12));
    expect(score.letterProbs[1]).toBeCloseTo(0.3995, 4);
  });

  it('leaves an item without a key unscored', () => {
    expect(scoreLetters(['A', 'B', 'C'], [-0.5, -2, -3], null)).toMatchObject({ prediction: 'A', correct: null });
    expect(scoreLetters(['A', 'B', 'C'], [-0.5, -2, -3], 'A').correct).toBe(true);
  });

  it('refuses mismatched lengths and positive log-probabilities', () => {
    expect(() => scoreLetters(['A', 'B'], [-1], 'A')).toThrow(RangeError);
    expect(() => scoreLetters(['A', 'B'], [0.5, -1], 'A')).toThrow(RangeError);
  });
});
