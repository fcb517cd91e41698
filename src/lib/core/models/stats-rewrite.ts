// Ends a causal-LM graph in the per-position numbers the memorization probes need (Min-K% Prob,
// Min-K%++; issue 26), so a statistics pass copies out a few numbers per position instead of a
// vocabulary-wide logits row. It composes with logits-rewrite.ts: run it on a graph that declares
// num_logits_to_keep (natively, or after rewriteForLastLogits), and feed num_logits_to_keep = 0 so
// the statistics cover every position. It needs no particular head (it reads the logits output),
// so it also takes graphs the logits rewrite refuses.
//
// What it adds after the graph's `logits` output [batch, rows, vocab] (left as it is, bit for bit):
//   x      = logits, or Cast(logits, float) where they are float16 (fp16, q4f16), bfloat16 or double
//   best   = ArgMax(x, axis 2, keepdims 1)                      (ties: the first index)
//   s      = x − GatherElements(x, best, axis 2)                (x − the row's max)
//   e      = Exp(s);  Z = ReduceSum(e);  L = Log(Z);  p = e / Z  (log p = s − L)
//   m      = ReduceSum(p·s);  d = s − m;  r = ReduceSum(p·d);  q = ReduceSum(p·d·d)
//   jiangu_argmax         int64   [batch, rows]   = Squeeze(best)
//   jiangu_logprob_mean   float32 [batch, rows]   = Squeeze(m + r − L)
//   jiangu_logprob_std    float32 [batch, rows]   = Squeeze(Sqrt(Relu(q − r²)))
//   jiangu_token_logprob  float32 [batch, rows−1] = Squeeze(GatherElements(s, Unsqueeze(t, 2), axis 2) − L[:, :−1])
//       where t = input_ids[:, n−rows+1 :] (n: input_ids' length): row i is scored at the id that
//       follows its position in this pass's input_ids; the last row's next token is not in the pass.
//       GatherElements with indices of fewer rows than its data reads the leading rows (see
//       stats-rewrite-runtime.test.ts), so no row of s is copied for it.
//   jiangu_last_logprobs  float32 [batch, vocab]  = Squeeze(s[:, −1:] − L[:, −1:])
//       the last row's log-probabilities, for the token that starts the next pass (or any token):
//       one row copied out per pass.
// Reductions are over the vocabulary axis (2) with keepdims 1; ReduceSum, Squeeze and Unsqueeze
// take their axes as inputs, hence opset 13. There is no LogSoftmax and no ReduceMax: onnxruntime's
// WebGPU EP has no LogSoftmax kernel (it would run on the CPU, copying [rows, vocab] both ways), and
// ReduceMax takes its axes as an attribute before opset 18 and as an input after. Every op used has
// a WebGPU kernel there (Shape and Gather on shapes run on the CPU, as everywhere).
//
// Why these definitions: Min-K%++'s reference code (zjysteven/mink-plus-plus, run.py, the "mink
// and mink++" block) takes probs = softmax and log_probs = log_softmax of each position's logits,
// gathers log_probs at the next input token, and computes mu = Σ probs · log_probs over the
// vocabulary and a variable it calls sigma = Σ probs · log_probs² − mu², which is the variance: its
// score divides by sigma's square root. μ and σ here are that mu and the square root of that
// variance (clamped at 0 against rounding), the moments of log p under p.
//
// Why the moments are centred: σ is the same for s as for log p, and μ shifts by −L. In float32,
// Σ p (log p)² − μ² cancels badly when |μ| ≫ σ (a flat distribution over 150k tokens has μ ≈ −12):
// 5e-3 off σ on a vocabulary of 151,669, where the centred sum is 2e-5 off; the plain sum of p·log p
// drifts by 2e-4 there (float32 accumulation). s keeps the terms small where the mass is, and r, the
// drift of m summed from terms smaller still, corrects it: m + r is the mean, and Σ p (d − r)² =
// q − r² (Σ p = 1). With onnxruntime-node on jiangu-large (vocabulary 151,669, 128 positions) every
// statistic is within 3e-6 of rowStatistics' float64 (measured 2026-12-04).
//
// float16 graphs: onnxruntime computes a float16 head in float32 on the CPU and in WASM, and its
// RemoveDuplicateCastTransformer then drops the pair Cast(float32 → float16) → Cast(float16 →
// float32) on the way here, so the statistics come from the logits before their float16 rounding:
// as close to the model's distribution, but up to that rounding (8e-4 to 5e-3 on the fixtures) away
// from statistics of the float16 rows the graph outputs. A float16 kernel that gives float16 itself
// (MatMulNBits in q4f16, the WebGPU EP) leaves no pair, and the two agree to 1e-6.
//
// Why no new inputs: the targets come from input_ids and the last row comes out whole, because an
// input cannot be both optional and fed. transformers.js feeds every name in session.inputNames
// and fails when one is missing; an "overridable initializer" (a graph input with an initializer
// of its name) is left out of inputNames, but then onnxruntime-node silently ignores a feed of it
// and onnxruntime-web refuses one ("invalid input"): stats-rewrite-runtime.test.ts. So the
// rewritten graph has the inputs it had, and transformers.js' forward and generate run it as before
// (the new outputs come back beside the logits). A caller that wants no logits copied out names the
// outputs it wants (InferenceSession.run's `fetches`): the logits are still computed, the
// statistics need them, but stay in the session.
//
// Cost: about twelve passes over [rows, vocab] after the head (ArgMax, Sub, Exp, Div, five
// products and differences, three reductions) on every run, statistics or not, so a session that
// scores letters should not carry them; up to four [rows, vocab] float32 tensors are alive at once,
// so long texts go in chunks (the KV cache carries the context, jiangu_last_logprobs the boundary).
//
// Memory of the rewrite itself: nothing is decoded but names and a few declared types. The new
// model is the old one's fields as views (the graph's body, weights included, as one view) plus the
// appended nodes, initializers and outputs, copied once into a buffer of the new length.

import {
  DIM_PARAM,
  GRAPH_INPUT,
  GRAPH_OUTPUT,
  int64Initializer,
  INT64,
  INT64_MAX,
  intAttribute,
  MalformedGraph,
  MODEL_GRAPH,
  nested,
  nodeField,
  parseModel,
  SHAPE_DIM,
  TENSOR_TYPE_ELEM,
  TENSOR_TYPE_SHAPE,
  TYPE_TENSOR,
  VALUE_NAME,
  VALUE_TYPE,
  type ParsedModel,
} from './logits-rewrite.ts';
import { fieldString, joinPieces, lenField, piecesLength, ProtoBytesError, stringField, subFields, varintField, type Pieces, type ProtoField } from './onnx-bytes.ts';

/** The outputs the rewrite adds, by what they hold. */
export const STATS_OUTPUTS = {
  tokenLogprob: 'jiangu_token_logprob',
  mean: 'jiangu_logprob_mean',
  std: 'jiangu_logprob_std',
  argmax: 'jiangu_argmax',
  lastLogprobs: 'jiangu_last_logprobs',
} as const;

/** The ONNX opset the added nodes need: ReduceSum, Squeeze and Unsqueeze take their axes as inputs from 13 on. */
export const STATS_MIN_OPSET = 13;

/** ONNX element types (TensorProto.DataType) the rewrite reads. */
const FLOAT = 1;
const FLOAT16 = 10;
const DOUBLE = 11;
const BFLOAT16 = 16;
const INT32 = 6;
const FLOAT_TYPES = new Set([FLOAT, FLOAT16, DOUBLE, BFLOAT16]);

/** Why a graph was not given the statistics, as data; identifiers stay as they are. */
export type StatsRewriteReason =
  /** no graph output named logits (the first few outputs named) */
  | { kind: 'no-logits-output'; outputs: string[] }
  /** the logits output is declared with another rank than [batch, rows, vocab] (null: no shape declared) */
  | { kind: 'logits-rank'; rank: number | null }
  /** the logits output's element type is not a floating type (0: none declared) */
  | { kind: 'logits-type'; elemType: number }
  /** the graph has no input named input_ids, where the scored tokens come from */
  | { kind: 'no-input-ids'; inputs: string[] }
  /** input_ids is declared as something other than integer ids [batch, sequence] */
  | { kind: 'input-ids-shape'; rank: number | null; elemType: number }
  /** the default opset is older than STATS_MIN_OPSET (0: the graph imports none) */
  | { kind: 'opset'; opset: number }
  /** the graph already has a tensor or node called `name` (e.g. it was rewritten for statistics already) */
  | { kind: 'name-taken'; name: string }
  /** the bytes are not an ONNX model the rewrite can read (`message`: what the reader found, in English) */
  | { kind: 'malformed'; message: string }
  /** the rewrite itself threw (a bug): its message, in English */
  | { kind: 'rewrite-threw'; message: string };
export type StatsRewriteReasonKind = StatsRewriteReason['kind'];

/** A refusal: the reason, and an English sentence for logs and the bench. */
export interface StatsRewriteRefusal {
  reason: StatsRewriteReason;
  detail: string;
}

export type StatsRewrite =
  | {
      kind: 'rewritten';
      bytes: Uint8Array;
      /** The new GraphProto's length (the model's, less its other top-level fields). */
      graphBytes: number;
      /** The logits' element type where they are cast to float32 first, else null. */
      castFrom: 'float16' | 'bfloat16' | 'double' | null;
    }
  | { kind: 'unrecognised'; refusal: StatsRewriteRefusal };

/**
 * For tests only: a deliberately wrong graph, to prove that a load check comparing the outputs with
 * rowStatistics of the full logits rows catches one.
 * - `target-from-next-row`: jiangu_token_logprob reads row i + 1 (at row i's target);
 * - `mean-without-probabilities`: jiangu_logprob_mean is the plain average of log p over the
 *   vocabulary, (1/V) Σ log p_v;
 * - `variance-as-std`: jiangu_logprob_std is σ², the reference code's `sigma` taken for σ.
 */
export type StatsRewriteFault = 'target-from-next-row' | 'mean-without-probabilities' | 'variance-as-std';

export interface StatsRewriteOptions {
  fault?: StatsRewriteFault;
}

/** The English sentence of a reason. */
export function statsReasonDetail(reason: StatsRewriteReason): string {
  switch (reason.kind) {
    case 'no-logits-output':
      return `the graph has no output named "logits" (its outputs: ${reason.outputs.join(', ') || 'none'})`;
    case 'logits-rank':
      return reason.rank === null ? 'the logits output declares no shape, so its vocabulary axis is not known' : `the logits output has rank ${reason.rank}, not [batch, rows, vocab]`;
    case 'logits-type':
      return reason.elemType === 0 ? 'the logits output declares no element type' : `the logits output has ONNX element type ${reason.elemType}, not a floating type`;
    case 'no-input-ids':
      return `the graph has no input named "input_ids" to take the scored tokens from (its inputs: ${reason.inputs.join(', ') || 'none'})`;
    case 'input-ids-shape':
      return `input_ids is declared with rank ${reason.rank ?? 'unknown'} and ONNX element type ${reason.elemType}, not int64 or int32 [batch, sequence]`;
    case 'opset':
      return reason.opset === 0
        ? `the graph imports no ONNX opset; ReduceSum, Squeeze and Unsqueeze with axes as inputs need opset ${STATS_MIN_OPSET}`
        : `the graph imports ONNX opset ${reason.opset}; ReduceSum, Squeeze and Unsqueeze with axes as inputs need opset ${STATS_MIN_OPSET}`;
    case 'name-taken':
      return `the graph already has a tensor or node named "${reason.name}"`;
    case 'malformed':
      return `not an ONNX model the rewrite can read: ${reason.message}`;
    case 'rewrite-threw':
      return `the rewrite failed: ${reason.message}`;
  }
}

/** A refusal for `reason`, with its English detail. */
export function statsRefusalOf(reason: StatsRewriteReason): StatsRewriteRefusal {
  return { reason, detail: statsReasonDetail(reason) };
}

function refuse(reason: StatsRewriteReason): StatsRewrite {
  return { kind: 'unrecognised', refusal: statsRefusalOf(reason) };
}

/**
 * The model with the statistics outputs added (see the top of this file), or why not. Never throws:
 * bytes it cannot read, and its own failures, are refusals.
 */
export function rewriteForStatistics(model: Uint8Array, options: StatsRewriteOptions = {}): StatsRewrite {
  try {
    return rewrite(model, options);
  } catch (e) {
    if (e instanceof ProtoBytesError || e instanceof MalformedGraph) return refuse({ kind: 'malformed', message: e.message });
    return refuse({ kind: 'rewrite-threw', message: e instanceof Error ? e.message : String(e) });
  }
}

/** A declared tensor type: its element type (0: none) and its dims as fields (null: no shape). */
interface DeclaredTensor {
  elemType: number;
  dims: ProtoField[] | null;
}

function declaredTensor(buf: Uint8Array, info: ProtoField): DeclaredTensor {
  const tensor = nested(buf, info, [VALUE_TYPE, TYPE_TENSOR]);
  if (tensor === null) return { elemType: 0, dims: null };
  const fields = subFields(buf, tensor);
  const elemType = fields.find((f) => f.no === TENSOR_TYPE_ELEM)?.varint ?? 0;
  const shape = fields.find((f) => f.no === TENSOR_TYPE_SHAPE);
  return { elemType, dims: shape === undefined ? null : subFields(buf, shape).filter((f) => f.no === SHAPE_DIM) };
}

function graphInput(buf: Uint8Array, parsed: ParsedModel, name: string): ProtoField | undefined {
  return parsed.graphFields.find((f) => f.no === GRAPH_INPUT && subFields(buf, f).some((g) => g.no === VALUE_NAME && fieldString(buf, g) === name));
}

/** A graph output (ValueInfoProto) of `elemType` whose dims are the given TensorShapeProto.Dimension pieces. */
function outputField(name: string, elemType: number, dims: Pieces[] | null): Pieces {
  const tensor = [...varintField(TENSOR_TYPE_ELEM, elemType), ...(dims === null ? [] : lenField(TENSOR_TYPE_SHAPE, dims.flat()))];
  return lenField(GRAPH_OUTPUT, [...stringField(VALUE_NAME, name), ...lenField(VALUE_TYPE, lenField(TYPE_TENSOR, tensor))]);
}

const CAST_FROM: Record<number, 'float16' | 'bfloat16' | 'double'> = { [FLOAT16]: 'float16', [BFLOAT16]: 'bfloat16', [DOUBLE]: 'double' };

function rewrite(buf: Uint8Array, options: StatsRewriteOptions): StatsRewrite {
  const parsed = parseModel(buf);
  const logitsInfo = parsed.outputs.get('logits');
  if (logitsInfo === undefined) return refuse({ kind: 'no-logits-output', outputs: [...parsed.outputs.keys()].slice(0, 5) });
  const logits = declaredTensor(buf, logitsInfo);
  if (logits.dims === null || logits.dims.length !== 3) return refuse({ kind: 'logits-rank', rank: logits.dims?.length ?? null });
  if (!FLOAT_TYPES.has(logits.elemType)) return refuse({ kind: 'logits-type', elemType: logits.elemType });
  const idsInfo = parsed.inputs.includes('input_ids') && !parsed.initializers.has('input_ids') ? graphInput(buf, parsed, 'input_ids') : undefined;
  if (idsInfo === undefined) return refuse({ kind: 'no-input-ids', inputs: parsed.inputs.filter((n) => !parsed.initializers.has(n)).slice(0, 5) });
  const ids = declaredTensor(buf, idsInfo);
  if ((ids.dims !== null && ids.dims.length !== 2) || (ids.elemType !== INT64 && ids.elemType !== INT32)) {
    return refuse({ kind: 'input-ids-shape', rank: ids.dims?.length ?? null, elemType: ids.elemType });
  }
  if ((parsed.defaultOpset ?? 0) < STATS_MIN_OPSET) return refuse({ kind: 'opset', opset: parsed.defaultOpset ?? 0 });

  const taken = new Set<string>([...parsed.initializers, ...parsed.inputs, ...parsed.outputs.keys(), ...parsed.valueInfo.keys()]);
  for (const node of parsed.nodes) {
    for (const o of node.outputs) taken.add(o);
    taken.add(node.name);
  }
  for (const name of Object.values(STATS_OUTPUTS)) if (taken.has(name)) return refuse({ kind: 'name-taken', name });
  let prefix = 'jiangu_stats';
  for (let i = 2; [...taken].some((n) => n.startsWith(`${prefix}/`)); i++) prefix = `jiangu_stats_${i}`;
  const t = (name: string) => `${prefix}/${name}`;

  const nodes: Pieces = [];
  let count = 0;
  const add = (op: string, inputs: string[], output: string, attributes: Pieces = []): string => {
    nodes.push(...nodeField(op, `${prefix}/${op}_${count++}`, inputs, output, attributes));
    return output;
  };
  const axis = (name: string, value: number) => intAttribute(name, value);
  const sum = (x: string, out: string) => add('ReduceSum', [x, t('axis_vocab')], out, axis('keepdims', 1));

  // The distribution, shifted by each row's max (found by ArgMax, read back by GatherElements).
  const castFrom = CAST_FROM[logits.elemType] ?? null;
  const x = castFrom === null ? 'logits' : add('Cast', ['logits'], t('logits_float'), axis('to', FLOAT));
  const best = add('ArgMax', [x], t('argmax'), [...axis('axis', 2), ...axis('keepdims', 1)]);
  add('Squeeze', [best, t('axis_vocab')], STATS_OUTPUTS.argmax);
  const shifted = add('Sub', [x, add('GatherElements', [x, best], t('max'), axis('axis', 2))], t('shifted'));
  const exps = add('Exp', [shifted], t('exp'));
  const total = sum(exps, t('sum_exp'));
  const logSum = add('Log', [total], t('log_sum_exp'));
  const p = add('Div', [exps, total], t('p'));
  // The moments of s = x − max, centred: log p = s − logSum, so μ = E[s] − logSum and σ² = Var[s].
  const m0 = sum(add('Mul', [p, shifted], t('p_s')), t('mean_s'));
  const d = add('Sub', [shifted, m0], t('d'));
  const pd = add('Mul', [p, d], t('p_d'));
  const r = sum(pd, t('r'));
  const square = sum(add('Mul', [pd, d], t('p_d_d')), t('p_d_d_sum'));
  if (options.fault === 'mean-without-probabilities') {
    const vocab = add('Cast', [add('Gather', [add('Shape', [x], t('fault/shape')), t('axis_vocab')], t('fault/vocab'))], t('fault/vocab_float'), axis('to', FLOAT));
    const plain = add('Sub', [add('Div', [sum(shifted, t('fault/sum_s')), vocab], t('fault/mean_s')), logSum], t('fault/mean'));
    add('Squeeze', [plain, t('axis_vocab')], STATS_OUTPUTS.mean);
  } else {
    add('Squeeze', [add('Sub', [add('Add', [m0, r], t('mean_s_refined')), logSum], t('mean')), t('axis_vocab')], STATS_OUTPUTS.mean);
  }
  const variance = add('Relu', [add('Sub', [square, add('Mul', [r, r], t('r_r'))], t('variance_raw'))], t('variance'));
  add('Squeeze', [options.fault === 'variance-as-std' ? variance : add('Sqrt', [variance], t('std')), t('axis_vocab')], STATS_OUTPUTS.std);

  // Row i of the logits is position n − rows + i of input_ids; its target is the next position's id.
  const length = add('Gather', [add('Shape', ['input_ids'], t('ids_shape')), t('axis_rows')], t('ids_length'));
  const rows = add('Gather', [add('Shape', [x], t('logits_shape')), t('axis_rows')], t('rows'));
  const first = add('Add', [add('Sub', [length, rows], t('first_row_position')), t('one')], t('first_target_position'));
  const targets = add('Slice', ['input_ids', first, t('end'), t('axis_rows')], t('targets'));
  // GatherElements reads the leading rows of its data when the indices have fewer: rows 0 … rows − 2.
  const from = options.fault === 'target-from-next-row' ? t('one') : t('zero');
  const to = options.fault === 'target-from-next-row' ? t('end') : t('minus_one');
  const scored = options.fault === 'target-from-next-row' ? add('Slice', [shifted, from, to, t('axis_rows')], t('fault/next_rows')) : shifted;
  const gathered = add('GatherElements', [scored, add('Unsqueeze', [targets, t('axis_vocab')], t('target_index'))], t('gathered'), axis('axis', 2));
  const scoredLogSum = add('Slice', [logSum, from, to, t('axis_rows')], t('scored_log_sum_exp'));
  add('Squeeze', [add('Sub', [gathered, scoredLogSum], t('token_logprob')), t('axis_vocab')], STATS_OUTPUTS.tokenLogprob);
  const lastRow = (tensor: string, name: string) => add('Slice', [tensor, t('minus_one'), t('end'), t('axis_rows')], t(name));
  add('Squeeze', [add('Sub', [lastRow(shifted, 'last_shifted'), lastRow(logSum, 'last_log_sum_exp')], t('last_logprobs')), t('axis_rows')], STATS_OUTPUTS.lastLogprobs);

  const [batchDim, rowsDim, vocabDim] = logits.dims.map((f) => [buf.subarray(f.valueStart, f.valueEnd)]);
  const dim = (pieces: Pieces) => lenField(SHAPE_DIM, pieces);
  const appended: Pieces = [
    ...nodes,
    ...int64Initializer(t('axis_rows'), 1n),
    ...int64Initializer(t('axis_vocab'), 2n),
    ...int64Initializer(t('zero'), 0n),
    ...int64Initializer(t('one'), 1n),
    ...int64Initializer(t('minus_one'), -1n),
    ...int64Initializer(t('end'), INT64_MAX),
    ...outputField(STATS_OUTPUTS.tokenLogprob, FLOAT, [dim(batchDim), dim(stringField(DIM_PARAM, 'jiangu_scored_rows'))]),
    ...outputField(STATS_OUTPUTS.mean, FLOAT, [dim(batchDim), dim(rowsDim)]),
    ...outputField(STATS_OUTPUTS.std, FLOAT, [dim(batchDim), dim(rowsDim)]),
    ...outputField(STATS_OUTPUTS.argmax, INT64, [dim(batchDim), dim(rowsDim)]),
    ...outputField(STATS_OUTPUTS.lastLogprobs, FLOAT, [dim(batchDim), dim(vocabDim)]),
  ];
  // Repeated fields keep their order among themselves wherever they stand: appending leaves every
  // existing node, input and output where it was, and the new nodes after everything they read.
  const graph: Pieces = [buf.subarray(parsed.graphField.valueStart, parsed.graphField.valueEnd), ...appended];
  const out: Pieces = [];
  for (const f of parsed.top) out.push(...(f === parsed.graphField ? lenField(MODEL_GRAPH, graph) : [buf.subarray(f.start, f.end)]));
  return { kind: 'rewritten', bytes: joinPieces(out), graphBytes: piecesLength(graph), castFrom };
}
