// Reading an untrusted run file field by field. Each check names the field as a path
// (`results[12].prediction`) and says what was expected and what was there; objects are rebuilt from
// the known fields only, so nothing unexpected (a `__proto__` key, a field of a newer version)
// reaches the store. Unknown fields are not an error: they are dropped and listed in a warning.
import type { ItemResult, RunRecord } from './run.ts';

/** A run read from a file, with `run.origin` set and every result's runId equal to `run.id`; not yet stored. */
export interface ImportedRun {
  run: RunRecord;
  results: ItemResult[];
}

/** Thrown by parseRunFile for anything wrong with a file; the message starts with the file name. */
export class RunImportError extends Error {
  override readonly name = 'RunImportError';
  readonly fileName: string;
  /** The message without the file name. */
  readonly detail: string;

  constructor(fileName: string, detail: string, options?: ErrorOptions) {
    super(`${fileName}: ${detail}`, options);
    this.fileName = fileName;
    this.detail = detail;
  }
}

/** A problem at one place in the file; parseRunFile turns it into a RunImportError with the file name. */
export class FieldProblem extends Error {
  override readonly name = 'FieldProblem';
}

/** The most an imported file may hold; each is named in the message when exceeded. */
export const RUN_IMPORT_LIMITS = {
  /** UTF-8 bytes of the file. */
  bytes: 64 * 1024 * 1024,
  /** Per-item results (lm-eval: samples) in one file, and item ids in one run. */
  results: 200_000,
  /** Ids, task keys, hashes, names, versions, paths. */
  shortChars: 500,
  /** Prompts, outputs, references, warnings. */
  textChars: 1_000_000,
  /** Short lists: tasks, dataset files, warnings, exemplars, references, summary keys. */
  listEntries: 10_000,
} as const;

export type Obj = Record<string, unknown>;

/** C0 and C1 controls, and the bidirectional overrides that make text display differently from what it is. */
const FORBIDDEN_IN_NAMES = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069]/;
const SHA256_HEX = /^[0-9a-f]{64}$/;
/** What lenient JSON parsing turns Python's bare NaN and infinities into (see parseJson). */
const NON_FINITE_STRINGS = new Set(['NaN', 'Infinity', '-Infinity']);

/** Says what a value is, briefly, for a message. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing (the field is missing)';
  if (value === null) return 'null';
  if (Array.isArray(value)) return `a list of ${value.length}`;
  if (typeof value === 'string') return value.length > 40 ? `${JSON.stringify(value.slice(0, 40))}… (${value.length} characters)` : JSON.stringify(value);
  if (typeof value === 'object') return 'an object';
  return String(value);
}

export function fail(path: string, expected: string, value: unknown): never {
  throw new FieldProblem(`${path}: expected ${expected}, got ${describe(value)}`);
}

/** `results[12].letters[0]` → `results[*].letters[*]`, so one unknown field of many results is listed once. */
const generalPath = (path: string): string => path.replace(/\[\d+\]/g, '[*]');

/** Reads objects, remembering the fields it did not know. */
export class FieldReader {
  /** Paths (with [*] for list positions) of fields that were present but not read. */
  readonly ignored = new Set<string>();

  /** An object with every key of `required`; keys in neither list are recorded in `ignored`. */
  object(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Obj {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object', value);
    const known = new Set([...required, ...optional]);
    for (const key of Object.keys(value)) if (!known.has(key)) this.ignored.add(generalPath(`${path}.${key.slice(0, 60)}`));
    for (const key of required) if (!Object.hasOwn(value, key)) fail(`${path}.${key}`, 'a value', undefined);
    return value as Obj;
  }

  /** A warning listing the ignored fields, or null. */
  ignoredWarning(): string | null {
    if (this.ignored.size === 0) return null;
    const list = [...this.ignored];
    const shown = list.slice(0, 10).join(', ');
    return `The file had fields this version does not know; they were left out: ${shown}${list.length > 10 ? ` and ${list.length - 10} more` : ''}.`;
  }
}

/** Any JSON object (no field checks), for formats with many fields we do not read (lm-eval). */
export function anyObject(value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, 'an object', value);
  return value as Obj;
}

/** A name-like string: an id, a task key, a path, a version. No control or direction characters. */
export function name(value: unknown, path: string, max: number = RUN_IMPORT_LIMITS.shortChars): string {
  if (typeof value !== 'string') fail(path, 'a string', value);
  if (value.length > max) throw new FieldProblem(`${path}: expected at most ${max} characters, got ${value.length}`);
  const bad = FORBIDDEN_IN_NAMES.exec(value);
  if (bad) {
    const code = bad[0].charCodeAt(0).toString(16).toUpperCase().padStart(4, '0');
    throw new FieldProblem(`${path}: contains the control character U+${code} at position ${bad.index}; names and ids may not hold control characters`);
  }
  return value;
}

/** A non-empty name. */
export function id(value: unknown, path: string): string {
  const s = name(value, path);
  if (s.length === 0) fail(path, 'a non-empty string', value);
  return s;
}

/** Free text (a prompt, an output): any characters, bounded length. */
export function text(value: unknown, path: string, max: number = RUN_IMPORT_LIMITS.textChars): string {
  if (typeof value !== 'string') fail(path, 'a string', value);
  if (value.length > max) throw new FieldProblem(`${path}: expected at most ${max} characters, got ${value.length}`);
  return value;
}

export function sha256(value: unknown, path: string): string {
  if (typeof value !== 'string' || !SHA256_HEX.test(value)) fail(path, '64 lower-case hex digits (a sha256)', value);
  return value;
}

/** An ISO 8601 date-time, as toISOString writes it (any string Date.parse reads is accepted). */
export function isoDate(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length > 40 || !Number.isFinite(Date.parse(value))) fail(path, 'an ISO 8601 date-time', value);
  return value;
}

export function int(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(path, `an integer from ${min} to ${max}`, value);
  return value;
}

/** A finite number in [min, max]. NaN and infinities (Python writes them bare) are named as such. */
export function finite(value: unknown, path: string, min = -Number.MAX_VALUE, max = Number.MAX_VALUE): number {
  if (typeof value === 'string' && NON_FINITE_STRINGS.has(value)) throw new FieldProblem(`${path}: expected a finite number, got ${value}`);
  const low = min !== -Number.MAX_VALUE;
  const high = max !== Number.MAX_VALUE;
  const range = low && high ? `a finite number from ${min} to ${max}` : low ? `a finite number ≥ ${min}` : high ? `a finite number ≤ ${max}` : 'a finite number';
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) fail(path, range, value);
  return value;
}

export function bool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, 'true or false', value);
  return value;
}

/** One of a fixed set; a Record (not an array) so a new member of the union must be listed to compile. */
export function oneOf<T extends string>(value: unknown, path: string, set: Record<T, true>): T {
  if (typeof value !== 'string' || !Object.hasOwn(set, value)) fail(path, `one of ${Object.keys(set).join(', ')}`, value);
  return value as T;
}

export function list<T>(value: unknown, path: string, max: number, item: (v: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) fail(path, 'a list', value);
  if (value.length > max) throw new FieldProblem(`${path}: expected at most ${max} entries, got ${value.length}`);
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

/** A flat summary (key → number or null), as runSummary makes. */
export function summaryRecord(value: unknown, path: string): Record<string, number | null> {
  const o = anyObject(value, path);
  const entries = Object.entries(o);
  if (entries.length > RUN_IMPORT_LIMITS.listEntries) throw new FieldProblem(`${path}: expected at most ${RUN_IMPORT_LIMITS.listEntries} entries, got ${entries.length}`);
  // fromEntries defines own properties, so a key named __proto__ stays a plain key.
  return Object.fromEntries(
    entries.map(([key, v]) => {
      name(key, `${path} key ${JSON.stringify(key.slice(0, 60))}`);
      return [key, v === null ? null : finite(v, `${path}.${key}`)];
    }),
  );
}

/**
 * JSON.parse, tolerant of the bare NaN, Infinity and -Infinity that Python's json module writes:
 * when the strict parse fails, those tokens outside strings become the strings "NaN", … and the
 * number checks above name them. A file that is still not JSON gets the parser's message with the
 * line and column.
 */
export function parseJson(source: string): unknown {
  try {
    return JSON.parse(source);
  } catch (strictError) {
    const rewritten = quoteNonFinite(source);
    if (rewritten !== null) {
      try {
        return JSON.parse(rewritten);
      } catch {
        // Report the original error: the rewrite is ours, its positions are not the file's.
      }
    }
    throw new FieldProblem(`not JSON: ${jsonErrorWhere(source, strictError)}`);
  }
}

/** The source with bare NaN/Infinity/-Infinity tokens quoted, or null when it has none. */
function quoteNonFinite(source: string): string | null {
  const token = /NaN|-?Infinity/y;
  let out = '';
  let last = 0;
  let inString = false;
  let found = false;
  for (let i = 0; i < source.length; i++) {
    const c = source.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
      continue;
    }
    if (c === 0x22) {
      inString = true;
      continue;
    }
    if (c === 0x4e || c === 0x49 || c === 0x2d) {
      token.lastIndex = i;
      const m = token.exec(source);
      if (m) {
        out += `${source.slice(last, i)}"${m[0]}"`;
        last = i + m[0].length;
        i = last - 1;
        found = true;
      }
    }
  }
  return found ? out + source.slice(last) : null;
}

function jsonErrorWhere(source: string, error: unknown): string {
  // Engines differ in what they say (and newer V8 quotes the source, newlines and all): say it ourselves.
  const offset = syntaxErrorOffset(source);
  if (offset === null) return error instanceof Error ? error.message : String(error);
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  if (offset >= source.length) return `the file ends too early (line ${line}, column ${column}); it may be cut off`;
  return `unexpected ${JSON.stringify(String.fromCodePoint(source.codePointAt(offset)!))} at line ${line}, column ${column}`;
}

/**
 * The offset of the first character at which `source` stops being JSON, or null if it is JSON (or
 * nests too deeply to check). Only called after JSON.parse has failed, to tell the user where.
 */
export function syntaxErrorOffset(source: string): number | null {
  let i = 0;
  const space = () => {
    while (i < source.length && ' \t\n\r'.includes(source[i])) i++;
  };
  const literal = (word: string): boolean => {
    if (source.startsWith(word, i)) {
      i += word.length;
      return true;
    }
    return false;
  };
  const string = (): boolean => {
    if (source[i] !== '"') return false;
    i++;
    while (i < source.length) {
      const c = source.charCodeAt(i);
      if (c === 0x22) {
        i++;
        return true;
      }
      if (c < 0x20) return false;
      if (c === 0x5c) {
        const e = source[i + 1];
        if (e === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(source.slice(i + 2, i + 6))) return false;
          i += 6;
        } else if (e !== undefined && '"\\/bfnrt'.includes(e)) i += 2;
        else return false;
      } else i++;
    }
    return false;
  };
  const number = (): boolean => {
    const m = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
    m.lastIndex = i;
    if (!m.exec(source)) return false;
    i = m.lastIndex;
    return true;
  };
  const value = (depth: number): boolean => {
    if (depth > 10_000) throw new RangeError('too deep');
    space();
    const c = source[i];
    if (c === '{') {
      i++;
      space();
      if (source[i] === '}') return ++i > 0;
      for (;;) {
        space();
        if (!string()) return false;
        space();
        if (source[i] !== ':') return false;
        i++;
        if (!value(depth + 1)) return false;
        space();
        if (source[i] === ',') i++;
        else if (source[i] === '}') return ++i > 0;
        else return false;
      }
    }
    if (c === '[') {
      i++;
      space();
      if (source[i] === ']') return ++i > 0;
      for (;;) {
        if (!value(depth + 1)) return false;
        space();
        if (source[i] === ',') i++;
        else if (source[i] === ']') return ++i > 0;
        else return false;
      }
    }
    if (c === '"') return string();
    if (c === 't') return literal('true');
    if (c === 'f') return literal('false');
    if (c === 'n') return literal('null');
    return number();
  };
  try {
    if (!value(0)) return i;
    space();
    return i < source.length ? i : null;
  } catch {
    return null;
  }
}
