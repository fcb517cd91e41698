/**
 * Verbatim recall (src/lib/core/metrics/memorization/verbatim-recall.ts), hand-worked: where a passage
 * is cut (the middle in code points, a punctuation boundary near it, whitespace at the cut given to
 * neither half) and every number of the comparison, on Ext-B characters, continuations longer and
 * shorter than the target, empty halves, whitespace and punctuation. Positions in the comments are
 * code points, counted from 0.
 */
import { describe, expect, it } from 'vitest';
import {
  longestCommonSubsequence,
  recallTokenBudget,
  splitPassage,
  verbatimRecall,
  verbatimRecallSignature,
} from '../../../src/lib/core/metrics/memorization/index.ts';

describe('splitPassage', () => {
  it('prefers the punctuation boundary nearest the middle', () => {
    // 26 characters: middle ceil(26/2) = 13, reach floor(26 · 0.25) = 6. Boundaries right after a mark:
    // 3 (：), 9 (，), 14 (？), 21 (，). 13 is none; 14 is 1 away, the nearest.
    expect(splitPassage('子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？')).toEqual({
      prompt: '子曰：学而时习之，不亦说乎？',
      gap: '',
      target: '有朋自远方来，不亦乐乎？',
      at: 14,
      atPunctuation: true,
    });
  });

  it('takes the later of two boundaries equally near, and the middle when none is within reach', () => {
    // 一二，三四五，六七: n 9, middle 5, reach 2; boundaries 3 and 7 are both 2 away: 7 shows the model more.
    expect(splitPassage('一二，三四五，六七')).toMatchObject({ prompt: '一二，三四五，', target: '六七', at: 7, atPunctuation: true });
    // n 11, middle 6, reach 2: the only boundary (2) is 4 away, so the cut is the middle.
    expect(splitPassage('一，二三四五六七八九十')).toMatchObject({ prompt: '一，二三四五', target: '六七八九十', at: 6, atPunctuation: false });
    // No punctuation at all: n 9, middle ceil(4.5) = 5, the prompt gets the odd character.
    expect(splitPassage('学而时习之不亦说乎')).toMatchObject({ prompt: '学而时习之', target: '不亦说乎', at: 5, atPunctuation: false });
  });

  it('keeps closing quotes with their clause and never cuts between a mark and its closer', () => {
    // n 15, middle 8, reach 3. 10 (between 。 and 」) is no boundary; 11 (after 」) is, 3 away.
    expect(splitPassage('他说：「学而时习之。」不亦说乎')).toMatchObject({ prompt: '他说：「学而时习之。」', target: '不亦说乎', at: 11, atPunctuation: true });
  });

  it('counts ASCII punctuation only before whitespace, and gives the whitespace at the cut to neither half', () => {
    // llama2.c's stories260K paragraph: n 91, middle 46, reach 22; after "Lily." (53, a space follows) is 7 away.
    expect(splitPassage('Once upon a time, there was a little girl named Lily. She loved to play outside in the park.')).toEqual({
      prompt: 'Once upon a time, there was a little girl named Lily.',
      gap: ' ',
      target: 'She loved to play outside in the park.',
      at: 53,
      atPunctuation: true,
    });
    // n 22, middle 11, reach 5: the "." of 3.14 (cut 8, 3 away) has a digit after it, so it is no
    // boundary; after "exactly," (19) is 8 away. The middle falls after a space, which goes to the gap.
    expect(splitPassage('pi is 3.14 exactly, ok')).toEqual({ prompt: 'pi is 3.14', gap: ' ', target: 'exactly, ok', at: 11, atPunctuation: false });
    // The passage's own ends are trimmed (n 10: 学而时习之\n不亦说乎), the line break at the middle is the gap.
    expect(splitPassage('  学而时习之\n不亦说乎  \n')).toEqual({ prompt: '学而时习之', gap: '\n', target: '不亦说乎', at: 5, atPunctuation: false });
    // A full-width space (U+3000) is whitespace too.
    expect(splitPassage('学而时习\u3000不亦说乎')).toMatchObject({ prompt: '学而时习', gap: '\u3000', target: '不亦说乎' });
  });

  it('counts an Ext-B character as one and never cuts inside its surrogate pair', () => {
    // 𠀀𠀁𠀂 is 3 code points but 6 UTF-16 units: half the units (3) would fall inside 𠀁.
    const split = splitPassage('𠀀𠀁𠀂');
    expect(split).toMatchObject({ prompt: '𠀀𠀁', target: '𠀂', at: 2 });
    expect(split.prompt.length + split.target.length).toBe(6);
    // Mixed: 子𠀀曰𠀁 is 4 code points; the cut at 2 keeps both surrogate pairs whole.
    expect(splitPassage('子𠀀曰𠀁')).toMatchObject({ prompt: '子𠀀', target: '曰𠀁' });
  });

  it('moves a cut forward past a variation selector, so the target never starts with one', () => {
    // 一二三四 + U+E0100 (an ideographic variation selector, \p{M}) + 五六: n 7, middle 4 falls on the selector.
    expect(splitPassage('一二三四\u{E0100}五六')).toMatchObject({ prompt: '一二三四\u{E0100}', target: '五六', at: 5 });
  });

  it('gives empty halves for an empty, blank or one-character passage', () => {
    const empty = { prompt: '', gap: '', target: '', at: 0, atPunctuation: false };
    expect(splitPassage('')).toEqual(empty);
    expect(splitPassage(' \n\u3000 ')).toEqual(empty);
    expect(splitPassage('子')).toEqual({ prompt: '子', gap: '', target: '', at: 1, atPunctuation: false });
    expect(splitPassage('𠀀')).toMatchObject({ prompt: '𠀀', target: '' });
  });
});

describe('verbatimRecall', () => {
  it('a continuation longer than the target: every mark reproduced, the extra ignored', () => {
    const recall = verbatimRecall('有朋自远方来', '有朋自远方来，不亦乐乎');
    expect(recall.marks.every((m) => m.reproduced)).toBe(true);
    expect(recall).toMatchObject({ targetLength: 6, writtenLength: 11, prefixLength: 6, inPlace: 6, inPlaceShare: 1, lcs: 6, lcsShare: 1 });
  });

  it('a continuation shorter than the target: the positions it never reached are not reproduced', () => {
    const recall = verbatimRecall('不亦乐乎？', '不亦');
    expect(recall.marks).toEqual([
      { expected: '不', written: '不', reproduced: true },
      { expected: '亦', written: '亦', reproduced: true },
      { expected: '乐', written: null, reproduced: false },
      { expected: '乎', written: null, reproduced: false },
      { expected: '？', written: null, reproduced: false },
    ]);
    expect(recall).toMatchObject({ targetLength: 5, writtenLength: 2, prefixLength: 2, inPlace: 2, inPlaceShare: 0.4, lcs: 2, lcsShare: 0.4 });
  });

  it('an inserted character puts the rest out of place but costs the LCS one character', () => {
    // Window: the continuation's first 6 characters, 有朋友自远方; its 来 is past the window.
    // In place: 有 朋 match; 自≠友, 远≠自, 方≠远, 来≠方. LCS(有朋自远方来, 有朋友自远方) = 有朋自远方 = 5.
    const recall = verbatimRecall('有朋自远方来', '有朋友自远方来');
    expect(recall.marks.map((m) => m.written)).toEqual(['有', '朋', '友', '自', '远', '方']);
    expect(recall.marks.map((m) => m.reproduced)).toEqual([true, true, false, false, false, false]);
    expect(recall).toMatchObject({ prefixLength: 2, inPlace: 2, lcs: 5 });
    expect(recall.inPlaceShare).toBeCloseTo(2 / 6, 15);
    expect(recall.lcsShare).toBeCloseTo(5 / 6, 15);
  });

  it('counts matches after the first miss in place, and the prefix only up to it', () => {
    // 学而时习之 vs 学而时练之: only position 3 differs.
    const recall = verbatimRecall('学而时习之', '学而时练之');
    expect(recall.marks.map((m) => m.reproduced)).toEqual([true, true, true, false, true]);
    expect(recall).toMatchObject({ prefixLength: 3, inPlace: 4, inPlaceShare: 0.8, lcs: 4, lcsShare: 0.8 });
  });

  it('compares Ext-B characters as whole code points', () => {
    // 𠀀𠀁𠀂 vs 𠀀𠀂𠀂: positions 0 and 2 match; LCS 𠀀𠀂 = 2. n is 3, not 6 UTF-16 units.
    const recall = verbatimRecall('𠀀𠀁𠀂', '𠀀𠀂𠀂');
    expect(recall.marks.map((m) => m.reproduced)).toEqual([true, false, true]);
    expect(recall).toMatchObject({ targetLength: 3, writtenLength: 3, prefixLength: 1, inPlace: 2, lcs: 2 });
    // 𠀀 (D840 DC00) and 𠀁 (D840 DC01) share their high surrogate: no half of a character counts.
    expect(verbatimRecall('𠀀', '𠀁')).toMatchObject({ targetLength: 1, prefixLength: 0, inPlace: 0, lcs: 0, inPlaceShare: 0, lcsShare: 0 });
  });

  it('does not normalise punctuation: a full-width mark and its ASCII twin differ', () => {
    const recall = verbatimRecall('不亦乐乎？', '不亦乐乎?');
    expect(recall.marks[4]).toEqual({ expected: '？', written: '?', reproduced: false });
    expect(recall).toMatchObject({ prefixLength: 4, inPlace: 4, inPlaceShare: 0.8, lcs: 4, lcsShare: 0.8 });
  });

  it('drops leading whitespace before comparing, and compares whitespace inside as characters', () => {
    // A SentencePiece decoder may or may not keep a first token's space: either way the same marks.
    expect(verbatimRecall('有朋', ' 有朋')).toMatchObject({ writtenLength: 2, prefixLength: 2, inPlace: 2, lcs: 2 });
    expect(verbatimRecall(' 有朋', '有朋')).toMatchObject({ targetLength: 2, prefixLength: 2, inPlace: 2 });
    // in the park. (12) vs in␣␣the park. (13): window in␣␣the park (12). In place: i, n, space; then
    // every character is one late. LCS: "in the park" = 11 (the window ends before the ".").
    const recall = verbatimRecall('in the park.', 'in  the park.');
    expect(recall.marks.map((m) => m.reproduced)).toEqual([true, true, true, false, false, false, false, false, false, false, false, false]);
    expect(recall.marks[3]).toEqual({ expected: 't', written: ' ', reproduced: false });
    expect(recall).toMatchObject({ targetLength: 12, writtenLength: 13, prefixLength: 3, inPlace: 3, inPlaceShare: 0.25, lcs: 11 });
    expect(recall.lcsShare).toBeCloseTo(11 / 12, 15);
  });

  it('an empty target has no shares; an empty or blank continuation reproduces nothing', () => {
    expect(verbatimRecall('', '学而')).toEqual({
      marks: [],
      targetLength: 0,
      writtenLength: 2,
      prefixLength: 0,
      inPlace: 0,
      inPlaceShare: null,
      lcs: 0,
      lcsShare: null,
    });
    expect(verbatimRecall(' \n', '')).toMatchObject({ targetLength: 0, inPlaceShare: null, lcsShare: null });
    const none = verbatimRecall('学而', ' \n ');
    expect(none.marks).toEqual([
      { expected: '学', written: null, reproduced: false },
      { expected: '而', written: null, reproduced: false },
    ]);
    expect(none).toMatchObject({ writtenLength: 0, prefixLength: 0, inPlace: 0, inPlaceShare: 0, lcs: 0, lcsShare: 0 });
  });

  it('splits and compares a passage end to end', () => {
    const { target } = splitPassage('子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？');
    // 有朋自远方来， (7) in place, then 何不 for 不亦 (positions 7, 8 missed), then 乐乎？ in place again:
    // in place 7 + 3 = 10. LCS: 有朋自远方来， + 不 + 乐乎？ = 11.
    const recall = verbatimRecall(target, '有朋自远方来，何不乐乎？');
    expect(recall).toMatchObject({ targetLength: 12, prefixLength: 7, inPlace: 10, lcs: 11 });
  });
});

describe('longestCommonSubsequence', () => {
  it('matches the textbook example and its edge cases', () => {
    // CLRS 15.4: LCS(ABCBDAB, BDCABA) has length 4 (BCBA).
    expect(longestCommonSubsequence([...'ABCBDAB'], [...'BDCABA'])).toBe(4);
    expect(longestCommonSubsequence([], [...'ABC'])).toBe(0);
    expect(longestCommonSubsequence([...'ABC'], [])).toBe(0);
    expect(longestCommonSubsequence([...'ABC'], [...'CBA'])).toBe(1);
    expect(longestCommonSubsequence([...'学而时习之'], [...'学而时习之'])).toBe(5);
  });
});

describe('recallTokenBudget and the signature', () => {
  it('asks for the target’s tokens plus a quarter of them, at least 8', () => {
    expect([0, 1, 10, 32, 33, 100].map(recallTokenBudget)).toEqual([8, 9, 18, 40, 42, 125]);
    expect(() => recallTokenBudget(-1)).toThrow(RangeError);
    expect(() => recallTokenBudget(1.5)).toThrow(RangeError);
  });

  it('says how recall was computed', () => {
    expect(verbatimRecallSignature()).toBe(
      'verbatim-recall|unit:code-point|split:nearest-punctuation-within-0.25n-of-ceil(n/2),else-ceil(n/2)|gap-whitespace:neither|compare:in-place,prefix,lcs(first-n)|v:1',
    );
  });
});
