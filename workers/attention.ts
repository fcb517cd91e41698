// Where the model looks (issue 45 §4) on a session whose graph carries the attention tap
// (src/lib/core/models/attention-rewrite.ts): attentionRead runs a passage through the model in
// passes of rowsPerPass rows through the KV cache, each fetching the tap's outputs and the cache
// only (and one logits row where the graph keeps a count), and keeps the passage's rotated queries
// and keys (src/lib/core/reading/attention-passes.ts, which checks every pass against the graph's
// own numbers); attentionAt computes one position's attention in every layer from them
// (src/lib/core/reading/attention.ts). The kept passage is replaced by the next attentionRead and
// dropped on unload or load (dropAttentionPassage).
import { Tensor, type DynamicCache, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { attentionOutput, attentionTensorsOf, ATTENTION_GATE, attentionRefusalParams, type AttentionLayout, type AttentionPath } from '../src/lib/core/models/attention-rewrite.ts';
import { AttentionPassage, attentionTolerances, type AttentionPassProblem, type FloatTensor } from '../src/lib/core/reading/attention-passes.ts';
import { attentionPassParams } from '../src/lib/core/notices/catalog-attention.ts';
import { ANSWER_CUE, sampleCmmluPrompt } from '../src/lib/core/models/model-check.ts';
import { notice } from '../src/lib/core/notices/index.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import type { AttentionAtParams, AttentionAtResult, AttentionReadParams, AttentionReadResult } from '../src/lib/engine/messages.ts';
import type { AttentionOutcome } from './logits-rewrite-hook.ts';
import { CHECK_TOKENS } from './logits-path.ts';
import { halfToFloat } from './logits.ts';
import { encode, idsTensor, onesTensor, RequestError, type Loaded } from './loaded-model.ts';
import { installLensGate, withGatedPass } from './lens-gate.ts';
import { piecesOf } from './reading.ts';
import { cacheOf, disposeOutputs } from './scoring.ts';
import { rowsPerPass } from './statistics.ts';

interface RunnableSession {
  run: (feeds: Record<string, unknown>, ...rest: unknown[]) => Promise<unknown>;
  readonly inputNames: readonly string[];
  outputNames: readonly string[];
}

function sessionOf(model: PreTrainedModel): RunnableSession {
  return (model as unknown as { sessions: Record<string, RunnableSession> }).sessions.model;
}

/** A tensor's values as float32, read back from the GPU first where a pass left it there (present.* on WebGPU). */
async function floatTensor(t: Tensor): Promise<FloatTensor> {
  const data = t.location === 'gpu-buffer' ? await (t as unknown as { ort_tensor: { getData: () => Promise<ArrayLike<number>> } }).ort_tensor.getData() : (t.data as ArrayLike<number>);
  const values = data instanceof Float32Array ? data : data instanceof Uint16Array ? Float32Array.from(data, halfToFloat) : Float32Array.from(data);
  return { dims: t.dims as number[], data: values };
}

/** The outputs an attention pass fetches: the cache (for the next pass) and every layer's tap. */
function fetchesOf(session: RunnableSession, layout: readonly AttentionLayout[]): string[] {
  const tap = layout.flatMap((l, i) => attentionTensorsOf(l).map((what) => attentionOutput(i, what)));
  return [...session.outputNames.filter((n) => n.startsWith('present')), ...tap];
}

/** One pass's numbers into `passage`; the problem when they were not kept. */
async function takePass(passage: AttentionPassage, outputs: Record<string, Tensor>, start: number, rows: number): Promise<AttentionPassProblem | null> {
  const read = new Map<string, FloatTensor>();
  for (const [name, tensor] of Object.entries(outputs)) if (name.startsWith('jiangu_attention.') || /^present\.\d+\.key$/.test(name)) read.set(name, await floatTensor(tensor));
  return passage.addPass((name) => read.get(name), start, rows);
}

/** Whether the session's cache is float16 (fp16, q4f16 graphs): the checks' looser tolerance. */
function float16Cache(session: RunnableSession): boolean {
  const meta = (session as unknown as { inputMetadata?: { name: string; type?: string }[] }).inputMetadata;
  return meta?.some((m) => m.name.startsWith('past_key_values.') && m.type === 'float16') ?? false;
}

/**
 * Runs `ids` in passes of `step` rows from an empty cache, each a pass of the attention gate, into a
 * new AttentionPassage. `forward(ids, cache, past)` is one forward of the model.
 */
async function readPassage(
  session: RunnableSession,
  layout: readonly AttentionLayout[],
  ids: readonly number[],
  step: number,
  forward: (chunk: number[], cache: DynamicCache | null, past: number) => Promise<Record<string, Tensor>>,
): Promise<{ passage: AttentionPassage; passes: number; problem: AttentionPassProblem | null }> {
  // The worker's hook installed the gates when it created the session; installing twice is a no-op.
  installLensGate(session);
  const passage = new AttentionPassage(layout, ids.length, attentionTolerances(float16Cache(session)));
  const fetches = fetchesOf(session, layout);
  let cache: DynamicCache | null = null;
  let passes = 0;
  try {
    for (let start = 0; start < ids.length; start += step) {
      const chunk = ids.slice(start, start + step);
      const last = start + step >= ids.length;
      const outputs = await withGatedPass(ATTENTION_GATE, fetches, () => forward(chunk, cache, start));
      const next = last ? null : cacheOf(outputs);
      let problem: AttentionPassProblem | null = null;
      try {
        passes++;
        problem = await takePass(passage, outputs, start, chunk.length);
      } finally {
        // A refused pass keeps nothing: its cache goes with the rest of its outputs.
        await disposeOutputs(outputs, new Set(next && !problem ? (Object.values(next) as Tensor[]) : []));
        if (cache) await cache.dispose();
        cache = problem ? null : next;
      }
      if (problem) return { passage, passes, problem };
    }
  } finally {
    if (cache) await cache.dispose();
  }
  return { passage, passes, problem: null };
}

/** The passage the last attentionRead kept, and the load it belongs to. */
let kept: { owner: Loaded; passage: AttentionPassage; ids: number[] } | null = null;

/** Forgets the kept passage (unload, a new load). */
export function dropAttentionPassage(): void {
  kept = null;
}

function layoutOf(m: Loaded): AttentionLayout[] {
  const path = m.info.attentionPath;
  if (path?.kind !== 'graph' || !path.layout) throw new RequestError(modelError('bad-request', 'model.attention-not-loaded', []));
  return path.layout;
}

/** The attentionRead request: a text's tokens, read and kept for attentionAt (see the top of this file). */
export async function attentionRead(m: Loaded, params: AttentionReadParams): Promise<AttentionReadResult> {
  const started = performance.now();
  const layout = layoutOf(m);
  kept = null;
  const ids = encode(m.tokenizer, params.text, true);
  if (ids.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  if (params.contextLimit !== undefined && ids.length > params.contextLimit) {
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: '—', tokens: ids.length, limit: params.contextLimit }]));
  }
  const keep = m.info.inputNames.includes('num_logits_to_keep');
  const read = await readPassage(sessionOf(m.model), layout, ids, rowsPerPass(m), async (chunk, cache, past) => {
    const inputs: Record<string, unknown> = { input_ids: idsTensor(chunk), attention_mask: onesTensor(past + chunk.length) };
    if (cache) inputs.past_key_values = cache;
    // One logits row where the graph takes a count: an attention pass reads no logits.
    if (keep) inputs.num_logits_to_keep = new Tensor('int64', [1n], []);
    return (await m.model.forward(inputs)) as Record<string, Tensor>;
  });
  if (read.problem) throw new RequestError(modelError('bad-request', 'model.attention-pass-refused', [attentionPassParams(read.problem)]));
  const { passage } = read;
  kept = { owner: m, passage, ids };
  return {
    ids,
    pieces: piecesOf(m.tokenizer, ids, params.text).pieces,
    layers: passage.layers,
    heads: passage.heads,
    kvHeads: passage.kvHeads,
    tokens: ids.length,
    passes: read.passes,
    forwardMs: performance.now() - started,
    keptBytes: passage.bytes,
    check: { ...passage.check },
  };
}

/** The attentionAt request: position `position`'s attention in every layer, per head and averaged. */
export async function attentionAt(m: Loaded, params: AttentionAtParams): Promise<AttentionAtResult> {
  layoutOf(m);
  if (!kept || kept.owner !== m) throw new RequestError(modelError('bad-request', 'model.attention-no-passage', []));
  const { passage } = kept;
  const { position } = params;
  if (!Number.isInteger(position) || position < 0 || position >= passage.tokens) throw new RequestError(modelError('bad-request', 'model.attention-position', [{ position, tokens: passage.tokens }]));
  const { weights, averaged } = passage.at(position);
  return { position, layers: passage.layers, heads: passage.heads, weights, averaged };
}

/**
 * The attention path of a load that asked for the tap: the rewrite's outcome at create, then, when
 * the tap went on, the load check: a short text in two passes (the second on the first's cache, as
 * a reading's later passes are) whose every pass must pass attention-passes.ts' checks.
 */
export async function attentionPathAfterLoad(outcome: AttentionOutcome | null, model: PreTrainedModel, tokenizer: PreTrainedTokenizer): Promise<AttentionPath> {
  if (!outcome || outcome.kind === 'not-seen') return { kind: 'unavailable', refusal: notice('model.attention-session-refused', { detail: 'the model file did not reach the session as bytes' }) };
  if (outcome.kind === 'unrecognised') return { kind: 'unavailable', refusal: notice('model.attention-unrecognised', attentionRefusalParams(outcome.refusal)) };
  if (outcome.kind === 'session-refused') return { kind: 'unavailable', refusal: notice('model.attention-session-refused', { detail: outcome.detail }) };
  const ids = encode(tokenizer, sampleCmmluPrompt(CHECK_TOKENS + ANSWER_CUE.length), true).slice(-CHECK_TOKENS);
  const session = sessionOf(model);
  const keep = session.inputNames.includes('num_logits_to_keep');
  try {
    const read = await readPassage(session, outcome.layout, ids, Math.ceil(ids.length / 2), async (chunk, cache, past) => {
      const inputs: Record<string, unknown> = { input_ids: idsTensor(chunk), attention_mask: onesTensor(past + chunk.length) };
      if (cache) inputs.past_key_values = cache;
      if (keep) inputs.num_logits_to_keep = new Tensor('int64', [1n], []);
      return (await model.forward(inputs)) as Record<string, Tensor>;
    });
    const check = { tokens: ids.length, rotation: read.passage.check.rotation, softmax: read.passage.check.softmax };
    if (read.problem) return { kind: 'unavailable', layers: outcome.layers, refusal: notice('model.attention-check-failed', { ...attentionPassParams(read.problem), tokens: ids.length }), check };
    return { kind: 'graph', layers: outcome.layers, layout: outcome.layout, check };
  } catch (error) {
    return { kind: 'unavailable', layers: outcome.layers, refusal: notice('model.attention-session-refused', { detail: error instanceof Error ? error.message : String(error) }) };
  }
}
