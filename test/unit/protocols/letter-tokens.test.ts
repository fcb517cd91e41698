import { describe, expect, it } from 'vitest';
import { letterTokenProblems, letterTokenReport } from '../../../src/lib/core/protocols/letter-tokens.ts';
import { scoreLetters } from '../../../src/lib/core/protocols/mc-scoring.ts';

describe('letterTokenReport', () => {
  it('a letter that is one token alone and after the prompt is ok', () => {
    expect(letterTokenReport({ letter: 'A', ids: [32], joinedTail: [32] })).toEqual({
      letter: 'A',
      tokenId: 32,
      singleToken: true,
      mergesWithPrompt: false,
      sameInContext: true,
      ok: true,
    });
  });

  it('a letter of several tokens is scored by its first, and says so', () => {
    const report = letterTokenReport({ letter: 'B', ids: [900, 17], joinedTail: [900, 17] });
    expect(report).toMatchObject({ tokenId: 900, singleToken: false, mergesWithPrompt: false, sameInContext: false, ok: false });
    expect(report.message).toBe('"B" encodes to 2 tokens [900, 17]; only the first, 900, is scored: the letter\'s score is an approximation');
  });

  it('a letter that merges with the prompt\'s last token', () => {
    const report = letterTokenReport({ letter: 'C', ids: [34], joinedTail: null });
    expect(report).toMatchObject({ tokenId: 34, singleToken: true, mergesWithPrompt: true, sameInContext: false, ok: false });
    expect(report.message).toBe(
      'after the prompt "C" merges with the prompt\'s last token, so the model never sees the prompt\'s tokens followed by 34: the letter\'s score is an approximation',
    );
  });

  it('a letter that becomes another token in context', () => {
    const report = letterTokenReport({ letter: 'D', ids: [35], joinedTail: [422] });
    expect(report).toMatchObject({ tokenId: 35, singleToken: true, mergesWithPrompt: false, sameInContext: false, ok: false });
    expect(report.message).toBe('after the prompt "D" encodes to [422], not [35]: the letter\'s score is an approximation');
  });

  it('a letter that is one token alone but several after the prompt', () => {
    const report = letterTokenReport({ letter: 'A', ids: [32], joinedTail: [32, 99] });
    expect(report).toMatchObject({ singleToken: true, mergesWithPrompt: false, sameInContext: false, ok: false });
    expect(report.message).toBe('after the prompt "A" encodes to [32, 99], not [32]: the letter\'s score is an approximation');
  });

  it('a letter that encodes to nothing', () => {
    expect(letterTokenReport({ letter: 'A', ids: [], joinedTail: [] })).toMatchObject({ tokenId: null, singleToken: false, ok: false });
  });
});

describe('letterTokenProblems', () => {
  it('is empty for four clean letters', () => {
    const reports = (['A', 'B', 'C', 'D'] as const).map((letter, i) => letterTokenReport({ letter, ids: [32 + i], joinedTail: [32 + i] }));
    expect(letterTokenProblems(reports)).toEqual([]);
  });

  it('flags two letters read from one token', () => {
    const reports = [letterTokenReport({ letter: 'A', ids: [7, 1], joinedTail: [7, 1] }), letterTokenReport({ letter: 'B', ids: [7, 2], joinedTail: [7, 2] })];
    const problems = letterTokenProblems(reports);
    expect(problems).toHaveLength(3);
    expect(problems[2]).toBe('"A" and "B" are both read from token 7: they cannot be told apart');
  });
});

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
