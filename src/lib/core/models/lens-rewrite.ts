// The logit lens (issue 37 §3): what the model would predict if it stopped after layer l, for every
// layer and position, as two small outputs, so a page never copies layers × rows × vocabulary numbers.
// Each layer's residual stream goes through the model's own final norm and head (lens-graph.ts finds
// the streams and the "tail" from the last residual to the logits, and this file clones that tail
// per layer: the same ops, attributes and initializers, referenced by name; no weight is decoded),
// then, in the graph:
//   p_l    = Softmax(logits_l, axis −1)            (Cast to float first where the logits are not float32)
//   v_l, i_l = TopK(p_l, K = 5, axis −1, largest, sorted)
//   jiangu_lens_top_probs  float32 [batch, L, rows, 5] = Concat_l(Unsqueeze(v_l, 1), axis 1)
//   jiangu_lens_top_ids    int64   [batch, L, rows, 5] = Concat_l(Unsqueeze(i_l, 1), axis 1)
// rows are the logits' rows (every position with num_logits_to_keep = 0); layer index 0 is the stream
// after the first decoder layer, L − 1 the last one, whose lens is the model's own distribution
// recomputed: its top 5 must equal the logits' own (the load check, lensLoadCheck in workers/lens.ts).
//
// Why one output pair for all layers, not one per layer: a pass fetches two names whatever the
// depth, the worker needs no per-model list, and the Concat moves L × rows × 5 numbers, nothing.
//
// Ops and opset: Softmax (axis −1 is the vocabulary at every opset), TopK with K as an input
// (opset 10), Unsqueeze with its axes as an input (opset 13), Concat, Cast: opset 13 at least.
// onnxruntime-web's WebGPU EP (the asyncify build the worker loads) has kernels for all of them
// (core/providers/webgpu: math/softmax.cc, math/top_k.cc for opsets 1–9, 10, 11–23, 24, tensor/
// unsqueeze, concat, cast); its TopK sorts each row whole (a bitonic sort over the row padded to a
// power of two: 262,144 for Qwen's 151,936 tokens, about 170 dispatches), which is the cost to watch
// in the browser bench. No LogSoftmax or ReduceMax (see stats-rewrite.ts for why).
//
// The gate: the lens runs only in passes that ask for it, so one session per model serves every
// view (scoring, generation, statistics, reading and the lens) with one copy of the weights. The lens
// nodes are the then-branch of an If whose condition is a new graph input, LENS_GATE (bool scalar);
// the else-branch gives empty grids [batch, L, 0, k]. onnxruntime runs every node of a graph on
// every pass whatever the caller fetches (measured: jiangu-large, 300 tokens, onnxruntime-node on
// 2 cores, a lens graph without a gate fetching only the logits and the cache took 1.0–1.9 s where
// the plain graph took 0.36–0.6 s; 2026-12-05), but an If runs one branch: with the gate off the
// same pass takes what the plain graph takes (221 ms against 249 ms; 685 ms with the gate on;
// 2026-12-06, printed by lens-rewrite.test.ts). The worker feeds the gate (workers/lens-gate.ts).
//
// Why each layer's first tail node (its last residual Add, or its SkipSimplifiedLayerNormalization)
// stays in the main graph, and only the rest goes in the branch: onnxruntime runs float16 Adds in
// float32 between Casts, and drops a Cast pair float32 → float16 → float32 between two such nodes,
// so the residual stream keeps float32 between layers; a branch reading a stream term as float16 (or
// even a float32 Cast of it) keeps that pair, and q4f16 logits moved by one float16 step (jiangu-tiny,
// on WASM and on the CPU EP). The clone there reads the terms as the author's own tail does, and the
// logits and the cache stay bit for bit those of the graph without the lens (lens-rewrite.test.ts,
// every fixture and dtype, the gate on and off). It costs an Add (or a norm) of [rows, hidden] per
// layer per pass.
//
// Cost of a lens pass: L more heads (vocab × hidden per row each) plus a Softmax and a TopK over
// [rows, vocab] per layer; onnxruntime frees each layer's [rows, vocab] tensors after its TopK, so
// about two of them are alive at once besides the model's own logits.
//
// Memory of the rewrite: the graph's body as one view, plus the appended nodes (about 10 a layer),
// the If, two initializers, the gate input and two outputs, copied once into a buffer of the new length.

import { FLOAT, BOOL, NODE_INPUT, NODE_OUTPUT, NODE_NAME, NODE_OP_TYPE, NODE_ATTRIBUTE, ATTRIBUTE_NAME, ATTRIBUTE_T, ATTRIBUTE_G, ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_TENSOR, ATTRIBUTE_TYPE_GRAPH, GRAPH_NAME, GRAPH_INPUT, TENSOR_DIMS, TENSOR_DATA_TYPE, TENSOR_RAW_DATA } from './onnx-fields.ts';
import { constantTensors, GRAPH_NODE, GRAPH_OUTPUT, int64Initializer, INT64, intAttribute, MalformedGraph, MODEL_GRAPH, nested, nodeField, parseModel, SHAPE_DIM, TENSOR_TYPE_ELEM, TENSOR_TYPE_SHAPE, TYPE_TENSOR, VALUE_NAME, VALUE_TYPE, type GraphNode, type ParsedModel } from './logits-rewrite.ts';
import { planLens, MAX_TAIL, type LensGraphReason, type LensPlan } from './lens-graph.ts';
import { initializerFacts, tiedHeadConstants, tiedHeadNodes, tiedWeightOf } from './head-blocks.ts';
import { joinPieces, lenField, piecesLength, ProtoBytesError, stringField, subFields, varintField, type Pieces, type ProtoField } from './onnx-bytes.ts';

export const LENS_OUTPUTS = { topIds: 'jiangu_lens_top_ids', topProbs: 'jiangu_lens_top_probs' } as const;
/** The graph input that turns the lens on for a pass: a bool scalar (see "The gate" above). */
export const LENS_GATE = 'jiangu_lens_on';
/** Candidates per layer and position. */
export const LENS_TOP_K = 5;
/** Unsqueeze with axes as an input. */
export const LENS_MIN_OPSET = 13;

const FLOAT_TYPES = new Set([1, 10, 11, 16]);

/** Why a graph was not given the lens, as data the page words in its own language. */
export type LensRewriteReason =
  | LensGraphReason
  /** no graph output named logits (the first few outputs named) */
  | { kind: 'no-logits-output'; outputs: string[] }
  /** the logits are declared with another rank than [batch, rows, vocab], or no shape (null) */
  | { kind: 'logits-rank'; rank: number | null }
  /** the logits' element type is not a floating type (0: none declared) */
  | { kind: 'logits-type'; elemType: number }
  /** the default opset is older than LENS_MIN_OPSET (0: none imported) */
  | { kind: 'opset'; opset: number }
  /** the graph already has a tensor or node called `name` (e.g. it has the lens already) */
  | { kind: 'name-taken'; name: string }
  /** the bytes are not an ONNX model the rewrite can read */
  | { kind: 'malformed'; message: string }
  /** the rewrite itself threw (a bug) */
  | { kind: 'rewrite-threw'; message: string };
export type LensRewriteReasonKind = LensRewriteReason['kind'];

/** `code` groups the reasons; `detail` is an English sentence for logs and the bench. */
export interface LensRewriteRefusal {
  code: 'no-logits-output' | 'layers-not-recognised' | 'head-not-recognised' | 'unsupported' | 'malformed';
  reason: LensRewriteReason;
  detail: string;
}

export function lensRefusalCode(reason: LensRewriteReason): LensRewriteRefusal['code'] {
  switch (reason.kind) {
    case 'no-logits-output':
      return 'no-logits-output';
    case 'no-residual-stream':
    case 'no-layer-count':
    case 'layer-count':
      return 'layers-not-recognised';
    case 'tail-op':
    case 'no-head':
    case 'two-heads':
    case 'no-final-norm':
    case 'tail-reads-activation':
    case 'tail-too-long':
      return 'head-not-recognised';
    case 'logits-rank':
    case 'logits-type':
    case 'opset':
    case 'name-taken':
      return 'unsupported';
    case 'malformed':
    case 'rewrite-threw':
      return 'malformed';
  }
}

export function lensReasonDetail(reason: LensRewriteReason): string {
  switch (reason.kind) {
    case 'no-residual-stream':
      return `no residual Add or SkipSimplifiedLayerNormalization within ${reason.nodes} nodes of the logits: the layers' outputs were not found`;
    case 'no-layer-count':
      return 'the graph has no present.{i}.key outputs or past_key_values.{i}.key inputs, so its number of layers is not known';
    case 'layer-count':
      return `the residual stream has ${reason.residuals} additions for ${reason.layers} layers (expected two a layer, or one)`;
    case 'tail-op':
      return `between the last layer and the logits there is ${reason.op} node "${reason.node}", an op the lens does not know`;
    case 'no-head':
      return 'no MatMul, MatMulNBits or MatMulInteger between the last layer and the logits';
    case 'two-heads':
      return `more than one matrix product between the last layer and the logits (${reason.nodes.join(', ')})`;
    case 'no-final-norm':
      return 'no normalisation between the last layer and the head';
    case 'tail-reads-activation':
      return `node "${reason.node}" between the last layer and the logits reads "${reason.tensor}", an activation other than the residual stream`;
    case 'tail-too-long':
      return `more than ${reason.nodes} nodes between the last layer and the logits`;
    case 'no-logits-output':
      return `the graph has no output named "logits" (its outputs: ${reason.outputs.join(', ') || 'none'})`;
    case 'logits-rank':
      return reason.rank === null ? 'the logits output declares no shape' : `the logits output has rank ${reason.rank}, not [batch, rows, vocab]`;
    case 'logits-type':
      return `the logits output has ONNX element type ${reason.elemType}, not a floating type`;
    case 'opset':
      return `the graph imports ONNX opset ${reason.opset}; the lens's Unsqueeze with axes as an input needs opset ${LENS_MIN_OPSET}`;
    case 'name-taken':
      return `the graph already has a tensor or node named "${reason.name}"`;
    case 'malformed':
      return `not an ONNX model the rewrite can read: ${reason.message}`;
    case 'rewrite-threw':
      return `the rewrite failed: ${reason.message}`;
  }
}

export function lensRefusalOf(reason: LensRewriteReason): LensRewriteRefusal {
  return { code: lensRefusalCode(reason), reason, detail: lensReasonDetail(reason) };
}

export type LensRewrite =
  | {
      kind: 'rewritten';
      bytes: Uint8Array;
      /** Decoder layers, the outputs' second dimension. */
      layers: number;
      /** Candidates per layer and row (LENS_TOP_K, or the vocabulary when smaller). */
      k: number;
      spine: LensPlan['spine'];
      /** The tail cloned per layer (op types, last residual first). */
      tailOps: string[];
      /** The new GraphProto's length. */
      graphBytes: number;
      /** Bytes the rewrite added to the model. */
      addedBytes: number;
    }
  | { kind: 'unrecognised'; refusal: LensRewriteRefusal };

/**
 * For tests only: a deliberately wrong lens, which the load check (last layer against the logits)
 * must catch. `skip-final-norm`: the head reads each layer's stream without the final norm.
 * `previous-layer`: layer l's lens reads layer l − 1's stream (layer 1's reads its own).
 */
export type LensFault = 'skip-final-norm' | 'previous-layer';

export interface LensRewriteOptions {
  lensFault?: LensFault;
  /** false: a tied head is cloned as it came (its Transpose, or DequantizeLinear(Transpose), computed in the branch); default true. */
  tiedHead?: boolean;
  /** Bytes of a q8 head's block in the branch (head-blocks.ts BLOCK_BYTES by default; tests make many small ones). */
  headBlockBytes?: number;
}

function refuse(reason: LensRewriteReason): LensRewrite {
  return { kind: 'unrecognised', refusal: lensRefusalOf(reason) };
}

/** The model with the lens outputs added (see the top of this file), or why not. Never throws. */
export function rewriteForLens(model: Uint8Array, options: LensRewriteOptions = {}): LensRewrite {
  try {
    return rewrite(model, options);
  } catch (e) {
    if (e instanceof ProtoBytesError || e instanceof MalformedGraph) return refuse({ kind: 'malformed', message: e.message });
    return refuse({ kind: 'rewrite-threw', message: e instanceof Error ? e.message : String(e) });
  }
}

/** A NodeProto like `node` (op, domain, attributes as they are) with new inputs, outputs and name. */
function cloneNode(buf: Uint8Array, node: GraphNode, inputs: string[], outputs: string[], name: string): Pieces {
  const rest = subFields(buf, node.field)
    .filter((f) => f.no !== NODE_INPUT && f.no !== NODE_OUTPUT && f.no !== NODE_NAME)
    .map((f) => buf.subarray(f.start, f.end));
  return lenField(GRAPH_NODE, [...inputs.flatMap((i) => stringField(NODE_INPUT, i)), ...outputs.flatMap((o) => stringField(NODE_OUTPUT, o)), ...stringField(NODE_NAME, name), ...rest]);
}

/** A default-domain node with several outputs (TopK). */
function nodeWithOutputs(opType: string, name: string, inputs: string[], outputs: string[], attributes: Pieces): Pieces {
  return lenField(GRAPH_NODE, [
    ...inputs.flatMap((i) => stringField(NODE_INPUT, i)),
    ...outputs.flatMap((o) => stringField(NODE_OUTPUT, o)),
    ...stringField(NODE_NAME, name),
    ...stringField(4, opType),
    ...attributes,
  ]);
}

function declaredDims(buf: Uint8Array, info: ProtoField): { elemType: number; dims: ProtoField[] | null } {
  const tensor = nested(buf, info, [VALUE_TYPE, TYPE_TENSOR]);
  if (tensor === null) return { elemType: 0, dims: null };
  const fields = subFields(buf, tensor);
  const shape = fields.find((f) => f.no === TENSOR_TYPE_SHAPE);
  return { elemType: fields.find((f) => f.no === TENSOR_TYPE_ELEM)?.varint ?? 0, dims: shape === undefined ? null : subFields(buf, shape).filter((f) => f.no === SHAPE_DIM) };
}

function outputField(name: string, elemType: number, dims: Pieces[]): Pieces {
  const tensor = [...varintField(TENSOR_TYPE_ELEM, elemType), ...lenField(TENSOR_TYPE_SHAPE, dims.flatMap((d) => lenField(SHAPE_DIM, d)))];
  return lenField(GRAPH_OUTPUT, [...stringField(VALUE_NAME, name), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, tensor))]);
}

/** A GraphProto (an If's branch) of `nodes` whose outputs are `outputs` (name, element type; no shape). */
function subgraph(name: string, nodes: Pieces, outputs: [string, number][]): Pieces {
  return [
    ...nodes,
    ...stringField(GRAPH_NAME, name),
    ...outputs.flatMap(([o, elemType]) => lenField(GRAPH_OUTPUT, [...stringField(VALUE_NAME, o), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, varintField(TENSOR_TYPE_ELEM, elemType)))])),
  ];
}

/** A node attribute holding a graph (an If's branch). */
function graphAttribute(name: string, graph: Pieces): Pieces {
  return lenField(NODE_ATTRIBUTE, [...stringField(ATTRIBUTE_NAME, name), ...lenField(ATTRIBUTE_G, graph), ...varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_GRAPH)]);
}

/** A Constant node whose value is an empty tensor of `dims` (one of them 0) and element type `elemType`. */
function constantNode(output: string, elemType: number, dims: number[]): Pieces {
  const tensor = [...dims.flatMap((d) => varintField(TENSOR_DIMS, d)), ...varintField(TENSOR_DATA_TYPE, elemType), ...lenField(TENSOR_RAW_DATA, [])];
  return lenField(GRAPH_NODE, [
    ...stringField(NODE_OUTPUT, output),
    ...stringField(NODE_NAME, output),
    ...stringField(NODE_OP_TYPE, 'Constant'),
    ...lenField(NODE_ATTRIBUTE, [...stringField(ATTRIBUTE_NAME, 'value'), ...lenField(ATTRIBUTE_T, tensor), ...varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_TENSOR)]),
  ]);
}

function rewrite(buf: Uint8Array, options: LensRewriteOptions): LensRewrite {
  const parsed: ParsedModel = parseModel(buf);
  const logitsInfo = parsed.outputs.get('logits');
  if (logitsInfo === undefined) return refuse({ kind: 'no-logits-output', outputs: [...parsed.outputs.keys()].slice(0, 5) });
  const logits = declaredDims(buf, logitsInfo);
  if (logits.dims === null || logits.dims.length !== 3) return refuse({ kind: 'logits-rank', rank: logits.dims?.length ?? null });
  if (!FLOAT_TYPES.has(logits.elemType)) return refuse({ kind: 'logits-type', elemType: logits.elemType });
  if ((parsed.defaultOpset ?? 0) < LENS_MIN_OPSET) return refuse({ kind: 'opset', opset: parsed.defaultOpset ?? 0 });
  const plan = planLens(parsed);
  if ('kind' in plan) return refuse(plan);
  if (plan.tail.length > MAX_TAIL) return refuse({ kind: 'tail-too-long', nodes: MAX_TAIL });

  const taken = new Set<string>([...parsed.initializers, ...parsed.inputs, ...parsed.outputs.keys(), ...parsed.valueInfo.keys()]);
  for (const node of parsed.nodes) {
    for (const o of node.outputs) taken.add(o);
    taken.add(node.name);
  }
  for (const name of [...Object.values(LENS_OUTPUTS), LENS_GATE]) if (taken.has(name)) return refuse({ kind: 'name-taken', name });
  let prefix = 'jiangu_lens';
  for (let i = 2; [...taken].some((n) => n.startsWith(`${prefix}/`)); i++) prefix = `jiangu_lens_${i}`;
  const t = (name: string) => `${prefix}/${name}`;

  // K: 5, or the vocabulary when it is declared smaller (TopK refuses a K past the axis).
  const vocabDim = subFields(buf, logits.dims[2]).find((f) => f.no === 1);
  const k = vocabDim !== undefined && vocabDim.varint > 0 ? Math.min(LENS_TOP_K, vocabDim.varint) : LENS_TOP_K;

  const nodes: Pieces = [];
  // The first tail node of each layer (the last residual sum, or the skip-norm) runs in the main
  // graph, where the author's tail reads the same terms: see "The gate" above.
  const outer: Pieces = [];
  // A tensor the tail reads that the main graph computes from initializers alone (the hub q8 head's
  // DequantizeLinear(Transpose(embedding))) is computed again inside the branch, from the same
  // initializers: head-blocks.ts replaces the main graph's head and drops those nodes, which would
  // leave the branch reading a tensor no longer made; and the branch's copy runs only in lens passes.
  const constant = constantTensors(parsed);
  const producerOf = new Map<string, GraphNode>();
  for (const node of parsed.nodes) for (const o of node.outputs) if (o !== '') producerOf.set(o, node);
  const computedConstants: Pieces = [];
  const facts = initializerFacts(buf, parsed);
  let headConstants: Pieces | null = null;
  const inBranch = new Map<string, string>();
  const branchCopy = (name: string): string => {
    const producer = producerOf.get(name);
    if (name === '' || producer === undefined || !constant.has(name) || parsed.initializers.has(name)) return name;
    const known = inBranch.get(name);
    if (known !== undefined) return known;
    const inputs = producer.inputs.map(branchCopy);
    const outputs = producer.outputs.map((o) => (o === '' ? '' : t(`const/${o}`)));
    producer.outputs.forEach((o, i) => o !== '' && inBranch.set(o, outputs[i]));
    computedConstants.push(...cloneNode(buf, producer, inputs, outputs, t(`const/${producer.name || producer.outputs[0] || producer.opType}`)));
    return inBranch.get(name)!;
  };
  const last = plan.tail[0];
  const streamSlots = [0, 1];
  const probs: string[] = [];
  const ids: string[] = [];
  for (let l = 0; l < plan.layers; l++) {
    const p = (name: string) => t(`layer${l + 1}/${name}`);
    const source = plan.layerSpine[options.lensFault === 'previous-layer' ? Math.max(0, l - 1) : l];
    const renamed = new Map<string, string>();
    for (const slot of streamSlots) renamed.set(last.inputs[slot], source.inputs[slot]);
    let alias: [string, string] | null = null;
    for (const node of plan.tail) {
      const resolve = (i: string) => (alias !== null && i === alias[0] ? alias[1] : (renamed.get(i) ?? (node === last ? i : branchCopy(i))));
      // A tied head (the hub's: the embedding through a Transpose, q8's through DequantizeLinear too)
      // is computed as the main graph's is (head-blocks.ts): a Gemm on the embedding, or blocks of
      // its rows, so a lens pass neither expands the whole vocabulary nor has a Transpose to fold.
      const tied = node !== last && options.tiedHead !== false && node.opType === 'MatMul' && node.domain === '' && node.inputs.length === 2 ? tiedWeightOf(node.inputs[1], producerOf, facts) : null;
      if (tied) {
        const out = p(node.outputs[0]);
        renamed.set(node.outputs[0], out);
        nodes.push(joinPieces(tiedHeadNodes(p('head'), t('head'), tied, resolve(node.inputs[0]), out, options.headBlockBytes)));
        headConstants ??= [joinPieces(tiedHeadConstants(t('head'), tied, options.headBlockBytes))];
        continue;
      }
      const inputs = node.inputs.map(resolve);
      // Inputs of the last spine node are the stream's terms; its outputs (like every tail node's) get new names.
      if (node === last) for (const slot of streamSlots) inputs[slot] = source.inputs[slot];
      const outputs = node.outputs.map((o) => (o === '' ? '' : p(o)));
      if (node === last && options.lensFault === 'skip-final-norm') {
        // The fault: the head reads the stream itself (the spine's sum: an Add's output, a skip-norm's output 3).
        while (plan.spine === 'skip-norm' && outputs.length < 4) outputs.push('');
        const sumIndex = plan.spine === 'skip-norm' ? 3 : 0;
        if (outputs[sumIndex] === '') outputs[sumIndex] = p('fault/stream');
        alias = [plan.normOutput, outputs[sumIndex]];
      }
      node.outputs.forEach((o, i) => o !== '' && renamed.set(o, outputs[i]));
      (node === last ? outer : nodes).push(...cloneNode(buf, node, inputs, outputs, p(node.name || node.outputs[0] || node.opType)));
    }
    let layerLogits = renamed.get('logits');
    if (layerLogits === undefined) throw new Error('the tail does not compute the logits');
    if (logits.elemType !== FLOAT) {
      nodes.push(...nodeField('Cast', p('lens/cast'), [layerLogits], p('lens/logits_float'), intAttribute('to', FLOAT)));
      layerLogits = p('lens/logits_float');
    }
    nodes.push(...nodeField('Softmax', p('lens/softmax'), [layerLogits], p('lens/probs'), intAttribute('axis', -1)));
    nodes.push(...nodeWithOutputs('TopK', p('lens/topk'), [p('lens/probs'), t('k')], [p('lens/top_probs'), p('lens/top_ids')], [...intAttribute('axis', -1), ...intAttribute('largest', 1), ...intAttribute('sorted', 1)]));
    nodes.push(...nodeField('Unsqueeze', p('lens/unsqueeze_probs'), [p('lens/top_probs'), t('layer_axis')], p('lens/layer_probs')));
    nodes.push(...nodeField('Unsqueeze', p('lens/unsqueeze_ids'), [p('lens/top_ids'), t('layer_axis')], p('lens/layer_ids')));
    probs.push(p('lens/layer_probs'));
    ids.push(p('lens/layer_ids'));
  }
  nodes.push(...nodeField('Concat', t('concat_probs'), probs, t('top_probs'), intAttribute('axis', 1)));
  nodes.push(...nodeField('Concat', t('concat_ids'), ids, t('top_ids'), intAttribute('axis', 1)));

  const [batchDim, rowsDim] = logits.dims.map((f) => [buf.subarray(f.valueStart, f.valueEnd)]);
  const fixed = (n: number): Pieces => varintField(1, n);
  // The lens runs only when the gate is fed true (see "The gate" above): its nodes are the If's
  // then-branch; the else-branch gives empty grids ([1, L, 0, k]) of the same types.
  // Joined here: a deep model's branch is tens of thousands of pieces (Qwen3-0.6B's heads in blocks),
  // too many to spread as arguments further up.
  const lensBranch = [joinPieces(subgraph(t('lens'), [...computedConstants, ...nodes], [
    [t('top_ids'), INT64],
    [t('top_probs'), FLOAT],
  ]))];
  const emptyGrid = [1, plan.layers, 0, k];
  const emptyBranch = subgraph(
    t('no_lens'),
    [...constantNode(t('empty_ids'), INT64, emptyGrid), ...constantNode(t('empty_probs'), FLOAT, emptyGrid)],
    [
      [t('empty_ids'), INT64],
      [t('empty_probs'), FLOAT],
    ],
  );
  const gate = lenField(GRAPH_NODE, [
    ...stringField(NODE_INPUT, LENS_GATE),
    ...stringField(NODE_OUTPUT, LENS_OUTPUTS.topIds),
    ...stringField(NODE_OUTPUT, LENS_OUTPUTS.topProbs),
    ...stringField(NODE_NAME, t('gate')),
    ...stringField(NODE_OP_TYPE, 'If'),
    ...graphAttribute('then_branch', lensBranch),
    ...graphAttribute('else_branch', emptyBranch),
  ]);
  const appended: Pieces = [
    ...outer,
    ...gate,
    ...(headConstants ?? []),
    ...int64Initializer(t('k'), BigInt(k)),
    ...int64Initializer(t('layer_axis'), 1n),
    ...lenField(GRAPH_INPUT, [...stringField(VALUE_NAME, LENS_GATE), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, [...varintField(TENSOR_TYPE_ELEM, BOOL), ...lenField(TENSOR_TYPE_SHAPE, [])]))]),
    ...outputField(LENS_OUTPUTS.topIds, INT64, [batchDim, fixed(plan.layers), rowsDim, fixed(k)]),
    ...outputField(LENS_OUTPUTS.topProbs, FLOAT, [batchDim, fixed(plan.layers), rowsDim, fixed(k)]),
  ];
  // Appended after every existing field: repeated fields keep their order among themselves, and the
  // new nodes come after everything they read.
  const graph: Pieces = [buf.subarray(parsed.graphField.valueStart, parsed.graphField.valueEnd), ...appended];
  const out: Pieces = [];
  for (const f of parsed.top) out.push(...(f === parsed.graphField ? lenField(MODEL_GRAPH, graph) : [buf.subarray(f.start, f.end)]));
  const bytes = joinPieces(out);
  return { kind: 'rewritten', bytes, layers: plan.layers, k, spine: plan.spine, tailOps: plan.ops, graphBytes: piecesLength(graph), addedBytes: bytes.length - buf.length };
}

/**
 * A lens pass's outputs as plain arrays: for layer l (0 = after the first decoder layer), row r
 * and rank j (0 = most probable), index ((l · rows) + r) · k + j of topIds / topProbs.
 */
export interface LensGrid {
  layers: number;
  rows: number;
  k: number;
  topIds: Int32Array;
  topProbs: Float32Array;
}

/** How the last layer's lens agrees with the model's own logits (the load check's numbers). */
export interface LensAgreement {
  passed: boolean;
  rows: number;
  /** Largest |lens probability − softmax of the logits (float64)| at the lens's own id, over the last layer's top k. */
  maxProbDiff: number;
  /** Ranks whose id is not the logits' id at that rank, beyond a tie within the tolerance. */
  idMismatches: number;
  tolerance: number;
}

/**
 * How closely the last layer's lens must equal the softmax of the logits: the same float32 numbers
 * through float32 against float64 softmax (under 1e-6 seen), except float16 graphs, where onnxruntime
 * may drop the logits' float16 round trip on the lens's path (stats-rewrite.ts) and a probability moves
 * by up to p · 2^-8. A lens without the final norm, or of another layer, is off by tenths.
 */
export function lensCheckTolerance(dtype: string): number {
  return dtype === 'fp16' || dtype === 'q4f16' ? 2e-2 : 1e-4;
}

/**
 * The load check's comparison: the last layer of `lens` against the top k of `logits` (rows × vocab,
 * the same pass's rows, float32 or float16 converted), with probabilities from a float64 softmax.
 * An id at rank j may differ from the logits' own rank-j id only where both are equally probable
 * within `tolerance` (a tie broken the other way).
 */
export function lastLayerAgreement(lens: LensGrid, logits: ArrayLike<number>, vocab: number, tolerance: number): LensAgreement {
  const { rows, k, layers } = lens;
  let maxProbDiff = 0;
  let idMismatches = 0;
  const probs = new Float64Array(vocab);
  for (let r = 0; r < rows; r++) {
    let max = -Infinity;
    for (let v = 0; v < vocab; v++) max = Math.max(max, logits[r * vocab + v]);
    let sum = 0;
    for (let v = 0; v < vocab; v++) sum += probs[v] = Math.exp(logits[r * vocab + v] - max);
    for (let v = 0; v < vocab; v++) probs[v] /= sum;
    // The logits' own top k, ties to the lower id (TopK's rule).
    const order: number[] = [];
    for (let v = 0; v < vocab; v++) {
      if (order.length === k && probs[v] <= probs[order[k - 1]]) continue;
      let at = order.length;
      while (at > 0 && probs[v] > probs[order[at - 1]]) at--;
      order.splice(at, 0, v);
      if (order.length > k) order.pop();
    }
    for (let j = 0; j < k; j++) {
      const at = ((layers - 1) * rows + r) * k + j;
      const id = lens.topIds[at];
      const own = id >= 0 && id < vocab ? probs[id] : NaN;
      const d = Math.abs(lens.topProbs[at] - own);
      maxProbDiff = Number.isNaN(d) ? Number.MAX_VALUE : Math.max(maxProbDiff, d);
      if (id !== order[j] && !(Math.abs(own - probs[order[j]]) <= tolerance)) idMismatches++;
    }
  }
  return { passed: idMismatches === 0 && maxProbDiff <= tolerance, rows, maxProbDiff, idMismatches, tolerance };
}
