// A passage as the model read it (the reading view, issue 37): its tokens as the tokenizer cut them,
// where each ends in the passage's characters, and the row after each token (readRow: what the model
// expected next). Token j is scored by the row after token j − 1; the first token has no row before
// it unless the tokenizer put a special token (BOS) first, so a passage without one starts unscored.
// Special tokens are shown but never coloured or counted.
import type { RowReading } from './row-reading.ts';
import { surpriseBits } from './row-reading.ts';

export interface PassagePiece {
  /** The token's own text (decode of the id alone); a byte piece's is its vocabulary string. */
  text: string;
  /** A piece of a character's bytes (SentencePiece's byte fallback, or a byte-level BPE piece that is not whole characters). */
  byte: boolean;
  special: boolean;
  /**
   * The model's unknown token (<unk>): it has no token for these characters, which `text` then holds
   * (the passage's own, unknown-chars.ts), shown marked and never scored.
   */
  unknown?: boolean;
}

export interface PassageReading {
  /** The passage's characters, as the tokens decode (code points). */
  chars: string[];
  ids: number[];
  pieces: PassagePiece[];
  /** Characters complete after token j (non-decreasing; a byte piece may complete none). */
  charEnds: number[];
  /** rows[j]: the row after token j (rows[j].logprob is token j + 1's; the last row's is null). */
  rows: RowReading[];
}

export interface ScoredToken {
  index: number;
  /** Characters [from, to) of the passage this token completes. */
  from: number;
  to: number;
  logprob: number;
  bits: number;
  rank: number;
  /** The row it was scored from (what the model expected here). */
  expected: RowReading;
}

/** The tokens with a row before them, not special, with their surprise. */
export function scoredTokens(reading: PassageReading): ScoredToken[] {
  const out: ScoredToken[] = [];
  for (let j = 1; j < reading.ids.length; j++) {
    const row = reading.rows[j - 1];
    if (reading.pieces[j].special || reading.pieces[j].unknown || row.logprob === null || row.rank === null) continue;
    out.push({ index: j, from: reading.charEnds[j - 1], to: reading.charEnds[j], logprob: row.logprob, bits: surpriseBits(row.logprob), rank: row.rank, expected: row });
  }
  return out;
}

/**
 * Bits per character: the scored tokens' surprise summed, over the characters they complete (the
 * first token's characters are left out when nothing came before it). Null when none is scored.
 */
export function bitsPerCharacter(reading: PassageReading): { bits: number; characters: number; perCharacter: number } | null {
  const scored = scoredTokens(reading);
  const characters = scored.reduce((sum, t) => sum + (t.to - t.from), 0);
  if (scored.length === 0 || characters === 0) return null;
  const bits = scored.reduce((sum, t) => sum + t.bits, 0);
  return { bits, characters, perCharacter: bits / characters };
}

/** The token whose end completes character `k` (1-based count), or −1 when a token spans that boundary. */
export function tokenEndingAt(reading: PassageReading, k: number): number {
  for (let j = 0; j < reading.charEnds.length; j++) {
    if (reading.charEnds[j] === k && !reading.pieces[j].special) return j;
    if (reading.charEnds[j] > k) return -1;
  }
  return -1;
}
