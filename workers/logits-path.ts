// Which graph gives the logits rows of a loaded model (see LogitsPath in model-check.ts), and the
// check a rewritten graph passes before Jiangu trusts it: a short prompt run once keeping every row
// (num_logits_to_keep = 0: the author's math, the head over every position) and once keeping one;
// the last rows' log-probabilities must agree. The check's cost is that prompt's rows, no more.
import { Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { ANSWER_CUE, sampleCmmluPrompt, type LogitsPath } from '../src/lib/core/models/model-check.ts';
import { notice } from '../src/lib/core/notices/index.ts';
import { refusalOf, refusalParams } from '../src/lib/core/models/logits-rewrite.ts';
import type { RewriteOutcome } from './logits-rewrite-hook.ts';
import { logitsRows } from './logits.ts';
import { encode, idsTensor, onesTensor } from './loaded-model.ts';
import { disposeOutputs } from './scoring.ts';

/** The check's prompt length: enough positions for attention to matter, few enough to cost nothing. */
export const CHECK_TOKENS = 16;
/**
 * How closely the last row's log-probabilities, every row against one row, must agree. fp32 and fp16 are
 * bit-identical, and so is q8 on the fixtures (the slice sits after DynamicQuantizeLinear), though
 * not on the hub's q8 head (see DYNAMICALLY_QUANTIZED). MatMulNBits (q4, q4f16)
 * runs another kernel for one row than for many, so its sums round differently: up to 2.4e-6 in q4
 * and one float16 step in q4f16 on the fixtures (a step is 2^-6 ≈ 0.016 for logits of 8 to 16), and
 * more for a wider hidden size. A slice in the wrong place (another row, another axis) moves the
 * log-probabilities by whole units, so these bounds still catch it.
 */
export function checkTolerance(dtype: string): number {
  if (dtype === 'q4f16') return 5e-2;
  if (dtype === 'q4' || dtype === 'bnb4') return 1e-3;
  if (DYNAMICALLY_QUANTIZED.has(dtype)) return 1e-4;
  return 1e-5;
}

/**
 * q8's bound. The hub's q8 head over a tied embedding is a float MatMul: quantize_dynamic leaves a
 * MatMul whose weight is not an initializer (it reads the uint8 embedding through Transpose and
 * DequantizeLinear; scripts/fixtures/hub-quant.ts), and a float product of one row sums in another
 * order than of many. Qwen2.5-0.5B's shape (`npm run fixtures:real`) differed by 1.12e-5 over
 * 151,936 tokens on WASM, where the fixtures' own MatMulInteger heads agree exactly; 1e-4 still
 * sits far below a wrong row's whole units.
 */
const DYNAMICALLY_QUANTIZED = new Set(['q8', 'int8', 'uint8']);

/** The path a load's outcome gives before any check (`rewritten` is confirmed by checkRewrittenLogits). */
export function logitsPathOf(outcome: RewriteOutcome | null, inputNames: readonly string[]): LogitsPath {
  const declares = inputNames.includes('num_logits_to_keep');
  if (outcome === null) return declares ? { kind: 'native' } : { kind: 'chunked', refusal: notice('model.logits-rewrite-off') };
  switch (outcome.kind) {
    case 'not-needed':
      return { kind: 'native' };
    case 'off':
      return declares ? { kind: 'native' } : { kind: 'chunked', refusal: notice('model.logits-rewrite-off') };
    case 'rewritten':
      return { kind: 'rewritten' };
    case 'unrecognised':
      return { kind: 'chunked', refusal: notice('model.logits-unrecognised', refusalParams(outcome.refusal)) };
    case 'session-refused':
      return { kind: 'chunked', refusal: notice('model.logits-session-refused', { detail: outcome.detail }) };
    case 'not-seen':
      return declares
        ? { kind: 'native' }
        : { kind: 'chunked', refusal: notice('model.logits-unrecognised', refusalParams(refusalOf({ kind: 'not-bytes' }))) };
  }
}

/** log-softmax of one row, in float64. */
function logSoftmax(row: Float32Array): Float64Array {
  let max = -Infinity;
  for (const v of row) if (v > max) max = v;
  let sum = 0;
  for (const v of row) sum += Math.exp(v - max);
  const log = max + Math.log(sum);
  return Float64Array.from(row, (v) => v - log);
}

/** The last logits row of `ids` with num_logits_to_keep = `keep` (0: every row). */
async function lastRow(model: PreTrainedModel, ids: number[], keep: bigint): Promise<{ row: Float32Array; rows: number }> {
  const outputs = (await model.forward({ input_ids: idsTensor(ids), attention_mask: onesTensor(ids.length), num_logits_to_keep: new Tensor('int64', [keep], []) })) as Record<string, Tensor>;
  const logits = outputs.logits;
  const [, rows, vocab] = logits.dims as [number, number, number];
  const row = logitsRows(logits, (rows - 1) * vocab, rows * vocab);
  await disposeOutputs(outputs);
  return { row, rows };
}

export interface RewriteCheck {
  passed: boolean;
  tokens: number;
  /** Largest |difference| of the last position's log-probabilities; Number.MAX_VALUE when not comparable. */
  maxAbsDiff: number;
}

/** Scores a short prompt with every row and with one row on the rewritten `model`; they must agree. */
export async function checkRewrittenLogits(model: PreTrainedModel, tokenizer: PreTrainedTokenizer, dtype: string): Promise<RewriteCheck> {
  // Classical text ending in the answer cue, cut to CHECK_TOKENS: the shape every scored prompt has.
  const ids = encode(tokenizer, sampleCmmluPrompt(CHECK_TOKENS + ANSWER_CUE.length), true).slice(-CHECK_TOKENS);
  const all = await lastRow(model, ids, 0n);
  const one = await lastRow(model, ids, 1n);
  // Every row must really be every row, and one row one: otherwise the slice is not where it should be.
  if (all.rows !== ids.length || one.rows !== 1 || all.row.length !== one.row.length || all.row.length === 0) {
    return { passed: false, tokens: ids.length, maxAbsDiff: Number.MAX_VALUE };
  }
  const maxAbsDiff = logProbDiff(all.row, one.row);
  return { passed: maxAbsDiff <= checkTolerance(dtype), tokens: ids.length, maxAbsDiff };
}

/** The check's comparison: the largest |difference| of two logits rows' log-probabilities (NaN: Number.MAX_VALUE). */
export function logProbDiff(all: Float32Array, one: Float32Array): number {
  const a = logSoftmax(all);
  const b = logSoftmax(one);
  let maxAbsDiff = 0;
  for (let i = 0; i < a.length; i++) {
    const d = Math.abs(a[i] - b[i]);
    // NaN compares false: treat it as the largest difference.
    maxAbsDiff = d > maxAbsDiff || Number.isNaN(d) ? (Number.isNaN(d) ? Number.MAX_VALUE : d) : maxAbsDiff;
  }
  return maxAbsDiff;
}
