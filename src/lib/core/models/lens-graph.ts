// Finds, in a causal-LM graph, what the logit lens (lens-rewrite.ts) needs: the residual stream
// after every decoder layer, and the "tail" that turns the last one into logits (the final norm and
// the head, with whatever lies between them), so the tail can be applied again to every layer's
// stream. Only names, op types and graph structure are read; no weight is decoded.
//
// The residual stream is a chain of "spine" nodes, each computing stream + sublayer output:
//  - `residual-add` (optimum exports, the fixtures' llama-graph.ts): Add(x, f(x)), where one input
//    is an ancestor of the other (the sublayer read the stream the Add adds to). Bias adds (one
//    constant input) and the rotary Add (neither input an ancestor of the other) are not spine nodes.
//  - `skip-norm` (onnxruntime-genai's model builder, the Qwen3 ONNX export, gqa-graph.ts): the sum
//    is fused into com.microsoft SkipSimplifiedLayerNormalization / SkipLayerNormalization
//    (input + skip, then the norm), whose output 3 is the new stream and feeds the next one's
//    input; the final norm is the last of the chain.
// The last spine node is the first one met walking back from the logits (breadth first, over
// non-constant inputs); the chain is then walked back to the embedding. A pre-norm decoder has two
// spine nodes a layer (after attention, after the MLP), so layer l's stream is the sum of spine
// node 2l − 1 (1-based 2l): in the skip-norm chain the layer-l sum is the input norm of layer l + 1,
// whose (input, skip) pair is the stream's two terms. The number of layers is read from the
// present.{i}.key outputs / past_key_values.{i}.key inputs and must be half the spine (or equal to it:
// parallel-block decoders with one residual a layer).
//
// The tail is every node that descends from the last spine node and is an ancestor of the logits,
// the last spine node included. Re-applying it to layer l means cloning those nodes with the last
// spine node's two stream inputs replaced by spine node l's: the model's own norm and head (the same
// ops, attributes and initializers, referenced by name), recomputing the sum a + b first. Whatever
// else the tail reads must not depend on the stream (weights, shapes, the num_logits_to_keep slice).

import { constantTensors, type GraphNode, type ParsedModel } from './logits-rewrite.ts';

/** Why the layers or the tail were not recognised, as data (identifiers as they are). */
export type LensGraphReason =
  /** no residual Add or skip-norm within `nodes` nodes of the logits */
  | { kind: 'no-residual-stream'; nodes: number }
  /** the graph names no present.{i}.key / past_key_values.{i}.key, so its layer count is unknown */
  | { kind: 'no-layer-count' }
  /** the residual chain has `residuals` spine nodes for `layers` layers (not 2 or 1 per layer) */
  | { kind: 'layer-count'; residuals: number; layers: number }
  /** an op between the last residual and the logits that the lens does not know */
  | { kind: 'tail-op'; op: string; node: string }
  /** no matrix product (MatMul, MatMulNBits, MatMulInteger) between the last residual and the logits */
  | { kind: 'no-head' }
  /** more than one matrix product there (e.g. a second projection) */
  | { kind: 'two-heads'; nodes: string[] }
  /** no normalisation between the last residual and the head */
  | { kind: 'no-final-norm' }
  /** a tail node reads an activation other than the stream (`tensor`) */
  | { kind: 'tail-reads-activation'; tensor: string; node: string }
  /** the tail has more than `nodes` nodes */
  | { kind: 'tail-too-long'; nodes: number };

export interface LensPlan {
  spine: 'residual-add' | 'skip-norm';
  /** The number of decoder layers L. */
  layers: number;
  /** Per layer l = 1 … L: the spine node whose sum is the stream after layer l. */
  layerSpine: GraphNode[];
  /** The tail in an order where each node comes after those it reads; tail[0] is the last spine node. */
  tail: GraphNode[];
  /** The tensor the head's product reads (through Slice, DynamicQuantizeLinear, Cast): the final norm's output. */
  normOutput: string;
  /** The tail's op types, in order (for logs and tests). */
  ops: string[];
}

const MS = 'com.microsoft';
const SKIP_NORMS = new Set([`${MS}.SkipSimplifiedLayerNormalization`, `${MS}.SkipLayerNormalization`]);
const NORMS = new Set([
  'ReduceMean',
  'LayerNormalization',
  'RMSNormalization',
  'SimplifiedLayerNormalization',
  `${MS}.SimplifiedLayerNormalization`,
  `${MS}.LayerNormalization`,
  ...SKIP_NORMS,
]);
const PRODUCTS = new Set(['MatMul', `${MS}.MatMulNBits`, 'MatMulInteger', `${MS}.MatMulIntegerToFloat`]);
/** Ops a final norm, a head and the rows kept between them are written with (decomposed or fused). */
const TAIL_OPS = new Set([
  ...NORMS,
  ...PRODUCTS,
  'Add',
  'Sub',
  'Mul',
  'Div',
  'Pow',
  'Sqrt',
  'Reciprocal',
  'Cast',
  'Identity',
  'Slice',
  'DynamicQuantizeLinear',
  'Tanh', // a final logit soft-cap (Div, Tanh, Mul)
]);
/** Ops the head's product reads its activation through (kept rows, q8's quantization, float16 casts). */
const HEAD_INPUT_OPS = new Set(['Slice', 'DynamicQuantizeLinear', 'Cast', 'Identity']);
/** The most nodes looked at walking back from the logits to the last residual. */
const SEARCH_NODES = 64;
/** The most nodes in the tail. */
export const MAX_TAIL = 48;

export function opLabel(node: GraphNode): string {
  return node.domain === '' || node.domain === 'ai.onnx' ? node.opType : `${node.domain}.${node.opType}`;
}

export function nodeLabel(node: GraphNode): string {
  return node.name || node.outputs[0] || '';
}

/** The layer count from the cache's names (present.{i}.key outputs, past_key_values.{i}.key inputs). */
function layerCount(parsed: ParsedModel): number {
  const seen = new Set<number>();
  const names = [...parsed.outputs.keys(), ...parsed.inputs];
  for (const n of names) {
    const m = /^(?:present|past_key_values)\.(\d+)\.key$/.exec(n);
    if (m) seen.add(Number(m[1]));
  }
  return seen.size;
}

/** Finds the layers' streams and the tail, or why not. */
export function planLens(parsed: ParsedModel): LensPlan | LensGraphReason {
  const producer = new Map<string, GraphNode>();
  const consumers = new Map<string, GraphNode[]>();
  for (const node of parsed.nodes) {
    for (const o of node.outputs) if (o !== '') producer.set(o, node);
    for (const i of node.inputs) if (i !== '') consumers.set(i, [...(consumers.get(i) ?? []), node]);
  }
  const constant = constantTensors(parsed);
  const ancestors = (t: string): Set<string> => {
    const seen = new Set<string>();
    const stack = [t];
    while (stack.length > 0) {
      const p = producer.get(stack.pop()!);
      if (p === undefined) continue;
      for (const i of p.inputs) if (i !== '' && !seen.has(i)) stack.push((seen.add(i), i));
    }
    return seen;
  };
  const descendants = (from: readonly string[]): Set<GraphNode> => {
    const seen = new Set<GraphNode>();
    const stack = [...from];
    while (stack.length > 0) {
      for (const c of consumers.get(stack.pop()!) ?? []) {
        if (seen.has(c)) continue;
        seen.add(c);
        for (const o of c.outputs) if (o !== '') stack.push(o);
      }
    }
    return seen;
  };
  /** The residual Add's stream input (the one the other was computed from), or null when `node` is not one. */
  const residualPrevious = (node: GraphNode): string | null => {
    if (opLabel(node) !== 'Add' || node.inputs.length !== 2) return null;
    const [a, b] = node.inputs;
    if (a === '' || b === '' || constant.has(a) || constant.has(b)) return null;
    if (ancestors(b).has(a)) return a;
    if (ancestors(a).has(b)) return b;
    return null;
  };
  /** The previous skip-norm's stream (its output 3) that `node` reads, or null. */
  const skipPrevious = (node: GraphNode): string | null => {
    for (const t of node.inputs.slice(0, 2)) {
      const p = producer.get(t);
      if (p !== undefined && opLabel(p) === opLabel(node) && p.outputs[3] === t) return t;
    }
    return null;
  };
  const isSpine = (node: GraphNode) => SKIP_NORMS.has(opLabel(node)) || residualPrevious(node) !== null;

  // The last spine node: breadth first back from the logits.
  let last: GraphNode | undefined;
  const queue = ['logits'];
  const visited = new Set<GraphNode>();
  while (queue.length > 0 && last === undefined) {
    const node = producer.get(queue.shift()!);
    if (node === undefined || visited.has(node)) continue;
    visited.add(node);
    if (visited.size > SEARCH_NODES) break;
    if (isSpine(node)) last = node;
    else for (const i of node.inputs) if (i !== '' && !constant.has(i)) queue.push(i);
  }
  if (last === undefined) return { kind: 'no-residual-stream', nodes: SEARCH_NODES };
  const spineKind = SKIP_NORMS.has(opLabel(last)) ? 'skip-norm' : 'residual-add';

  // The chain back to the embedding.
  const spine: GraphNode[] = [last];
  for (;;) {
    const at = spine[spine.length - 1];
    const previous = spineKind === 'skip-norm' ? skipPrevious(at) : residualPrevious(at);
    const p = previous === null ? undefined : producer.get(previous);
    if (p === undefined || spine.includes(p)) break;
    if (spineKind === 'skip-norm' ? p.outputs[3] !== previous || opLabel(p) !== opLabel(at) : residualPrevious(p) === null) break;
    spine.push(p);
  }
  spine.reverse();
  const layers = layerCount(parsed);
  if (layers === 0) return { kind: 'no-layer-count' };
  const perLayer = spine.length === 2 * layers ? 2 : spine.length === layers ? 1 : 0;
  if (perLayer === 0) return { kind: 'layer-count', residuals: spine.length, layers };
  const layerSpine = Array.from({ length: layers }, (_, l) => spine[(l + 1) * perLayer - 1]);

  // The tail: descendants of the last spine node that the logits depend on.
  const logitsAncestors = ancestors('logits');
  const below = descendants(last.outputs.filter((o) => o !== ''));
  const tailSet = new Set([last, ...[...below].filter((n) => n.outputs.some((o) => logitsAncestors.has(o) || o === 'logits'))]);
  if (tailSet.size > MAX_TAIL) return { kind: 'tail-too-long', nodes: MAX_TAIL };
  // File order is a topological order in a valid ONNX graph; re-sorting keeps an unsorted one right too.
  const tail: GraphNode[] = [];
  const placed = new Set<string>();
  const pending = parsed.nodes.filter((n) => tailSet.has(n));
  while (pending.length > 0) {
    const i = pending.findIndex((n) => n.inputs.every((t) => t === '' || placed.has(t) || ![...tailSet].some((m) => m.outputs.includes(t))));
    if (i < 0) return { kind: 'tail-reads-activation', tensor: pending[0].inputs[0] ?? '', node: nodeLabel(pending[0]) };
    const [n] = pending.splice(i, 1);
    tail.push(n);
    for (const o of n.outputs) if (o !== '') placed.add(o);
  }
  // Every other tail node descends from the last spine node, so the sort puts it first: tail[0].

  const stream = new Set<string>();
  const first = spine[0];
  for (const node of descendants(first.inputs.filter((t) => t !== '' && !constant.has(t)))) for (const o of node.outputs) stream.add(o);
  for (const t of first.inputs) if (t !== '' && !constant.has(t)) stream.add(t);
  const produced = new Set(tail.flatMap((n) => n.outputs));
  const products: GraphNode[] = [];
  let norm = spineKind === 'skip-norm';
  for (const node of tail) {
    const op = opLabel(node);
    if (!TAIL_OPS.has(op)) return { kind: 'tail-op', op, node: nodeLabel(node) };
    if (PRODUCTS.has(op)) products.push(node);
    else if (NORMS.has(op) && products.length === 0) norm = true;
    const stemInputs = node === last ? [] : node.inputs;
    for (const t of stemInputs) {
      if (t !== '' && !produced.has(t) && stream.has(t)) return { kind: 'tail-reads-activation', tensor: t, node: nodeLabel(node) };
    }
  }
  if (products.length === 0) return { kind: 'no-head' };
  if (products.length > 1) return { kind: 'two-heads', nodes: products.map(nodeLabel) };
  if (!norm) return { kind: 'no-final-norm' };
  let normOutput = products[0].inputs[0];
  for (let p = producer.get(normOutput); p !== undefined && tailSet.has(p) && HEAD_INPUT_OPS.has(opLabel(p)); p = producer.get(normOutput)) normOutput = p.inputs[0];
  return { spine: spineKind, layers, layerSpine, tail, normOutput, ops: tail.map(opLabel) };
}
