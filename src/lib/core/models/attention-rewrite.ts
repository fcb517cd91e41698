// The attention tap (issue 45 §4, "Where the model looks"): a load-time rewrite that lets a pass
// return what the tab needs to compute each layer's attention itself (src/lib/core/reading/attention.ts)
// from the model's own queries and keys, without the graph ever handing out [rows × total] per head.
// attention-graph.ts finds each layer's attention; per layer this adds, behind a gate:
//   matmul layers (attention written out):
//     jiangu_attention.{l}.q      float32 [batch, heads, rows, head_dim]  the rotated queries, before any scale factor
//     jiangu_attention.{l}.scale  float32, one value                       the product of the scale factors
//     jiangu_attention.{l}.probs  float32 [batch, heads, 1, total]        the Softmax's row of the pass's last query
//   gqa layers (com.microsoft GroupQueryAttention):
//     jiangu_attention.{l}.q      float32 [batch, rows, width]  input 0 as the op reads it: the query, or q|k|v packed
//     jiangu_attention.{l}.k      float32 [batch, rows, kv_heads · head_dim]  input 1 (only when not packed)
//     jiangu_attention.{l}.cos / .sin  float32 [rows, rotary_dim / 2]  the cache rows of the pass's positions
//                                 (past + 0 … rows − 1, past = seqlens_k + 1 − rows; only with do_rotary 1)
// The keys are the pass's present.{l}.key, which every pass fetches anyway (after the rotary embedding
// in both forms). The tab checks every pass: a gqa layer's pre-rotary keys, rotated as the tab rotates
// its queries, must equal the rows present.{l}.key gained; a matmul layer's attention of the last row
// must equal the Softmax's own row (workers/attention.ts). A mismatch refuses the reading.
//
// The gate: like the logit lens (lens-rewrite.ts, "The gate"), the outputs sit in the then-branch of
// an If whose condition is a new bool input, ATTENTION_GATE; the else-branch gives empty tensors.
// onnxruntime runs only the branch taken, so a pass that does not ask for attention runs no branch
// node, and the lens's passes do not pay for attention, nor attention's for the lens. A branch only
// reads tensors and makes small ones (Cast, Gather of the pass's cos/sin rows): no weight is read
// but the rotary caches' rows, and nothing is copied but rows × heads × head_dim numbers a layer.
//
// What a gated-off pass still pays: onnxruntime keeps every tensor an If reads alive until the If
// runs. So a matmul layer's Softmax row is sliced in the main graph, right after the Softmax (one
// row: heads × total numbers, every pass), and its If reads that row, never the [heads, rows, total]
// probabilities. The queries an If reads are alive until it runs: rows × heads × head_dim numbers a
// layer (a gqa layer's whole input 0: q|k|v packed). Where the Ifs go: there is one If per layer,
// and they come last in the graph, the last layer's first. onnxruntime's default order is a
// depth-first walk back from the graph's leaves, the leaf of the highest index first, so layer 0's
// If then runs as soon as its inputs exist, layer 1's after layer 1's attention, and so on: each
// layer's queries are freed where the plain graph frees them (read in onnxruntime-node's profile of
// jiangu-tiny fp32, q4, q4f16 and jiangu-tiny-gqa q4, q4f16; 2026-12-07). Where the graph optimizer
// fuses the node that makes the logits (a q8 head's MatMulInteger → Cast → Mul into
// MatMulIntegerToFloat), the fused node is created later, has the highest index, and its walk runs
// the whole model first: every If then runs at the end and every layer's queries are alive at once
// (Qwen3-0.6B, unpacked q and k: 28 × 3,072 × 4 bytes = 344 KB a row, 240 MB for a 700-row pass;
// the lens's If holds each layer's two stream terms likewise, 229 KB a row). Only ordering could be
// changed here without touching a node the plain graph runs.
//
// Ops: If, Cast, Slice (inputs, opset 10), Gather, Shape, Range (opset 11), Add, Sub, Mul, Div,
// Identity, Constant: opset 11 at least. onnxruntime-web's WebGPU EP has kernels for all of them.

import { FLOAT, BOOL, NODE_INPUT, NODE_OUTPUT, NODE_NAME, NODE_OP_TYPE, NODE_ATTRIBUTE, ATTRIBUTE_NAME, ATTRIBUTE_T, ATTRIBUTE_G, ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_TENSOR, ATTRIBUTE_TYPE_GRAPH, GRAPH_NAME, GRAPH_INPUT, TENSOR_DIMS, TENSOR_DATA_TYPE, TENSOR_RAW_DATA, TENSOR_NAME } from './onnx-fields.ts';
import { GRAPH_NODE, GRAPH_OUTPUT, GRAPH_INITIALIZER, INT64, INT64_MAX, int64Initializer, intAttribute, MalformedGraph, MODEL_GRAPH, nodeField, parseModel, TENSOR_TYPE_ELEM, TENSOR_TYPE_SHAPE, TYPE_TENSOR, VALUE_NAME, VALUE_TYPE, type ParsedModel } from './logits-rewrite.ts';
import { planAttention, type AttentionGraphReason, type AttentionLayerPlan } from './attention-graph.ts';
import { joinPieces, lenField, ProtoBytesError, stringField, varintField, type Pieces } from './onnx-bytes.ts';
import type { Notice } from '../notices/notice.ts';

/** The graph input that turns the attention tap on for a pass: a bool scalar (see "The gate" above). */
export const ATTENTION_GATE = 'jiangu_attention_on';
/** What a layer's tap returns (see the top of this file). */
export type AttentionTensor = 'q' | 'k' | 'cos' | 'sin' | 'scale' | 'probs';
/** The graph output of layer `layer`'s `what`. */
export function attentionOutput(layer: number, what: AttentionTensor): string {
  return `jiangu_attention.${layer}.${what}`;
}
/** Range with scalar inputs. */
export const ATTENTION_MIN_OPSET = 11;


/** Why a graph was not given the attention tap, as data the page words in its own language (catalog-attention.ts). */
export type AttentionRewriteReason =
  | AttentionGraphReason
  /** the default opset is older than ATTENTION_MIN_OPSET (0: none imported) */
  | { kind: 'opset'; opset: number }
  /** the graph already has a tensor or node called `name` (e.g. it has the tap already) */
  | { kind: 'name-taken'; name: string }
  /** the bytes are not an ONNX model the rewrite can read */
  | { kind: 'malformed'; message: string }
  /** the rewrite itself threw (a bug) */
  | { kind: 'rewrite-threw'; message: string };

export interface AttentionRewriteRefusal {
  code: 'layers-not-recognised' | 'attention-not-recognised' | 'unsupported' | 'malformed';
  reason: AttentionRewriteReason;
  /** An English sentence for logs and the bench. */
  detail: string;
}

export function attentionRefusalCode(reason: AttentionRewriteReason): AttentionRewriteRefusal['code'] {
  switch (reason.kind) {
    case 'no-layer-count':
    case 'layer-numbers':
      return 'layers-not-recognised';
    case 'no-attention':
    case 'two-attentions':
    case 'score-op':
    case 'key-op':
    case 'gqa-present':
      return 'attention-not-recognised';
    case 'softmax-axis':
    case 'gqa-attribute':
    case 'gqa-unknown-attribute':
    case 'gqa-input':
    case 'opset':
    case 'name-taken':
      return 'unsupported';
    case 'malformed':
    case 'rewrite-threw':
      return 'malformed';
  }
}

export function attentionReasonDetail(reason: AttentionRewriteReason): string {
  switch (reason.kind) {
    case 'no-layer-count':
      return 'the graph has no present.{i}.key outputs, so its layers are not known';
    case 'layer-numbers':
      return `the graph's present.{i}.key outputs skip layer ${reason.missing} of ${reason.layers}`;
    case 'no-attention':
      return `no attention was found that reads layer ${reason.layer}'s keys (present.${reason.layer}.key)`;
    case 'two-attentions':
      return `more than one attention reads layer ${reason.layer}'s keys (${reason.nodes.join(', ')})`;
    case 'score-op':
      return `layer ${reason.layer}: between the scores and Softmax "${reason.softmax}" there is ${reason.op} node "${reason.node}", an op the attention view does not compute`;
    case 'key-op':
      return `layer ${reason.layer}: between the cached keys and Softmax "${reason.softmax}" there is ${reason.op} node "${reason.node}", an op the attention view does not read`;
    case 'softmax-axis':
      return `layer ${reason.layer}: Softmax "${reason.node}" normalises over axis ${reason.axis}, not the keys' (the last)`;
    case 'gqa-attribute':
      return `layer ${reason.layer}: GroupQueryAttention "${reason.node}" has ${reason.name} = ${reason.value}, which the attention view does not compute`;
    case 'gqa-unknown-attribute':
      return `layer ${reason.layer}: GroupQueryAttention "${reason.node}" has the attribute ${reason.name}, unknown to the attention view`;
    case 'gqa-input':
      return `layer ${reason.layer}: GroupQueryAttention "${reason.node}" ${reason.index >= 9 ? 'is given' : 'lacks'} input ${reason.index}, which the attention view ${reason.index >= 9 ? 'does not read' : 'needs'}`;
    case 'gqa-present':
      return `GroupQueryAttention "${reason.node}" does not write a present.{i}.key output`;
    case 'opset':
      return `the graph imports ONNX opset ${reason.opset}; the attention view's Range needs opset ${ATTENTION_MIN_OPSET}`;
    case 'name-taken':
      return `the graph already has a tensor or node named "${reason.name}"`;
    case 'malformed':
      return `not an ONNX model the rewrite can read: ${reason.message}`;
    case 'rewrite-threw':
      return `the rewrite failed: ${reason.message}`;
  }
}

export function attentionRefusalOf(reason: AttentionRewriteReason): AttentionRewriteRefusal {
  return { code: attentionRefusalCode(reason), reason, detail: attentionReasonDetail(reason) };
}

type Flat<R> = R extends { kind: infer K } ? Omit<R, 'kind'> & { reason: K } : never;
/** The notice model.attention-unrecognised's parameters: code, English detail, and the reason flattened (`reason` is its kind). */
export type AttentionRefusalParams = { code: string; detail: string } & Flat<AttentionRewriteReason>;

export function attentionRefusalParams(refusal: AttentionRewriteRefusal): AttentionRefusalParams {
  const { kind, ...fields } = refusal.reason;
  return { code: refusal.code, detail: refusal.detail, reason: kind, ...fields } as AttentionRefusalParams;
}

/** How a layer's tap reads (plain JSON: it travels in LoadResult.attentionPath to the worker's requests). */
export type AttentionLayout =
  | { kind: 'matmul' }
  | { kind: 'gqa'; heads: number; kvHeads: number; /** 0: 1/√head_dim */ scale: number; rotary: 'none' | 'half' | 'interleaved'; packed: boolean };

/**
 * Whether a load's attention view can be shown: `graph`, the tap added and its first pass checked at
 * load (workers/attention.ts); `unavailable`, why not (`refusal`). Every reading is checked again.
 */
export interface AttentionPath {
  kind: 'graph' | 'unavailable';
  layers?: number;
  /** Per layer (graph only). */
  layout?: AttentionLayout[];
  refusal?: Notice;
  /** The load check's numbers: the largest rotation and Softmax-row differences seen (null: no such layer). */
  check?: { tokens: number; rotation: number | null; softmax: number | null };
}

/**
 * For tests only: a deliberately wrong tap, which the per-pass check must catch. `scale`: a matmul
 * layer's scale comes out 1.25 times too large; `positions`: a gqa layer's cos/sin rows are those of
 * the next positions.
 */
export type AttentionFault = 'scale' | 'positions';

export interface AttentionRewriteOptions {
  fault?: AttentionFault;
}

export type AttentionRewrite =
  | { kind: 'rewritten'; bytes: Uint8Array; layers: number; layout: AttentionLayout[]; addedBytes: number }
  | { kind: 'unrecognised'; refusal: AttentionRewriteRefusal };

function refuse(reason: AttentionRewriteReason): AttentionRewrite {
  return { kind: 'unrecognised', refusal: attentionRefusalOf(reason) };
}

/** The model with the attention tap (see the top of this file), or why not. Never throws. */
export function rewriteForAttention(model: Uint8Array, options: AttentionRewriteOptions = {}): AttentionRewrite {
  try {
    return rewrite(model, options);
  } catch (e) {
    if (e instanceof ProtoBytesError || e instanceof MalformedGraph) return refuse({ kind: 'malformed', message: e.message });
    return refuse({ kind: 'rewrite-threw', message: e instanceof Error ? e.message : String(e) });
  }
}

/** A node of the default domain with several outputs and attributes given as pieces. */
function node(opType: string, name: string, inputs: string[], outputs: string[], attributes: Pieces = []): Pieces {
  return lenField(GRAPH_NODE, [
    ...inputs.flatMap((i) => stringField(NODE_INPUT, i)),
    ...outputs.flatMap((o) => stringField(NODE_OUTPUT, o)),
    ...stringField(NODE_NAME, name),
    ...stringField(NODE_OP_TYPE, opType),
    ...attributes,
  ]);
}

/** A GraphProto (an If's branch) of `nodes` with float outputs `outputs`. */
function branch(name: string, nodes: Pieces, outputs: string[]): Pieces {
  return [
    ...nodes,
    ...stringField(GRAPH_NAME, name),
    ...outputs.flatMap((o) => lenField(GRAPH_OUTPUT, [...stringField(VALUE_NAME, o), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, varintField(TENSOR_TYPE_ELEM, FLOAT)))])),
  ];
}

function graphAttribute(name: string, graph: Pieces): Pieces {
  return lenField(NODE_ATTRIBUTE, [...stringField(ATTRIBUTE_NAME, name), ...lenField(ATTRIBUTE_G, graph), ...varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_GRAPH)]);
}

/** A Constant of an empty float tensor [0] (an else-branch's output). */
function emptyFloat(output: string): Pieces {
  const tensor = [...varintField(TENSOR_DIMS, 0), ...varintField(TENSOR_DATA_TYPE, FLOAT), ...lenField(TENSOR_RAW_DATA, [])];
  return node('Constant', output, [], [output], lenField(NODE_ATTRIBUTE, [...stringField(ATTRIBUTE_NAME, 'value'), ...lenField(ATTRIBUTE_T, tensor), ...varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_TENSOR)]));
}

/** A scalar (rank 0) initializer: Range and Gather need scalars where int64Initializer makes [1]. */
function scalarInitializer(name: string, dataType: number, raw: Uint8Array): Pieces {
  return lenField(GRAPH_INITIALIZER, [...varintField(TENSOR_DATA_TYPE, dataType), ...stringField(TENSOR_NAME, name), ...lenField(TENSOR_RAW_DATA, [raw])]);
}
const int64Bytes = (v: bigint) => {
  const raw = new Uint8Array(8);
  new DataView(raw.buffer).setBigInt64(0, v, true);
  return raw;
};
const float32Bytes = (v: number) => new Uint8Array(Float32Array.of(v).buffer);

/** The layout the worker reads a layer's tap with. */
function layoutOf(plan: AttentionLayerPlan): AttentionLayout {
  return plan.kind === 'matmul' ? { kind: 'matmul' } : { kind: 'gqa', heads: plan.heads, kvHeads: plan.kvHeads, scale: plan.scale, rotary: plan.rotary, packed: plan.packed };
}

/** The outputs a layer's tap has, in the If's order. */
export function attentionTensorsOf(layout: AttentionLayout): AttentionTensor[] {
  if (layout.kind === 'matmul') return ['q', 'scale', 'probs'];
  return ['q', ...(layout.packed ? [] : ['k' as const]), ...(layout.rotary === 'none' ? [] : ['cos' as const, 'sin' as const])];
}

function rewrite(buf: Uint8Array, options: AttentionRewriteOptions): AttentionRewrite {
  const parsed: ParsedModel = parseModel(buf);
  if ((parsed.defaultOpset ?? 0) < ATTENTION_MIN_OPSET) return refuse({ kind: 'opset', opset: parsed.defaultOpset ?? 0 });
  const plans = planAttention(buf, parsed);
  if (!Array.isArray(plans)) return refuse(plans);
  const layout = plans.map(layoutOf);

  const taken = new Set<string>([...parsed.initializers, ...parsed.inputs, ...parsed.outputs.keys(), ...parsed.valueInfo.keys()]);
  for (const n of parsed.nodes) {
    for (const o of n.outputs) taken.add(o);
    taken.add(n.name);
  }
  const outputs = plans.flatMap((plan, l) => attentionTensorsOf(layout[l]).map((what) => attentionOutput(plan.layer, what)));
  for (const name of [...outputs, ATTENTION_GATE]) if (taken.has(name)) return refuse({ kind: 'name-taken', name });
  let prefix = 'jiangu_attention';
  for (let i = 2; [...taken].some((n) => n.startsWith(`${prefix}/`)); i++) prefix = `jiangu_attention_${i}`;
  const c = (name: string) => `${prefix}/${name}`;

  const after = new Map<object, Pieces>();
  const gates: Pieces[] = [];
  for (const plan of plans) {
    const p = (name: string) => c(`layer${plan.layer}/${name}`);
    const nodes: Pieces = [];
    const results: string[] = [];
    const cast = (from: string, to: string) => {
      nodes.push(...nodeField('Cast', p(`cast_${to}`), [from], p(to), intAttribute('to', FLOAT)));
      results.push(p(to));
    };
    if (plan.kind === 'matmul') {
      cast(plan.query, 'q');
      // The scale: 1, times or over each factor (cast to float32 first: a float16 graph's are float16).
      let scale = c('one');
      plan.factors.forEach((f, i) => {
        nodes.push(...nodeField('Cast', p(`factor${i}_cast`), [f.tensor], p(`factor${i}`), intAttribute('to', FLOAT)));
        nodes.push(...nodeField(f.op === 'mul' ? 'Mul' : 'Div', p(`scale${i}`), [scale, p(`factor${i}`)], p(`scale${i}`)));
        scale = p(`scale${i}`);
      });
      if (options.fault === 'scale') {
        nodes.push(...nodeField('Mul', p('fault_scale'), [scale, c('fault_factor')], p('faulty_scale')));
        scale = p('faulty_scale');
      }
      nodes.push(...nodeField('Identity', p('scale_out'), [scale], p('scale')));
      results.push(p('scale'));
      // The last row is sliced in the main graph, right after the Softmax: the If then holds one row
      // of it, not heads × rows × total numbers, until it runs (see "The gate" above).
      after.set(plan.softmax.field, nodeField('Slice', p('last_row'), [plan.softmax.outputs[0], c('minus_one'), c('int64_max'), c('rows_axis')], p('last_probs')));
      cast(p('last_probs'), 'probs');
    } else {
      const gqa = plan.node;
      cast(gqa.inputs[0], 'q');
      if (!plan.packed) cast(gqa.inputs[1], 'k');
      if (plan.rotary !== 'none') {
        // positions past … past + rows − 1 with past = seqlens_k + 1 − rows (batch 1: the worker's).
        nodes.push(...nodeField('Cast', p('seqlens'), [gqa.inputs[5]], p('seqlens64'), intAttribute('to', INT64)));
        nodes.push(...nodeField('Gather', p('seqlen'), [p('seqlens64'), c('zero')], p('seqlen0'), intAttribute('axis', 0)));
        nodes.push(...nodeField('Add', p('end'), [p('seqlen0'), c('one64')], p('end')));
        nodes.push(...nodeField('Shape', p('shape'), [gqa.inputs[0]], p('shape')));
        nodes.push(...nodeField('Gather', p('rows'), [p('shape'), c('one64')], p('rows'), intAttribute('axis', 0)));
        nodes.push(...nodeField('Sub', p('start'), [p('end'), p('rows')], p('start')));
        let [start, end] = [p('start'), p('end')];
        if (options.fault === 'positions') {
          nodes.push(...nodeField('Add', p('fault_start'), [start, c('one64')], p('faulty_start')));
          nodes.push(...nodeField('Add', p('fault_end'), [end, c('one64')], p('faulty_end')));
          [start, end] = [p('faulty_start'), p('faulty_end')];
        }
        nodes.push(...nodeField('Range', p('positions'), [start, end, c('one64')], p('positions')));
        nodes.push(...nodeField('Gather', p('cos_rows'), [gqa.inputs[7], p('positions')], p('cos_rows'), intAttribute('axis', 0)));
        nodes.push(...nodeField('Gather', p('sin_rows'), [gqa.inputs[8], p('positions')], p('sin_rows'), intAttribute('axis', 0)));
        cast(p('cos_rows'), 'cos');
        cast(p('sin_rows'), 'sin');
      }
    }
    const names = attentionTensorsOf(layoutOf(plan)).map((what) => attentionOutput(plan.layer, what));
    const empties = names.map((_, i) => p(`empty${i}`));
    const gate = node('If', p('gate'), [ATTENTION_GATE], names, [
      ...graphAttribute('then_branch', [joinPieces(branch(p('tap'), nodes, results))]),
      ...graphAttribute('else_branch', branch(p('no_tap'), empties.flatMap(emptyFloat), empties)),
    ]);
    gates.push(gate);
  }

  const graph: Pieces = [];
  for (const f of parsed.graphFields) {
    graph.push(buf.subarray(f.start, f.end));
    const slice = after.get(f);
    if (slice) graph.push(...slice);
  }
  // The Ifs last, the last layer's first: see "Where the Ifs go" above.
  for (const gate of gates.reverse()) graph.push(...gate);
  // Only the constants some branch reads (onnxruntime warns of unused initializers).
  const matmul = layout.some((l) => l.kind === 'matmul');
  const rotary = layout.some((l) => l.kind === 'gqa' && l.rotary !== 'none');
  graph.push(
    ...(matmul ? [...scalarInitializer(c('one'), FLOAT, float32Bytes(1)), ...int64Initializer(c('minus_one'), -1n), ...int64Initializer(c('int64_max'), INT64_MAX), ...int64Initializer(c('rows_axis'), -2n)] : []),
    ...(rotary ? [...scalarInitializer(c('zero'), INT64, int64Bytes(0n)), ...scalarInitializer(c('one64'), INT64, int64Bytes(1n))] : []),
    ...(matmul && options.fault === 'scale' ? scalarInitializer(c('fault_factor'), FLOAT, float32Bytes(1.25)) : []),
    ...lenField(GRAPH_INPUT, [...stringField(VALUE_NAME, ATTENTION_GATE), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, [...varintField(TENSOR_TYPE_ELEM, BOOL), ...lenField(TENSOR_TYPE_SHAPE, [])]))]),
    ...outputs.flatMap((o) => lenField(GRAPH_OUTPUT, [...stringField(VALUE_NAME, o), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, varintField(TENSOR_TYPE_ELEM, FLOAT)))])),
  );
  const out: Pieces = [];
  for (const f of parsed.top) out.push(...(f === parsed.graphField ? lenField(MODEL_GRAPH, graph) : [buf.subarray(f.start, f.end)]));
  const bytes = joinPieces(out);
  return { kind: 'rewritten', bytes, layers: plans.length, layout, addedBytes: bytes.length - buf.length };
}
