/**
 * What rewriteForAttention refuses, each with its reason and code: the fixtures' own graphs
 * (llama-graph.ts, gqa-graph.ts) changed in one way each (the unchanged graphs are rewritten, see
 * attention-rewrite.test.ts), toy graphs without attention, and bytes that are not a model; every
 * refusal worded in both languages. Then the test-only faults (a scale 1.25 times too large, cos/sin
 * rows of the next positions), which the per-pass check (attention-passes.ts) must refuse.
 */
import { describe, expect, it } from 'vitest';
import { attr, GraphBuilder } from '../../../scripts/fixtures/graph-builder.ts';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { buildGqaModel } from '../../../scripts/fixtures/gqa-graph.ts';
import { fp32Linear } from '../../../scripts/fixtures/linear-ops.ts';
import { buildLlamaModel } from '../../../scripts/fixtures/llama-graph.ts';
import { DataType, encodeModel, type AttributeProto, type ModelProto, type NodeProto } from '../../../scripts/fixtures/onnx-proto.ts';
import { encodeFixture } from '../../../scripts/fixtures/reference.ts';
import { SPECS, TINY } from '../../../scripts/fixtures/specs.ts';
import { createModel } from '../../../scripts/fixtures/weights.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import { ATTENTION_GATE, attentionRefusalParams, rewriteForAttention, type AttentionFault, type AttentionRewrite, type AttentionRewriteRefusal } from '../../../src/lib/core/models/attention-rewrite.ts';
import { AttentionPassage, attentionTolerances, type AttentionPassProblem } from '../../../src/lib/core/reading/attention-passes.ts';
import { attentionPassParams } from '../../../src/lib/core/notices/catalog-attention.ts';
import { notice, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { tensorFor } from '../fixtures/ort-helpers.ts';
import { cacheOf, floats, keepGraph, openGraph, pass, type Outputs } from './stats-helpers.ts';

const llama = (): ModelProto => buildLlamaModel(createModel(TINY), fp32Linear);
const gqa = (): ModelProto => buildGqaModel(createModel(SPECS['jiangu-tiny-gqa']), fp32Linear);
const bytesOf = (m: ModelProto): Uint8Array => encodeModel(m).toBytes();

/** `model` with its nodes changed by `edit` (which returns the new list). */
function edited(model: ModelProto, edit: (nodes: NodeProto[]) => NodeProto[]): Uint8Array {
  return bytesOf({ ...model, graph: { ...model.graph, nodes: edit([...model.graph.nodes]) } });
}
const named = (nodes: readonly NodeProto[], suffix: string): NodeProto => {
  const n = nodes.find((x) => x.name.endsWith(suffix));
  if (!n) throw new Error(`no node named …${suffix}`);
  return n;
};
/** The GroupQueryAttention of layer 0 with its attributes (and inputs) changed. */
function gqaWith(attributes: (a: readonly AttributeProto[]) => AttributeProto[], inputs?: (i: readonly string[]) => string[]): Uint8Array {
  return edited(gqa(), (nodes) => nodes.map((n) => (n.name.endsWith('layers.0/attn/GroupQueryAttention') ? { ...n, attributes: attributes(n.attributes ?? []), inputs: inputs ? inputs(n.inputs) : n.inputs } : n)));
}
const setAttribute = (a: readonly AttributeProto[], attribute: AttributeProto) => [...a.filter((x) => x.name !== attribute.name), attribute];

function refusal(r: AttentionRewrite): AttentionRewriteRefusal {
  if (r.kind !== 'unrecognised') throw new Error('rewritten, not refused');
  expect(r.refusal.detail.length).toBeGreaterThan(10);
  // Worded in both languages by its reason (not the fallback that quotes the code and the English detail).
  for (const [language, colon] of [['en', ':'], ['zh', '：']] as const) {
    const text = renderNotice(notice('model.attention-unrecognised', attentionRefusalParams(r.refusal)), language);
    expect(text).not.toContain('undefined');
    expect(text).not.toContain(`${r.refusal.code}${colon}`);
  }
  return r.refusal;
}

/** A toy with present.{i}.key outputs (or none) and no attention: an embedding, a MatMul head. */
function noAttention(present: boolean): Uint8Array {
  const g = new GraphBuilder();
  const ids = g.input('input_ids', DataType.INT64, ['batch_size', 'sequence_length']);
  const x = g.op('Gather', [g.initializer('embed', DataType.FLOAT, [11, 8], new Float32Array(88).fill(0.1)), ids], { name: 'embed' });
  if (present) {
    g.opNamed('Identity', [x], 'present.0.key', { name: 'present' });
    g.output('present.0.key', DataType.FLOAT, ['batch_size', 'sequence_length', 8]);
  }
  g.opNamed('MatMul', [x, g.initializer('head', DataType.FLOAT, [8, 11], new Float32Array(88).fill(0.2))], 'logits', { name: 'head' });
  g.output('logits', DataType.FLOAT, ['batch_size', 'sequence_length', 11]);
  return encodeModel({ irVersion: 8, opsetImports: [{ domain: '', version: 17 }], producerName: 'test', producerVersion: '1', graph: g.build('toy') }).toBytes();
}

describe('rewriteForAttention: what it refuses', () => {
  it('no attention at all: attention-not-recognised, naming the layer', () => {
    const r = refusal(rewriteForAttention(noAttention(true)));
    expect(r.reason).toEqual({ kind: 'no-attention', layer: 0 });
    expect(r.code).toBe('attention-not-recognised');
  });
  it('no present.{i}.key to number the layers by: layers-not-recognised', () => {
    const r = refusal(rewriteForAttention(noAttention(false)));
    expect(r.reason).toEqual({ kind: 'no-layer-count' });
    expect(r.code).toBe('layers-not-recognised');
  });
  it('a soft cap (Tanh) between the scores and the Softmax: attention-not-recognised, naming it', () => {
    const bytes = edited(llama(), (nodes) => {
      const where = named(nodes, 'layers.0.self_attn/mask');
      const cap: NodeProto = { name: 'softcap', opType: 'Tanh', inputs: [where.inputs[1]], outputs: ['softcapped'] };
      return nodes.flatMap((n) => (n === where ? [cap, { ...n, inputs: [n.inputs[0], 'softcapped', n.inputs[2]] }] : [n]));
    });
    const r = refusal(rewriteForAttention(bytes));
    expect(r.reason).toMatchObject({ kind: 'score-op', layer: 0, op: 'Tanh', node: 'softcap' });
  });
  it('an op on the keys between the cache and the scores: attention-not-recognised', () => {
    const bytes = edited(llama(), (nodes) => {
      const qk = named(nodes, 'layers.1.self_attn/qk');
      const odd: NodeProto = { name: 'odd_keys', opType: 'Abs', inputs: [qk.inputs[1]], outputs: ['abs_keys'] };
      return nodes.flatMap((n) => (n === qk ? [odd, { ...n, inputs: [n.inputs[0], 'abs_keys'] }] : [n]));
    });
    expect(refusal(rewriteForAttention(bytes)).reason).toMatchObject({ kind: 'key-op', layer: 1, op: 'Abs', node: 'odd_keys' });
  });
  it('a Softmax over another axis: unsupported', () => {
    const bytes = edited(llama(), (nodes) => nodes.map((n) => (n.name.endsWith('layers.0.self_attn/softmax') ? { ...n, attributes: [attr.int('axis', 2)] } : n)));
    const r = refusal(rewriteForAttention(bytes));
    expect(r.reason).toMatchObject({ kind: 'softmax-axis', layer: 0, axis: 2 });
    expect(r.code).toBe('unsupported');
  });
  it('GroupQueryAttention with softcap 30: unsupported, naming the attribute and its value', () => {
    const r = refusal(rewriteForAttention(gqaWith((a) => setAttribute(a, attr.float('softcap', 30)))));
    expect(r.reason).toMatchObject({ kind: 'gqa-attribute', layer: 0, name: 'softcap', value: 30 });
    expect(r.code).toBe('unsupported');
  });
  it('GroupQueryAttention with a local window: unsupported', () => {
    expect(refusal(rewriteForAttention(gqaWith((a) => setAttribute(a, attr.int('local_window_size', 8))))).reason).toMatchObject({ kind: 'gqa-attribute', name: 'local_window_size', value: 8 });
  });
  it('GroupQueryAttention with an attribute it does not know: unsupported', () => {
    expect(refusal(rewriteForAttention(gqaWith((a) => [...a, attr.int('future_knob', 1)]))).reason).toMatchObject({ kind: 'gqa-unknown-attribute', name: 'future_knob' });
  });
  it('GroupQueryAttention given position_ids (input 9): unsupported', () => {
    const bytes = gqaWith((a) => [...a], (i) => [...i, 'input_ids']);
    expect(refusal(rewriteForAttention(bytes)).reason).toMatchObject({ kind: 'gqa-input', layer: 0, index: 9 });
  });
  it('opset 10: unsupported', () => {
    const m = llama();
    const r = refusal(rewriteForAttention(bytesOf({ ...m, opsetImports: [{ domain: '', version: 10 }] })));
    expect(r.reason).toEqual({ kind: 'opset', opset: 10 });
  });
  it('a graph that has the tap already: unsupported (name-taken)', () => {
    const once = rewriteForAttention(bytesOf(llama()));
    if (once.kind !== 'rewritten') throw new Error('llama refused');
    expect(refusal(rewriteForAttention(once.bytes)).reason).toEqual({ kind: 'name-taken', name: 'jiangu_attention.0.q' });
  });
  it('bytes that are not a model: malformed', () => {
    expect(refusal(rewriteForAttention(Uint8Array.of(0xff, 0xff, 0xff))).code).toBe('malformed');
  });
});

describe('the per-pass check refuses a wrong tap (test-only faults)', () => {
  const cases: [string, AttentionFault, 'softmax' | 'rotation'][] = [
    ['jiangu-tiny', 'scale', 'softmax'],
    ['jiangu-tiny-gqa', 'positions', 'rotation'],
  ];
  for (const [name, fault, what] of cases) {
    it(`${name} fp32 with the ${fault} fault: the first pass is refused (${what}), worded in both languages`, async () => {
      const dir = generateFixtures({ models: [name as 'jiangu-tiny'] })[0].dir;
      const spec = SPECS[name as 'jiangu-tiny'];
      const r = rewriteForAttention(keepGraph(dir, 'fp32'), { fault });
      if (r.kind !== 'rewritten') throw new Error(r.refusal.detail);
      const session = await openGraph(r.bytes, 'fp32');
      const Tensor = tensorFor(session);
      const run = session.run.bind(session);
      session.run = ((feeds: Outputs, ...rest: []) => run({ ...feeds, [ATTENTION_GATE]: new Tensor('bool', [true], []) }, ...rest)) as typeof session.run;
      const ids = encodeFixture(sampleCmmluPrompt(16));
      const kept = new AttentionPassage(r.layout, ids.length, attentionTolerances(false));
      let past: Outputs | null = null;
      let problem: AttentionPassProblem | null = null;
      for (let start = 0; start < ids.length && problem === null; start += 8) {
        const out = await pass(session, spec, [ids.slice(start, start + 8)], past, start);
        problem = kept.addPass((n) => (out[n] ? { dims: out[n].dims, data: floats(out[n]) } : undefined), start, Math.min(8, ids.length - start));
        past = cacheOf(out);
      }
      console.info(`[attention] fault ${fault} on ${name}: ${JSON.stringify(problem)}`);
      expect(problem).toMatchObject({ kind: 'check', what, layer: 0, position: what === 'rotation' ? 0 : 7 });
      if (problem?.kind === 'check') expect(problem.maxDiff).toBeGreaterThan(100 * problem.tolerance);
      for (const language of ['en', 'zh'] as const) expect(renderNotice(notice('model.attention-pass-refused', attentionPassParams(problem!)), language)).not.toContain('undefined');
      await session.release();
    });
  }
});
