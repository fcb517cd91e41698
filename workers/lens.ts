// The logit lens of a passage (issue 37 §3) on a session whose graph carries the lens outputs
// (src/lib/core/models/lens-rewrite.ts): every layer's top 5 next tokens and their probabilities at
// every position, from passes that fetch the lens outputs and the KV cache only, never the logits
// (rows × vocabulary) or anything else. And the load check that must pass before the lens is
// trusted: the last layer's lens is the model's own distribution, so on a short prompt its top 5
// must be the logits' top 5 with their softmax probabilities (lastLayerAgreement).
import { Tensor, type DynamicCache, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { ANSWER_CUE, sampleCmmluPrompt } from '../src/lib/core/models/model-check.ts';
import { lastLayerAgreement, lensCheckTolerance, LENS_OUTPUTS, type LensAgreement, type LensGrid } from '../src/lib/core/models/lens-rewrite.ts';
import { CHECK_TOKENS } from './logits-path.ts';
import { logitsRows } from './logits.ts';
import { encode, idsTensor, onesTensor, RequestError, type Loaded } from './loaded-model.ts';
import type { LensPath } from '../src/lib/core/models/model-check.ts';
import { notice } from '../src/lib/core/notices/index.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import type { LogitLensParams, LogitLensResult } from '../src/lib/engine/messages.ts';
import type { LensOutcome } from './logits-rewrite-hook.ts';
import { piecesOf, tokenText } from './reading.ts';
import { installLensGate, withLensPass } from './lens-gate.ts';
import { cacheOf, disposeOutputs, forward } from './scoring.ts';
import { rowsPerPass } from './statistics.ts';

interface RunnableSession {
  run: (feeds: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;
  readonly inputNames: readonly string[];
  outputNames: readonly string[];
}

function sessionOf(model: PreTrainedModel): RunnableSession {
  return (model as unknown as { sessions: Record<string, RunnableSession> }).sessions.model;
}

/** A lens pass's outputs as a grid (ids as int32: every vocabulary fits). */
export function lensGridOf(outputs: Record<string, Tensor>): LensGrid | null {
  const ids = outputs[LENS_OUTPUTS.topIds];
  const probs = outputs[LENS_OUTPUTS.topProbs];
  if (!ids || !probs || ids.dims.length !== 4 || ids.dims.join() !== probs.dims.join() || ids.dims[0] !== 1) return null;
  const [, layers, rows, k] = ids.dims as number[];
  return { layers, rows, k, topIds: Int32Array.from(ids.data as BigInt64Array, Number), topProbs: Float32Array.from(probs.data as Float32Array) };
}

/**
 * The lens of a passage of token ids, from an empty cache. Layout (LensGrid): topIds and topProbs
 * hold, for layer l (0 = after the first decoder layer, layers − 1 = the model's output), row r
 * (the prediction after ids[0 … r], i.e. of ids[r + 1]) and rank j (0 = most probable), the value
 * at ((l · rows) + r) · k + j. Passes of at most rowsPerPass(m) rows through the KV cache: each
 * layer's [rows, vocab] probabilities exist inside the session as the logits do, so the same bound
 * holds (and q8's fixed pass size keeps its numbers those of the rest of Jiangu).
 */
export async function logitLens(m: Loaded, ids: readonly number[]): Promise<LensGrid & { passes: number; forwardMs: number }> {
  const started = performance.now();
  const session = sessionOf(m.model);
  if (!session.outputNames.includes(LENS_OUTPUTS.topIds)) throw new RangeError('the model was loaded without the logit lens');
  // The worker's hook installed the gate when it created the session; a session made another way
  // (transformers.js alone, as lens-worker.test.ts loads one) gets it here. Installing twice is a no-op.
  installLensGate(session);
  const fetches = session.outputNames.filter((n) => n.startsWith('present') || n === LENS_OUTPUTS.topIds || n === LENS_OUTPUTS.topProbs);
  const step = rowsPerPass(m);
  const total = ids.length;
  let grid: LensGrid | null = null;
  let cache: DynamicCache | null = null;
  let passes = 0;
  for (let start = 0; start < total; start += step) {
    const chunk = ids.slice(start, start + step);
    const last = start + step >= total;
    const outputs: Record<string, Tensor> = await withLensPass(fetches, () => forward(m, chunk, cache, start, 0));
    const next = last ? null : cacheOf(outputs);
    try {
      const part = lensGridOf(outputs);
      if (part === null || part.rows !== chunk.length) throw new RangeError(`a lens pass of ${chunk.length} tokens returned ${part ? `${part.rows} rows` : 'no lens'}`);
      grid ??= { layers: part.layers, rows: total, k: part.k, topIds: new Int32Array(part.layers * total * part.k), topProbs: new Float32Array(part.layers * total * part.k) };
      for (let l = 0; l < part.layers; l++) {
        const from = l * part.rows * part.k;
        const to = (l * total + start) * part.k;
        grid.topIds.set(part.topIds.subarray(from, from + part.rows * part.k), to);
        grid.topProbs.set(part.topProbs.subarray(from, from + part.rows * part.k), to);
      }
      passes++;
    } finally {
      await disposeOutputs(outputs, new Set(next ? (Object.values(next) as Tensor[]) : []));
      if (cache) await cache.dispose();
    }
    cache = next;
  }
  if (grid === null) throw new RangeError('the passage has no tokens');
  return { ...grid, passes, forwardMs: performance.now() - started };
}

/** The load check's result: numbers for the load record, never a throw for a mismatch. */
export interface LensLoadCheck extends LensAgreement {
  tokens: number;
  /** Why nothing could be compared (the outputs missing or of another shape), else null. */
  problem: string | null;
}

/**
 * One pass of a short prompt keeping every row, fetching the logits and the lens: the last layer's
 * top k must be the logits' top k with their float64 softmax probabilities (lastLayerAgreement, the
 * comparison the Node tests use, where a lens without the final norm or of the layer before fails).
 */
export async function lensLoadCheck(model: PreTrainedModel, tokenizer: PreTrainedTokenizer, dtype: string, declaresKeep: boolean): Promise<LensLoadCheck> {
  const ids = encode(tokenizer, sampleCmmluPrompt(CHECK_TOKENS + ANSWER_CUE.length), true).slice(-CHECK_TOKENS);
  const inputs: Record<string, unknown> = { input_ids: idsTensor(ids), attention_mask: onesTensor(ids.length) };
  if (declaresKeep) inputs.num_logits_to_keep = new Tensor('int64', [0n], []);
  const tolerance = lensCheckTolerance(dtype);
  const failed = (problem: string): LensLoadCheck => ({ passed: false, rows: 0, maxProbDiff: Number.MAX_VALUE, idMismatches: 0, tolerance, tokens: ids.length, problem });
  let outputs: Record<string, Tensor>;
  try {
    installLensGate(sessionOf(model));
    outputs = (await withLensPass([], () => model.forward(inputs))) as Record<string, Tensor>;
  } catch (error) {
    return failed(`the lens pass failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  try {
    const grid = lensGridOf(outputs);
    const logits = outputs.logits;
    if (!grid || !logits) return failed('the pass returned no lens outputs or no logits');
    const [, rows, vocab] = logits.dims as [number, number, number];
    if (grid.rows !== rows || rows !== ids.length) return failed(`the lens has ${grid.rows} rows, the logits ${rows}, for ${ids.length} tokens`);
    return { ...lastLayerAgreement(grid, logitsRows(logits), vocab, tolerance), tokens: ids.length, problem: null };
  } finally {
    await disposeOutputs(outputs);
  }
}

/**
 * The lens path of a load that asked for it: the outcome of the rewrite at create, then, when the
 * outputs went on, the load check; a failed check leaves the session serving everything else (the
 * gate stays off) and says the lens cannot be shown.
 */
export async function lensPathAfterLoad(outcome: LensOutcome | null, model: PreTrainedModel, tokenizer: PreTrainedTokenizer, dtype: string, declaresKeep: boolean): Promise<LensPath> {
  if (!outcome || outcome.kind === 'not-seen') return { kind: 'unavailable', refusal: notice('model.lens-unrecognised', { detail: 'the model file did not reach the session as bytes' }) };
  if (outcome.kind === 'unrecognised') return { kind: 'unavailable', refusal: notice('model.lens-unrecognised', { detail: outcome.refusal.detail }) };
  if (outcome.kind === 'session-refused') return { kind: 'unavailable', refusal: notice('model.lens-session-refused', { detail: outcome.detail }) };
  const check = await lensLoadCheck(model, tokenizer, dtype, declaresKeep);
  const numbers = { tokens: check.tokens, maxProbDiff: check.maxProbDiff, idMismatches: check.idMismatches };
  if (check.passed) return { kind: 'graph', layers: outcome.layers, check: numbers };
  return { kind: 'unavailable', layers: outcome.layers, refusal: check.problem ? notice('model.lens-unrecognised', { detail: check.problem }) : notice('model.lens-check-failed', { tokens: check.tokens, maxProbDiff: check.maxProbDiff, tolerance: check.tolerance }), check: numbers };
}

/** The logitLens request: a text's tokens and its lens, on a load whose lens passed its check. */
export async function logitLensOf(m: Loaded, params: LogitLensParams): Promise<LogitLensResult> {
  if (m.info.lensPath?.kind !== 'graph') throw new RequestError(modelError('bad-request', 'model.lens-not-loaded', []));
  const ids = encode(m.tokenizer, params.text, true);
  if (ids.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  if (params.contextLimit !== undefined && ids.length > params.contextLimit) {
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: '—', tokens: ids.length, limit: params.contextLimit }]));
  }
  const grid = await logitLens(m, ids);
  const texts: Record<number, string> = {};
  for (const id of grid.topIds) texts[id] ??= tokenText(m.tokenizer, id).text;
  return { ids, pieces: piecesOf(m.tokenizer, ids, params.text).pieces, texts, ...grid };
}
