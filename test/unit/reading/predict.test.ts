// Predict before reveal (core/reading/predict.ts) on readings built by hand: a BOS, a two-character
// token (学而), a character spelled in four byte pieces (𪚥: F0 AA 9A A5) and a space, so which
// positions can be asked, what the model guessed there, and the right/wrong rules of both sides.
import { describe, expect, it } from 'vitest';
import type { PassageReading } from '../../../src/lib/core/reading/passage.ts';
import type { RowReading } from '../../../src/lib/core/reading/row-reading.ts';
import { classRight, modelGuess, positionProblem, predictablePositions, tally } from '../../../src/lib/core/reading/predict.ts';

/** A row listing `top` (id, p) best first; `came` the next token's p and rank. */
function row(top: [number, number][], came: [number, number] | null): RowReading {
  return { topIds: top.map(([id]) => id), topLogprobs: top.map(([, p]) => Math.log(p)), logprob: came ? Math.log(came[0]) : null, rank: came ? came[1] : null, punctuationMass: null };
}

const piece = (text: string, kind: 'text' | 'byte' | 'special' = 'text') => ({ text, byte: kind === 'byte', special: kind === 'special' });

// 子 曰 学 而 时 𪚥 之 ␠ 乎: tokens <s> 子 曰 学而 时 F0 AA 9A A5 之 ␠ 乎.
const READING: PassageReading = {
  chars: ['子', '曰', '学', '而', '时', '𪚥', '之', ' ', '乎'],
  ids: [1, 10, 11, 30, 12, 50, 51, 52, 53, 13, 2, 14],
  pieces: [piece('<s>', 'special'), piece('子'), piece('曰'), piece('学而'), piece('时'), piece('F0', 'byte'), piece('AA', 'byte'), piece('9A', 'byte'), piece('A5', 'byte'), piece('之'), piece(' '), piece('乎')],
  charEnds: [0, 1, 2, 4, 5, 5, 5, 5, 6, 7, 8, 9],
  rows: [
    row([[10, 0.3]], [0.3, 1]), // after <s>
    row([[11, 0.6], [15, 0.2]], [0.6, 1]), // after 子: 曰 first, and 曰 came
    row([[20, 0.5], [30, 0.25], [15, 0.1]], [0.25, 2]), // after 曰: 学 first, 学而 came
    row([[15, 0.4], [12, 0.3]], [0.3, 2]), // after 学而: 习 first, 时 came
    row([[51, 0.2], [50, 0.1]], [0.1, 2]), // after 时: a byte piece first, not 𪚥's first byte
    row([[51, 0.9]], [0.9, 1]), // inside 𪚥
    row([[52, 0.9]], [0.9, 1]),
    row([[53, 0.9]], [0.9, 1]),
    row([[60, 0.7], [13, 0.2]], [0.2, 2]), // after 𪚥: 之乎 first, 之 came
    row([[2, 0.5]], [0.5, 1]), // after 之
    row([[14, 0.8]], [0.8, 1]), // after the space
    row([[1, 0.9]], null), // after the passage
  ],
};
const TEXTS: Record<number, string> = { 1: '<s>', 2: ' ', 10: '子', 11: '曰', 12: '时', 13: '之', 14: '乎', 15: '习', 20: '学', 30: '学而', 50: 'F0', 51: 'AA', 52: '9A', 53: 'A5', 60: '之乎' };

describe('which positions can be asked', () => {
  it('every character boundary a token ends on, not inside 学而, not before a space, not outside the passage', () => {
    expect(predictablePositions(READING)).toEqual([1, 2, 4, 5, 6, 8]);
    expect(positionProblem(READING, 3)).toBe('inside-token');
    expect(positionProblem(READING, 7)).toBe('next-space');
    for (const k of [0, 9, 10, -1, 1.5]) expect(positionProblem(READING, k)).toBe('out-of-range');
    // A special token next: nothing of the passage to guess.
    const special: PassageReading = { ...READING, pieces: READING.pieces.map((p, j) => (j === 2 ? { ...p, special: true } : p)) };
    expect(positionProblem(special, 1)).toBe('no-row');
  });

  it('refuses to guess where it cannot ask', () => {
    expect(() => modelGuess(READING, 3, TEXTS)).toThrow(RangeError);
    expect(() => modelGuess(READING, 7, TEXTS)).toThrow(RangeError);
  });
});

describe('the model’s guess', () => {
  it('is right when its first choice is the token that came', () => {
    const g = modelGuess(READING, 1, TEXTS);
    expect([g.token, g.next, g.right]).toEqual([1, '曰', true]);
    expect(g.top.map((t) => t.text)).toEqual(['曰', '习']);
    expect(g.top[0].p).toBeCloseTo(0.6, 12);
    expect(g.came).toMatchObject({ id: 11, text: '曰', rank: 1, whole: true, byte: false });
  });

  it('is right when its first choice begins with the next character; the token that came may hold more', () => {
    const g = modelGuess(READING, 2, TEXTS);
    expect([g.next, g.top[0].text, g.right]).toEqual(['学', '学', true]);
    expect(g.came).toMatchObject({ id: 30, text: '学而', rank: 2, whole: false });
    expect(g.came.p).toBeCloseTo(0.25, 12);
    const after = modelGuess(READING, 6, TEXTS);
    expect([after.next, after.top[0].text, after.right, after.came.whole]).toEqual(['之', '之乎', true, true]);
  });

  it('is wrong when its first choice is another character, or a byte piece that does not begin the character', () => {
    expect(modelGuess(READING, 4, TEXTS)).toMatchObject({ next: '时', right: false, came: { id: 12, rank: 2, whole: true } });
    const bytes = modelGuess(READING, 5, TEXTS);
    expect([bytes.next, bytes.top[0].text, bytes.top[0].byte, bytes.right]).toEqual(['𪚥', 'AA', true, false]);
    expect(bytes.came).toMatchObject({ id: 50, text: 'F0', byte: true, whole: false });
    // The same row with 𪚥's own first byte first: right.
    const first: PassageReading = { ...READING, rows: READING.rows.map((r, j) => (j === 4 ? row([[50, 0.3], [51, 0.2]], [0.3, 1]) : r)) };
    expect(modelGuess(first, 5, TEXTS).right).toBe(true);
  });

  it('a byte piece known from the passage is right when its bytes begin the character’s, even when another token came', () => {
    // a 𪚥 b 𪚥: the first 𪚥 one token (id 80), the second spelled in bytes, so id 50 is known as F0.
    const reading: PassageReading = {
      chars: ['a', '𪚥', 'b', '𪚥'],
      ids: [40, 80, 41, 50, 51, 52, 53],
      pieces: [piece('a'), piece('𪚥'), piece('b'), piece('F0', 'byte'), piece('AA', 'byte'), piece('9A', 'byte'), piece('A5', 'byte')],
      charEnds: [1, 2, 3, 3, 3, 3, 4],
      rows: [row([[50, 0.4], [80, 0.3]], [0.3, 2]), row([[41, 0.5]], [0.5, 1]), row([[50, 0.5]], [0.5, 1]), row([[51, 1]], [1, 1]), row([[52, 1]], [1, 1]), row([[53, 1]], [1, 1]), row([[40, 1]], null)],
    };
    expect(predictablePositions(reading)).toEqual([1, 2, 3]);
    const g = modelGuess(reading, 1, { 40: 'a', 41: 'b', 50: 'F0', 80: '𪚥' });
    expect([g.top[0].byte, g.right, g.came.whole, g.came.rank]).toEqual([true, true, true, 2]);
    expect(modelGuess(reading, 3, { 50: 'F0' }).came).toMatchObject({ id: 50, byte: true });
    // An id the result has no text for is shown by its number and is not right.
    const unknown = modelGuess({ ...reading, rows: reading.rows.map((r, j) => (j === 1 ? row([[99, 0.5]], [0.1, 3]) : r)) }, 2, {});
    expect([unknown.top[0].text, unknown.right]).toEqual(['#99', false]);
  });
});

describe('a character the model has no token for', () => {
  it('expecting its unknown token is not expecting the character', () => {
    // 子 𠀀 曰, 𠀀 read as <unk> (id 0), whose text is the passage's own character.
    const reading: PassageReading = {
      chars: ['子', '𠀀', '曰'],
      ids: [10, 0, 11],
      pieces: [piece('子'), { ...piece('𠀀'), unknown: true }, piece('曰')],
      charEnds: [1, 2, 3],
      rows: [row([[0, 0.6], [11, 0.1]], [0.6, 1]), row([[11, 0.5]], [0.5, 1]), row([[10, 1]], null)],
    };
    expect(predictablePositions(reading)).toEqual([1, 2]);
    const g = modelGuess(reading, 1, { 0: '<unk>', 11: '曰' });
    expect([g.right, g.came.unknown, g.came.whole, g.came.rank]).toEqual([false, true, false, 1]);
    expect(modelGuess(reading, 2, { 11: '曰' }).right).toBe(true);
  });
});

describe('the class’s guess and the tally', () => {
  it('the first character after trimming, in NFC, must be the next character', () => {
    expect(classRight('  学 ', '学')).toBe(true);
    expect(classRight('学而', '学')).toBe(true);
    expect(classRight('习', '学')).toBe(false);
    expect(classRight('', '学')).toBe(false);
    expect(classRight(' \n ', '学')).toBe(false);
    expect(classRight('而学', '学')).toBe(false);
    expect(classRight('𪚥之', '𪚥')).toBe(true);
    expect(classRight('e\u0301', '\u00e9')).toBe(true);
    expect(classRight('E', 'e')).toBe(false);
  });

  it('counts class, model, both and neither over the positions revealed', () => {
    expect(tally([])).toEqual({ revealed: 0, classRight: 0, modelRight: 0, both: 0, neither: 0 });
    const answers = [
      { classRight: true, modelRight: true },
      { classRight: true, modelRight: false },
      { classRight: false, modelRight: true },
      { classRight: false, modelRight: false },
      { classRight: true, modelRight: false },
    ];
    expect(tally(answers)).toEqual({ revealed: 5, classRight: 3, modelRight: 2, both: 1, neither: 1 });
  });
});
