// Verbatim recall (issue 26, item 4), for the classroom: a passage is cut in two, the model continues
// the first half greedily, and each character of the true second half is marked reproduced or not.
// A model that writes a famous text's second half word for word has most likely read that text; one
// that does not may still have read it (greedy decoding shows one path, and a small model forgets),
// so a low recall proves nothing, and a high one on a text every book quotes says little about a
// benchmark file. It is a demonstration, not a contamination test.
//
// Characters are Unicode code points (Array.from), never UTF-16 units: an Ext-B character such as 𠀀
// (U+20000, two units) is one character, and no cut or comparison falls inside its surrogate pair.
//
// How a passage is split (splitPassage):
//  1. The passage's own leading and trailing whitespace is dropped (a pasted text often ends in a
//     line break, which no model should be asked to write). n = its length in code points.
//  2. The middle is ceil(n / 2): with an odd n the prompt gets the extra character, since a model
//     needs context more than the target needs one more character.
//  3. A punctuation boundary near the middle is preferred, so the model is asked to go on from the end
//     of a clause rather than from the middle of a word: a position p (0 < p < n) right after a run of
//     clause marks and closing quotes (RECALL_MARKS, RECALL_CLOSERS), where the next character is
//     neither. A run of ASCII characters only (`.`, `,`, `)`) counts only when whitespace follows it,
//     as English punctuation is followed by a space: `3.14` and `Lily's` are not boundaries. Among
//     the boundaries at most floor(n · RECALL_WINDOW) from the middle, the nearest wins (a tie goes to
//     the later one, which shows the model more); with none, the cut is at the middle itself.
//  4. A cut never leaves a combining mark or a variation selector (\p{M}, e.g. an ideographic
//     variation selector U+E0100..) at the start of the target: it moves forward past them.
//  5. Whitespace at the cut belongs to neither half (the `gap`): the prompt ends at its last
//     non-whitespace character and the target starts at its first.
//
// How a continuation is compared (verbatimRecall), with n the target's length in code points:
//  - Leading whitespace of the continuation (and of the target) is not compared: tokenizers differ on
//    whether a first token's space survives decoding (a SentencePiece decoder strips it), and the
//    whitespace at the cut was given to neither half.
//  - Otherwise nothing is normalised: full-width `，` and ASCII `,` differ, as do a space and none.
//  - marks[i]: the target's i-th character, the continuation's i-th (null past its end) and whether
//    they are the same code point: reproduced at that position.
//  - prefixLength: the length of the longest common prefix of the target and the continuation (the
//    first i where marks[i] is not reproduced, n when all are). A continuation longer than the target
//    does not lengthen it.
//  - inPlace: how many marks are reproduced; inPlaceShare = inPlace / n. One character inserted or
//    dropped early puts every later one out of place, so this number is strict.
//  - lcs: the length of the longest common subsequence of the target and the continuation's first n
//    characters (the same window the marks read); lcsShare = lcs / n. It forgives an insertion or a
//    deletion (each costs about one character, not the rest of the line), which makes it the robust
//    second number; the window keeps a long continuation from collecting characters by chance.
//  - An empty target has nothing to measure: both shares are null (prefixLength, inPlace and lcs 0).

export const RECALL_VERSION = 1;

/** How far from the middle a punctuation boundary may be, as a share of the passage's length. */
export const RECALL_WINDOW = 0.25;

/** Marks that end a clause or a sentence, full-width and ASCII. Dashes and brackets that open are not. */
export const RECALL_MARKS = new Set(['，', '。', '、', '；', '：', '？', '！', '．', '｡', '…', ',', '.', ';', ':', '?', '!']);

/** Closing quotes and brackets, which stay with the clause they close. */
export const RECALL_CLOSERS = new Set(['」', '』', '”', '’', '）', '》', '〉', '】', '〕', '］', '｝', ')', ']', '"', "'"]);

/** A passage cut for recall: the model sees `prompt` and should write `target` (see the header). */
export interface PassageSplit {
  /** The passage up to the cut, its trailing whitespace dropped. */
  prompt: string;
  /** The whitespace at the cut, which belongs to neither half ('' when none). */
  gap: string;
  /** The passage after the cut, its leading whitespace dropped. */
  target: string;
  /** Where the cut fell, in code points from the start of the trimmed passage. */
  at: number;
  /** Whether the cut is a punctuation boundary (step 3) rather than the middle. */
  atPunctuation: boolean;
}

const isSpace = (c: string): boolean => /^\s$/u.test(c);
const isMark = (c: string): boolean => RECALL_MARKS.has(c) || RECALL_CLOSERS.has(c);
const isAscii = (c: string): boolean => c.charCodeAt(0) < 0x80;

/** Whether a cut at p (0 < p < chars.length) is a punctuation boundary (step 3 of the header). */
function isBoundary(chars: readonly string[], p: number): boolean {
  if (!isMark(chars[p - 1]) || isMark(chars[p])) return false;
  let start = p - 1;
  while (start > 0 && isMark(chars[start - 1])) start--;
  const asciiOnly = chars.slice(start, p).every(isAscii);
  return !asciiOnly || isSpace(chars[p]);
}

/** Cuts a passage into the prompt the model sees and the target it should write (see the header). */
export function splitPassage(passage: string): PassageSplit {
  const chars = Array.from(passage.trim());
  const n = chars.length;
  const middle = Math.ceil(n / 2);
  const reach = Math.floor(n * RECALL_WINDOW);
  let at = middle;
  let atPunctuation = false;
  for (let distance = 0; distance <= reach && !atPunctuation; distance++) {
    // The later candidate first: on a tie it shows the model more.
    for (const p of [middle + distance, middle - distance]) {
      if (p > 0 && p < n && isBoundary(chars, p)) {
        at = p;
        atPunctuation = true;
        break;
      }
    }
  }
  while (at < n && /^\p{M}$/u.test(chars[at])) at++;
  let promptEnd = at;
  while (promptEnd > 0 && isSpace(chars[promptEnd - 1])) promptEnd--;
  let targetStart = at;
  while (targetStart < n && isSpace(chars[targetStart])) targetStart++;
  return {
    prompt: chars.slice(0, promptEnd).join(''),
    gap: chars.slice(promptEnd, targetStart).join(''),
    target: chars.slice(targetStart).join(''),
    at,
    atPunctuation,
  };
}

/** One character of the target: what the model wrote at its position, and whether it is the same. */
export interface RecallMark {
  expected: string;
  /** The continuation's character at this position; null when the continuation ended before it. */
  written: string | null;
  reproduced: boolean;
}

/** How much of a target a continuation reproduced (every number is defined in the header). */
export interface VerbatimRecall {
  marks: RecallMark[];
  /** n: the target's length in code points, leading whitespace dropped. */
  targetLength: number;
  /** The continuation's length in code points, leading whitespace dropped. */
  writtenLength: number;
  prefixLength: number;
  inPlace: number;
  /** inPlace / n; null when the target is empty. */
  inPlaceShare: number | null;
  lcs: number;
  /** lcs / n; null when the target is empty. */
  lcsShare: number | null;
}

/** The length of the longest common subsequence of two code-point arrays (two rows of the table). */
export function longestCommonSubsequence(a: readonly string[], b: readonly string[]): number {
  let previous = new Uint32Array(b.length + 1);
  let row = new Uint32Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      row[j] = a[i - 1] === b[j - 1] ? previous[j - 1] + 1 : Math.max(previous[j], row[j - 1]);
    }
    [previous, row] = [row, previous];
  }
  return previous[b.length];
}

const withoutLeadingSpace = (text: string): string[] => Array.from(text.replace(/^\s+/u, ''));

/** Compares a model's continuation with the target, character by character (see the header). */
export function verbatimRecall(target: string, continuation: string): VerbatimRecall {
  const expected = withoutLeadingSpace(target);
  const written = withoutLeadingSpace(continuation);
  const n = expected.length;
  const marks = expected.map((c, i): RecallMark => {
    const w = i < written.length ? written[i] : null;
    return { expected: c, written: w, reproduced: w === c };
  });
  const firstMiss = marks.findIndex((m) => !m.reproduced);
  const inPlace = marks.filter((m) => m.reproduced).length;
  const lcs = longestCommonSubsequence(expected, written.slice(0, n));
  return {
    marks,
    targetLength: n,
    writtenLength: written.length,
    prefixLength: firstMiss < 0 ? n : firstMiss,
    inPlace,
    inPlaceShare: n === 0 ? null : inPlace / n,
    lcs,
    lcsShare: n === 0 ? null : lcs / n,
  };
}

/**
 * The most new tokens to ask for: the target's own token count plus a margin of a quarter of it, at
 * least 8. A model that writes the target may tokenize it otherwise than the passage encodes (a
 * character in byte pieces, a different merge at the cut), and one that inserts a few characters
 * should still reach the target's end for the LCS share; the window of n characters ignores the rest.
 */
export function recallTokenBudget(targetTokens: number): number {
  if (!(Number.isInteger(targetTokens) && targetTokens >= 0)) throw new RangeError(`a token count must be a whole number ≥ 0, got ${targetTokens}`);
  return targetTokens + Math.max(8, Math.ceil(targetTokens / 4));
}

/** How recall was computed, sacrebleu-style: `verbatim-recall|unit:code-point|split:…|v:1`. */
export function verbatimRecallSignature(): string {
  return `verbatim-recall|unit:code-point|split:nearest-punctuation-within-${RECALL_WINDOW}n-of-ceil(n/2),else-ceil(n/2)|gap-whitespace:neither|compare:in-place,prefix,lcs(first-n)|v:${RECALL_VERSION}`;
}
