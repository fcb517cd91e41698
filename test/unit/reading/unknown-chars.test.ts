// Characters a model has no token for (issue 45 §1): an unknown token gets back the passage's
// characters it stands for; a comparison of two models counts only the characters both read.
import { describe, expect, it } from 'vitest';
import { placeUnknown } from '../../../src/lib/core/reading/unknown-chars.ts';
import { bitsPerCharacter, type PassageReading } from '../../../src/lib/core/reading/passage.ts';
import { sharedBits, unknownCharacters } from '../../../src/lib/core/reading/shared-characters.ts';
import type { RowReading } from '../../../src/lib/core/reading/row-reading.ts';

const chars = (s: string) => [...s];

describe('placeUnknown', () => {
  it('gives each unknown token the characters it skipped, and ends every token in the passage', () => {
    // 太史公曰 with 史 unknown: tokens 太 <unk> 公 曰 decode to 太公曰.
    const placed = placeUnknown(chars('太史公曰'), chars('太公曰'), [1, 1, 2, 3], [false, true, false, false])!;
    expect(placed.chars.join('')).toBe('太史公曰');
    expect(placed.charEnds).toEqual([1, 2, 3, 4]);
    expect(placed.unknownText.get(1)).toBe('史');
  });

  it('splits a run of unknown tokens one character each, the last taking the rest; a fused run takes all', () => {
    const run = placeUnknown(chars('仲尼氏曰'), chars('曰'), [0, 0, 1], [true, true, false])!;
    expect([run.unknownText.get(0), run.unknownText.get(1)]).toEqual(['仲', '尼氏']);
    expect(run.charEnds).toEqual([1, 3, 4]);
    const fused = placeUnknown(chars('仲尼曰'), chars('曰'), [0, 1], [true, false])!;
    expect(fused.unknownText.get(0)).toBe('仲尼');
    expect(fused.charEnds).toEqual([2, 3]);
  });

  it('places an unknown character at the start and at the end, after a BOS', () => {
    // <s> <unk> 子 <unk>: the BOS completes nothing.
    const placed = placeUnknown(chars('孔子曰'), chars('子'), [0, 0, 1, 1], [false, true, false, true])!;
    expect(placed.charEnds).toEqual([0, 1, 2, 3]);
    expect([placed.unknownText.get(1), placed.unknownText.get(3)]).toEqual(['孔', '曰']);
  });

  it('refuses decoded characters that are not a subsequence of the passage (a normalising tokenizer)', () => {
    expect(placeUnknown(chars('ＡＢ'), chars('AB'), [1, 2], [false, false])).toBeNull();
  });
});

function reading(text: string, pieces: { text: string; to: number; bits?: number; unknown?: boolean; special?: boolean }[]): PassageReading {
  const rows: RowReading[] = pieces.map((_, j) => {
    const next = pieces[j + 1];
    const bits = next?.bits;
    return { logprob: bits === undefined ? (next ? -1 : null) : -bits * Math.LN2, rank: next ? 1 : null, topIds: [0], topLogprobs: [-0.1], punctuationMass: null };
  });
  return {
    chars: [...text],
    ids: pieces.map((_, j) => j),
    pieces: pieces.map((p) => ({ text: p.text, byte: false, special: !!p.special, unknown: p.unknown })),
    charEnds: pieces.map((p) => p.to),
    rows,
  };
}

describe('sharedBits', () => {
  // Model A reads every character one by one; model B has no token for 史 and reads 公曰 as one token.
  const a = reading('太史公曰', [{ text: '<s>', to: 0, special: true }, { text: '太', to: 1, bits: 2 }, { text: '史', to: 2, bits: 10 }, { text: '公', to: 3, bits: 3 }, { text: '曰', to: 4, bits: 1 }]);
  const b = reading('太史公曰', [{ text: '<s>', to: 0, special: true }, { text: '太', to: 1, bits: 4 }, { text: '史', to: 2, unknown: true }, { text: '公曰', to: 4, bits: 5 }]);

  it('counts only the characters both models read, and says which were left out and why', () => {
    const shared = sharedBits([a, b])!;
    expect(shared.characters).toBe(3);
    expect(shared.totals.map((t) => t.bits)).toEqual([2 + 3 + 1, 4 + 5]);
    expect(shared.totals[0].perCharacter).toBeCloseTo(6 / 3, 12);
    expect(shared.leftOut).toEqual([{ index: 1, char: '史', why: 'unknown', models: [1] }]);
    // Alone, A counts all four characters (16 bits): the comparison must not.
    expect(bitsPerCharacter(a)).toMatchObject({ bits: 16, characters: 4 });
    expect(bitsPerCharacter(b)).toMatchObject({ bits: 9, characters: 3 });
    expect(unknownCharacters(b)).toEqual(['史']);
  });

  it('drops a token whole when it spans a character the other model left out, for both models', () => {
    // C reads 太史 as one token: with B's 史 unknown, C's 太史 is dropped, so 太 is left out for B too.
    const c = reading('太史公曰', [{ text: '<s>', to: 0, special: true }, { text: '太史', to: 2, bits: 6 }, { text: '公', to: 3, bits: 1 }, { text: '曰', to: 4, bits: 1 }]);
    const shared = sharedBits([b, c])!;
    expect(shared.characters).toBe(2);
    expect(shared.totals.map((t) => t.bits)).toEqual([5, 2]);
    expect(shared.leftOut.map((l) => [l.char, l.why])).toEqual([['太', 'unscored'], ['史', 'unknown']]);
  });

  it('compares nothing for readings of different characters', () => {
    const other = reading('太史公', [{ text: '太', to: 1 }, { text: '史', to: 2, bits: 1 }, { text: '公', to: 3, bits: 1 }]);
    expect(sharedBits([a, other])).toBeNull();
  });
});
