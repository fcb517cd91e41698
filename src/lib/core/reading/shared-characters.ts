// Two models compared on one passage (issue 45 §1): bits per character over the characters BOTH
// models read, never over different ones. A model leaves a character out when it has no token for it
// (its <unk>), or when nothing was scored for it (the first token with no BOS before it). Comparing
// "A: 12.72 bits over 56 characters; B: 18.39 over 69" says nothing about which model found the text
// less surprising: A was spared the 13 characters it could not read.
//
// The set: a token counts for a model only if every character it completes is counted by every
// model; a token of B that spans a character A left out is then dropped whole, and the characters it
// completed are left out for A too. Repeated until nothing changes (each round only removes
// characters, so it ends), both models then count exactly the same characters, each token whole.
import { scoredTokens, type PassageReading, type ScoredToken } from './passage.ts';

export interface LeftOutCharacter {
  /** Index in the passage's characters. */
  index: number;
  char: string;
  /** `unknown`: some model has no token for it (`models` says which); `unscored`: nothing before it,
   *  or inside a token that spans a character left out. */
  why: 'unknown' | 'unscored';
  /** The models (0 = A, 1 = B) with no token for it, when `why` is `unknown`. */
  models: number[];
}

export interface SharedBits {
  /** Per model: its surprise over the shared characters. */
  totals: { bits: number; perCharacter: number }[];
  /** How many characters both count. */
  characters: number;
  leftOut: LeftOutCharacter[];
}

/** Characters of `reading` that its unknown tokens stand for. */
function unknownIndices(reading: PassageReading): Set<number> {
  const out = new Set<number>();
  reading.pieces.forEach((piece, j) => {
    if (!piece.unknown) return;
    for (let c = j > 0 ? reading.charEnds[j - 1] : 0; c < reading.charEnds[j]; c++) out.add(c);
  });
  return out;
}

/**
 * The readings' bits over the characters every one of them counts; null when they are not readings
 * of the same characters (the page then compares nothing) or share none.
 */
export function sharedBits(readings: readonly PassageReading[]): SharedBits | null {
  if (readings.length === 0) return null;
  const text = readings[0].chars.join('');
  if (readings.some((r) => r.chars.join('') !== text)) return null;
  const n = readings[0].chars.length;
  const scored = readings.map((r) => scoredTokens(r));
  let counted = new Set<number>(Array.from({ length: n }, (_, i) => i));
  let kept: ScoredToken[][] = scored;
  for (;;) {
    kept = scored.map((tokens) => tokens.filter((t) => t.to > t.from && allIn(counted, t.from, t.to)));
    const next = new Set<number>();
    for (let c = 0; c < n; c++) if (kept.every((tokens) => tokens.some((t) => t.from <= c && c < t.to))) next.add(c);
    if (next.size === counted.size) break;
    counted = next;
  }
  if (counted.size === 0) return null;
  const unknown = readings.map(unknownIndices);
  const leftOut: LeftOutCharacter[] = [];
  for (let c = 0; c < n; c++) {
    if (counted.has(c)) continue;
    const models = unknown.flatMap((set, m) => (set.has(c) ? [m] : []));
    leftOut.push({ index: c, char: readings[0].chars[c], why: models.length > 0 ? 'unknown' : 'unscored', models });
  }
  const totals = kept.map((tokens) => {
    const bits = tokens.reduce((sum, t) => sum + t.bits, 0);
    return { bits, perCharacter: bits / counted.size };
  });
  return { totals, characters: counted.size, leftOut };
}

function allIn(set: ReadonlySet<number>, from: number, to: number): boolean {
  for (let c = from; c < to; c++) if (!set.has(c)) return false;
  return true;
}

/** The characters one reading leaves out because it has no token for them, in passage order. */
export function unknownCharacters(reading: PassageReading): string[] {
  return [...unknownIndices(reading)].sort((a, b) => a - b).map((i) => reading.chars[i]);
}
