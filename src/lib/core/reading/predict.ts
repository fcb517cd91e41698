// Predict before reveal (issue 45 §3): a class sees the first k characters of a passage, guesses
// character k + 1, then sees what came and what the model expected there (the reading's row).
//
// Positions are character positions k, 1 ≤ k < chars.length: "the class sees chars[0, k) and
// guesses chars[k]". The model can be asked only where one of its tokens ends exactly at character k
// (passage.ts' tokenEndingAt): its row after that token is its guess. Where a token runs across the
// boundary (学而 as one token: the boundary between 学 and 而 is inside it) the model never stood
// there, so the position is not offered (positionProblem says why, for the page to word).
//
// What "right" means:
//  - the class: the guess, trimmed of whitespace and in Unicode NFC, begins with the original next
//    character (its first character is compared; "学而" guessed before 学 is right). A blank guess
//    is wrong, so the class's count and the model's are over the same positions.
//  - the model: its first choice (the row's top-1 token) begins with the original next character:
//    the token that came is right by definition (it starts at k), another token is right when its
//    text starts with that character (学 when 学而 came), and a byte piece is right when its bytes
//    begin the character's UTF-8 bytes. A byte piece is known as one only when the passage itself
//    holds that id as a byte piece (the reading's pieces); any other listed id is compared by its
//    text, which for an unknown byte piece is its hex ("E5 AD") and so is right only if the next
//    character is that very text's first letter, a case a Chinese passage does not meet.
//    Where the model has no token for the next character (its <unk> came), expecting <unk> is not right.
// Positions whose next character is whitespace are not offered: a trimmed guess can never be one.
import type { PassageReading } from './passage.ts';
import { tokenEndingAt } from './passage.ts';

/** Why the class cannot be asked at a position (the page words it). */
export type PositionProblem =
  /** k is not in [1, chars.length). */
  | 'out-of-range'
  /** One of the model's tokens runs across the boundary after character k. */
  | 'inside-token'
  /** The next character is whitespace: nothing to guess. */
  | 'next-space'
  /** The token ending at k has no row after it, or the token after it is special. */
  | 'no-row';

/** Null when the class can be asked to guess character k + 1 after seeing k characters. */
export function positionProblem(reading: PassageReading, k: number): PositionProblem | null {
  if (!Number.isInteger(k) || k < 1 || k >= reading.chars.length) return 'out-of-range';
  if (/^\s$/u.test(reading.chars[k])) return 'next-space';
  const j = tokenEndingAt(reading, k);
  if (j < 0) return 'inside-token';
  if (j + 1 >= reading.ids.length || !reading.rows[j] || reading.pieces[j + 1].special) return 'no-row';
  return null;
}

/** Every k where the class can be asked, ascending. */
export function predictablePositions(reading: PassageReading): number[] {
  const out: number[] = [];
  for (let k = 1; k < reading.chars.length; k++) if (positionProblem(reading, k) === null) out.push(k);
  return out;
}

export interface GuessedToken {
  id: number;
  /** The token's text (texts[id]; `#id` when the result has none). */
  text: string;
  /** Its probability under the model (temperature 1, the whole vocabulary). */
  p: number;
  /** A byte piece, known as one from the passage's own pieces. */
  byte: boolean;
}

export interface ModelGuess {
  k: number;
  /** The token ending at character k, whose row this is. */
  token: number;
  /** The original next character, chars[k]. */
  next: string;
  /** The row's listed tokens, best first (top[0] is the model's guess). */
  top: GuessedToken[];
  /** The model's first choice begins with the original next character (see the header). */
  right: boolean;
  /** The token that came after character k: it begins with the next character. */
  came: GuessedToken & {
    rank: number;
    /** It is exactly the next character, so its p is the original character's; otherwise it holds more (学而) or less (a byte piece). */
    whole: boolean;
    /** The model's unknown token (<unk>): it has no token for the next character; its text is the passage's. */
    unknown: boolean;
  };
}

const encoder = new TextEncoder();

/** The bytes of a byte piece's text as the reading shows it ("E5 AD"), or null. */
function hexBytes(text: string): number[] | null {
  return /^[0-9A-F]{2}( [0-9A-F]{2})*$/.test(text) ? text.split(' ').map((h) => parseInt(h, 16)) : null;
}

/** Whether a listed token begins with `next` (the model's side of the header's rule). */
function begins(token: GuessedToken, next: string): boolean {
  if (!token.byte) return token.text.startsWith(next);
  const bytes = hexBytes(token.text);
  const want = encoder.encode(next);
  return bytes !== null && bytes.length > 0 && bytes.every((b, i) => i < want.length && want[i] === b);
}

/** The model's guess at position k, from the reading's row; a RangeError where positionProblem finds one. */
export function modelGuess(reading: PassageReading, k: number, texts: Readonly<Record<number, string>>): ModelGuess {
  const problem = positionProblem(reading, k);
  if (problem) throw new RangeError(`position ${k}: ${problem}`);
  const j = tokenEndingAt(reading, k);
  const row = reading.rows[j];
  const byteIds = new Set<number>();
  reading.pieces.forEach((piece, i) => {
    if (piece.byte) byteIds.add(reading.ids[i]);
  });
  const next = reading.chars[k];
  const top = row.topIds.map((id, i) => ({ id, text: texts[id] ?? `#${id}`, p: Math.exp(row.topLogprobs[i]), byte: byteIds.has(id) }));
  const cameId = reading.ids[j + 1];
  const piece = reading.pieces[j + 1];
  const unknown = piece.unknown === true;
  const came = { id: cameId, text: piece.text, p: Math.exp(row.logprob ?? -Infinity), byte: piece.byte, rank: row.rank ?? 0, whole: !piece.byte && !unknown && piece.text === next, unknown };
  const first = top[0];
  // Expecting <unk> is not expecting the character: the unknown token stands for every character the model lacks.
  const right = first !== undefined && ((first.id === cameId && !unknown) || (first.id !== cameId && begins(first, next)));
  return { k, token: j, next, top, right, came };
}

/** The class's guess is right (see the header): its first character, trimmed and in NFC, is the next character. */
export function classRight(guess: string, next: string): boolean {
  const first = [...guess.trim().normalize('NFC')][0];
  return first !== undefined && first === next.normalize('NFC');
}

export interface RevealedAnswer {
  classRight: boolean;
  modelRight: boolean;
}

export interface Tally {
  revealed: number;
  classRight: number;
  modelRight: number;
  both: number;
  neither: number;
}

/** Counts over the positions revealed so far. */
export function tally(answers: readonly RevealedAnswer[]): Tally {
  const out: Tally = { revealed: answers.length, classRight: 0, modelRight: 0, both: 0, neither: 0 };
  for (const a of answers) {
    if (a.classRight) out.classRight++;
    if (a.modelRight) out.modelRight++;
    if (a.classRight && a.modelRight) out.both++;
    if (!a.classRight && !a.modelRight) out.neither++;
  }
  return out;
}
