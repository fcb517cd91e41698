/**
 * What rewriteForLens refuses, each with its reason and code: toy decoders built to differ from a
 * recognisable one in one way each (the unchanged toy is rewritten, so each refusal is that one
 * difference's), the Einsum-headed fixture, and bytes that are not a model.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { attr, GraphBuilder } from '../../../scripts/fixtures/graph-builder.ts';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { DataType, encodeModel } from '../../../scripts/fixtures/onnx-proto.ts';
import { ONNX_FILE } from '../../../scripts/fixtures/specs.ts';
import { LENS_GATE, LENS_OUTPUTS, rewriteForLens, type LensRewrite, type LensRewriteRefusal } from '../../../src/lib/core/models/lens-rewrite.ts';
import { openSessionFrom, tensorFor } from '../fixtures/ort-helpers.ts';

interface Toy {
  layers?: number;
  /** Residual adds a layer (2: pre-norm attention + MLP; 1: parallel block). */
  perLayer?: number;
  /** Declare present.{i}.key outputs (the layer count's source). */
  present?: boolean;
  finalNorm?: boolean;
  head?: 'matmul' | 'two-products' | 'reads-embedding' | 'topk';
  opset?: number;
  logitsName?: string;
}

const H = 8;
const V = 11;
const weights = (n: number, seed: number) => Float32Array.from({ length: n }, (_, i) => Math.sin(seed * 7.1 + i * 1.3) * 0.5);

/** A toy decoder: residual adds of MatMul sublayers over an embedding, an RMS final norm, a MatMul head. */
function toy(o: Toy = {}): Uint8Array {
  const { layers = 2, perLayer = 2, present = true, finalNorm = true, head = 'matmul', opset = 17, logitsName = 'logits' } = o;
  const g = new GraphBuilder();
  const ids = g.input('input_ids', DataType.INT64, ['batch_size', 'sequence_length']);
  let x = g.op('Gather', [g.initializer('embed', DataType.FLOAT, [V, H], weights(V * H, 1)), ids], { name: 'embed' });
  const x0 = x;
  for (let l = 0; l < layers; l++) {
    for (let s = 0; s < perLayer; s++) {
      const sub = g.op('MatMul', [g.op('Relu', [x], { name: `l${l}.${s}/act` }), g.initializer(`w${l}.${s}`, DataType.FLOAT, [H, H], weights(H * H, l * 2 + s + 2))], { name: `l${l}.${s}/mm` });
      x = g.op('Add', [x, sub], { name: `l${l}.${s}/residual` });
    }
    if (present) {
      g.opNamed('Identity', [x], `present.${l}.key`, { name: `l${l}/present` });
      g.output(`present.${l}.key`, DataType.FLOAT, ['batch_size', 'sequence_length', H]);
    }
  }
  let n = x;
  if (finalNorm) {
    const mean = g.op('ReduceMean', [g.op('Mul', [x, x], { name: 'norm/sq' })], { name: 'norm/mean', attributes: [attr.ints('axes', [-1]), attr.int('keepdims', 1)] });
    const root = g.op('Sqrt', [g.op('Add', [mean, g.constF32([1e-5], [])], { name: 'norm/eps' })], { name: 'norm/sqrt' });
    n = g.op('Mul', [g.op('Div', [x, root], { name: 'norm/div' }), g.initializer('norm.weight', DataType.FLOAT, [H], weights(H, 99))], { name: 'norm/w' });
  }
  const w = g.initializer('lm_head', DataType.FLOAT, [H, V], weights(H * V, 100));
  if (head === 'matmul') g.opNamed('MatMul', [n, w], logitsName, { name: 'lm_head' });
  else if (head === 'two-products') {
    const a = g.op('MatMul', [n, w], { name: 'lm_head_a' });
    const b = g.op('MatMul', [n, g.initializer('lm_head_b', DataType.FLOAT, [H, V], weights(H * V, 101))], { name: 'lm_head_b' });
    g.opNamed('Add', [a, b], logitsName, { name: 'lm_head_sum' });
  } else if (head === 'reads-embedding') {
    const a = g.op('MatMul', [n, w], { name: 'lm_head' });
    const b = g.op('MatMul', [x0, g.initializer('shortcut', DataType.FLOAT, [H, V], weights(H * V, 102))], { name: 'shortcut' });
    g.opNamed('Add', [a, b], logitsName, { name: 'lm_head_plus_shortcut' });
  } else {
    const a = g.op('MatMul', [n, w], { name: 'lm_head' });
    g.opNamed('Softmax', [a], logitsName, { name: 'lm_head_softmax', attributes: [attr.int('axis', -1)] });
  }
  g.output(logitsName, DataType.FLOAT, ['batch_size', 'sequence_length', V]);
  return encodeModel({ irVersion: 8, opsetImports: [{ domain: '', version: opset }], producerName: 'test', producerVersion: '1', graph: g.build('toy') }).toBytes();
}

function refusal(r: LensRewrite): LensRewriteRefusal {
  if (r.kind !== 'unrecognised') throw new Error('rewritten, not refused');
  expect(r.refusal.detail.length).toBeGreaterThan(10);
  return r.refusal;
}

describe('rewriteForLens: what it takes', () => {
  for (const perLayer of [2, 1]) {
    it(`a toy decoder with ${perLayer} residual add(s) a layer: rewritten, and its lens runs (last layer = the logits' argmax)`, async () => {
      const r = rewriteForLens(toy({ perLayer }));
      expect(r.kind).toBe('rewritten');
      if (r.kind !== 'rewritten') return;
      expect(r.layers).toBe(2);
      expect(r.k).toBe(5);
      const session = await openSessionFrom(r.bytes, 'native');
      const Tensor = tensorFor(session);
      const ids = new Tensor('int64', BigInt64Array.from([1n, 4n, 7n]), [1, 3]);
      const out = await session.run({ input_ids: ids, [LENS_GATE]: new Tensor('bool', [true], []) });
      expect(out[LENS_OUTPUTS.topIds].dims).toEqual([1, 2, 3, 5]);
      // The gate off: no lens rows, the same logits.
      const off = await session.run({ input_ids: ids, [LENS_GATE]: new Tensor('bool', [false], []) });
      expect(off[LENS_OUTPUTS.topIds].dims).toEqual([1, 2, 0, 5]);
      expect(Array.from(off.logits.data as Float32Array)).toEqual(Array.from(out.logits.data as Float32Array));
      const logits = out.logits.data as Float32Array;
      const top = out[LENS_OUTPUTS.topIds].data as BigInt64Array;
      for (let row = 0; row < 3; row++) {
        const slice = Array.from(logits.subarray(row * V, (row + 1) * V));
        expect(Number(top[(1 * 3 + row) * 5])).toBe(slice.indexOf(Math.max(...slice)));
      }
      await session.release();
    });
  }
});

describe('rewriteForLens: what it refuses', () => {
  let oddhead: Uint8Array;
  beforeAll(() => {
    const dir = generateFixtures({ models: ['jiangu-tiny-oddhead'] })[0].dir;
    oddhead = new Uint8Array(readFileSync(join(dir, 'onnx', ONNX_FILE.fp32)));
  });

  it('no residual stream (logits straight from the embedding): layers-not-recognised', () => {
    const r = refusal(rewriteForLens(toy({ layers: 0, present: false })));
    expect(r.code).toBe('layers-not-recognised');
    expect(r.reason.kind).toBe('no-residual-stream');
  });
  it('no present.{i}.key to count the layers by: layers-not-recognised', () => {
    const r = refusal(rewriteForLens(toy({ present: false })));
    expect(r.reason).toEqual({ kind: 'no-layer-count' });
    expect(r.code).toBe('layers-not-recognised');
  });
  it('three residual adds a layer: layers-not-recognised, with the counts', () => {
    const r = refusal(rewriteForLens(toy({ perLayer: 3 })));
    expect(r.reason).toEqual({ kind: 'layer-count', residuals: 6, layers: 2 });
  });
  it('no final norm: head-not-recognised', () => {
    const r = refusal(rewriteForLens(toy({ finalNorm: false })));
    expect(r.reason).toEqual({ kind: 'no-final-norm' });
    expect(r.code).toBe('head-not-recognised');
  });
  it('two products summed into the logits: head-not-recognised', () => {
    const r = refusal(rewriteForLens(toy({ head: 'two-products' })));
    expect(r.reason.kind).toBe('two-heads');
  });
  it('a head that also reads the embedding: head-not-recognised, naming the tensor', () => {
    const r = refusal(rewriteForLens(toy({ head: 'reads-embedding' })));
    expect(r.reason.kind).toBe('tail-reads-activation');
    expect(r.code).toBe('head-not-recognised');
  });
  it('an op it does not know after the head (Softmax): head-not-recognised', () => {
    const r = refusal(rewriteForLens(toy({ head: 'topk' })));
    expect(r.reason).toEqual({ kind: 'tail-op', op: 'Softmax', node: '/lm_head_softmax' });
  });
  it("the Einsum-headed fixture (jiangu-tiny-oddhead): head-not-recognised", () => {
    const r = refusal(rewriteForLens(oddhead));
    expect(r.reason).toMatchObject({ kind: 'tail-op', op: 'Einsum' });
  });
  it('no logits output: no-logits-output', () => {
    const r = refusal(rewriteForLens(toy({ logitsName: 'scores' })));
    expect(r.code).toBe('no-logits-output');
  });
  it('opset 12: unsupported', () => {
    const r = refusal(rewriteForLens(toy({ opset: 12 })));
    expect(r.reason).toEqual({ kind: 'opset', opset: 12 });
    expect(r.code).toBe('unsupported');
  });
  it('a graph that has the lens already: unsupported (name-taken)', () => {
    const once = rewriteForLens(toy());
    if (once.kind !== 'rewritten') throw new Error('toy refused');
    expect(refusal(rewriteForLens(once.bytes)).reason).toEqual({ kind: 'name-taken', name: LENS_OUTPUTS.topIds });
  });
  it('bytes that are not a model: malformed', () => {
    expect(refusal(rewriteForLens(Uint8Array.of(0xff, 0xff, 0xff))).code).toBe('malformed');
    expect(refusal(rewriteForLens(new Uint8Array(0))).code).toBe('malformed');
  });
});
