// A tied head computed in blocks of the vocabulary, so the embedding is never expanded whole.
//
// The hub's q8 files (transformers.js's quantize_dynamic over a tied embedding) compute the head as
//   logits = MatMul(x, DequantizeLinear(Transpose(embedding_uint8), scale, zero_point))
// (scripts/fixtures/hub-quant.ts builds the same): every forward pass dequantizes the whole
// vocabulary to fp32 first, 545 MB for Qwen2.5-0.5B and 622 MB for Qwen3-0.6B, and a wasm Memory
// keeps its peak for good; ORT also folds the Transpose into a second, transposed copy at load.
// Measured on the real shapes (scripts/bench/memory-stages.ts): the first forward grew the wasm
// Memory from 743 to 1,322 MB (Qwen2.5, a 511 MB file) and from 882 to 1,526 MB (Qwen3).
//
// Rewritten, the same numbers come from blocks of rows of the embedding:
//   x2      = Reshape(x, [-1, H])
//   for each block b of the vocabulary [v0, v1):
//     rows_b = Slice(embedding, v0 + zero, v1 + zero, axes [0])   (zero: 0 computed from x's shape)
//     w_b    = DequantizeLinear(rows_b, scale, zero_point)          ([v1 − v0, H] fp32)
//     y_b    = Gemm(x2, w_b, transB 1)                               ([rows, v1 − v0])
//   logits  = Reshape(Concat(y_0 … y_n, axis 1), [batch, sequence, V])
// Each logit is the same dot product of x with the same dequantized row, so the blocked graph gives
// the author's logits (test/unit/models/head-blocks.test.ts runs both in onnxruntime-web). The
// slice bounds depend on the input (a 0 taken from x's shape), so ORT cannot fold the blocks into
// constants at load: that would store the embedding a second time, which is what this avoids. A
// block's fp32 rows are at most BLOCK_BYTES, freed before the next.
//
// Only this exact head is rewritten; anything else is left as it is (null).
//
// The hub's q4 (and fp32) files of a tied model read the float32 embedding the same way without the
// DequantizeLinear: MatMul(x, Transpose(embedding)). Nothing is expanded per pass, but onnxruntime
// folds the Transpose into a transposed copy at load (+545 MB for Qwen2.5-0.5B). gemmTiedHead writes
// it as Gemm(x, embedding, transB 1): the same dot products, no copy (wasm Memory after Qwen2.5 q4's
// load 2,193 → 898 MB, with prepacking off for it: logits-rewrite-hook.ts RewriteRequest.prepacking).

import { joinPieces, lenField, readFields, stringField, subFields, varintField, type Pieces } from './onnx-bytes.ts';
import { GRAPH_INITIALIZER, intAttribute, MODEL_GRAPH, nodeField, parseModel, type GraphNode, type ParsedModel } from './logits-rewrite.ts';

/** Most bytes of one block's dequantized rows. */
export const BLOCK_BYTES = 32 * 1024 * 1024;

const TENSOR_DIMS = 1;
const TENSOR_NAME = 8;
const TENSOR_DATA_TYPE = 2;
const UINT8 = 2;
const INT8 = 3;
const INT64 = 7;
const FLOAT = 1;
const TENSOR_RAW_DATA = 9;

export interface BlockedHead {
  bytes: Uint8Array;
  /** The blocks the vocabulary was cut into. */
  blocks: number;
  /** The embedding's name and shape [V, H]. */
  embedding: string;
  vocab: number;
  hidden: number;
}

export interface InitializerFacts {
  dims: number[];
  dataType: number;
}

export function initializerFacts(buf: Uint8Array, parsed: ParsedModel): Map<string, InitializerFacts> {
  const out = new Map<string, InitializerFacts>();
  for (const f of parsed.graphFields) {
    if (f.no !== GRAPH_INITIALIZER) continue;
    let name = '';
    let dataType = 0;
    const dims: number[] = [];
    for (const g of subFields(buf, f)) {
      if (g.no === TENSOR_NAME) name = new TextDecoder().decode(buf.subarray(g.valueStart, g.valueEnd));
      else if (g.no === TENSOR_DATA_TYPE) dataType = g.varint;
      else if (g.no === TENSOR_DIMS) {
        // dims may be packed (one length-delimited run of varints) or one varint per field.
        if (g.wire === 0) dims.push(g.varint);
        else for (const v of readPackedVarints(buf, g.valueStart, g.valueEnd)) dims.push(v);
      }
    }
    out.set(name, { dims, dataType });
  }
  return out;
}

function readPackedVarints(buf: Uint8Array, start: number, end: number): number[] {
  const out: number[] = [];
  let value = 0;
  let scale = 1;
  for (let pos = start; pos < end; pos++) {
    const b = buf[pos];
    value += (b & 0x7f) * scale;
    if (b < 0x80) {
      out.push(value);
      value = 0;
      scale = 1;
    } else scale *= 128;
  }
  return out;
}

function int64VectorInitializer(name: string, values: readonly bigint[]): Pieces {
  const raw = new Uint8Array(8 * values.length);
  const view = new DataView(raw.buffer);
  values.forEach((v, i) => view.setBigInt64(8 * i, v, true));
  return lenField(GRAPH_INITIALIZER, [...varintField(TENSOR_DIMS, values.length), ...varintField(TENSOR_DATA_TYPE, INT64), ...stringField(TENSOR_NAME, name), ...lenField(TENSOR_RAW_DATA, [raw])]);
}

/**
 * A tied head's weight as the hub's files compute it from the embedding the Gather reads: through a
 * Transpose of the float32 embedding ('float': q4, fp32), or through DequantizeLinear(Transpose) of
 * the uint8 one with a per-tensor scale and zero point ('dequantized': q8). `feeders`: the nodes
 * that make the weight, nearest first.
 */
export type TiedWeight =
  | { kind: 'float'; embedding: string; vocab: number; hidden: number; feeders: GraphNode[] }
  | { kind: 'dequantized'; embedding: string; quantParams: string[]; vocab: number; hidden: number; feeders: GraphNode[] };

/** What the MatMul weight `weight` is when it is a tied head's (TiedWeight), else null. */
export function tiedWeightOf(weight: string, producer: Map<string, GraphNode>, facts: Map<string, InitializerFacts>): TiedWeight | null {
  const first = producer.get(weight);
  if (!first || first.domain !== '') return null;
  const dq = first.opType === 'DequantizeLinear' ? first : null;
  const transpose = dq ? producer.get(dq.inputs[0]) : first;
  if (!transpose || transpose.opType !== 'Transpose' || transpose.domain !== '' || transpose.inputs.length !== 1) return null;
  const embedding = transpose.inputs[0];
  const w = facts.get(embedding);
  if (!w || w.dims.length !== 2) return null;
  const [vocab, hidden] = w.dims;
  if (!dq) return w.dataType === FLOAT ? { kind: 'float', embedding, vocab, hidden, feeders: [transpose] } : null;
  if (w.dataType !== UINT8 && w.dataType !== INT8) return null;
  // Per-tensor scale and zero point (scalars): a per-axis one would need slicing along with the rows.
  const quantParams = dq.inputs.slice(1);
  for (const q of quantParams) {
    if (q === '') continue;
    const f = facts.get(q);
    if (!f || f.dims.length !== 0) return null;
  }
  if (facts.get(quantParams[0])?.dataType !== FLOAT) return null;
  return { kind: 'dequantized', embedding, quantParams, vocab, hidden, feeders: [dq, transpose] };
}

/** Every tensor's producer, and the node that makes the logits when it is a default-domain MatMul. */
function logitsMatMul(parsed: ParsedModel): { logitsNode: GraphNode; producer: Map<string, GraphNode> } | null {
  const producer = new Map<string, GraphNode>();
  for (const n of parsed.nodes) for (const o of n.outputs) producer.set(o, n);
  const logitsNode = producer.get('logits');
  if (!logitsNode || logitsNode.opType !== 'MatMul' || logitsNode.domain !== '' || logitsNode.inputs.length !== 2) return null;
  return { logitsNode, producer };
}

/** Rows of the embedding a block of `weight` holds (BLOCK_BYTES of float32 rows). */
function rowsPerBlockOf(weight: TiedWeight, blockBytes: number): number {
  return weight.kind === 'float' ? weight.vocab : Math.max(1, Math.floor(blockBytes / (4 * weight.hidden)));
}

/**
 * The nodes that compute `output` = MatMul(x, weight) as described at the top of this file: a Gemm
 * on the embedding ('float'), or the blocks ('dequantized'). Node and tensor names go under `p`; the
 * constants they read under `c` (tiedHeadConstants(c, …), shared by every head under the same `c`).
 */
export function tiedHeadNodes(p: string, c: string, weight: TiedWeight, x: string, output: string, blockBytes = BLOCK_BYTES): Pieces {
  const nodes: Pieces = [
    ...nodeField('Shape', `${p}/shape`, [x], `${p}/x_shape`),
    ...nodeField('Slice', `${p}/lead`, [`${p}/x_shape`, `${c}/c0`, `${c}/c2`], `${p}/lead_dims`),
    ...nodeField('Reshape', `${p}/rows`, [x, `${c}/rows_shape`], `${p}/x2`),
  ];
  if (weight.kind === 'float') nodes.push(...gemmTransB(`${p}/gemm`, [`${p}/x2`, weight.embedding], `${p}/y`));
  else {
    nodes.push(...nodeField('Slice', `${p}/batch`, [`${p}/x_shape`, `${c}/c0`, `${c}/c1`], `${p}/batch_dim`), ...nodeField('Mul', `${p}/zero`, [`${p}/batch_dim`, `${c}/c0`], `${p}/zero`));
    const parts: string[] = [];
    const blocks = Math.ceil(weight.vocab / rowsPerBlockOf(weight, blockBytes));
    for (let b = 0; b < blocks; b++) {
      nodes.push(
        ...nodeField('Add', `${p}/${b}/start`, [`${c}/${b}/v0`, `${p}/zero`], `${p}/${b}/start`),
        ...nodeField('Add', `${p}/${b}/end`, [`${c}/${b}/v1`, `${p}/zero`], `${p}/${b}/end`),
        ...nodeField('Slice', `${p}/${b}/slice`, [weight.embedding, `${p}/${b}/start`, `${p}/${b}/end`, `${c}/c0`], `${p}/${b}/rows`),
        ...nodeField('DequantizeLinear', `${p}/${b}/dequantize`, [`${p}/${b}/rows`, ...weight.quantParams], `${p}/${b}/w`),
        ...gemmTransB(`${p}/${b}/gemm`, [`${p}/x2`, `${p}/${b}/w`], `${p}/${b}/y`),
      );
      parts.push(`${p}/${b}/y`);
    }
    nodes.push(...concatNode(`${p}/concat`, parts, `${p}/y`, 1));
  }
  nodes.push(...concatNode(`${p}/out_shape`, [`${p}/lead_dims`, `${c}/vocab`], `${p}/logits_shape`, 0), ...nodeField('Reshape', `${p}/logits`, [`${p}/y`, `${p}/logits_shape`], output));
  return nodes;
}

/** The initializers tiedHeadNodes reads under `c`. */
export function tiedHeadConstants(c: string, weight: TiedWeight, blockBytes = BLOCK_BYTES): Pieces {
  const out: Pieces = [
    ...int64VectorInitializer(`${c}/c0`, [0n]),
    ...int64VectorInitializer(`${c}/c2`, [2n]),
    ...int64VectorInitializer(`${c}/rows_shape`, [-1n, BigInt(weight.hidden)]),
    ...int64VectorInitializer(`${c}/vocab`, [BigInt(weight.vocab)]),
  ];
  if (weight.kind === 'float') return out;
  out.push(...int64VectorInitializer(`${c}/c1`, [1n]));
  const rows = rowsPerBlockOf(weight, blockBytes);
  for (let b = 0, v0 = 0; v0 < weight.vocab; b++, v0 += rows) {
    out.push(...int64VectorInitializer(`${c}/${b}/v0`, [BigInt(v0)]), ...int64VectorInitializer(`${c}/${b}/v1`, [BigInt(Math.min(weight.vocab, v0 + rows))]));
  }
  return out;
}

/** The model with its tied head of `kind` rewritten under `p` (tiedHeadNodes), or null when its head is not that. */
function rewriteTiedHead(buf: Uint8Array, kind: TiedWeight['kind'], p: string, blockBytes: number): { bytes: Uint8Array; weight: TiedWeight } | null {
  const parsed = parseModel(buf);
  const found = logitsMatMul(parsed);
  if (!found) return null;
  const weight = tiedWeightOf(found.logitsNode.inputs[1], found.producer, initializerFacts(buf, parsed));
  if (!weight || weight.kind !== kind) return null;
  if (parsed.nodes.some((n) => n.name.startsWith(p) || n.outputs.some((o) => o.startsWith(p)))) return null;
  const matmul = found.logitsNode;
  const added = tiedHeadNodes(p, p, weight, matmul.inputs[0], matmul.outputs[0], blockBytes);
  return { bytes: replaceHead(buf, parsed, matmul, weight.feeders, added, tiedHeadConstants(p, weight, blockBytes)), weight };
}

/** The graph with the dequantized tied head computed in blocks, or null when its head is not that one. */
export function blockDequantizedHead(buf: Uint8Array, blockBytes = BLOCK_BYTES): BlockedHead | null {
  const r = rewriteTiedHead(buf, 'dequantized', 'jiangu_head_blocks', blockBytes);
  if (!r) return null;
  const { embedding, vocab, hidden } = r.weight;
  return { bytes: r.bytes, blocks: Math.ceil(vocab / rowsPerBlockOf(r.weight, blockBytes)), embedding, vocab, hidden };
}

/**
 * The model with the head's MatMul replaced by `added` (its nodes) and `graphTail` (initializers),
 * and the chain that fed its weight (`feeders`, nearest first) dropped while nothing else in the
 * main graph reads it: a node nobody reads would still run every pass (a lens branch computes its
 * own head: lens-rewrite.ts).
 */
function replaceHead(buf: Uint8Array, parsed: ParsedModel, matmul: GraphNode, feeders: GraphNode[], added: Pieces, graphTail: Pieces): Uint8Array {
  const readers = (tensor: string, except: GraphNode) => parsed.nodes.filter((n) => n !== except && n.inputs.includes(tensor)).length;
  const dropped = new Set([matmul.field]);
  let reader = matmul;
  for (const node of feeders) {
    if (readers(node.outputs[0], reader) > 0 || parsed.outputs.has(node.outputs[0])) break;
    dropped.add(node.field);
    reader = node;
  }
  // The added pieces joined first: thousands of blocks are too many pieces to spread as arguments.
  const graph: Pieces = [];
  for (const f of parsed.graphFields) {
    if (f === matmul.field) graph.push(joinPieces(added));
    else if (!dropped.has(f)) graph.push(buf.subarray(f.start, f.end));
  }
  graph.push(joinPieces(graphTail));
  const model: Pieces = [];
  for (const f of readFields(buf)) model.push(...(f.no === MODEL_GRAPH ? lenField(MODEL_GRAPH, graph) : [buf.subarray(f.start, f.end)]));
  return joinPieces(model);
}

/**
 * The hub's q4 (and fp32) tied head, MatMul(x, Transpose(embedding)) over the float32 embedding the
 * Gather reads, as Gemm(x, embedding, transB 1): the same products of x with the embedding's rows,
 * with no Transpose for onnxruntime to fold into a transposed copy of the vocabulary matrix at load
 * (545 MB for Qwen2.5-0.5B, 622 MB for Qwen3-0.6B). Null when the head is not that one.
 */
export function gemmTiedHead(buf: Uint8Array): { bytes: Uint8Array; embedding: string; vocab: number; hidden: number } | null {
  const r = rewriteTiedHead(buf, 'float', 'jiangu_head_gemm', BLOCK_BYTES);
  if (!r) return null;
  const { embedding, vocab, hidden } = r.weight;
  return { bytes: r.bytes, embedding, vocab, hidden };
}

function gemmTransB(name: string, inputs: string[], output: string): Pieces {
  return nodeField('Gemm', name, inputs, output, intAttribute('transB', 1));
}

function concatNode(name: string, inputs: string[], output: string, axis: number): Pieces {
  return nodeField('Concat', name, inputs, output, intAttribute('axis', axis));
}
