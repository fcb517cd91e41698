/**
 * Every refusal rewriteForLastLogits can give, as the page shows it: each carries a reason (a kind
 * and its identifiers), and the notice model.logits-unrecognised words that reason in English and
 * in Chinese. The Chinese text is built from the reason, not from the English detail: once the
 * identifiers (op, node, tensor names, a reader's quoted message) are taken out, no English words
 * are left in it. A record stored before reasons existed ({code, detail}) still renders.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { GraphBuilder } from '../../../scripts/fixtures/graph-builder.ts';
import { DataType, encodeModel } from '../../../scripts/fixtures/onnx-proto.ts';
import { ONNX_FILE } from '../../../scripts/fixtures/specs.ts';
import { refusalOf, refusalParams, rewriteForLastLogits, type LogitsRewriteReason, type LogitsRewriteRefusal } from '../../../src/lib/core/models/logits-rewrite.ts';
import { fieldString, joinPieces, lenField, readFields, stringField, subFields, varintField } from '../../../src/lib/core/models/onnx-bytes.ts';
import { notice, renderNotice, type Notice } from '../../../src/lib/core/notices/index.ts';

let oddhead: Uint8Array;
beforeAll(() => {
  const [g] = generateFixtures({ models: ['jiangu-tiny-oddhead'] });
  oddhead = new Uint8Array(readFileSync(join(g.dir, 'onnx', ONNX_FILE.fp32)));
});

/** A small head over x [batch, seq, 4] (x [seq, 4] with `rank2`), vocabulary 3, in opset `opset`. */
function headModel(build: (g: GraphBuilder, x: string) => void, { rank2 = false, opset = 17 } = {}): Uint8Array {
  const g = new GraphBuilder();
  const x = g.input('x', DataType.FLOAT, rank2 ? ['seq', 4] : ['batch', 'seq', 4]);
  build(g, x);
  if (g.outputs.length === 0) g.output('logits', DataType.FLOAT, rank2 ? ['seq', 3] : ['batch', 'seq', 3]);
  const opsetImports = [{ domain: '', version: opset }, { domain: 'com.microsoft', version: 1 }];
  return encodeModel({ irVersion: 8, opsetImports, producerName: 'test', producerVersion: '1', graph: g.build('head') }).toBytes();
}

const weight = (g: GraphBuilder, name: string, dims: number[]): string => g.initializer(name, DataType.FLOAT, dims, Float32Array.from({ length: dims[0] * dims[1] }, (_, i) => (i % 7) - 3));
const matmulHead = (g: GraphBuilder, x: string): string => g.opNamed('MatMul', [x, weight(g, 'w', [4, 3])], 'logits', { name: 'lm_head/MatMul' });

/** The model with a float value_info entry of `shape` for `name` (as shape inference writes one). */
function withValueInfo(model: Uint8Array, name: string, shape: (number | string)[]): Uint8Array {
  const dims = shape.flatMap((d) => lenField(1, typeof d === 'number' ? varintField(1, d) : stringField(2, d)));
  const info = lenField(13, [...stringField(1, name), ...lenField(2, lenField(1, [...varintField(1, DataType.FLOAT), ...lenField(2, dims)]))]);
  return joinPieces(readFields(model).flatMap((f) => (f.no === 7 ? lenField(7, [model.subarray(f.valueStart, f.valueEnd), ...info]) : [model.subarray(f.start, f.end)])));
}

/** The name of the first node of `model` whose op is `op` (GraphBuilder prefixes its names). */
function nodeNamed(model: Uint8Array, op: string): string {
  const graph = readFields(model).find((f) => f.no === 7)!;
  for (const n of subFields(model, graph).filter((f) => f.no === 1)) {
    const fields = subFields(model, n);
    const text = (no: number) => fields.filter((f) => f.no === no).map((f) => fieldString(model, f))[0] ?? '';
    if (text(4) === op) return text(3);
  }
  throw new Error(`no ${op} node`);
}

function refusal(bytes: Uint8Array): LogitsRewriteRefusal {
  const r = rewriteForLastLogits(bytes);
  if (r.kind !== 'unrecognised') throw new Error(`expected a refusal, got ${r.kind}`);
  return r.refusal;
}

/** Each refusal the rewrite gives: the graph, the reason expected, the code it belongs to. */
const CASES: { name: string; bytes: () => Uint8Array; reason: (bytes: Uint8Array) => LogitsRewriteReason; code: LogitsRewriteRefusal['code'] }[] = [
  { name: 'an Einsum head (jiangu-tiny-oddhead)', bytes: () => oddhead, reason: (b) => ({ kind: 'unknown-op', op: 'Einsum', node: nodeNamed(b, 'Einsum') }), code: 'head-not-recognised' },
  {
    name: 'an Add of two activations',
    bytes: () => headModel((g, x) => g.opNamed('Add', [x, g.op('Relu', [x], { name: 'act' })], 'logits', { name: 'lm_head/Add' })),
    reason: (b) => ({ kind: 'two-activations', op: 'Add', node: nodeNamed(b, 'Add') }),
    code: 'head-not-recognised',
  },
  {
    name: 'a MatMul of an activation by an activation',
    bytes: () => headModel((g, x) => g.opNamed('MatMul', [x, g.op('Transpose', [x], { name: 't' })], 'logits', { name: 'lm_head/MatMul' })),
    reason: (b) => ({ kind: 'weight-not-constant', op: 'MatMul', node: nodeNamed(b, 'MatMul') }),
    code: 'head-not-recognised',
  },
  {
    name: 'a MatMulInteger that does not read DynamicQuantizeLinear',
    bytes: () => headModel((g, x) => g.opNamed('MatMulInteger', [x, g.initializer('w_q', DataType.INT8, [4, 3], new Int8Array(12))], 'logits', { name: 'lm_head/MatMulInteger' })),
    reason: (b) => ({ kind: 'not-quantized-rows', op: 'MatMulInteger', node: nodeNamed(b, 'MatMulInteger') }),
    code: 'head-not-recognised',
  },
  {
    name: 'a Gemm head',
    bytes: () =>
      headModel((g, x) => {
        const rows = g.op('Reshape', [x, g.constI64([-1, 4])], { name: 'flatten' });
        g.opNamed('Gemm', [rows, weight(g, 'w', [4, 3])], 'logits', { name: 'lm_head/Gemm' });
      }),
    reason: (b) => ({ kind: 'rows-2d', op: 'Gemm', node: nodeNamed(b, 'Gemm') }),
    code: 'head-not-recognised',
  },
  {
    name: 'a head reading a rank-4 activation',
    bytes: () =>
      withValueInfo(
        headModel((g, x) => g.opNamed('MatMul', [g.opNamed('Relu', [x], 'hidden', { name: 'norm/Relu' }), weight(g, 'w', [4, 3])], 'logits', { name: 'lm_head/MatMul' })),
        'hidden',
        ['batch', 'seq', 2, 2],
      ),
    reason: (b) => ({ kind: 'hidden-rank', op: 'MatMul', node: nodeNamed(b, 'MatMul'), tensor: 'hidden', rank: 4 }),
    code: 'hidden-rank',
  },
  { name: 'rank-2 logits', bytes: () => headModel(matmulHead, { rank2: true }), reason: () => ({ kind: 'logits-rank', rank: 2 }), code: 'hidden-rank' },
  {
    name: 'a graph without logits',
    bytes: () =>
      headModel((g, x) => {
        g.opNamed('MatMul', [x, weight(g, 'w', [4, 3])], 'scores', { name: 'lm_head/MatMul' });
        g.output('scores', DataType.FLOAT, ['batch', 'seq', 3]);
      }),
    reason: () => ({ kind: 'no-logits-output', outputs: ['scores'] }),
    code: 'no-logits-output',
  },
  { name: 'opset 9', bytes: () => headModel(matmulHead, { opset: 9 }), reason: () => ({ kind: 'opset', opset: 9 }), code: 'head-not-recognised' },
  {
    name: 'logits that are a graph input plus a bias',
    bytes: () => headModel((g, x) => g.opNamed('Add', [x, g.initializer('bias', DataType.FLOAT, [4], new Float32Array(4))], 'logits', { name: 'lm_head/Add' })),
    reason: () => ({ kind: 'no-producer', tensor: 'x' }),
    code: 'head-not-recognised',
  },
  {
    name: 'a head of 40 Identity nodes',
    bytes: () =>
      headModel((g, x) => {
        let t = g.op('MatMul', [x, weight(g, 'w', [4, 3])], { name: 'lm_head/MatMul' });
        for (let i = 0; i < 39; i++) t = g.op('Identity', [t], { name: `pass${i}` });
        g.opNamed('Identity', [t], 'logits', { name: 'last' });
      }),
    reason: () => ({ kind: 'head-too-long', nodes: 32 }),
    code: 'head-not-recognised',
  },
  {
    name: 'a tensor already named num_logits_to_keep',
    bytes: () =>
      headModel((g, x) => {
        g.opNamed('Relu', [x], 'num_logits_to_keep', { name: 'side' });
        matmulHead(g, x);
      }),
    reason: () => ({ kind: 'name-taken', name: 'num_logits_to_keep' }),
    code: 'head-not-recognised',
  },
  {
    name: 'an HTML page instead of a model',
    bytes: () => new TextEncoder().encode('<!doctype html><title>404</title>'),
    reason: (b) => ({ kind: 'malformed', message: (refusal(b).reason as { message: string }).message }),
    code: 'malformed',
  },
];

const render = (n: Notice) => ({ en: renderNotice(n, 'en'), zh: renderNotice(n, 'zh') });

/** The Chinese text with the reason's identifiers taken out, and any English words left in it. */
function englishLeft(zh: string, reason: LogitsRewriteReason): string[] {
  let rest = zh;
  const values = Object.entries(reason)
    .filter(([k]) => k !== 'kind')
    .flatMap(([, v]) => (Array.isArray(v) ? v : [v]))
    .map(String)
    .sort((a, b) => b.length - a.length);
  for (const v of values) rest = rest.split(v).join(' ');
  // Names the sentences use as names: the op the Slice needs, the formats, the tensors.
  for (const name of ['ONNX', 'Slice', 'DynamicQuantizeLinear', 'logits']) rest = rest.split(name).join(' ');
  return rest.match(/[A-Za-z][A-Za-z'-]*/g) ?? [];
}

describe('the rewrite’s refusals, in both languages', () => {
  for (const c of CASES) {
    it(`${c.name}: the reason, and a sentence for it in English and in Chinese`, () => {
      const bytes = c.bytes();
      const r = refusal(bytes);
      expect(r.reason).toEqual(c.reason(bytes));
      expect(r.code).toBe(c.code);
      expect(r.detail.length).toBeGreaterThan(0);
      const n = notice('model.logits-unrecognised', refusalParams(r));
      // Plain JSON values: what postMessage, IndexedDB and the run file carry.
      expect(JSON.parse(JSON.stringify(n))).toEqual(n);
      expect(n.params).toMatchObject({ code: r.code, reason: r.reason.kind });
      const { en, zh } = render(n);
      expect(en).toContain('did not recognise the part of this graph that makes the logits');
      expect(zh).toContain('鉴古未能识别此计算图中生成 logits 的部分');
      for (const [k, v] of Object.entries(r.reason)) {
        if (k === 'kind') continue;
        for (const part of Array.isArray(v) ? v : [v]) {
          expect(en, k).toContain(String(part));
          expect(zh, k).toContain(String(part));
        }
      }
      // The Chinese is the reason's own sentence: not the English detail, no English words left.
      expect(zh).not.toContain(r.detail);
      expect(zh).not.toContain(`${r.code}：`);
      expect(englishLeft(zh, r.reason), zh).toEqual([]);
      expect(en).not.toBe(zh);
    });
  }

  it('the hook’s own refusals (the file came as a path; the rewrite threw) are worded too', () => {
    for (const reason of [{ kind: 'not-bytes' }, { kind: 'rewrite-threw', message: 'RangeError: Invalid array length' }] as const) {
      const { en, zh } = render(notice('model.logits-unrecognised', refusalParams(refusalOf(reason))));
      expect(zh).toMatch(/[\u3400-\u9fff]/);
      expect(englishLeft(zh, reason), zh).toEqual([]);
      expect(en).not.toContain('malformed:');
      if (reason.kind === 'rewrite-threw') expect(zh).toContain(reason.message);
    }
  });

  it('renders a stored refusal from before reasons ({code, detail}) and an unknown reason with the code and the detail', () => {
    const old = { code: 'model.logits-unrecognised', params: { code: 'head-not-recognised', detail: 'logits come from Einsum node "lm_head/Einsum", an op the rewrite does not know' } };
    expect(render(old).en).toContain('(head-not-recognised: logits come from Einsum node "lm_head/Einsum", an op the rewrite does not know)');
    expect(render(old).zh).toContain('（head-not-recognised：logits come from Einsum node');
    expect(render(old).zh).toContain('鉴古未能识别');
    const future = { code: 'model.logits-unrecognised', params: { code: 'head-not-recognised', detail: 'a later reason', reason: 'from-the-future' } };
    expect(render(future).en).toContain('(head-not-recognised: a later reason)');
    expect(render(future).zh).toContain('（head-not-recognised：a later reason）');
  });

  it('says ONNX Runtime’s refusal of the rewritten graph in the page’s language, its message quoted', () => {
    const detail = "Load model from buffer failed: [ONNXRuntimeError] : 1 : FAIL : Node (jiangu_logits_to_keep/slice) Op (Slice) type inference failed";
    const { en, zh } = render(notice('model.logits-session-refused', { detail }));
    expect(en).toContain(`"${detail}"`);
    expect(zh).toContain(`“${detail}”`);
    const around = zh.split(detail).join(' ').split('ONNX Runtime').join(' ').split('logits').join(' ');
    expect(around.match(/[A-Za-z]+/g) ?? []).toEqual([]);
  });
});
