// Reading an untrusted run file field by field. Each check names the field as a path
// (`results[12].prediction`) and says what was expected and what was there; objects are rebuilt from
// the known fields only, so nothing unexpected (a `__proto__` key, a field of a newer version)
// reaches the store. Unknown fields are not an error: they are dropped and listed in a warning.
// Every problem is a refusal (a code and parameters, catalog-import.ts), worded where it is shown.
import { importRefusals } from '../notices/catalog-import.ts';
import type { Expected, Found } from '../notices/catalog-import-fields.ts';
import { JianguError, notice, type Notice, type NoticeParam, type NoticeParams } from '../notices/index.ts';
import { MAX_NAME_CHARS, nameProblem } from '../text-safety.ts';
import type { ItemResult, RunRecord } from '../record/run.ts';

/** A run read from a file, with `run.origin` set and every result's runId equal to `run.id`; not yet stored. */
export interface ImportedRun {
  run: RunRecord;
  results: ItemResult[];
}

export type RefusalCode = keyof typeof importRefusals;
type RefusalArgs<C extends RefusalCode> = Parameters<(typeof importRefusals)[C]['en']>;

/** What is wrong with a file, as a code and parameters, without the file's name. */
export interface Refusal {
  code: RefusalCode;
  params: NoticeParams;
}

/** Builds a refusal, its parameters checked against the message. */
export function refusal<C extends RefusalCode>(code: C, ...params: RefusalArgs<C>): Refusal {
  return { code, params: (params[0] ?? {}) as NoticeParams };
}

const refusalEnglish = (r: Refusal): string => (importRefusals[r.code].en as (p: NoticeParams) => string)(r.params);

/**
 * Thrown by parseRunFile (and store/runs.ts importRun) for anything wrong with a file. Its notice is
 * the refusal's code with the file name added to its parameters; its message, the English sentence
 * `<file>: <detail>`.
 */
export class RunImportError extends JianguError {
  override readonly name = 'RunImportError';
  readonly fileName: string;
  readonly refusal: Refusal;
  /** The English message without the file name. */
  readonly detail: string;

  /** `detail` as a string is a sentence without a code (shown as it is, in English): prefer a Refusal. */
  constructor(fileName: string, detail: Refusal | string, options?: ErrorOptions) {
    const r = typeof detail === 'string' ? refusal('import.failed', { detail }) : detail;
    super(notice(r.code, { ...r.params, fileName } as never), options);
    this.fileName = fileName;
    this.refusal = r;
    this.detail = refusalEnglish(r);
  }
}

/** A problem at one place in the file; parseRunFile turns it into a RunImportError with the file name. */
export class FieldProblem extends Error {
  override readonly name = 'FieldProblem';
  readonly refusal: Refusal;

  constructor(r: Refusal) {
    super(refusalEnglish(r));
    this.refusal = r;
  }
}

/** `throw problem('import.letter-twice', { path, letter })`. */
export function problem<C extends RefusalCode>(code: C, ...params: RefusalArgs<C>): FieldProblem {
  return new FieldProblem(refusal(code, ...params));
}

/** The most an imported file may hold; each is named in the message when exceeded. */
export const RUN_IMPORT_LIMITS = {
  /** UTF-8 bytes of the file. */
  bytes: 64 * 1024 * 1024,
  /** Per-item results (lm-eval: samples) in one file, and item ids in one run. */
  results: 200_000,
  /** Ids, task keys, hashes, names, versions, paths: the benchmark importers' limit for ids too. */
  shortChars: MAX_NAME_CHARS,
  /** Prompts, outputs, references, warnings. */
  textChars: 1_000_000,
  /** Short lists: tasks, dataset files, warnings, exemplars, references, summary keys. */
  listEntries: 10_000,
} as const;

/**
 * What a real model, harness or run can produce: a raw number of a file outside these bounds was not
 * made by one, and is refused at the border (never formatted later into a number wider than its
 * column). Each bound says why it holds; fields/run-file.ts and fields/lm-eval.ts name where each applies.
 */
export const RAW_BOUNDS = {
  /**
   * The lowest log-probability of one token: log softmax is a logit minus the row's log-sum-exp, so
   * it is at least −(largest logit − smallest logit) − ln(vocabulary). A half-precision model's logits
   * lie within ±65,504 (fp16's largest finite value), so the gap is below 131,008 + ln(2^24); a
   * float32 model's logits are far smaller in practice (tens). −131,072 (−2^17) covers both.
   */
  tokenLogProb: -131_072,
  /**
   * Tokens in one context, prompt, continuation or output, and a context limit: no model this site
   * runs (nor the harness's) has 2^24 = 16,777,216 positions.
   */
  tokens: 1 << 24,
  /**
   * The largest context of a model whose numbers a file may hold: 2^17 = 131,072 tokens, above every
   * preset's positions (Qwen2.5-0.5B 32,768, Qwen3-0.6B 40,960, SmolLM2-360M 8,192) and the long
   * contexts of small models today. An option's continuation is scored inside one context, so it has
   * at most this many tokens, and its summed log-likelihood at least tokenLogProb times it.
   */
  contextTokens: 1 << 17,
  /** A token id: no vocabulary has 2^24 entries (the largest are about 256k). */
  tokenId: 1 << 24,
  /** Milliseconds one item (or one rotation) took: a week is longer than any item runs. */
  ms: 7 * 24 * 3600 * 1000,
  /** A summary value: a percent (0 to 100) or a count of items, at most RUN_IMPORT_LIMITS.results. */
  summaryValue: 200_000,
  /** A number in a stored notice's parameters (counts, tokens, bytes, seconds): a terabyte's bytes is more than any. */
  noticeNumber: 1e12,
  /** The gap between two log-probabilities of one token (a backend check): twice tokenLogProb's bound at most. */
  logProbGap: 2 * 131_072,
  /** Tokens a continuation may have beyond its UTF-8 bytes: a byte-level tokenizer has at most one a byte, and a marker or two (SentencePiece's ▁) besides. */
  extraTokens: 16,
  /** The harness's --limit (a share below 1, or docs per task) and a task version: well below 10^9. */
  harnessNumber: 1e9,
} as const;

/**
 * The lowest summed log-likelihood a continuation of `bytes` UTF-8 bytes can have when its token
 * count is not known (a harness file): one token's lowest times the most tokens it can be, one a byte
 * and a few markers, and never more than a context holds (RAW_BOUNDS.contextTokens).
 */
export const lowestLogLikelihood = (bytes: number): number => RAW_BOUNDS.tokenLogProb * Math.min(bytes + RAW_BOUNDS.extraTokens, RAW_BOUNDS.contextTokens);

export type Obj = Record<string, unknown>;

const SHA256_HEX = /^[0-9a-f]{64}$/;
/** What lenient JSON parsing turns Python's bare NaN and infinities into (see parseJson). */
const NON_FINITE_STRINGS = new Set(['NaN', 'Infinity', '-Infinity']);

/** Says what a value is, briefly, for a message. */
export function describe(value: unknown): Found {
  if (value === undefined) return { found: 'missing' };
  if (value === null) return { found: 'null' };
  if (Array.isArray(value)) return { found: 'list', length: value.length };
  if (typeof value === 'string') return { found: 'string', quoted: JSON.stringify(value.slice(0, 40)), length: value.length, cut: value.length > 40 };
  if (typeof value === 'object') return { found: 'object' };
  return { found: 'other', text: String(value) };
}

export function fail(path: string, expected: Expected, value: unknown): never {
  throw problem('import.field-wrong', { path, ...expected, ...describe(value) });
}

/** fail, for a value already described (a bare NaN is named as such, not quoted). */
export function failFound(path: string, expected: Expected, found: Found): never {
  throw problem('import.field-wrong', { path, ...expected, ...found });
}

/** `results[12].letters[0]` → `results[*].letters[*]`, so one unknown field of many results is listed once. */
const generalPath = (path: string): string => path.replace(/\[\d+\]/g, '[*]');

/** Reads objects, remembering the fields it did not know. */
export class FieldReader {
  /** Paths (with [*] for list positions) of fields that were present but not read. */
  readonly ignored = new Set<string>();
  /** Paths (with [*]) of every field an object read here may hold, present or not: what the reader knows (fields/ checks its table against it). */
  readonly known = new Set<string>();

  /** An object with every key of `required`; keys in neither list are recorded in `ignored`. */
  object(value: unknown, path: string, required: readonly string[], optional: readonly string[] = []): Obj {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, { expected: 'object' }, value);
    const known = new Set([...required, ...optional]);
    for (const key of known) this.known.add(generalPath(`${path}.${key}`));
    for (const key of Object.keys(value)) if (!known.has(key)) this.ignored.add(generalPath(`${path}.${key.slice(0, 60)}`));
    for (const key of required) if (!Object.hasOwn(value, key)) fail(`${path}.${key}`, { expected: 'value' }, undefined);
    return value as Obj;
  }

  /** A warning listing the ignored fields, or null. */
  ignoredWarning(): Notice | null {
    if (this.ignored.size === 0) return null;
    const list = [...this.ignored];
    return notice('import.unknown-fields', { fields: list.slice(0, 10), more: Math.max(0, list.length - 10) });
  }
}

/** Any JSON object (no field checks), for formats with many fields we do not read (lm-eval). */
export function anyObject(value: unknown, path: string): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) fail(path, { expected: 'object' }, value);
  return value as Obj;
}

/**
 * A name-like string: an id, a task key, a path, a version. The rule is the benchmark importers'
 * (text-safety.ts nameProblem): no invisible or direction character, so what they store can be read back.
 */
export function name(value: unknown, path: string, max: number = RUN_IMPORT_LIMITS.shortChars): string {
  if (typeof value !== 'string') fail(path, { expected: 'string' }, value);
  const bad = nameProblem(value, max);
  if (bad?.kind === 'too-long') throw problem('import.too-long', { path, max, length: value.length });
  if (bad) throw problem('import.control-character', { path, codePoint: bad.codePoint, position: bad.position });
  return value;
}

/** A non-empty name. */
export function id(value: unknown, path: string): string {
  const s = name(value, path);
  if (s.length === 0) fail(path, { expected: 'non-empty-string' }, value);
  return s;
}

/** Free text (a prompt, an output): any characters, bounded length. */
export function text(value: unknown, path: string, max: number = RUN_IMPORT_LIMITS.textChars): string {
  if (typeof value !== 'string') fail(path, { expected: 'string' }, value);
  if (value.length > max) throw problem('import.too-long', { path, max, length: value.length });
  return value;
}

export function sha256(value: unknown, path: string): string {
  if (typeof value !== 'string' || !SHA256_HEX.test(value)) fail(path, { expected: 'sha256' }, value);
  return value;
}

/** An ISO 8601 date-time, as toISOString writes it (any string Date.parse reads is accepted). */
export function isoDate(value: unknown, path: string): string {
  if (typeof value !== 'string' || value.length > 40 || !Number.isFinite(Date.parse(value))) fail(path, { expected: 'iso-date' }, value);
  return value;
}

export function int(value: unknown, path: string, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) fail(path, { expected: 'integer', min, max }, value);
  return value;
}

/** A finite number in [min, max]. NaN and infinities (Python writes them bare) are named as such. */
export function finite(value: unknown, path: string, min = -Number.MAX_VALUE, max = Number.MAX_VALUE): number {
  if (typeof value === 'string' && NON_FINITE_STRINGS.has(value)) failFound(path, { expected: 'finite', min: null, max: null }, { found: 'other', text: value });
  const low = min !== -Number.MAX_VALUE;
  const high = max !== Number.MAX_VALUE;
  if (typeof value !== 'number' || !Number.isFinite(value) || value < min || value > max) fail(path, { expected: 'finite', min: low ? min : null, max: high ? max : null }, value);
  return value;
}

export function bool(value: unknown, path: string): boolean {
  if (typeof value !== 'boolean') fail(path, { expected: 'boolean' }, value);
  return value;
}

/** One of a fixed set; a Record (not an array) so a new member of the union must be listed to compile. */
export function oneOf<T extends string>(value: unknown, path: string, set: Record<T, true>): T {
  if (typeof value !== 'string' || !Object.hasOwn(set, value)) fail(path, { expected: 'one-of', set: Object.keys(set) }, value);
  return value as T;
}

export function list<T>(value: unknown, path: string, max: number, item: (v: unknown, path: string) => T): T[] {
  if (!Array.isArray(value)) fail(path, { expected: 'list' }, value);
  if (value.length > max) throw problem('import.too-many-entries', { path, max, count: value.length });
  return value.map((v, i) => item(v, `${path}[${i}]`));
}

/**
 * A stored warning: a plain sentence (records of older versions) or a notice, rebuilt from its code
 * and its parameters of the JSON kinds a notice may hold. A code this version does not know is kept:
 * the page shows it as its code and parameters.
 */
export function storedWarning(value: unknown, path: string, max: number): string | Notice {
  if (typeof value === 'string') return text(value, path, max);
  if (typeof value !== 'object' || value === null || Array.isArray(value) || !('code' in value) || !('params' in value)) fail(path, { expected: 'warning' }, value);
  const o = value as Obj;
  const code = id(o.code, `${path}.code`);
  const params = anyObject(o.params, `${path}.params`);
  const entries = Object.entries(params);
  if (entries.length > 100) throw problem('import.too-many-entries', { path: `${path}.params`, max: 100, count: entries.length });
  const param = (v: unknown, p: string): NoticeParam => {
    if (v === null || typeof v === 'boolean') return v;
    if (typeof v === 'number') return finite(v, p, -RAW_BOUNDS.noticeNumber, RAW_BOUNDS.noticeNumber);
    if (typeof v === 'string') return text(v, p, max);
    if (Array.isArray(v) && v.every((x) => typeof x === 'number')) return list(v, p, RUN_IMPORT_LIMITS.listEntries, (x, q) => finite(x, q, -RAW_BOUNDS.noticeNumber, RAW_BOUNDS.noticeNumber));
    return list(v, p, RUN_IMPORT_LIMITS.listEntries, (x, q) => text(x, q, max));
  };
  // fromEntries defines own properties, so a key named __proto__ stays a plain key.
  return { code, params: Object.fromEntries(entries.map(([key, v]) => [name(key, `${path}.params key ${JSON.stringify(key.slice(0, 60))}`), param(v, `${path}.params.${key.slice(0, 60)}`)])) };
}

/** A flat summary (key → number or null), as runSummary makes: each value a percent or a count (RAW_BOUNDS.summaryValue). */
export function summaryRecord(value: unknown, path: string): Record<string, number | null> {
  const o = anyObject(value, path);
  const entries = Object.entries(o);
  if (entries.length > RUN_IMPORT_LIMITS.listEntries) throw problem('import.too-many-entries', { path, max: RUN_IMPORT_LIMITS.listEntries, count: entries.length });
  // fromEntries defines own properties, so a key named __proto__ stays a plain key.
  return Object.fromEntries(
    entries.map(([key, v]) => {
      name(key, `${path} key ${JSON.stringify(key.slice(0, 60))}`);
      return [key, v === null ? null : finite(v, `${path}.${key}`, 0, RAW_BOUNDS.summaryValue)];
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
    throw new FieldProblem(jsonErrorWhere(source, strictError));
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

function jsonErrorWhere(source: string, error: unknown): Refusal {
  // Engines differ in what they say (and newer V8 quotes the source, newlines and all): say it ourselves.
  const offset = syntaxErrorOffset(source);
  if (offset === null) return refusal('import.not-json-other', { path: null, detail: error instanceof Error ? error.message : String(error) });
  const before = source.slice(0, offset);
  const line = before.split('\n').length;
  const column = offset - before.lastIndexOf('\n');
  if (offset >= source.length) return refusal('import.json-cut-off', { path: null, line, column });
  return refusal('import.not-json', { path: null, character: JSON.stringify(String.fromCodePoint(source.codePointAt(offset)!)), line, column });
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
