// Finds, in a causal-LM graph, each decoder layer's attention for the attention tap
// (attention-rewrite.ts): which tensors hold that layer's queries, how its scores are scaled, and
// which present.{i}.key output holds its keys. Only names, op types, attributes and graph structure
// are read; no weight is decoded. Two forms are known:
//
// - `gqa`: com.microsoft GroupQueryAttention, as onnxruntime-genai's model builder writes it (the
//   hub's Qwen3 and SmolLM2 exports, gqa-graph.ts). Its output 1 is present.{i}.key, the keys after
//   the rotary embedding. Input 0 is the query, or q|k|v packed when inputs 1 and 2 are empty;
//   with do_rotary 1 the op rotates q and k itself with rows of cos_cache / sin_cache (inputs 7, 8)
//   at positions past + 0 … rows − 1, past = seqlens_k + 1 − rows (input 5). Attributes outside what
//   the tab computes (softcap, a local window, smooth softmax, extra inputs) are refused.
// - `matmul`: attention written out (optimum's exports, llama-graph.ts): a Softmax over the last
//   axis fed, through Cast, Identity, Mul or Div by a factor, Add (a mask) or Where (a mask), by a
//   MatMul(query, key side). The key side must reach present.{i}.key through layout ops only
//   (Transpose, Reshape, Expand, Unsqueeze, Tile, Concat of one tensor repeated, Cast, Identity), and
//   Mul / Div by factors. The query is the MatMul's first input with factors walked back through.
//   A factor is a tensor that depends on no activation but through a Shape (a constant, or a scale
//   computed from the head size): their product is the scale. Which factor is which, and whether
//   the mask is the causal one, the tab checks on every pass against the graph's own Softmax row.
//
// Layers are numbered by their present.{i}.key output; every layer must have one attention.

import { constantTensors, type GraphNode, type ParsedModel } from './logits-rewrite.ts';
import { opLabel, nodeLabel } from './lens-graph.ts';
import { fieldString, subFields, WIRE_FIXED32, WIRE_VARINT } from './onnx-bytes.ts';

/** Why a layer's attention was not recognised, as data (identifiers as they are). */
export type AttentionGraphReason =
  /** the graph names no present.{i}.key output, so its layers are not known */
  | { kind: 'no-layer-count' }
  /** present.{i}.key outputs are not numbered 0 … layers − 1 (`missing` is the first gap) */
  | { kind: 'layer-numbers'; layers: number; missing: number }
  /** no attention reads layer `layer`'s keys */
  | { kind: 'no-attention'; layer: number }
  /** more than one attention reads layer `layer`'s keys */
  | { kind: 'two-attentions'; layer: number; nodes: string[] }
  /** between a Softmax and its scores' MatMul, an op the tap cannot read */
  | { kind: 'score-op'; layer: number; op: string; node: string; softmax: string }
  /** between the cache and the scores' MatMul (key side), an op the tap cannot read */
  | { kind: 'key-op'; layer: number; op: string; node: string; softmax: string }
  /** the Softmax does not normalise over the last axis */
  | { kind: 'softmax-axis'; layer: number; node: string; axis: number }
  /** GroupQueryAttention with an attribute value the tap does not compute (softcap, a window, …) */
  | { kind: 'gqa-attribute'; layer: number; node: string; name: string; value: number }
  /** GroupQueryAttention with an attribute the tap does not know */
  | { kind: 'gqa-unknown-attribute'; layer: number; node: string; name: string }
  /** GroupQueryAttention given an input the tap does not read (position_ids, attention_bias, head_sink), or lacking the rotary caches */
  | { kind: 'gqa-input'; layer: number; node: string; index: number }
  /** GroupQueryAttention whose output 1 is not a present.{i}.key output */
  | { kind: 'gqa-present'; node: string };

/** One factor of a layer's scale: multiplied (`mul`) or divided (`div`). */
export interface ScaleFactor {
  tensor: string;
  op: 'mul' | 'div';
}

export type AttentionLayerPlan =
  | {
      kind: 'gqa';
      layer: number;
      node: GraphNode;
      heads: number;
      kvHeads: number;
      /** The attribute; 0: 1/√head_dim. */
      scale: number;
      rotary: 'none' | 'half' | 'interleaved';
      /** q|k|v packed in input 0 (inputs 1 and 2 empty). */
      packed: boolean;
    }
  | {
      kind: 'matmul';
      layer: number;
      softmax: GraphNode;
      /** The rotated queries [batch, heads, rows, head_dim], before any factor. */
      query: string;
      factors: ScaleFactor[];
    };

/** A node attribute's value as the tap reads it: ints exactly (as bigint), floats as float32, others by type only. */
export type AttributeValue = { type: 'int'; value: bigint } | { type: 'float'; value: number } | { type: 'other' };

const ATTRIBUTE_NAME = 1;
const ATTRIBUTE_F = 2;
const ATTRIBUTE_I = 3;
const NODE_ATTRIBUTE = 5;

/** A varint's bytes as a signed 64-bit integer (a negative int attribute is ten bytes of two's complement). */
function varintBig(buf: Uint8Array, start: number, end: number): bigint {
  let v = 0n;
  let shift = 0n;
  for (let i = start; i < end; i++, shift += 7n) v |= BigInt(buf[i] & 0x7f) << shift;
  return BigInt.asIntN(64, v);
}

/** The attributes of `node`, by name. */
export function nodeAttributes(buf: Uint8Array, node: GraphNode): Map<string, AttributeValue> {
  const out = new Map<string, AttributeValue>();
  for (const f of subFields(buf, node.field)) {
    if (f.no !== NODE_ATTRIBUTE) continue;
    let name = '';
    let value: AttributeValue = { type: 'other' };
    for (const g of subFields(buf, f)) {
      if (g.no === ATTRIBUTE_NAME) name = fieldString(buf, g);
      else if (g.no === ATTRIBUTE_I && g.wire === WIRE_VARINT) value = { type: 'int', value: varintBig(buf, g.valueStart, g.valueEnd) };
      else if (g.no === ATTRIBUTE_F && g.wire === WIRE_FIXED32) value = { type: 'float', value: new DataView(buf.buffer, buf.byteOffset + g.valueStart, 4).getFloat32(0, true) };
    }
    out.set(name, value);
  }
  return out;
}

const MS = 'com.microsoft';
/** GroupQueryAttention's attributes and the values the tap computes (null: any value). */
const GQA_ATTRIBUTES: Record<string, ((v: number) => boolean) | null> = {
  num_heads: null,
  kv_num_heads: null,
  scale: null,
  do_rotary: (v) => v === 0 || v === 1,
  rotary_interleaved: (v) => v === 0 || v === 1,
  softcap: (v) => v === 0,
  local_window_size: (v) => v === -1,
  smooth_softmax: (v) => v === 0,
  qk_output: (v) => v === 0,
};
/** Layout ops the key side may pass through between the cache and the scores' MatMul. */
const KEY_LAYOUT_OPS = new Set(['Transpose', 'Reshape', 'Expand', 'Unsqueeze', 'Tile', 'Cast', 'Identity']);
/** The most nodes walked from a Softmax to its MatMul, or from the MatMul to the cache. */
const WALK_STEPS = 24;

/** The layer of a present.{i}.key name, else null. */
function presentLayer(name: string): number | null {
  const m = /^present\.(\d+)\.key$/.exec(name);
  return m ? Number(m[1]) : null;
}

/** Finds every layer's attention, or the first reason why not. */
export function planAttention(buf: Uint8Array, parsed: ParsedModel): AttentionLayerPlan[] | AttentionGraphReason {
  const layerSet = new Set<number>();
  for (const name of parsed.outputs.keys()) {
    const l = presentLayer(name);
    if (l !== null) layerSet.add(l);
  }
  if (layerSet.size === 0) return { kind: 'no-layer-count' };
  const layers = layerSet.size;
  for (let l = 0; l < layers; l++) if (!layerSet.has(l)) return { kind: 'layer-numbers', layers, missing: l };

  const producer = new Map<string, GraphNode>();
  for (const node of parsed.nodes) for (const o of node.outputs) if (o !== '') producer.set(o, node);
  const constant = constantTensors(parsed);
  const staticCache = new Map<string, boolean>();
  /** Whether `t` depends on no activation but through a Shape or Size (a factor, not data). */
  const isStatic = (t: string, depth = 0): boolean => {
    if (constant.has(t)) return true;
    const known = staticCache.get(t);
    if (known !== undefined) return known;
    const p = producer.get(t);
    const op = p === undefined ? '' : opLabel(p);
    const result = p !== undefined && depth < 16 && (op === 'Shape' || op === 'Size' || (!['If', 'Loop', 'Scan'].includes(op) && p.inputs.every((i) => i === '' || isStatic(i, depth + 1))));
    staticCache.set(t, result);
    return result;
  };

  const found = new Map<number, AttentionLayerPlan[]>();
  const add = (plan: AttentionLayerPlan) => found.set(plan.layer, [...(found.get(plan.layer) ?? []), plan]);
  const failures: AttentionGraphReason[] = [];

  for (const node of parsed.nodes) {
    const op = opLabel(node);
    if (op === `${MS}.GroupQueryAttention`) {
      const layer = presentLayer(node.outputs[1] ?? '');
      if (layer === null) return { kind: 'gqa-present', node: nodeLabel(node) };
      const plan = gqaPlan(buf, node, layer);
      if (plan.kind === 'gqa') add(plan);
      else if (plan.kind !== 'matmul') return plan;
    } else if (op === 'Softmax') {
      const plan = softmaxPlan(buf, parsed, node, producer, isStatic);
      if (plan === null) continue;
      if (plan.kind === 'matmul') add(plan);
      else if (plan.kind !== 'gqa') failures.push(plan);
    }
  }
  const plans: AttentionLayerPlan[] = [];
  for (let l = 0; l < layers; l++) {
    const at = found.get(l) ?? [];
    if (at.length > 1) return { kind: 'two-attentions', layer: l, nodes: at.map((p) => nodeLabel(p.kind === 'gqa' ? p.node : p.softmax)) };
    if (at.length === 0) return failures.find((f) => 'layer' in f && f.layer === l) ?? { kind: 'no-attention', layer: l };
    plans.push(at[0]);
  }
  return plans;
}

function gqaPlan(buf: Uint8Array, node: GraphNode, layer: number): AttentionLayerPlan | AttentionGraphReason {
  const attributes = nodeAttributes(buf, node);
  const where = { layer, node: nodeLabel(node) };
  const int = (name: string, fallback: number): number => {
    const a = attributes.get(name);
    return a?.type === 'int' ? Number(a.value) : fallback;
  };
  for (const [name, value] of attributes) {
    if (!(name in GQA_ATTRIBUTES)) return { kind: 'gqa-unknown-attribute', ...where, name };
    const allowed = GQA_ATTRIBUTES[name];
    const number = value.type === 'int' ? Number(value.value) : value.type === 'float' ? value.value : NaN;
    if (allowed !== null && !allowed(number)) return { kind: 'gqa-attribute', ...where, name, value: number };
    if (allowed === null && !(number > 0 || (name === 'scale' && number === 0))) return { kind: 'gqa-attribute', ...where, name, value: number };
  }
  // position_ids (9), attention_bias (10), head_sink (11): positions or scores the tap would not know.
  for (let i = 9; i < node.inputs.length; i++) if (node.inputs[i] !== '') return { kind: 'gqa-input', ...where, index: i };
  const doRotary = int('do_rotary', 0) === 1;
  if (doRotary && (!node.inputs[5] || !node.inputs[7] || !node.inputs[8])) return { kind: 'gqa-input', ...where, index: !node.inputs[5] ? 5 : !node.inputs[7] ? 7 : 8 };
  const heads = int('num_heads', 0);
  const kvHeads = int('kv_num_heads', 0);
  if (!(heads > 0) || !(kvHeads > 0) || heads % kvHeads !== 0) return { kind: 'gqa-attribute', ...where, name: 'kv_num_heads', value: kvHeads };
  const scale = attributes.get('scale');
  const packed = (node.inputs[1] ?? '') === '' && (node.inputs[2] ?? '') === '';
  if (!packed && !node.inputs[1]) return { kind: 'gqa-input', ...where, index: 1 };
  return {
    kind: 'gqa',
    layer,
    node,
    heads,
    kvHeads,
    scale: scale?.type === 'float' ? scale.value : 0,
    rotary: !doRotary ? 'none' : int('rotary_interleaved', 0) === 1 ? 'interleaved' : 'half',
    packed,
  };
}

/**
 * A Softmax's attention plan; a reason when it reads scores from a MatMul on the cache through an op
 * the tap cannot read; null when it is no attention at all (its walk never reaches a MatMul on the cache).
 */
function softmaxPlan(
  buf: Uint8Array,
  parsed: ParsedModel,
  softmax: GraphNode,
  producer: Map<string, GraphNode>,
  isStatic: (t: string) => boolean,
): AttentionLayerPlan | AttentionGraphReason | null {
  /** The cache layer the key side reaches, the factors met, or where it stopped. */
  const keySide = (t: string): { layer: number; factors: ScaleFactor[] } | { stop: GraphNode } | null => {
    const factors: ScaleFactor[] = [];
    for (let step = 0; step < WALK_STEPS; step++) {
      const layer = presentLayer(t);
      if (layer !== null && parsed.outputs.has(t)) return { layer, factors };
      const p = producer.get(t);
      if (p === undefined) return null;
      const op = opLabel(p);
      const factor = factorOf(p, isStatic);
      if (factor) {
        factors.push(factor.factor);
        t = factor.activation;
      } else if (KEY_LAYOUT_OPS.has(op) || (op === 'Concat' && p.inputs.every((i) => i === p.inputs[0]))) t = p.inputs[0];
      else return { stop: p };
    }
    return null;
  };
  const factors: ScaleFactor[] = [];
  /** Walks back from `t` to the scores' MatMul; null when none is met. */
  const scores = (t: string, depth: number): { matmul: GraphNode } | { stop: GraphNode } | null => {
    for (let step = depth; step < WALK_STEPS; step++) {
      const p = producer.get(t);
      if (p === undefined) return null;
      const op = opLabel(p);
      if (op === 'MatMul') return { matmul: p };
      const factor = factorOf(p, isStatic);
      if (factor) {
        factors.push(factor.factor);
        t = factor.activation;
      } else if (op === 'Cast' || op === 'Identity') t = p.inputs[0];
      else if (op === 'Add' || op === 'Where') {
        // A mask: the scores go on through whichever input leads to a MatMul on the cache.
        // Where no input does, a MatMul whose key side stops (an op on the keys), else the first stop
        // met, names the op in the way (a Tanh soft cap, say).
        const candidates = op === 'Add' ? p.inputs.slice(0, 2) : p.inputs.slice(1, 3);
        const mark = factors.length;
        let other: { matmul: GraphNode; factors: ScaleFactor[] } | { stop: GraphNode } | null = null;
        for (const c of candidates) {
          factors.length = mark;
          const r = scores(c, step + 1);
          if (r !== null && 'matmul' in r && keySideOf(r.matmul) !== null) return r;
          if (r !== null && 'matmul' in r && (other === null || 'stop' in other)) other = { matmul: r.matmul, factors: factors.slice(mark) };
          else if (r !== null && 'stop' in r) other ??= r;
        }
        factors.length = mark;
        if (other !== null && 'matmul' in other) factors.push(...other.factors);
        return other ?? { stop: p };
      } else return { stop: p };
    }
    return null;
  };
  const keySideOf = (matmul: GraphNode) => {
    const k = keySide(matmul.inputs[1] ?? '');
    return k !== null && 'layer' in k ? k : null;
  };
  const walked = scores(softmax.inputs[0], 0);
  if (walked === null) return null;
  if ('stop' in walked) {
    // A reason only when the stop stands between a MatMul on the cache and this Softmax.
    const layer = cacheLayerAbove(walked.stop, producer, parsed);
    return layer === null ? null : { kind: 'score-op', layer, op: opLabel(walked.stop), node: nodeLabel(walked.stop), softmax: nodeLabel(softmax) };
  }
  const key = keySide(walked.matmul.inputs[1] ?? '');
  if (key === null) return null;
  if ('stop' in key) {
    const layer = cacheLayerAbove(key.stop, producer, parsed);
    return layer === null ? null : { kind: 'key-op', layer, op: opLabel(key.stop), node: nodeLabel(key.stop), softmax: nodeLabel(softmax) };
  }
  const axis = nodeAttributes(buf, softmax).get('axis');
  const axisValue = axis?.type === 'int' ? Number(axis.value) : (parsed.defaultOpset ?? 0) >= 13 ? -1 : 1;
  if (axisValue !== -1 && axisValue !== 3) return { kind: 'softmax-axis', layer: key.layer, node: nodeLabel(softmax), axis: axisValue };
  // The query: the MatMul's first input, factors walked back through.
  let query = walked.matmul.inputs[0];
  for (let step = 0; step < WALK_STEPS; step++) {
    const p = producer.get(query);
    const factor = p === undefined ? null : factorOf(p, isStatic);
    if (factor === null) break;
    factors.push(factor.factor);
    query = factor.activation;
  }
  return { kind: 'matmul', layer: key.layer, softmax, query, factors: [...factors, ...key.factors] };
}

/** A Mul or Div of an activation by a static factor, else null. */
function factorOf(p: GraphNode, isStatic: (t: string) => boolean): { factor: ScaleFactor; activation: string } | null {
  const op = opLabel(p);
  const [a, b] = p.inputs;
  if (p.inputs.length !== 2 || !a || !b) return null;
  if (op === 'Mul' && isStatic(a) !== isStatic(b)) return isStatic(a) ? { factor: { tensor: a, op: 'mul' }, activation: b } : { factor: { tensor: b, op: 'mul' }, activation: a };
  if (op === 'Div' && isStatic(b) && !isStatic(a)) return { factor: { tensor: b, op: 'div' }, activation: a };
  return null;
}

/** The layer of a present.{i}.key among `node`'s ancestors (a few steps up), else null. */
function cacheLayerAbove(node: GraphNode, producer: Map<string, GraphNode>, parsed: ParsedModel): number | null {
  const seen = new Set<string>();
  const queue = [...node.inputs];
  while (queue.length > 0 && seen.size < 4 * WALK_STEPS) {
    const t = queue.shift()!;
    if (t === '' || seen.has(t)) continue;
    seen.add(t);
    const layer = presentLayer(t);
    if (layer !== null && parsed.outputs.has(t)) return layer;
    const p = producer.get(t);
    if (p !== undefined) queue.push(...p.inputs);
  }
  return null;
}
