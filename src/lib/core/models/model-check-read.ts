// A stored model check read back (a run record from a file, issue 34): the shape this version writes,
// and every number the check's panel prints (ModelCheck.svelte) within a bound a real model and
// browser can produce, stated here. A check of another shape only describes a run and decides no
// number, so it is dropped; a number out of its bound is a forged or broken file, refused naming it.
import type { ModelCheck } from './model-check.ts';

/** 2^24: no vocabulary, context or graph dimension this site (or any browser) runs reaches it. */
const BIG = 1 << 24;

/**
 * Each number of a check (paths as the FieldReader writes them, list positions `[*]`): its range and
 * why. fields/run-file.ts and fields/memorization-export.ts class each as raw with this sentence.
 */
export const MODEL_CHECK_NUMBERS: Readonly<Record<string, { min: number; max: number; why: string }>> = (() => {
  const bytes = { min: 0, max: 2 ** 40, why: 'bytes: 0 to 2^40 (1 TiB; a tab\'s WebAssembly memory is at most 16 GiB, a WebGPU buffer a few GiB; printed as at most "1,024.00 GB")' };
  const tokens = { min: 0, max: BIG, why: 'tokens: 0 to 2^24 (RAW_BOUNDS.tokens: no model has that many positions)' };
  const id = { min: 0, max: BIG, why: 'a token id: 0 to 2^24 (no vocabulary has 2^24 entries)' };
  const shape = { min: 1, max: 1 << 16, why: '1 to 2^16: no transformer has that many layers or heads, nor heads that wide' };
  const count = { min: 0, max: BIG, why: 'a count of graph nodes or outputs: 0 to 2^24 (the graphs a tab runs have thousands)' };
  const notice = { min: -1e12, max: 1e12, why: 'a number in a notice\'s sentence: within ±10^12 (RAW_BOUNDS.noticeNumber)' };
  const perValue = { min: 1, max: 8, why: 'bytes a value: 1 to 8 (float64 is the widest element type)' };
  return {
    // Only version 1 is read (another is dropped), but a number that is no version at all is refused.
    version: { min: 0, max: 1000, why: 'the check\'s format version: 0 to 1,000 (this version writes 1; another is dropped)' },
    'graph.opsets[*].version': { min: 0, max: 1000, why: 'an opset version: 0 to 1,000 (ONNX\'s are in the twenties)' },
    'graph.inputs[*].dims[*]': { min: 0, max: BIG, why: 'a fixed dimension: 0 to 2^24 (a vocabulary is the widest)' },
    'graph.outputs[*].dims[*]': { min: 0, max: BIG, why: 'a fixed dimension: 0 to 2^24 (a vocabulary is the widest)' },
    'graph.ops[*].count': count,
    'graph.nodes': count,
    'logitsPath.check.tokens': tokens,
    'logitsPath.check.maxAbsDiff': { min: 0, max: 2 * 131_072, why: 'a log-probability difference: 0 to 2 × 2^17 (RAW_BOUNDS.logProbGap)' },
    'statisticsPath.check.tokens': tokens,
    'statisticsPath.check.maxAbsDiff': { min: 0, max: 2 * 131_072, why: 'a log-probability difference: 0 to 2 × 2^17 (RAW_BOUNDS.logProbGap)' },
    'externalData[*].bytes': bytes,
    'letters[*].tokenId': id,
    'letters[*].tokenCount': { min: 0, max: 64, why: 'tokens of one letter: 0 to 64 (a byte-level tokenizer spends at most 4 on a character, and markers)' },
    'letters[*].idsInContext[*]': id,
    'letters[*].aloneIds[*]': id,
    'prompt.chars': { min: 0, max: BIG, why: 'characters of the stand-in prompt: 0 to 2^24 (it has 446)' },
    'prompt.tokens': tokens,
    positions: tokens,
    'memory.tokens': tokens,
    'memory.weightsBytes': bytes,
    'memory.kvCacheBytes': bytes,
    'memory.layers': shape,
    'memory.kvHeads': shape,
    'memory.headDim': shape,
    'memory.kvBytesPerValue': perValue,
    'memory.rowsPerPass': tokens,
    'memory.passes': tokens,
    'memory.vocab': id,
    'memory.logitsBytesPerValue': perValue,
    'memory.logitsBlockBytes': bytes,
    // A warning's parameters are printed in its sentence (counts, tokens, bytes): as a stored notice's (RAW_BOUNDS.noticeNumber).
    'warnings[*].params.*': notice,
    'logitsPath.refusal.params.*': notice,
    'statisticsPath.refusal.params.*': notice,
  };
})();

/** The first number of a check out of its bound: where (below the check) and what. */
export interface ModelCheckOutOfRange {
  path: string;
  value: number;
  min: number;
  max: number;
}

type Guard = (v: unknown, at: string) => boolean;
/** Set by a number guard that found a number out of its bound (the read is synchronous: one at a time). */
let outOfRange: ModelCheckOutOfRange | null = null;

const general = (path: string) => path.replace(/\[\d+\]/g, '[*]');
const isStr: Guard = (v) => typeof v === 'string';
const isBool: Guard = (v) => typeof v === 'boolean';
/** A number within its bound in MODEL_CHECK_NUMBERS (looked up by the path it is at). */
const isNum: Guard = (v, at) => {
  if (typeof v !== 'number' || !Number.isFinite(v)) return false;
  const bound = MODEL_CHECK_NUMBERS[general(at)] ?? MODEL_CHECK_NUMBERS[general(at).replace(/\.[^.[]+$/, '.*')];
  if (!bound) throw new Error(`model check: no bound for ${at}`);
  if (v < bound.min || v > bound.max) {
    outOfRange ??= { path: at, value: v, min: bound.min, max: bound.max };
    return false;
  }
  return true;
};
const orNull = (g: Guard): Guard => (v, at) => v === null || g(v, at);
const optional = (g: Guard): Guard => (v, at) => v === undefined || g(v, at);
const listOf = (g: Guard): Guard => (v, at) => Array.isArray(v) && v.length <= 10_000 && v.every((x, i) => g(x, `${at}[${i}]`));
const isObj = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const shape = (fields: Record<string, Guard>): Guard => (v, at) => isObj(v) && Object.entries(fields).every(([k, g]) => g(v[k], at ? `${at}.${k}` : k));
const oneOf = (...values: readonly unknown[]): Guard => (v) => values.includes(v);
/** A notice's parameters: each number (or list of numbers) within the warning bound. */
const isParams: Guard = (v, at) => isObj(v) && Object.entries(v).every(([k, x]) => (Array.isArray(x) ? x.every((y) => typeof y !== 'number' || isNum(y, `${at}.${k}`)) : typeof x !== 'number' || isNum(x, `${at}.${k}`)));
const isNotice = shape({ code: isStr, params: isParams });
const isValue = shape({ name: isStr, elemType: isStr, dims: listOf((d, at) => isStr(d, at) || isNum(d, at)) });
const isPath = (...kinds: string[]): Guard =>
  optional(shape({ kind: oneOf(...kinds), refusal: optional(isNotice), check: optional(shape({ tokens: isNum, maxAbsDiff: isNum })) }));
const isCheck = shape({
  version: (v, at) => isNum(v, at) && v === 1,
  onnxFile: isStr,
  dtype: isStr,
  backend: oneOf('webgpu', 'wasm'),
  graph: orNull(shape({ producer: isStr, opsets: listOf(shape({ domain: isStr, version: isNum })), inputs: listOf(isValue), outputs: listOf(isValue), ops: listOf(shape({ domain: isStr, opType: isStr, count: isNum })), nodes: isNum })),
  inputNames: listOf(isStr),
  keepsLastRow: isBool,
  logitsPath: isPath('native', 'rewritten', 'chunked'),
  statisticsPath: isPath('graph', 'worker'),
  attention: oneOf('GroupQueryAttention', 'MultiHeadAttention', 'MatMul', 'unknown'),
  kvDtype: orNull(isStr),
  logitsDtype: orNull(isStr),
  externalData: listOf(shape({ file: isStr, bytes: orNull(isNum) })),
  externalHow: oneOf('config', 'detected', null),
  answerCue: isStr,
  letters: listOf(shape({ letter: isStr, tokenId: orNull(isNum), tokenCount: isNum, idsInContext: listOf(isNum), aloneIds: listOf(isNum), mergesWithPrompt: isBool })),
  prompt: shape({ chars: isNum, tokens: isNum, source: oneOf('lunyu-sample') }),
  positions: orNull(isNum),
  chatTemplate: orNull(shape({ opening: isStr, closing: isStr, thinking: oneOf('off', 'none', 'not-off') })),
  memory: shape({
    tokens: isNum, weightsBytes: orNull(isNum), kvCacheBytes: orNull(isNum), layers: orNull(isNum), kvHeads: orNull(isNum), headDim: orNull(isNum),
    kvBytesPerValue: isNum, rowsPerPass: isNum, passes: isNum, vocab: orNull(isNum), logitsBytesPerValue: isNum, logitsBlockBytes: orNull(isNum),
  }),
  warnings: listOf(isNotice),
});

/**
 * A stored check read back: `check` when it has the shape this version writes with every number in
 * its bound; `outOfRange` naming the first number out of its bound (the importers refuse the file);
 * neither when its shape is another version's (dropped: it only describes the run).
 */
export function readModelCheck(value: unknown): { check?: ModelCheck; outOfRange?: ModelCheckOutOfRange } {
  outOfRange = null;
  const ok = isCheck(value, '');
  const found = outOfRange as ModelCheckOutOfRange | null;
  outOfRange = null;
  if (found) return { outOfRange: found };
  return ok ? { check: value as ModelCheck } : {};
}

/** A stored check when it can be shown (shape and bounds), else undefined. */
export function modelCheckOf(value: unknown): ModelCheck | undefined {
  return readModelCheck(value).check;
}
