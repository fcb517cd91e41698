/**
 * What rewriteForLastLogits accepts and refuses beyond the fixtures' own heads: a graph that
 * already declares num_logits_to_keep, the Einsum fixture, small hand-built heads (a tied
 * embedding's Transpose with a bias, Gemm, two activations, rank-2 logits, no logits), bytes that
 * are no ONNX model, and an external-data graph file (rewritten alone, its data file untouched).
 */
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { GraphBuilder } from '../../../scripts/fixtures/graph-builder.ts';
import { DataType, encodeModel } from '../../../scripts/fixtures/onnx-proto.ts';
import { ONNX_FILE, type FixtureDtype } from '../../../scripts/fixtures/specs.ts';
import { rewriteForLastLogits, type LogitsRewrite } from '../../../src/lib/core/models/logits-rewrite.ts';
import { fieldString, joinPieces, lenField, readFields, stringField, subFields, varintField } from '../../../src/lib/core/models/onnx-bytes.ts';
import { keepTensor, maxAbsDiff, ort } from '../fixtures/ort-helpers.ts';

const dirs: Record<string, string> = {};
const scratch = mkdtempSync(join(tmpdir(), 'jiangu-rewrite-'));

beforeAll(() => {
  for (const g of generateFixtures({ models: ['jiangu-tiny', 'jiangu-tiny-nokeep', 'jiangu-tiny-oddhead', 'jiangu-tiny-external'] })) dirs[g.name] = g.dir;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const fileBytes = (name: string, dtype: FixtureDtype = 'fp32'): Uint8Array => new Uint8Array(readFileSync(join(dirs[name], 'onnx', ONNX_FILE[dtype])));

function refusal(r: LogitsRewrite): { code: string; detail: string } {
  if (r.kind !== 'unrecognised') throw new Error(`expected a refusal, got ${r.kind}`);
  return r.refusal;
}

const i64 = (rows: number[][]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(rows.flat(), (v) => BigInt(v)), [rows.length, rows[0].length]);
const PROMPT = [5, 17, 42, 99, 3, 250, 7];

async function logitsOf(session: ort.InferenceSession, keep?: number): Promise<ort.Tensor> {
  const feeds: Record<string, ort.Tensor> = { input_ids: i64([PROMPT]), attention_mask: i64([PROMPT.map(() => 1)]), position_ids: i64([PROMPT.map((_, i) => i)]) };
  if (keep !== undefined) feeds.num_logits_to_keep = keepTensor(keep);
  for (const n of session.inputNames) if (n.startsWith('past_key_values.')) feeds[n] = new ort.Tensor('float32', new Float32Array(0), [1, 2, 0, 16]);
  return (await session.run(feeds)).logits;
}

/** A small head over x [batch, seq, 4] (or x [seq, 4] with `rank2`), vocabulary 3. */
function headModel(build: (g: GraphBuilder, x: string) => void, rank2 = false): Uint8Array {
  const g = new GraphBuilder();
  const x = g.input('x', DataType.FLOAT, rank2 ? ['seq', 4] : ['batch', 'seq', 4]);
  build(g, x);
  g.output(g.outputs.length === 0 ? 'logits' : g.outputs[0].name, DataType.FLOAT, rank2 ? ['seq', 3] : ['batch', 'seq', 3]);
  const opsetImports = [{ domain: '', version: 17 }, { domain: 'com.microsoft', version: 1 }];
  return encodeModel({ irVersion: 8, opsetImports, producerName: 'test', producerVersion: '1', graph: g.build('head') }).toBytes();
}

/** The model with float value_info entries (as shape inference writes them) added to its graph. */
function withValueInfo(model: Uint8Array, infos: Record<string, (number | string)[]>): Uint8Array {
  const dims = (shape: (number | string)[]) => shape.flatMap((d) => lenField(1, typeof d === 'number' ? varintField(1, d) : stringField(2, d)));
  const extra = Object.entries(infos).flatMap(([name, shape]) =>
    lenField(13, [...stringField(1, name), ...lenField(2, lenField(1, [...varintField(1, DataType.FLOAT), ...lenField(2, dims(shape))]))]),
  );
  return joinPieces(readFields(model).flatMap((f) => (f.no === 7 ? lenField(7, [model.subarray(f.valueStart, f.valueEnd), ...extra]) : [model.subarray(f.start, f.end)])));
}

function valueInfoNames(model: Uint8Array): string[] {
  const graph = readFields(model).find((f) => f.no === 7);
  if (graph === undefined) return [];
  return subFields(model, graph)
    .filter((f) => f.no === 13)
    .map((f) => fieldString(model, subFields(model, f).find((g) => g.no === 1) ?? f));
}

/** x whose first rows are the largest, so an activation scale taken over the kept rows alone would be smaller. */
const activations = (): ort.Tensor => new ort.Tensor('float32', Float32Array.from({ length: 2 * 5 * 4 }, (_, i) => Math.sin(i) * (10 - (i >> 2))), [2, 5, 4]);
const lastRows = (t: ort.Tensor, k: number): number[] => {
  const [b, s, v] = t.dims;
  const d = t.data as Float32Array;
  return Array.from({ length: b }, (_, i) => [...d.subarray((i * s + s - k) * v, (i + 1) * s * v)]).flat();
};
const weight = (g: GraphBuilder, name: string, dims: number[]): string => g.initializer(name, DataType.FLOAT, dims, Float32Array.from({ length: dims[0] * dims[1] }, (_, i) => (i % 7) - 3));

describe('rewriteForLastLogits: what it leaves alone and what it refuses', () => {
  it('a graph that declares num_logits_to_keep is not-needed, in every dtype', () => {
    for (const dtype of ['fp32', 'q8', 'q4', 'fp16', 'q4f16'] as const) expect(rewriteForLastLogits(fileBytes('jiangu-tiny', dtype))).toEqual({ kind: 'not-needed' });
  });

  it('refuses jiangu-tiny-oddhead (logits from an Einsum), naming the op and the node; the fixture itself runs and gives -nokeep’s logits', async () => {
    const r = refusal(rewriteForLastLogits(fileBytes('jiangu-tiny-oddhead')));
    expect(r.code).toBe('head-not-recognised');
    expect(r.detail).toContain('Einsum');
    expect(r.detail).toContain('lm_head/Einsum');
    const odd = await logitsOf(await ort.InferenceSession.create(fileBytes('jiangu-tiny-oddhead')));
    const plain = await logitsOf(await ort.InferenceSession.create(fileBytes('jiangu-tiny-nokeep')));
    expect(odd.dims).toEqual(plain.dims);
    expect(maxAbsDiff(odd.data as Float32Array, plain.data as Float32Array)).toBeLessThan(1e-4);
  });

  it('walks back through a bias Add to a MatMul by a tied embedding’s Transpose (a constant, not an activation), and the result keeps the last row', async () => {
    const bytes = headModel((g, x) => {
      const embedT = g.op('Transpose', [weight(g, 'embed', [3, 4])], { name: 'tied/Transpose' });
      const mm = g.op('MatMul', [x, embedT], { name: 'lm_head/MatMul' });
      g.opNamed('Add', [g.initializer('bias', DataType.FLOAT, [3], Float32Array.of(0.5, -1, 2)), mm], 'logits', { name: 'lm_head/Add' });
    });
    const r = rewriteForLastLogits(bytes);
    if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
    expect(r.head).toEqual({ ops: ['Add', 'MatMul'], sliceAt: 'x' });
    const x = new ort.Tensor('float32', Float32Array.from({ length: 2 * 5 * 4 }, (_, i) => Math.sin(i)), [2, 5, 4]);
    const full = (await (await ort.InferenceSession.create(bytes)).run({ x })).logits;
    const session = await ort.InferenceSession.create(r.bytes);
    const one = (await session.run({ x, num_logits_to_keep: keepTensor(1) })).logits;
    expect(one.dims).toEqual([2, 1, 3]);
    const f = full.data as Float32Array;
    expect(Array.from(one.data as Float32Array)).toEqual([...f.subarray(12, 15), ...f.subarray(27, 30)]);
    const two = (await session.run({ x, num_logits_to_keep: keepTensor(2) })).logits;
    expect(Array.from(two.data as Float32Array)).toEqual([...f.subarray(9, 15), ...f.subarray(24, 30)]);
    // As the native graphs: k ≤ 0 and k past the sequence keep every row.
    for (const k of [0, -2, 9]) expect(Array.from((await session.run({ x, num_logits_to_keep: keepTensor(k) })).logits.data as Float32Array), `k = ${k}`).toEqual(Array.from(f));
  });

  it('slices MatMulIntegerToFloat’s quantized input after DynamicQuantizeLinear: the kept row is the full run’s bit for bit', async () => {
    const bytes = headModel((g, x) => {
      const [xq, xScale, xZero] = g.node('DynamicQuantizeLinear', [x], { outputs: 3, name: 'lm_head/DynamicQuantizeLinear' });
      const wq = g.initializer('w_q', DataType.INT8, [4, 3], Int8Array.of(1, -2, 3, 4, -5, 6, 7, 8, -9, 10, 11, -12));
      const wScale = g.initializer('w_scale', DataType.FLOAT, [], Float32Array.of(0.05));
      const wZero = g.initializer('w_zero', DataType.INT8, [], Int8Array.of(0));
      g.opNamed('MatMulIntegerToFloat', [xq, wq, xScale, wScale, xZero, wZero], 'logits', { name: 'lm_head/MatMulIntegerToFloat', domain: 'com.microsoft' });
    });
    const r = rewriteForLastLogits(bytes);
    if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
    expect(r.head.ops).toEqual(['com.microsoft.MatMulIntegerToFloat']);
    const x = activations();
    const full = (await (await ort.InferenceSession.create(bytes)).run({ x })).logits;
    const one = (await (await ort.InferenceSession.create(r.bytes)).run({ x, num_logits_to_keep: keepTensor(1) })).logits;
    expect(one.dims).toEqual([2, 1, 3]);
    expect(Array.from(one.data as Float32Array)).toEqual(lastRows(full, 1));
  });

  it('drops the value_info of tensors computed from the kept rows, and refuses an activation declared with another rank', async () => {
    const head = (g: GraphBuilder, x: string): void => {
      const h = g.opNamed('Relu', [x], 'hidden', { name: 'norm/Relu' });
      const mm = g.opNamed('MatMul', [h, weight(g, 'w', [4, 3])], 'mm', { name: 'lm_head/MatMul' });
      g.opNamed('Add', [mm, g.initializer('bias', DataType.FLOAT, [3], Float32Array.of(1, 2, 3))], 'logits', { name: 'lm_head/Add' });
    };
    const bytes = withValueInfo(headModel(head), { hidden: ['batch', 'seq', 4], mm: ['batch', 'seq', 3] });
    expect(valueInfoNames(bytes)).toEqual(['hidden', 'mm']);
    const r = rewriteForLastLogits(bytes);
    if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
    expect(r.head).toEqual({ ops: ['Add', 'MatMul'], sliceAt: 'hidden' });
    expect(valueInfoNames(r.bytes)).toEqual(['hidden']);
    const x = activations();
    const full = (await (await ort.InferenceSession.create(bytes)).run({ x })).logits;
    const one = (await (await ort.InferenceSession.create(r.bytes)).run({ x, num_logits_to_keep: keepTensor(1) })).logits;
    expect(Array.from(one.data as Float32Array)).toEqual(lastRows(full, 1));

    const rank4 = withValueInfo(headModel(head), { hidden: ['batch', 'seq', 2, 2] });
    expect(refusal(rewriteForLastLogits(rank4))).toMatchObject({ code: 'hidden-rank', detail: expect.stringContaining('rank 4') });
  });

  it('refuses a Gemm head, a product of two activations, rank-2 logits and a graph without logits', () => {
    const gemm = headModel((g, x) => {
      const rows = g.op('Reshape', [x, g.constI64([-1, 4])], { name: 'flatten' });
      g.opNamed('Gemm', [rows, weight(g, 'w', [4, 3])], 'logits', { name: 'lm_head/Gemm' });
    });
    expect(refusal(rewriteForLastLogits(gemm))).toMatchObject({ code: 'head-not-recognised', detail: expect.stringMatching(/Gemm node ".*lm_head\/Gemm"/) });
    const twoActivations = headModel((g, x) => {
      g.opNamed('MatMul', [x, g.op('Transpose', [x], { name: 't', attributes: [] })], 'logits', { name: 'lm_head/MatMul' });
    });
    expect(refusal(rewriteForLastLogits(twoActivations))).toMatchObject({ code: 'head-not-recognised', detail: expect.stringMatching(/MatMul node ".*lm_head\/MatMul"/) });
    const rank2 = headModel((g, x) => g.opNamed('MatMul', [x, weight(g, 'w', [4, 3])], 'logits', { name: 'lm_head/MatMul' }), true);
    expect(refusal(rewriteForLastLogits(rank2)).code).toBe('hidden-rank');
    const noLogits = headModel((g, x) => {
      g.opNamed('MatMul', [x, weight(g, 'w', [4, 3])], 'scores', { name: 'lm_head/MatMul' });
      g.output('scores', DataType.FLOAT, ['batch', 'seq', 3]);
    });
    expect(refusal(rewriteForLastLogits(noLogits))).toMatchObject({ code: 'no-logits-output', detail: expect.stringContaining('scores') });
  });

  it('calls bytes that are no ONNX model malformed, and never throws', () => {
    const model = fileBytes('jiangu-tiny-nokeep');
    let seed = 7;
    const noise = Uint8Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    const cases = [new Uint8Array(0), new TextEncoder().encode('<!doctype html><title>404</title>'), noise, model.subarray(0, model.length >> 1), model.subarray(0, 1000), Uint8Array.of(0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f)];
    for (const bytes of cases) expect(refusal(rewriteForLastLogits(bytes)).code).toBe('malformed');
  });

  it('rewrites an external-data graph file alone: the rewritten graph runs against the untouched model.onnx_data', async () => {
    const graph = fileBytes('jiangu-tiny-external');
    const r = rewriteForLastLogits(graph);
    if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
    expect(r.bytes.length).toBeLessThan(graph.length + 1024);
    writeFileSync(join(scratch, 'model.onnx'), r.bytes);
    copyFileSync(join(dirs['jiangu-tiny-external'], 'onnx', 'model.onnx_data'), join(scratch, 'model.onnx_data'));
    const one = await logitsOf(await ort.InferenceSession.create(join(scratch, 'model.onnx')), 1);
    const native = await logitsOf(await ort.InferenceSession.create(fileBytes('jiangu-tiny')), 1);
    expect(one.dims).toEqual([1, 1, 749]);
    expect(maxAbsDiff(one.data as Float32Array, native.data as Float32Array)).toBeLessThan(1e-5);
  });
});
