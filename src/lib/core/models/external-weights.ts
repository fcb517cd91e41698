// A model file's weights, left where they are: the graph is rewritten so that each large initializer
// names its own bytes in the original file as external data (location, offset, length), and the
// session is created from the small graph with the original file mounted as that external data.
//
// Why: onnxruntime-web copies model bytes into the wasm heap, parses them into a ModelProto (a second
// copy of every raw_data), then copies each initializer into its tensor (a third), while the page's
// JS still holds the file (a fourth) and each rewrite's output (a fifth). With the weights external,
// ORT reads each initializer straight from the mounted bytes into its tensor's own buffer (on WebGPU
// straight into a GPU buffer): the weights cross into the wasm heap once, and the graph every
// rewrite copies is a few hundred kilobytes. Measured in scripts/bench/memory-stages.ts.
//
// Only the main graph's initializers with raw_data move. Typed fields (float_data, int64_data, …)
// and tensors inside node attributes (Constant, subgraphs) stay inline: exporters write weights as
// raw_data, and the rest are small. Initializers already external (an .onnx_data file) keep their
// own location.

import { fieldString, joinPieces, lenField, readFields, stringField, subFields, varintField, type Pieces, type ProtoField } from './onnx-bytes.ts';
import { constantTensors, parseModel, parseNode, type GraphNode } from './logits-rewrite.ts';

/** The name the weights are mounted under: one path segment ORT accepts as a relative location. */
export const EXTERNAL_WEIGHTS_LOCATION = 'jiangu-weights.bin';

/** Initializers smaller than this stay inline (ORT reads small constants such as shapes at load). */
export const EXTERNAL_MIN_BYTES = 1024;

// onnx.proto field numbers.
const MODEL_GRAPH = 7;
const GRAPH_NODE = 1;
const NODE_ATTRIBUTE = 5;
const ATTRIBUTE_G = 6;
const ATTRIBUTE_GRAPHS = 11;
const GRAPH_INITIALIZER = 5;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
const TENSOR_EXTERNAL_DATA = 13;
const TENSOR_DATA_LOCATION = 14;
const DATA_LOCATION_EXTERNAL = 1;
const ENTRY_KEY = 1;
const ENTRY_VALUE = 2;

/** Where the session read the weights from (workers/logits-rewrite-hook.ts records it). */
export type WeightsOutcome =
  /** From the file transformers.js read, mounted as external data: `moved` initializers, `movedBytes` bytes. */
  | { kind: 'external'; moved: number; movedBytes: number; ms: number }
  /**
   * Streamed (workers/streamed-weights.ts): the file split as it arrived, `moved` initializers of
   * `movedBytes` held one buffer each and released as ORT copied them; `given` of them were read.
   */
  | { kind: 'streamed'; moved: number; movedBytes: number; given: number }
  /** From the graph's own bytes: nothing to move (weights already in .onnx_data, or a tiny model), or the graph unreadable. */
  | { kind: 'inline' }
  /** ORT would not create a session with the weights external; the file as it came was used. */
  | { kind: 'session-refused'; detail: string }
  | { kind: 'not-seen' };

export interface ExternalizedWeights {
  /** The model with the moved initializers' raw_data replaced by references into the original bytes. */
  graph: Uint8Array;
  /** Initializers moved, and their bytes. */
  moved: number;
  movedBytes: number;
}

function entry(key: string, value: string): Pieces {
  return lenField(TENSOR_EXTERNAL_DATA, [...stringField(ENTRY_KEY, key), ...stringField(ENTRY_VALUE, value)]);
}

/**
 * The fields a moved TensorProto ends with in place of its raw_data: its location, offset and length
 * (external_data entries) and data_location EXTERNAL. Shared with the streamed split (weights-stream.ts).
 */
export function externalReference(location: string, offset: number, length: number): Pieces {
  return [...entry('location', location), ...entry('offset', String(offset)), ...entry('length', String(length)), ...varintField(TENSOR_DATA_LOCATION, DATA_LOCATION_EXTERNAL)];
}

/** A TensorProto's external_data entries (key → value), read from its fields. */
function externalEntries(buf: Uint8Array, fields: readonly ProtoField[]): Map<string, string> {
  const entries = new Map<string, string>();
  for (const t of fields) {
    if (t.no !== TENSOR_EXTERNAL_DATA) continue;
    const kv = subFields(buf, t);
    const key = kv.find((e) => e.no === ENTRY_KEY);
    const value = kv.find((e) => e.no === ENTRY_VALUE);
    if (key && value) entries.set(fieldString(buf, key), fieldString(buf, value));
  }
  return entries;
}

/** One TensorProto's pieces: as it is, or with its raw_data replaced by a reference to where it lies. */
function tensorPieces(buf: Uint8Array, start: number, end: number, location: string, minBytes: number): { pieces: Pieces; movedBytes: number } {
  const fields = readFields(buf, start, end);
  const raw = fields.find((f) => f.no === TENSOR_RAW_DATA);
  const alreadyExternal = fields.some((f) => f.no === TENSOR_DATA_LOCATION && f.varint === DATA_LOCATION_EXTERNAL);
  if (!raw || alreadyExternal || raw.valueEnd - raw.valueStart < minBytes) return { pieces: [buf.subarray(start, end)], movedBytes: 0 };
  const length = raw.valueEnd - raw.valueStart;
  const pieces: Pieces = [];
  for (const f of fields) if (f.no !== TENSOR_RAW_DATA) pieces.push(buf.subarray(f.start, f.end));
  pieces.push(...externalReference(location, raw.valueStart, length));
  return { pieces, movedBytes: length };
}

/**
 * The model in `buf` with every main-graph initializer of at least `minBytes` of raw_data turned into
 * a reference to its own bytes in `buf` under `location`; null when there is nothing to move (a
 * model whose weights are already external, or a tiny one). Throws ProtoBytesError on bytes that
 * are not a protobuf message. Mount `buf` itself as `location` when creating the session.
 */
export function externalizeWeights(buf: Uint8Array, location = EXTERNAL_WEIGHTS_LOCATION, minBytes = EXTERNAL_MIN_BYTES): ExternalizedWeights | null {
  const modelFields = readFields(buf);
  const graphs = modelFields.filter((f) => f.no === MODEL_GRAPH);
  if (graphs.length !== 1) return null;
  const graphPieces: Pieces = [];
  let moved = 0;
  let movedBytes = 0;
  for (const f of subFields(buf, graphs[0])) {
    if (f.no !== GRAPH_INITIALIZER) {
      graphPieces.push(buf.subarray(f.start, f.end));
      continue;
    }
    const tensor = tensorPieces(buf, f.valueStart, f.valueEnd, location, minBytes);
    if (tensor.movedBytes > 0) {
      moved++;
      movedBytes += tensor.movedBytes;
    }
    graphPieces.push(...lenField(GRAPH_INITIALIZER, tensor.pieces));
  }
  if (moved === 0) return null;
  const pieces: Pieces = [];
  for (const f of modelFields) pieces.push(...(f === graphs[0] ? lenField(MODEL_GRAPH, graphPieces) : [buf.subarray(f.start, f.end)]));
  return { graph: joinPieces(pieces), moved, movedBytes };
}

/** The external-data locations a model's main-graph initializers name (for checks and tests). */
export function externalLocations(buf: Uint8Array): Set<string> {
  const out = new Set<string>();
  const graph = readFields(buf).find((f) => f.no === MODEL_GRAPH);
  if (!graph) return out;
  for (const f of subFields(buf, graph)) {
    if (f.no !== GRAPH_INITIALIZER) continue;
    const location = externalEntries(buf, subFields(buf, f)).get('location');
    if (location !== undefined) out.add(location);
  }
  return out;
}

/**
 * The offsets (in the file mounted as `location`) of the initializers ORT's graph optimizer may read
 * before the session reads them again: those a node reads whose inputs are all constants (the
 * optimizer folds such nodes, e.g. a tied head's Transpose of the embedding); `gathered`: also the
 * tables a Gather reads (a WebGPU session's).
 */
export function foldedInputOffsets(buf: Uint8Array, location: string, options: { gathered?: boolean } = {}): Set<number> {
  const parsed = parseModel(buf);
  const constant = constantTensors(parsed);
  const foldedInputs = new Set<string>();
  // On WebGPU, onnxruntime's graph transformers also read a quantized embedding that a Gather and
  // the head share (the hub's q8: measured on jiangu-tiny-tied, SwiftShader) before the session reads it.
  if (options.gathered) for (const node of parsed.nodes) if (node.opType === 'Gather' && parsed.initializers.has(node.inputs[0])) foldedInputs.add(node.inputs[0]);
  for (const node of parsed.nodes) {
    const used = node.inputs.filter((i) => i !== '');
    if (node.opType === 'Constant' || used.length === 0 || !used.every((i) => constant.has(i))) continue;
    for (const i of used) if (parsed.initializers.has(i)) foldedInputs.add(i);
  }
  // A node with branches (the lens's If: lens-rewrite.ts) is optimized branch by branch: a branch
  // node whose inputs are all constants (the outer graph's, the branch's own initializers, or such a
  // node's outputs) is folded there too, reading the outer initializers it names.
  for (const node of parsed.nodes) {
    for (const branch of branchesOf(buf, node)) {
      const inBranch = new Set([...constant, ...branch.initializers]);
      for (let changed = true; changed; ) {
        changed = false;
        for (const n of branch.nodes) {
          const used = n.inputs.filter((i) => i !== '');
          if (n.outputs.every((o) => o === '' || inBranch.has(o))) continue;
          if (n.opType !== 'Constant' && (used.length === 0 || !used.every((i) => inBranch.has(i)))) continue;
          for (const o of n.outputs) if (o !== '') inBranch.add(o);
          for (const i of used) if (parsed.initializers.has(i)) foldedInputs.add(i);
          changed = true;
        }
      }
    }
  }
  const offsets = new Set<number>();
  const graph = readFields(buf).find((f) => f.no === MODEL_GRAPH);
  if (!graph) return offsets;
  for (const f of subFields(buf, graph)) {
    if (f.no !== GRAPH_INITIALIZER) continue;
    const fields = subFields(buf, f);
    const name = fields.find((t) => t.no === TENSOR_NAME);
    if (!name || !foldedInputs.has(fieldString(buf, name))) continue;
    const entries = externalEntries(buf, fields);
    if (entries.get('location') === location && entries.has('offset')) offsets.add(Number(entries.get('offset')));
  }
  return offsets;
}

/** The graphs in a node's attributes (an If's branches, a Loop's body): their nodes and initializers' names. */
function branchesOf(buf: Uint8Array, node: GraphNode): { nodes: GraphNode[]; initializers: Set<string> }[] {
  const out: { nodes: GraphNode[]; initializers: Set<string> }[] = [];
  for (const attribute of subFields(buf, node.field).filter((f) => f.no === NODE_ATTRIBUTE)) {
    for (const graph of subFields(buf, attribute).filter((f) => f.no === ATTRIBUTE_G || f.no === ATTRIBUTE_GRAPHS)) {
      const nodes: GraphNode[] = [];
      const initializers = new Set<string>();
      for (const f of subFields(buf, graph)) {
        if (f.no === GRAPH_NODE) nodes.push(parseNode(buf, f));
        else if (f.no === GRAPH_INITIALIZER) {
          const name = subFields(buf, f).find((t) => t.no === TENSOR_NAME);
          if (name) initializers.add(fieldString(buf, name));
        }
      }
      out.push({ nodes, initializers });
    }
  }
  return out;
}
