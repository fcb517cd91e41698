// How a passage is cut and scored (reading view, 断句): the real Qwen3 tokenizer (byte-level BPE) and
// stories260k's (SentencePiece with byte fallback) cut a passage with a rare character into byte
// pieces whose bytes are the character's UTF-8; bits per character; and the 断句 strip's counts are
// C3Bench's position-only counts (punctuationItem) for the output that marks every gap at the threshold.
import { describe, expect, it } from 'vitest';
import { punctuationItem } from '../../../src/lib/core/metrics/generation/punctuation.ts';
import { bitsPerCharacter, scoredTokens, type PassageReading } from '../../../src/lib/core/reading/passage.ts';
import { isPunctuationPiece, punctuationIds } from '../../../src/lib/core/reading/punctuation-tokens.ts';
import type { RowReading } from '../../../src/lib/core/reading/row-reading.ts';
import { breaksAt, breakStrip, unpunctuated } from '../../../src/lib/core/reading/sentence-breaks.ts';
import { bytesOfPiece, hexBytes } from '../../../src/lib/core/reading/byte-pieces.ts';
import { piecesOf } from '../../../workers/reading.ts';
import { loadQwen3Tokenizer } from '../qwen3-tokenizer.ts';
import { loadStories260kTokenizer, storiesPresent } from '../stories260k-tokenizer.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';

const RARE = '𪚥'; // U+2A6A5, four bytes of UTF-8, no token of its own in either vocabulary
const PASSAGE = `学而时习之${RARE}不亦说乎`;
const utf8Hex = (text: string) => hexBytes([...Buffer.from(text, 'utf8')]);

describe('how the tokenizer cut the passage', () => {
  it('Qwen3 (byte-level BPE): the byte pieces of a rare character are its UTF-8 bytes, completed by the last', async () => {
    const tokenizer = await loadQwen3Tokenizer();
    const ids = tokenizer.encode(PASSAGE, { add_special_tokens: true });
    const { chars, pieces, charEnds } = piecesOf(tokenizer, ids);
    expect(chars.join('')).toBe(PASSAGE);
    expect(charEnds.at(-1)).toBe([...PASSAGE].length);
    for (let j = 1; j < charEnds.length; j++) expect(charEnds[j]).toBeGreaterThanOrEqual(charEnds[j - 1]);
    const rareAt = [...PASSAGE].indexOf(RARE);
    const bytePieces = pieces.filter((p) => p.byte);
    expect(bytePieces.length).toBeGreaterThan(0);
    // The pieces that complete no character, then the one that completes the rare one: its bytes in order.
    const spanning = pieces.filter((_, j) => (charEnds[j - 1] ?? 0) <= rareAt && charEnds[j] <= rareAt + 1 && (charEnds[j] === rareAt + 1 || pieces[j].byte));
    expect(spanning.map((p) => (p.byte ? p.text : utf8Hex(p.text))).join(' ')).toContain(utf8Hex(RARE));
    expect(pieces.some((p) => p.special)).toBe(false);
  });

  it.runIf(storiesPresent)('stories260k (SentencePiece byte fallback): <0xNN> pieces, and the BOS it adds is special', async () => {
    const tokenizer = await loadStories260kTokenizer();
    const text = `Once upon a time ${RARE} there`;
    const ids = tokenizer.encode(text, { add_special_tokens: true });
    const { chars, pieces, charEnds } = piecesOf(tokenizer, ids);
    expect(pieces[0].special).toBe(true);
    expect(charEnds[0]).toBe(0);
    expect(chars.join('').trim()).toBe(text);
    const bytes = pieces.filter((p) => p.byte).map((p) => p.text).join(' ');
    expect(bytes).toBe(utf8Hex(RARE));
  });

  it('reads both spellings of a byte, and nothing else, as bytes', () => {
    expect(bytesOfPiece('<0xE6>')).toEqual([0xe6]);
    // GPT-2's bytes_to_unicode: byte 0x20 is spelled Ġ (U+0120), 0x0A Ċ, printable ASCII as itself.
    expect(bytesOfPiece('Ġ')).toEqual([0x20]);
    expect(bytesOfPiece('Ċ')).toEqual([0x0a]);
    expect(bytesOfPiece('æĸ')).toEqual([0xe6, 0x96]);
    expect(bytesOfPiece('学')).toBeNull();
  });

  it('finds the punctuation tokens of the Qwen3 vocabulary: marks alone, not a mark with a character', async () => {
    const tokenizer = await loadQwen3Tokenizer();
    const vocab = 151_669;
    const pieces = Array.from({ length: vocab }, (_, id) => tokenizer.decode([id], { skip_special_tokens: true }));
    const ids = new Set(punctuationIds(pieces));
    for (const mark of ['，', '。', '？', '」', '……']) {
      const [id] = tokenizer.encode(mark, { add_special_tokens: false });
      expect(tokenizer.encode(mark, { add_special_tokens: false })).toHaveLength(1);
      expect(ids.has(id)).toBe(true);
    }
    for (const word of ['学', '而', '，而']) for (const id of tokenizer.encode(word, { add_special_tokens: false })) if (!isPunctuationPiece(tokenizer.decode([id]))) expect(ids.has(id)).toBe(false);
    expect(ids.size).toBeGreaterThan(200);
    expect(ids.size).toBeLessThan(5_000);
  });
});

/** A reading of `chars` cut into tokens of the given sizes, with a BOS or not, and these punctuation masses per row. */
function madeReading(chars: string[], sizes: number[], bos: boolean, masses: number[]): PassageReading {
  const ids: number[] = [];
  const pieces = [];
  const charEnds: number[] = [];
  if (bos) {
    ids.push(1);
    pieces.push({ text: '<s>', byte: false, special: true });
    charEnds.push(0);
  }
  let at = 0;
  for (const size of sizes) {
    at += size;
    ids.push(100 + ids.length);
    pieces.push({ text: chars.slice(at - size, at).join(''), byte: false, special: false });
    charEnds.push(at);
  }
  const rows: RowReading[] = ids.map((_, j) => ({ logprob: j + 1 < ids.length ? Math.log(0.5) : null, rank: j + 1 < ids.length ? 1 : null, topIds: [], topLogprobs: [], punctuationMass: masses[j] }));
  return { chars, ids, pieces, charEnds, rows };
}

describe('断句 from probabilities', () => {
  const punctuated = '学而时习之，不亦说乎？有朋自远方来，不亦乐乎。';
  const chars = [...unpunctuated(punctuated)];

  it("counts as C3Bench's position F1 counts the output that marks every gap at the threshold", () => {
    const random = mulberry32(12);
    for (let trial = 0; trial < 40; trial++) {
      // Tokens of one or two characters, a BOS or not, random masses.
      const sizes: number[] = [];
      for (let left = chars.length; left > 0; ) {
        const size = Math.min(left, random() < 0.3 ? 2 : 1);
        sizes.push(size);
        left -= size;
      }
      const bos = random() < 0.5;
      const masses = Array.from({ length: sizes.length + (bos ? 1 : 0) }, () => random());
      const strip = breakStrip(punctuated, madeReading(chars, sizes, bos, masses));
      const threshold = random();
      const ours = breaksAt(strip, threshold);
      const output = chars.map((c, k) => (ours.predicted[k] ? '，' : '') + c).join('') + (ours.predicted[chars.length] ? '，' : '');
      const theirs = punctuationItem(output, punctuated).position;
      expect({ tp: ours.tp, fp: ours.fp, fn: ours.fn }).toEqual({ tp: theirs.tp, fp: theirs.fp, fn: theirs.fn });
    }
  });

  it('has no probability inside a token, nor before the first character without a BOS', () => {
    const strip = breakStrip(punctuated, madeReading(chars, [2, ...Array(chars.length - 2).fill(1)], false, Array(chars.length - 1).fill(0.9)));
    expect(strip.gaps[0].probability).toBeNull();
    expect(strip.gaps[1].probability).toBeNull();
    expect(strip.gaps[2].probability).toBe(0.9);
    const withBos = breakStrip(punctuated, madeReading(chars, Array(chars.length).fill(1), true, Array(chars.length + 1).fill(0.2)));
    expect(withBos.gaps[0].probability).toBe(0.2);
    expect(withBos.gaps.filter((g) => g.mark !== '').map((g) => g.position)).toEqual([5, 9, 15, 19]);
    expect(() => breakStrip('别的字', madeReading(chars, Array(chars.length).fill(1), true, []))).toThrow(RangeError);
  });

  it('bits per character: the scored tokens’ surprise over the characters they complete', () => {
    const reading = madeReading(chars, [2, ...Array(chars.length - 2).fill(1)], false, []);
    // Every scored token has p = ½ (one bit); the first token (two characters) has nothing before it.
    const got = bitsPerCharacter(reading)!;
    expect(scoredTokens(reading)).toHaveLength(chars.length - 2);
    expect(got.characters).toBe(chars.length - 2);
    expect(got.perCharacter).toBeCloseTo(1, 12);
  });
});
