// Gives a causal-LM graph that returns logits for every position a `num_logits_to_keep` input, so
// the language-model head runs on the last rows only: the rewritten graph is, to the rest of Jiangu
// and to transformers.js, a graph that declares num_logits_to_keep.
//
// What it adds, where the fixtures' native graphs have it (scripts/fixtures/linear-ops.ts):
//   input  num_logits_to_keep int64 [] (last among the inputs)
//   starts = Where(k > 0, Sub([0], k), [0])    (−k as a 1-D tensor; k ≤ 0 gives 0: every row, as
//                                               the native graphs take k = 0 and k < 0)
//   rows   = Slice(x, starts, [INT64_MAX], [1]) on the sequence axis (k past the length: every row)
// in front of the head's MatMul / MatMulNBits, or, for a q8 head (DynamicQuantizeLinear →
// MatMulInteger → Cast → Mul, or com.microsoft MatMulIntegerToFloat), on DynamicQuantizeLinear's
// quantized output, so the activation scale is still taken over every row and the kept rows equal
// a full run's bit for bit. Only the head's product reads the sliced rows; the logits output's
// sequence dimension gets a new name. Four nodes are added: Sub, Greater, Where, Slice.
//
// Memory: nothing is decoded but names. The output is made of views into the input (every
// field of the ModelProto and of its graph, weights included, as they are) plus the few new or
// changed fields (the new nodes, three 8-byte initializers, one input, the rewired head node, the
// logits output), and is copied once into a buffer of the new length: a single-file model's
// weights are copied once, an external-data model's small graph file likewise (its data files
// are not touched).

import {
  fieldString,
  joinPieces,
  lenField,
  piecesLength,
  ProtoBytesError,
  readFields,
  stringField,
  subFields,
  varintField,
  WIRE_LEN,
  type Pieces,
  type ProtoField,
} from './onnx-bytes.ts';

/**
 * Why a graph was not rewritten, as data the page words in its own language (catalog-model.ts,
 * model.logits-unrecognised): op and node, tensor names and numbers are identifiers and stay as
 * they are. `malformed` and `rewrite-threw` carry a reader's English message, quoted as a
 * technical detail.
 */
export type LogitsRewriteReason =
  /** logits come from an op the rewrite does not walk through (Einsum, Softmax, …) */
  | { kind: 'unknown-op'; op: string; node: string }
  /** an Add or Mul of two activations (not a bias or a scale) */
  | { kind: 'two-activations'; op: string; node: string }
  /** a MatMul / MatMulNBits that is not one activation times constant weights */
  | { kind: 'weight-not-constant'; op: string; node: string }
  /** a MatMulInteger (or MatMulIntegerToFloat) not reading DynamicQuantizeLinear's output and constant weights */
  | { kind: 'not-quantized-rows'; op: string; node: string }
  /** a Gemm: 2-D rows, no sequence axis to slice */
  | { kind: 'rows-2d'; op: string; node: string }
  /** the head's product reads a tensor declared with another rank than [batch, sequence, hidden] */
  | { kind: 'hidden-rank'; op: string; node: string; tensor: string; rank: number }
  /** the logits output is declared with another rank than [batch, sequence, vocab] */
  | { kind: 'logits-rank'; rank: number }
  /** no graph output named logits (the first few outputs named) */
  | { kind: 'no-logits-output'; outputs: string[] }
  /** the default opset is older than 10 (Slice with starts as an input) */
  | { kind: 'opset'; opset: number }
  /** a tensor on the way back from logits that no node computes */
  | { kind: 'no-producer'; tensor: string }
  /** the walk back from logits took more than `nodes` nodes */
  | { kind: 'head-too-long'; nodes: number }
  /** the graph already has a tensor or node called `name` that is not the input */
  | { kind: 'name-taken'; name: string }
  /** the bytes are not an ONNX model the rewrite can read (`message`: what the reader found, in English) */
  | { kind: 'malformed'; message: string }
  /** the model file reached the session as a path, not as bytes (workers/logits-rewrite-hook.ts) */
  | { kind: 'not-bytes' }
  /** the rewrite itself threw (a bug): its message, in English */
  | { kind: 'rewrite-threw'; message: string };
export type LogitsRewriteReasonKind = LogitsRewriteReason['kind'];

/** `code` groups the reasons; `detail` is an English sentence for logs and the bench. */
export type LogitsRewriteRefusal = { code: 'no-logits-output' | 'head-not-recognised' | 'hidden-rank' | 'malformed'; reason: LogitsRewriteReason; detail: string };

/** The code a reason belongs to. */
export function refusalCode(reason: LogitsRewriteReason): LogitsRewriteRefusal['code'] {
  switch (reason.kind) {
    case 'no-logits-output':
      return 'no-logits-output';
    case 'hidden-rank':
    case 'logits-rank':
      return 'hidden-rank';
    case 'malformed':
    case 'not-bytes':
    case 'rewrite-threw':
      return 'malformed';
    default:
      return 'head-not-recognised';
  }
}

/** The English sentence of a reason (logs, the bench, records' `detail`). */
export function reasonDetail(reason: LogitsRewriteReason): string {
  const at = (r: { op: string; node: string }) => `${r.op} node "${r.node}"`;
  switch (reason.kind) {
    case 'unknown-op':
      return `logits come from ${at(reason)}, an op the rewrite does not know`;
    case 'two-activations':
      return `logits come from ${at(reason)}, which combines two activations`;
    case 'weight-not-constant':
      return `${at(reason)} does not multiply one activation by constant weights`;
    case 'not-quantized-rows':
      return `${at(reason)} does not read DynamicQuantizeLinear's output and constant weights`;
    case 'rows-2d':
      return `logits come from ${at(reason)}, which takes 2-D rows: the sequence axis is not there to slice`;
    case 'hidden-rank':
      return `${at(reason)} reads "${reason.tensor}" of rank ${reason.rank}, not [batch, sequence, hidden]`;
    case 'logits-rank':
      return `the logits output has rank ${reason.rank}, not [batch, sequence, vocab]`;
    case 'no-logits-output':
      return `the graph has no output named "logits" (its outputs: ${reason.outputs.join(', ') || 'none'})`;
    case 'opset':
      return `the graph imports ONNX opset ${reason.opset}; a Slice with starts as an input needs opset 10`;
    case 'no-producer':
      return `"${reason.tensor}" is not computed by any node`;
    case 'head-too-long':
      return `the head is longer than ${reason.nodes} nodes`;
    case 'name-taken':
      return `the graph already has a tensor named "${reason.name}" that is not an input`;
    case 'malformed':
      return `not an ONNX model the rewrite can read: ${reason.message}`;
    case 'not-bytes':
      return 'the model file did not reach the session as bytes';
    case 'rewrite-threw':
      return `the rewrite failed: ${reason.message}`;
  }
}

type Flat<R> = R extends { kind: infer K } ? Omit<R, 'kind'> & { reason: K } : never;
/**
 * The parameters of the notice model.logits-unrecognised (catalog-model.ts): the refusal's code,
 * its English detail and its reason flattened into plain JSON values (`reason` is the kind, beside
 * the kind's own fields). Records written before reasons existed have `code` and `detail` only.
 */
export type LogitsRefusalParams = { code: string; detail: string } & (Flat<LogitsRewriteReason> | { reason?: undefined });

/** A refusal as the notice's parameters (see LogitsRefusalParams). */
export function refusalParams(refusal: LogitsRewriteRefusal): LogitsRefusalParams {
  const { kind, ...fields } = refusal.reason;
  return { code: refusal.code, detail: refusal.detail, reason: kind, ...fields } as LogitsRefusalParams;
}

/** A refusal for `reason`, its code and English detail derived from it. */
export function refusalOf(reason: LogitsRewriteReason): LogitsRewriteRefusal {
  return { code: refusalCode(reason), reason, detail: reasonDetail(reason) };
}
export type LogitsRewrite =
  | { kind: 'not-needed' } // the graph already declares num_logits_to_keep
  | { kind: 'rewritten'; bytes: Uint8Array; head: { ops: string[]; sliceAt: string }; graphBytes: number }
  | { kind: 'unrecognised'; refusal: LogitsRewriteRefusal };

export const KEEP_INPUT = 'num_logits_to_keep';
/** The logits output's new sequence dimension (the name the native fixtures and onnx-community exports use). */
export const KEPT_ROWS_DIM = 'logits_sequence_length';

// onnx.proto field numbers
const MODEL_OPSET_IMPORT = 8;
export const MODEL_GRAPH = 7;
export const GRAPH_NODE = 1;
export const GRAPH_INITIALIZER = 5;
export const GRAPH_INPUT = 11;
export const GRAPH_OUTPUT = 12;
const GRAPH_VALUE_INFO = 13;
const GRAPH_SPARSE_INITIALIZER = 15;
const NODE_INPUT = 1;
const NODE_OUTPUT = 2;
const NODE_NAME = 3;
const NODE_OP_TYPE = 4;
const NODE_DOMAIN = 7;
const TENSOR_DIMS = 1;
const TENSOR_DATA_TYPE = 2;
const TENSOR_NAME = 8;
const TENSOR_RAW_DATA = 9;
export const VALUE_NAME = 1;
export const VALUE_TYPE = 2;
export const TYPE_TENSOR = 1;
export const TENSOR_TYPE_ELEM = 1;
export const TENSOR_TYPE_SHAPE = 2;
export const SHAPE_DIM = 1;
export const DIM_PARAM = 2;
const SPARSE_VALUES = 1;
export const INT64 = 7;
export const INT64_MAX = (1n << 63n) - 1n;
const MS_DOMAIN = 'com.microsoft';

export interface GraphNode {
  field: ProtoField;
  inputs: string[];
  outputs: string[];
  name: string;
  opType: string;
  domain: string;
}

export interface ParsedModel {
  top: ProtoField[];
  graphField: ProtoField;
  graphFields: ProtoField[];
  defaultOpset: number | null;
  nodes: GraphNode[];
  initializers: Set<string>;
  inputs: string[];
  outputs: Map<string, ProtoField>;
  valueInfo: Map<string, ProtoField>;
}

/** Where the head's product reads the last norm's output, and what was walked to get there. */
interface Head {
  consumer: GraphNode;
  inputIndex: number;
  sliceAt: string;
  ops: string[];
  /** Tensors computed from the sliced rows (their value_info, if any, no longer holds). */
  downstream: Set<string>;
}

function refuse(reason: LogitsRewriteReason): LogitsRewrite {
  return { kind: 'unrecognised', refusal: refusalOf(reason) };
}

export interface RewriteOptions {
  /**
   * For tests only: a deliberately wrong slice, to prove the load check catches one.
   * `previous-row`: k > 0 keeps the k rows before the last (starts −k−1, ends −1), so k = 1 gives
   * the second-to-last row; k ≤ 0 still keeps every row, as the correct graph does.
   */
  fault?: 'previous-row';
}

/** Rewrites the graph so that its head computes only the last `num_logits_to_keep` rows (see above). Never throws. */
export function rewriteForLastLogits(model: Uint8Array, options: RewriteOptions = {}): LogitsRewrite {
  let parsed: ParsedModel;
  try {
    parsed = parseModel(model);
  } catch (e) {
    if (e instanceof ProtoBytesError || e instanceof MalformedGraph) return refuse({ kind: 'malformed', message: e.message });
    throw e;
  }
  if (parsed.inputs.includes(KEEP_INPUT)) return { kind: 'not-needed' };
  const logits = parsed.outputs.get('logits');
  if (logits === undefined) {
    return refuse({ kind: 'no-logits-output', outputs: [...parsed.outputs.keys()].slice(0, 5) });
  }
  if (parsed.defaultOpset !== null && parsed.defaultOpset < 10) {
    return refuse({ kind: 'opset', opset: parsed.defaultOpset });
  }
  const head = findHead(model, parsed);
  if ('refusal' in head) return head.refusal;
  try {
    return splice(model, parsed, logits, head, options);
  } catch (e) {
    if (e instanceof ProtoBytesError || e instanceof MalformedGraph) return refuse({ kind: 'malformed', message: e.message });
    throw e;
  }
}

export class MalformedGraph extends Error {}

export function parseModel(buf: Uint8Array): ParsedModel {
  const top = readFields(buf);
  const graphs = top.filter((f) => f.no === MODEL_GRAPH);
  if (graphs.length === 0) throw new MalformedGraph('not an ONNX model: no graph (ModelProto field 7)');
  if (graphs.length > 1 || graphs[0].wire !== WIRE_LEN) throw new MalformedGraph('the ModelProto has more than one graph field');
  const graphField = graphs[0];
  let defaultOpset: number | null = null;
  for (const f of top) {
    if (f.no !== MODEL_OPSET_IMPORT) continue;
    let domain = '';
    let version = 0;
    for (const g of subFields(buf, f)) {
      if (g.no === 1) domain = fieldString(buf, g);
      if (g.no === 2) version = g.varint;
    }
    if (domain === '' || domain === 'ai.onnx') defaultOpset = version;
  }
  const graphFields = subFields(buf, graphField);
  const nodes: GraphNode[] = [];
  const initializers = new Set<string>();
  const inputs: string[] = [];
  const outputs = new Map<string, ProtoField>();
  const valueInfo = new Map<string, ProtoField>();
  const nameOf = (f: ProtoField, no: number): string => {
    let name = '';
    for (const g of subFields(buf, f)) if (g.no === no) name = fieldString(buf, g);
    return name;
  };
  for (const f of graphFields) {
    if (f.no === GRAPH_NODE) nodes.push(parseNode(buf, f));
    else if (f.no === GRAPH_INITIALIZER) initializers.add(nameOf(f, TENSOR_NAME));
    else if (f.no === GRAPH_INPUT) inputs.push(nameOf(f, VALUE_NAME));
    else if (f.no === GRAPH_OUTPUT) outputs.set(nameOf(f, VALUE_NAME), f);
    else if (f.no === GRAPH_VALUE_INFO) valueInfo.set(nameOf(f, VALUE_NAME), f);
    else if (f.no === GRAPH_SPARSE_INITIALIZER) {
      for (const g of subFields(buf, f)) if (g.no === SPARSE_VALUES) initializers.add(nameOf(g, TENSOR_NAME));
    }
  }
  return { top, graphField, graphFields, defaultOpset, nodes, initializers, inputs, outputs, valueInfo };
}

export function parseNode(buf: Uint8Array, field: ProtoField): GraphNode {
  const node: GraphNode = { field, inputs: [], outputs: [], name: '', opType: '', domain: '' };
  for (const f of subFields(buf, field)) {
    if (f.no === NODE_INPUT) node.inputs.push(fieldString(buf, f));
    else if (f.no === NODE_OUTPUT) node.outputs.push(fieldString(buf, f));
    else if (f.no === NODE_NAME) node.name = fieldString(buf, f);
    else if (f.no === NODE_OP_TYPE) node.opType = fieldString(buf, f);
    else if (f.no === NODE_DOMAIN) node.domain = fieldString(buf, f);
  }
  return node;
}

/**
 * Tensors computed from constants alone (initializers, Constant nodes, and nodes all of whose
 * inputs are such, like the Transpose of a tied embedding): operands, not activations. Passes in
 * file order until nothing changes, so an unsorted graph is handled too. An optional output left
 * empty ('') is no tensor: a node whose named outputs are all constant is done (else a pass would
 * find it again and again).
 */
export function constantTensors(parsed: ParsedModel): Set<string> {
  const constant = new Set(parsed.initializers);
  const graphInputs = new Set(parsed.inputs.filter((n) => !parsed.initializers.has(n)));
  for (let changed = true; changed; ) {
    changed = false;
    for (const node of parsed.nodes) {
      if (node.outputs.every((o) => o === '' || constant.has(o))) continue;
      const used = node.inputs.filter((i) => i !== '');
      const isConstant = node.opType === 'Constant' || (used.length > 0 && used.every((i) => constant.has(i) && !graphInputs.has(i)));
      if (!isConstant) continue;
      for (const o of node.outputs) if (o !== '') constant.add(o);
      changed = true;
    }
  }
  return constant;
}

function label(node: GraphNode): string {
  return node.domain === '' || node.domain === 'ai.onnx' ? node.opType : `${node.domain}.${node.opType}`;
}

/** A node as a refusal names it: its name, or its first output when it has none. */
function nodeName(node: GraphNode): string {
  return node.name || node.outputs[0] || '';
}

/** The most nodes walked back from logits to the head's product. */
const HEAD_STEPS = 32;

/** Walks back from `logits` through the head to the activation its product reads. */
function findHead(buf: Uint8Array, parsed: ParsedModel): Head | { refusal: LogitsRewrite } {
  const producer = new Map<string, GraphNode>();
  for (const node of parsed.nodes) for (const o of node.outputs) if (o !== '') producer.set(o, node);
  const constant = constantTensors(parsed);
  const isConst = (t: string): boolean => constant.has(t);
  const no = (reason: LogitsRewriteReason): { refusal: LogitsRewrite } => ({ refusal: refuse(reason) });
  const where = (node: GraphNode) => ({ op: label(node), node: nodeName(node) });
  const ops: string[] = [];
  const downstream = new Set<string>();

  const producedBy = (t: string, op: string, output = 0): GraphNode | null => {
    const p = producer.get(t);
    return p !== undefined && label(p) === op && p.outputs[output] === t ? p : null;
  };
  // q8: the integer product, possibly behind Casts.
  const reachesMatMulInteger = (t: string): boolean => {
    for (let p = producer.get(t); p !== undefined; p = producer.get(p.inputs[0])) {
      if (label(p) === 'MatMulInteger') return true;
      if (label(p) !== 'Cast') return false;
    }
    return false;
  };
  // q8: the product of DynamicQuantizeLinear's activation scale and constant weight scales.
  const isScale = (t: string, depth = 0): boolean => {
    if (isConst(t) || producedBy(t, 'DynamicQuantizeLinear', 1) !== null) return true;
    const p = producedBy(t, 'Mul');
    return p !== null && depth < 4 && p.inputs.every((i) => isScale(i, depth + 1));
  };
  const found = (consumer: GraphNode, inputIndex: number): Head | { refusal: LogitsRewrite } => {
    const sliceAt = consumer.inputs[inputIndex];
    const rank = declaredRank(buf, parsed.valueInfo.get(sliceAt));
    if (rank !== null && rank !== 3) return no({ kind: 'hidden-rank', ...where(consumer), tensor: sliceAt, rank });
    return { consumer, inputIndex, sliceAt, ops, downstream };
  };

  let t = 'logits';
  for (let step = 0; step < HEAD_STEPS; step++) {
    const node = producer.get(t);
    if (node === undefined) return no({ kind: 'no-producer', tensor: t });
    ops.push(label(node));
    for (const o of node.outputs) downstream.add(o);
    const [a, b] = node.inputs;
    switch (label(node)) {
      case 'Cast': // float16 graphs' casts around the head
      case 'Identity':
        t = a;
        continue;
      case 'Add': // a bias
      case 'Mul': {
        if (node.inputs.length === 2 && isConst(a) !== isConst(b)) {
          t = isConst(a) ? b : a;
          continue;
        }
        // q8: Mul(Cast(MatMulInteger(…)), x_scale · w_scale)
        if (label(node) === 'Mul' && node.inputs.length === 2) {
          if (reachesMatMulInteger(a) && isScale(b)) {
            t = a;
            continue;
          }
          if (reachesMatMulInteger(b) && isScale(a)) {
            t = b;
            continue;
          }
        }
        return no({ kind: 'two-activations', ...where(node) });
      }
      case 'MatMul':
        if (node.inputs.length === 2 && isConst(b) && !isConst(a)) return found(node, 0);
        return no({ kind: 'weight-not-constant', ...where(node) });
      case `${MS_DOMAIN}.MatMulNBits`:
        if (!isConst(a) && node.inputs.slice(1).every((i) => i === '' || isConst(i))) return found(node, 0);
        return no({ kind: 'weight-not-constant', ...where(node) });
      case 'MatMulInteger':
      case `${MS_DOMAIN}.MatMulIntegerToFloat`: {
        // onnxruntime's fusion of MatMulInteger → Cast → Mul takes the same quantized rows.
        const dql = producedBy(a, 'DynamicQuantizeLinear');
        if (dql !== null && isConst(b) && !isConst(dql.inputs[0])) return found(node, 0);
        return no({ kind: 'not-quantized-rows', ...where(node) });
      }
      case 'Gemm':
        return no({ kind: 'rows-2d', ...where(node) });
      default:
        return no({ kind: 'unknown-op', ...where(node) });
    }
  }
  return no({ kind: 'head-too-long', nodes: HEAD_STEPS });
}

/** The rank a ValueInfoProto declares, or null when it declares none. */
export function declaredRank(buf: Uint8Array, info: ProtoField | undefined): number | null {
  if (info === undefined) return null;
  const shape = nested(buf, info, [VALUE_TYPE, TYPE_TENSOR, TENSOR_TYPE_SHAPE]);
  return shape === null ? null : subFields(buf, shape).filter((f) => f.no === SHAPE_DIM).length;
}

export function nested(buf: Uint8Array, field: ProtoField, path: number[]): ProtoField | null {
  let at: ProtoField | undefined = field;
  for (const no of path) {
    at = subFields(buf, at).find((f) => f.no === no && f.wire === WIRE_LEN);
    if (at === undefined) return null;
  }
  return at;
}

/**
 * A copy of the message in `field` with the `index`-th occurrence of field `no` replaced by
 * `replace(thatField)` (a length-delimited body); null when there is no such occurrence.
 */
function replaceNth(buf: Uint8Array, field: ProtoField, no: number, index: number, replace: (f: ProtoField) => Pieces | null): Pieces | null {
  const out: Pieces = [];
  let seen = 0;
  let done = false;
  for (const f of subFields(buf, field)) {
    if (f.no === no && seen++ === index) {
      const body = replace(f);
      if (body === null) return null;
      out.push(...lenField(no, body));
      done = true;
    } else out.push(buf.subarray(f.start, f.end));
  }
  return done ? out : null;
}

export function int64Initializer(name: string, value: bigint): Pieces {
  const raw = new Uint8Array(8);
  new DataView(raw.buffer).setBigInt64(0, value, true);
  return lenField(GRAPH_INITIALIZER, [...varintField(TENSOR_DIMS, 1), ...varintField(TENSOR_DATA_TYPE, INT64), ...stringField(TENSOR_NAME, name), ...lenField(TENSOR_RAW_DATA, [raw])]);
}

/** A NodeProto field of the default domain with one output; `attributes`: intAttribute's pieces. */
export function nodeField(opType: string, name: string, inputs: string[], output: string, attributes: Pieces = []): Pieces {
  return lenField(GRAPH_NODE, [
    ...inputs.flatMap((i) => stringField(NODE_INPUT, i)),
    ...stringField(NODE_OUTPUT, output),
    ...stringField(NODE_NAME, name),
    ...stringField(NODE_OP_TYPE, opType),
    ...attributes,
  ]);
}

const NODE_ATTRIBUTE = 5;
const ATTRIBUTE_NAME = 1;
const ATTRIBUTE_I = 3;
const ATTRIBUTE_TYPE = 20;
const ATTRIBUTE_TYPE_INT = 2;

/** An int attribute (AttributeProto name, i, type INT) of a NodeProto, for nodeField. */
export function intAttribute(name: string, value: number | bigint): Pieces {
  return lenField(NODE_ATTRIBUTE, [...stringField(ATTRIBUTE_NAME, name), ...varintField(ATTRIBUTE_I, value), ...varintField(ATTRIBUTE_TYPE, ATTRIBUTE_TYPE_INT)]);
}

function splice(buf: Uint8Array, parsed: ParsedModel, logits: ProtoField, head: Head, options: RewriteOptions): LogitsRewrite {
  const taken = new Set<string>([...parsed.initializers, ...parsed.inputs, ...parsed.outputs.keys()]);
  for (const node of parsed.nodes) {
    for (const o of node.outputs) taken.add(o);
    taken.add(node.name);
  }
  if (taken.has(KEEP_INPUT)) return refuse({ kind: 'name-taken', name: KEEP_INPUT });
  let prefix = 'jiangu_logits_to_keep';
  for (let i = 2; [...taken].some((n) => n.startsWith(prefix)); i++) prefix = `jiangu_logits_to_keep_${i}`;
  const zero = `${prefix}/zero`;
  const ends = `${prefix}/ends`;
  const axes = `${prefix}/axes`;
  const negated = `${prefix}/negated`;
  const positive = `${prefix}/positive`;
  const starts = `${prefix}/starts`;
  const rows = `${prefix}/rows`;
  const one = `${prefix}/fault/one`;
  const minusOne = `${prefix}/fault/minus_one`;
  const shifted = `${prefix}/fault/shifted`;
  const faultEnds = `${prefix}/fault/ends`;

  // logits: [batch, sequence, vocab] → [batch, logits_sequence_length, vocab] (when a shape is declared)
  const rank = declaredRank(buf, logits);
  if (rank !== null && rank !== 3) return refuse({ kind: 'logits-rank', rank });
  const newLogits =
    rank === null
      ? [buf.subarray(logits.start, logits.end)]
      : lenField(
          GRAPH_OUTPUT,
          replaceNth(buf, logits, VALUE_TYPE, 0, (type) =>
            replaceNth(buf, type, TYPE_TENSOR, 0, (tensor) =>
              replaceNth(buf, tensor, TENSOR_TYPE_SHAPE, 0, (shape) => replaceNth(buf, shape, SHAPE_DIM, 1, () => stringField(DIM_PARAM, KEPT_ROWS_DIM))),
            ),
          ) ?? [],
        );

  // The head's product reads the kept rows; every other reader of the activation is left alone.
  let inputSeen = 0;
  const consumer = lenField(
    GRAPH_NODE,
    subFields(buf, head.consumer.field).flatMap((f) =>
      f.no === NODE_INPUT && inputSeen++ === head.inputIndex ? stringField(NODE_INPUT, rows) : [buf.subarray(f.start, f.end)],
    ),
  );
  const added: Pieces = [
    ...nodeField('Sub', `${prefix}/negate`, [zero, KEEP_INPUT], negated),
    ...nodeField('Greater', `${prefix}/positive`, [KEEP_INPUT, zero], positive),
    ...(options.fault === 'previous-row'
      ? [
          // The test-only wrong slice: [−k−1, −1) when k > 0, every row otherwise.
          ...nodeField('Sub', `${prefix}/fault/shift`, [negated, one], shifted),
          ...nodeField('Where', `${prefix}/starts`, [positive, shifted, zero], starts),
          ...nodeField('Where', `${prefix}/fault/ends`, [positive, minusOne, ends], faultEnds),
          ...nodeField('Slice', `${prefix}/slice`, [head.sliceAt, starts, faultEnds, axes], rows),
        ]
      : [...nodeField('Where', `${prefix}/starts`, [positive, negated, zero], starts), ...nodeField('Slice', `${prefix}/slice`, [head.sliceAt, starts, ends, axes], rows)]),
  ];

  const stale = new Set([...parsed.valueInfo].filter(([n]) => head.downstream.has(n)).map(([, f]) => f));
  const graph: Pieces = [];
  for (const f of parsed.graphFields) {
    if (f === head.consumer.field) graph.push(...added, ...consumer);
    else if (f === logits) graph.push(...newLogits);
    else if (stale.has(f)) continue;
    else graph.push(buf.subarray(f.start, f.end));
  }
  // Repeated fields keep their order among themselves wherever they stand, so appending the input
  // here makes it the last input.
  graph.push(...int64Initializer(zero, 0n), ...int64Initializer(ends, INT64_MAX), ...int64Initializer(axes, 1n));
  if (options.fault === 'previous-row') graph.push(...int64Initializer(one, 1n), ...int64Initializer(minusOne, -1n));
  graph.push(
    ...lenField(GRAPH_INPUT, [
      ...stringField(VALUE_NAME, KEEP_INPUT),
      ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, [...varintField(TENSOR_TYPE_ELEM, INT64), ...lenField(TENSOR_TYPE_SHAPE, [])])),
    ]),
  );

  const model: Pieces = [];
  for (const f of parsed.top) model.push(...(f === parsed.graphField ? lenField(MODEL_GRAPH, graph) : [buf.subarray(f.start, f.end)]));
  return { kind: 'rewritten', bytes: joinPieces(model), head: { ops: head.ops, sliceAt: head.sliceAt }, graphBytes: piecesLength(graph) };
}
