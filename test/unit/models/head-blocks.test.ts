/**
 * blockDequantizedHead on the hub's q8 layout (scripts/fixtures/hub-quant.ts: the tied head as
 * MatMul(x, DequantizeLinear(Transpose(embedding_uint8)))), Qwen2.5's and Qwen3's shapes cut to two
 * layers and 512 rows, run in onnxruntime-web's WASM kernels (what the site runs): the blocked head
 * gives the author's logits on every row, alone and after the one-row rewrite (the order the worker
 * applies them), with blocks that do not divide the vocabulary; the whole-vocabulary
 * DequantizeLinear and Transpose are gone from the graph; other heads are left alone (null).
 * gemmTiedHead on the hub's q4 and fp32 layout (MatMul(x, Transpose(embedding)) over the float32
 * embedding the Gather reads): the Gemm on the embedding gives the author's logits, with no Transpose
 * left for onnxruntime to fold into a second copy; a head of its own (SmolLM2) or a q8 head is left.
 */
import * as ortWeb from 'onnxruntime-web';
import { describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../../../scripts/fixtures/model-for.ts';
import { encodeModel } from '../../../scripts/fixtures/onnx-proto.ts';
import { REAL_QWEN25, REAL_QWEN3, REAL_SMOLLM2 } from '../../../scripts/fixtures/real-specs.ts';
import type { FixtureDtype, ModelSpec } from '../../../scripts/fixtures/specs.ts';
import { createModel } from '../../../scripts/fixtures/weights.ts';
import { blockDequantizedHead, gemmTiedHead } from '../../../src/lib/core/models/head-blocks.ts';
import { parseModel, rewriteForLastLogits } from '../../../src/lib/core/models/logits-rewrite.ts';

const VOCAB = 512;
const cut = (spec: ModelSpec): ModelSpec => ({ ...spec, numLayers: 2, vocabSize: VOCAB, maxPositionEmbeddings: 64 });
const IDS = [5, 300, 17, 511, 42, 7];

function modelBytes(spec: ModelSpec, dtype: FixtureDtype): Uint8Array {
  return encodeModel(buildFixtureModel(createModel(cut(spec), VOCAB), dtype)).toBytes();
}

async function logits(bytes: Uint8Array, spec: ModelSpec, keep?: number): Promise<Float32Array> {
  ortWeb.env.wasm.numThreads = 1;
  const session = await ortWeb.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
  const feeds: Record<string, ortWeb.Tensor> = {
    input_ids: new ortWeb.Tensor('int64', BigInt64Array.from(IDS, BigInt), [1, IDS.length]),
    attention_mask: new ortWeb.Tensor('int64', BigInt64Array.from(IDS, () => 1n), [1, IDS.length]),
  };
  for (let l = 0; l < 2; l++) for (const kv of ['key', 'value']) feeds[`past_key_values.${l}.${kv}`] = new ortWeb.Tensor('float32', new Float32Array(0), [1, spec.numKvHeads, 0, spec.headDim]);
  if (session.inputNames.includes('position_ids')) feeds.position_ids = new ortWeb.Tensor('int64', BigInt64Array.from(IDS, (_, i) => BigInt(i)), [1, IDS.length]);
  if (session.inputNames.includes('num_logits_to_keep')) feeds.num_logits_to_keep = new ortWeb.Tensor('int64', BigInt64Array.of(BigInt(keep ?? 0)), []);
  const out = await session.run(feeds);
  await session.release();
  return out.logits.data as Float32Array;
}

const maxDiff = (a: Float32Array, b: Float32Array) => a.reduce((m, v, i) => Math.max(m, Math.abs(v - b[i])), 0);

describe.each([REAL_QWEN25, REAL_QWEN3])('$name q8 cut to two layers and 512 rows', (spec) => {
  const bytes = modelBytes(spec, 'q8');
  // 100 rows a block: six blocks, the last of 12 rows.
  const blockBytes = 100 * 4 * spec.hiddenSize;

  it('the blocked head gives the author’s logits on every row; the whole-vocabulary DequantizeLinear and Transpose are gone', async () => {
    const blocked = blockDequantizedHead(bytes, blockBytes);
    if (!blocked) throw new Error('head not recognised');
    expect(blocked).toMatchObject({ blocks: 6, vocab: VOCAB, hidden: spec.hiddenSize, embedding: 'model.embed_tokens.weight_quantized' });
    const ops = parseModel(blocked.bytes).nodes;
    expect(ops.filter((n) => n.opType === 'Gemm')).toHaveLength(6);
    expect(ops.some((n) => n.opType === 'Transpose' && n.inputs[0] === blocked.embedding)).toBe(false);
    expect(ops.filter((n) => n.opType === 'DequantizeLinear' && n.inputs[0] === blocked.embedding)).toHaveLength(0);
    const want = await logits(bytes, spec);
    const got = await logits(blocked.bytes, spec);
    expect(got.length).toBe(IDS.length * VOCAB);
    expect(maxDiff(got, want)).toBeLessThanOrEqual(1e-5);
  });

  it('after the one-row rewrite, as the worker chains them: the last row of the author’s logits', async () => {
    const keep = rewriteForLastLogits(bytes);
    if (keep.kind !== 'rewritten') throw new Error('not rewritten');
    const blocked = blockDequantizedHead(keep.bytes, blockBytes);
    if (!blocked) throw new Error('head not recognised after the one-row rewrite');
    const want = (await logits(bytes, spec)).subarray((IDS.length - 1) * VOCAB);
    const got = await logits(blocked.bytes, spec, 1);
    expect(got.length).toBe(VOCAB);
    expect(maxDiff(got, want)).toBeLessThanOrEqual(1e-5);
  });
});

describe('other heads are left as they are', () => {
  it.each([
    ['Qwen2.5 fp32 (MatMul on the Transpose of a float embedding: gemmTiedHead’s)', REAL_QWEN25, 'fp32'],
    ['Qwen3 q4', REAL_QWEN3, 'q4'],
    ['SmolLM2 q4 (its own head)', REAL_SMOLLM2, 'q4'],
  ] as const)('%s', (_label, spec, dtype) => {
    expect(blockDequantizedHead(modelBytes(spec, dtype))).toBeNull();
  });
});

describe.each([REAL_QWEN25, REAL_QWEN3])('$name tied float heads cut to two layers and 512 rows', (spec) => {
  it.each(['q4', 'fp32'] as const)('%s: the Gemm on the embedding gives the author’s logits, alone and after the one-row rewrite; no Transpose of the embedding is left', async (dtype) => {
    const bytes = modelBytes(spec, dtype);
    const gemm = gemmTiedHead(bytes);
    if (!gemm) throw new Error('head not recognised');
    expect(gemm).toMatchObject({ vocab: VOCAB, hidden: spec.hiddenSize, embedding: 'model.embed_tokens.weight' });
    const ops = parseModel(gemm.bytes).nodes;
    expect(ops.some((n) => n.opType === 'Transpose' && n.inputs[0] === gemm.embedding)).toBe(false);
    expect(ops.filter((n) => n.opType === 'Gemm' && n.inputs[1] === gemm.embedding)).toHaveLength(1);
    const want = await logits(bytes, spec);
    const got = await logits(gemm.bytes, spec);
    expect(got.length).toBe(IDS.length * VOCAB);
    expect(maxDiff(got, want)).toBeLessThanOrEqual(1e-5);
    const keep = rewriteForLastLogits(bytes);
    if (keep.kind !== 'rewritten') throw new Error('not rewritten');
    const kept = gemmTiedHead(keep.bytes);
    if (!kept) throw new Error('head not recognised after the one-row rewrite');
    expect(maxDiff(await logits(kept.bytes, spec, 1), want.subarray((IDS.length - 1) * VOCAB))).toBeLessThanOrEqual(1e-5);
  });
});

describe('gemmTiedHead leaves other heads as they are', () => {
  it.each([
    ['SmolLM2 q4 (its own head, MatMulNBits)', REAL_SMOLLM2, 'q4'],
    ['Qwen2.5 q8 (a dequantized uint8 embedding: blockDequantizedHead’s)', REAL_QWEN25, 'q8'],
  ] as const)('%s', (_label, spec, dtype) => {
    expect(gemmTiedHead(modelBytes(spec, dtype))).toBeNull();
  });
});
