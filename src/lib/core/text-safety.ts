// Characters a reader cannot see, or that make text display in another order than it is stored:
// one definition for the whole site. Ids and names may not hold them (a data file's
// `sample\u202Egnp.exe` displays as "sampleexe.png"; `部首\u200B` looks like the task 部首), text
// that is empty without them counts as empty, and messages show them as `\u200b` escapes.
//
// The set: control characters (Cc, including tab and newline), format characters (Cf: zero-width
// space/joiners U+200B–U+200D, word joiner U+2060, the BOM U+FEFF, the marks U+200E/U+200F, the bidi
// embeddings, overrides and isolates U+202A–U+202E and U+2066–U+2069, soft hyphen, tag characters,
// …), the line and paragraph separators U+2028/U+2029, lone surrogates, and the Hangul fillers that
// render as blank letters. Not variation selectors: ideographic variation sequences pick a glyph of a
// classical character and belong to the text.
const INVISIBLE_SOURCE = String.raw`[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\u115F\u1160\u3164\uFFA0]`;
const INVISIBLE = new RegExp(INVISIBLE_SOURCE, 'u');
const INVISIBLE_ALL = new RegExp(INVISIBLE_SOURCE, 'gu');

/** The longest id or name the site stores and reads back (the run importer's limit for short strings). */
export const MAX_NAME_CHARS = 500;

/** `U+202E`, `U+E0001`: how a message names a code point. */
export function codePointLabel(codePoint: number): string {
  return `U+${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** What makes a string unfit as an id or a name, or null when it is fit. */
export type NameProblem =
  | { kind: 'too-long'; max: number; length: number }
  /** `position`: 0-based, in UTF-16 code units. */
  | { kind: 'invisible'; codePoint: string; position: number };

/**
 * The one rule for ids and names (item ids, task keys, file names, model names, versions): at most
 * `max` UTF-16 code units and no invisible or direction character. The benchmark importers refuse
 * a dataset that breaks it and the run importer a run file, so the site never writes a file it would
 * refuse to read back.
 */
export function nameProblem(value: string, max: number = MAX_NAME_CHARS): NameProblem | null {
  if (value.length > max) return { kind: 'too-long', max, length: value.length };
  const bad = INVISIBLE.exec(value);
  if (bad) return { kind: 'invisible', codePoint: codePointLabel(bad[0].codePointAt(0)!), position: bad.index };
  return null;
}

/** Whether `value` holds an invisible or direction character. */
export function hasInvisible(value: string): boolean {
  return INVISIBLE.test(value);
}

/** `value` without its invisible and direction characters (for names taken from another tool's files). */
export function stripInvisible(value: string): string {
  return value.replace(INVISIBLE_ALL, '');
}

/**
 * Whether `value` has characters, but none a reader can see: only invisible characters and
 * whitespace (an option of four U+200B). An empty or whitespace-only string is not: callers say
 * "empty" for those.
 */
export function isInvisibleOnly(value: string): boolean {
  return value.trim() !== '' && stripInvisible(value).trim() === '';
}

/** The distinct invisible characters of `value`, as `U+200B` labels, in order of first appearance. */
export function invisibleCodePoints(value: string): string[] {
  return [...new Set([...value.matchAll(INVISIBLE_ALL)].map((m) => codePointLabel(m[0].codePointAt(0)!)))];
}

const SHORT_ESCAPES: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/**
 * `value` with each invisible or direction character written as an escape (`\u200b`, `\u{e0001}`;
 * `\n`, `\r`, `\t`), so a message shows what is there. Everything else, CJK text and punctuation
 * included, is unchanged; the escapes are visible ASCII, so escaping twice changes nothing.
 * `keepLineBreaks` leaves `\n` as it is: a message (an engine's error, several lines) may be shown
 * on several lines, and a line break hides nothing.
 */
export function escapeInvisible(value: string, options: { keepLineBreaks?: boolean } = {}): string {
  return value.replace(INVISIBLE_ALL, (char) => {
    if (char === '\n' && options.keepLineBreaks) return char;
    const short = SHORT_ESCAPES[char];
    if (short) return short;
    const code = char.codePointAt(0)!;
    return code > 0xffff ? `\\u{${code.toString(16)}}` : `\\u${code.toString(16).padStart(4, '0')}`;
  });
}
