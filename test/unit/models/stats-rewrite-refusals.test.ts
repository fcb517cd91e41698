/**
 * What rewriteForStatistics accepts and refuses: a small language-model-shaped graph (logits =
 * Gather(table, input_ids)) in the oldest and a recent opset it supports, the Einsum-headed fixture
 * the logits rewrite refuses, and one graph for each refusal, each a value with its reason and an
 * English sentence; bytes that are no model never make it throw.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { GraphBuilder } from '../../../scripts/fixtures/graph-builder.ts';
import { DataType, encodeModel, type Dim } from '../../../scripts/fixtures/onnx-proto.ts';
import { encodeFixture } from '../../../scripts/fixtures/reference.ts';
import { ONNX_FILE, TINY_ODDHEAD } from '../../../scripts/fixtures/specs.ts';
import { rowStatistics } from '../../../src/lib/core/logprobs.ts';
import { joinPieces, lenField, readFields, stringField, varintField } from '../../../src/lib/core/models/onnx-bytes.ts';
import { rewriteForStatistics, STATS_MIN_OPSET, STATS_OUTPUTS, statsRefusalOf, type StatsRewriteReason } from '../../../src/lib/core/models/stats-rewrite.ts';
import { maxAbsDiff, ort } from '../fixtures/ort-helpers.ts';
import { compareStats, logitsRows, openGraph, pass, worst } from './stats-helpers.ts';

const VOCAB = 6;

interface LmOptions {
  opset?: number;
  idsName?: string;
  idsType?: number;
  idsShape?: Dim[];
  logitsType?: number;
  /** null: the logits output is declared without a shape. */
  logitsShape?: Dim[] | null;
  logitsName?: string;
  /** A node output of this name besides the logits. */
  alsoNamed?: string;
}

/** logits [batch, seq, 6] = Gather(table, input_ids): each row the token's own row of the table. */
function lm(o: LmOptions = {}): Uint8Array {
  const g = new GraphBuilder();
  const ids = g.input(o.idsName ?? 'input_ids', (o.idsType ?? DataType.INT64) as typeof DataType.INT64, o.idsShape ?? ['batch', 'seq']);
  const table = g.initializer('table', DataType.FLOAT, [VOCAB, VOCAB], Float32Array.from({ length: VOCAB * VOCAB }, (_, i) => Math.sin(i * 1.7) * 3));
  const name = o.logitsName ?? 'logits';
  g.opNamed('Gather', [table, ids], name, { name: 'embed' });
  if (o.alsoNamed) g.opNamed('Identity', [table], o.alsoNamed, { name: 'side' });
  if (o.logitsShape !== null) g.output(name, (o.logitsType ?? DataType.FLOAT) as typeof DataType.FLOAT, o.logitsShape ?? ['batch', 'seq', VOCAB]);
  const bytes = encodeModel({ irVersion: 8, opsetImports: [{ domain: '', version: o.opset ?? 17 }], producerName: 'test', producerVersion: '1', graph: g.build('lm') }).toBytes();
  if (o.logitsShape !== null) return bytes;
  // An output with an element type and no shape.
  const output = lenField(12, [...stringField(1, name), ...lenField(2, lenField(1, varintField(1, DataType.FLOAT)))]);
  return joinPieces(readFields(bytes).flatMap((f) => (f.no === 7 ? lenField(7, [bytes.subarray(f.valueStart, f.valueEnd), ...output]) : [bytes.subarray(f.start, f.end)])));
}

function refusalOf(bytes: Uint8Array): { reason: StatsRewriteReason; detail: string } {
  const r = rewriteForStatistics(bytes);
  if (r.kind !== 'unrecognised') throw new Error(`expected a refusal, got ${r.kind}`);
  return r.refusal;
}

let oddhead: Uint8Array;
beforeAll(() => {
  const [g] = generateFixtures({ models: ['jiangu-tiny-oddhead'] });
  oddhead = new Uint8Array(readFileSync(join(g.dir, 'onnx', ONNX_FILE.fp32)));
});

describe('rewriteForStatistics: what it accepts', () => {
  for (const opset of [STATS_MIN_OPSET, 21]) {
    it(`a Gather "model" in opset ${opset}: the statistics of each row, scored at the next id`, async () => {
      const r = rewriteForStatistics(lm({ opset }));
      if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
      expect(r.castFrom).toBeNull();
      const session = await ort.InferenceSession.create(r.bytes);
      expect(session.inputNames).toEqual(['input_ids']);
      const ids = [[3, 1, 4, 1, 5], [2, 0, 5, 5, 1]];
      const out = await session.run({ input_ids: new ort.Tensor('int64', BigInt64Array.from(ids.flat(), BigInt), [2, 5]) });
      expect(worst(compareStats(out, logitsRows(out.logits), ids))).toBeLessThan(1e-5);
      // By hand for one row: row 0 of the first sequence is table row 3, scored at id 1.
      const row = (out.logits.data as Float32Array).slice(0, VOCAB);
      expect((out[STATS_OUTPUTS.tokenLogprob].data as Float32Array)[0]).toBeCloseTo(rowStatistics(row, 0, VOCAB, 1).logprob, 5);
    });
  }

  it('float16 logits: cast to float32 first, said in the result', () => {
    const r = rewriteForStatistics(lm({ logitsType: DataType.FLOAT16 }));
    expect(r).toMatchObject({ kind: 'rewritten', castFrom: 'float16' });
  });

  it('jiangu-tiny-oddhead, whose Einsum head the logits rewrite refuses: the statistics need no head, so every row gets them', async () => {
    const r = rewriteForStatistics(oddhead);
    if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
    const ids = encodeFixture('子曰：温故而知新，可以为师矣。');
    const out = await pass(await openGraph(r.bytes, 'fp32'), TINY_ODDHEAD, [ids], null, 0);
    expect(worst(compareStats(out, logitsRows(out.logits), [ids]))).toBeLessThan(1e-4);
  });

  it('copies the model once: the new bytes are the old plus the appended graph fields', () => {
    const bytes = lm();
    const r = rewriteForStatistics(bytes);
    if (r.kind !== 'rewritten') throw new Error(JSON.stringify(r));
    const graph = readFields(bytes).find((f) => f.no === 7)!;
    // The old graph's body is the new graph's first bytes, untouched.
    const newGraph = readFields(r.bytes).find((f) => f.no === 7)!;
    expect(newGraph.valueEnd - newGraph.valueStart).toBe(r.graphBytes);
    expect(maxAbsDiff(r.bytes.subarray(newGraph.valueStart, newGraph.valueStart + graph.valueEnd - graph.valueStart), bytes.subarray(graph.valueStart, graph.valueEnd))).toBe(0);
    expect(r.bytes.length).toBeLessThan(bytes.length + 8192);
  });
});

/** Each refusal: the graph and the reason expected. */
const CASES: { name: string; bytes: () => Uint8Array; reason: StatsRewriteReason }[] = [
  { name: 'a graph without logits', bytes: () => lm({ logitsName: 'scores' }), reason: { kind: 'no-logits-output', outputs: ['scores'] } },
  { name: 'rank-2 logits', bytes: () => lm({ logitsShape: ['seq', VOCAB] }), reason: { kind: 'logits-rank', rank: 2 } },
  { name: 'logits declared without a shape', bytes: () => lm({ logitsShape: null }), reason: { kind: 'logits-rank', rank: null } },
  { name: 'int64 logits', bytes: () => lm({ logitsType: DataType.INT64 }), reason: { kind: 'logits-type', elemType: DataType.INT64 } },
  { name: 'no input_ids (inputs_embeds only, say)', bytes: () => lm({ idsName: 'tokens' }), reason: { kind: 'no-input-ids', inputs: ['tokens'] } },
  { name: 'input_ids of rank 3', bytes: () => lm({ idsShape: ['batch', 'seq', 1] }), reason: { kind: 'input-ids-shape', rank: 3, elemType: DataType.INT64 } },
  { name: 'float input_ids', bytes: () => lm({ idsType: DataType.FLOAT }), reason: { kind: 'input-ids-shape', rank: 2, elemType: DataType.FLOAT } },
  { name: 'opset 12', bytes: () => lm({ opset: 12 }), reason: { kind: 'opset', opset: 12 } },
  { name: 'a tensor already named jiangu_logprob_mean', bytes: () => lm({ alsoNamed: STATS_OUTPUTS.mean }), reason: { kind: 'name-taken', name: STATS_OUTPUTS.mean } },
  {
    name: 'a graph rewritten for statistics already',
    bytes: () => {
      const r = rewriteForStatistics(lm());
      if (r.kind !== 'rewritten') throw new Error('not rewritten');
      return r.bytes;
    },
    reason: { kind: 'name-taken', name: STATS_OUTPUTS.tokenLogprob },
  },
];

describe('rewriteForStatistics: its refusals', () => {
  for (const c of CASES) {
    it(`${c.name}: refused with its reason and an English sentence naming what it found`, () => {
      const r = refusalOf(c.bytes());
      expect(r.reason).toEqual(c.reason);
      expect(r.detail).toBe(statsRefusalOf(c.reason).detail);
      for (const [k, v] of Object.entries(c.reason)) {
        if (k === 'kind' || v === null) continue;
        for (const part of Array.isArray(v) ? v : [v]) expect(r.detail, k).toContain(String(part));
      }
    });
  }

  it('says which ops need which opset, and words a graph with no ONNX opset and the rewrite’s own failure', () => {
    expect(refusalOf(lm({ opset: 12 })).detail).toBe('the graph imports ONNX opset 12; ReduceSum, Squeeze and Unsqueeze with axes as inputs need opset 13');
    expect(statsRefusalOf({ kind: 'opset', opset: 0 }).detail).toContain('imports no ONNX opset');
    expect(statsRefusalOf({ kind: 'rewrite-threw', message: 'RangeError: Invalid array length' }).detail).toBe('the rewrite failed: RangeError: Invalid array length');
  });

  it('calls bytes that are no ONNX model malformed, and never throws', () => {
    const model = lm();
    let seed = 11;
    const noise = Uint8Array.from({ length: 4096 }, () => (seed = (seed * 1103515245 + 12345) >>> 0) >>> 24);
    const cases = [new Uint8Array(0), new TextEncoder().encode('<!doctype html><title>404</title>'), noise, model.subarray(0, model.length >> 1), model.subarray(0, 40), Uint8Array.of(0x3a, 0xff, 0xff, 0xff, 0xff, 0x0f)];
    for (const bytes of cases) expect(refusalOf(bytes).reason.kind).toBe('malformed');
  });
});
