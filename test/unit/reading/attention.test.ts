/**
 * src/lib/core/reading/attention.ts on hand-computed examples (the rotary embedding in both
 * layouts, a partial rotary dimension, a softmax row, the grouped-query head mapping, the heads'
 * mean) and attention-passes.ts' refusals on made-up tensors (a missing output, a wrong shape, a
 * scale that changes between passes, a Softmax row that disagrees), each worded in both languages.
 * The model-level comparisons are in test/unit/models/attention-rewrite.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { attentionRow, averageHeads, kvHeadOf, rotateHead, type LayerQK } from '../../../src/lib/core/reading/attention.ts';
import { AttentionPassage, attentionTolerances, type FloatTensor } from '../../../src/lib/core/reading/attention-passes.ts';
import { attentionPassParams } from '../../../src/lib/core/notices/catalog-attention.ts';
import { notice, renderNotice } from '../../../src/lib/core/notices/index.ts';

describe('rotateHead', () => {
  // cos = [0, 1], sin = [1, 0]: the first pair turns by 90°, the second not at all.
  const cos = [0, 1];
  const sin = [1, 0];
  it('rotate_half pairs x_i with x_{i+R/2}: [1, 2, 3, 4] → [−3, 2, 1, 4]', () => {
    const out = new Float64Array(4);
    rotateHead([1, 2, 3, 4], 0, 4, cos, sin, 0, 2, 'half', out, 0);
    expect(Array.from(out)).toEqual([-3, 2, 1, 4]);
  });
  it('interleaved pairs x_{2i} with x_{2i+1}: [1, 2, 3, 4] → [−2, 1, 3, 4]', () => {
    const out = new Float64Array(4);
    rotateHead([1, 2, 3, 4], 0, 4, cos, sin, 0, 2, 'interleaved', out, 0);
    expect(Array.from(out)).toEqual([-2, 1, 3, 4]);
  });
  it('a rotary dimension under the head size leaves the rest as it was; offsets are honoured', () => {
    const out = new Float64Array(8).fill(9);
    rotateHead([7, 1, 2, 3, 4, 5, 6], 1, 6, [5, 0, 1], [5, 1, 0], 1, 2, 'half', out, 2);
    expect(Array.from(out)).toEqual([9, 9, -3, 2, 1, 4, 5, 6]);
  });
  it('at 60°, as by hand: (1, 0) → (cos 60°, sin 60°), (0, 1) → (−sin 60°, cos 60°)', () => {
    const c = Math.cos(Math.PI / 3);
    const s = Math.sin(Math.PI / 3);
    const out = new Float64Array(4);
    rotateHead([1, 0, 0, 1], 0, 4, [c, c], [s, s], 0, 2, 'interleaved', out, 0);
    expect(Array.from(out)).toEqual([c, s, -s, c]);
  });
  it('refuses a rotary dimension wider than the head', () => {
    expect(() => rotateHead([1, 2], 0, 2, [1, 1], [0, 0], 0, 2, 'half', new Float64Array(2), 0)).toThrow(RangeError);
  });
});

describe('attentionRow', () => {
  // Two query heads on one key head (d = 2, scale 1): keys k0 = (0, 0), k1 = (ln 3, 0).
  const layer: LayerQK = { heads: 2, kvHeads: 1, headDim: 2, scale: 1, q: [9, 9, 1, 0, 9, 9, 0, 1], qTokens: 2, k: [0, 0, Math.log(3), 0], kTokens: 2 };
  it('position 1: head 0 (q = (1, 0)) weighs the keys 1 : 3, head 1 (q = (0, 1)) evenly', () => {
    const row = attentionRow(layer, 1);
    [0.25, 0.75, 0.5, 0.5].forEach((w, i) => expect(row[i]).toBeCloseTo(w, 15));
  });
  it('position 0 sees itself only: weight 1 whatever its score', () => {
    expect(Array.from(attentionRow(layer, 0))).toEqual([1, 1]);
  });
  it('the scale multiplies the scores: scale 2 gives 1 : 9', () => {
    const row = attentionRow({ ...layer, scale: 2 }, 1);
    expect(row[0]).toBeCloseTo(0.1, 15);
    expect(row[1]).toBeCloseTo(0.9, 15);
  });
  it('a query index other than the position (a pass whose queries start later)', () => {
    const row = attentionRow({ ...layer, q: [1, 0, 0, 1], qTokens: 1 }, 1, 0);
    expect(row[1]).toBeCloseTo(0.75, 15);
  });
  it('grouped-query heads: 4 query heads on 2 key heads, heads 0–1 read key head 0 and heads 2–3 key head 1', () => {
    expect([0, 1, 2, 3].map((h) => kvHeadOf(h, 4, 2))).toEqual([0, 0, 1, 1]);
    expect([0, 1, 2, 3, 4, 5].map((h) => kvHeadOf(h, 6, 3))).toEqual([0, 0, 1, 1, 2, 2]);
    // Every query (1, 0); key head 0 prefers key 1, key head 1 key 0.
    const gqa: LayerQK = { heads: 4, kvHeads: 2, headDim: 2, scale: 1, q: [0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 0], qTokens: 2, k: [0, 0, Math.log(3), 0, Math.log(3), 0, 0, 0], kTokens: 2 };
    const row = Array.from(attentionRow(gqa, 1), (w) => Math.round(w * 100) / 100);
    expect(row).toEqual([0.25, 0.75, 0.25, 0.75, 0.75, 0.25, 0.75, 0.25]);
    // A mapping that interleaved the heads (h mod 2) would give heads 1 and 2 the other rows: this differs.
    expect(row.slice(2, 6)).not.toEqual([0.75, 0.25, 0.25, 0.75]);
  });
  it('large scores do not overflow (the maximum is subtracted)', () => {
    const row = attentionRow({ ...layer, scale: 1000 }, 1);
    expect(row[0] + row[1]).toBeCloseTo(1, 15);
    expect(row[1]).toBeCloseTo(1, 15);
  });
  it('refuses heads that do not share key heads evenly, and positions outside the keys', () => {
    expect(() => attentionRow({ ...layer, heads: 3, kvHeads: 2 }, 1)).toThrow(RangeError);
    expect(() => attentionRow(layer, 2)).toThrow(RangeError);
  });
});

describe('averageHeads', () => {
  it('is the mean over heads, position by position', () => {
    expect(Array.from(averageHeads([0.25, 0.75, 0.5, 0.5], 2, 2))).toEqual([0.375, 0.625]);
  });
});

describe('AttentionPassage on made-up tensors', () => {
  // One matmul layer: 2 heads, 1 key head, d = 2, a pass of 2 rows from position 0.
  const q: FloatTensor = { dims: [1, 2, 2, 2], data: Float32Array.of(1, 0, 1, 0, 0, 1, 0, 1) };
  const key: FloatTensor = { dims: [1, 1, 2, 2], data: Float32Array.of(0, 0, Math.log(3), 0) };
  const scale: FloatTensor = { dims: [], data: Float32Array.of(1) };
  const probs: FloatTensor = { dims: [1, 2, 1, 2], data: Float32Array.of(0.25, 0.75, 0.5, 0.5) };
  const outputs = (over: Record<string, FloatTensor | undefined> = {}) => {
    const all: Record<string, FloatTensor | undefined> = { 'present.0.key': key, 'jiangu_attention.0.q': q, 'jiangu_attention.0.scale': scale, 'jiangu_attention.0.probs': probs, ...over };
    return (name: string) => all[name];
  };
  const words = (p: Parameters<typeof attentionPassParams>[0]) => (['en', 'zh'] as const).map((l) => renderNotice(notice('model.attention-pass-refused', attentionPassParams(p)), l));

  it('keeps a pass whose Softmax row is its own, and gives every position of every head', () => {
    const kept = new AttentionPassage([{ kind: 'matmul' }], 2, attentionTolerances(false));
    expect(kept.addPass(outputs(), 0, 2)).toBeNull();
    expect([kept.heads, kept.kvHeads, kept.headDim, kept.bytes]).toEqual([2, 1, 2, 48]);
    const at = kept.at(1);
    expect(Array.from(at.weights, (w) => Math.round(w * 1e6) / 1e6)).toEqual([0.25, 0.75, 0.5, 0.5]);
    expect(Array.from(at.averaged)).toEqual([0.375, 0.625]);
    expect(kept.check.softmax).toBeLessThan(1e-7);
  });
  it('refuses a Softmax row that disagrees, a missing output, a wrong shape and a scale that changes', () => {
    const wrongRow = new AttentionPassage([{ kind: 'matmul' }], 2, attentionTolerances(false)).addPass(outputs({ 'jiangu_attention.0.probs': { dims: [1, 2, 1, 2], data: Float32Array.of(0.3, 0.7, 0.5, 0.5) } }), 0, 2);
    expect(wrongRow).toMatchObject({ kind: 'check', what: 'softmax', layer: 0, position: 1 });
    expect(new AttentionPassage([{ kind: 'matmul' }], 2, attentionTolerances(false)).addPass(outputs({ 'jiangu_attention.0.scale': undefined }), 0, 2)).toEqual({ kind: 'missing', layer: 0, tensor: 'jiangu_attention.0.scale' });
    const shape = new AttentionPassage([{ kind: 'matmul' }], 2, attentionTolerances(false)).addPass(outputs({ 'jiangu_attention.0.q': { dims: [1, 2, 4], data: q.data } }), 0, 2);
    expect(shape).toMatchObject({ kind: 'shape', layer: 0, tensor: 'jiangu_attention.0.q', dims: [1, 2, 4] });
    // Two passes of one row each, the second with another scale.
    const twice = new AttentionPassage([{ kind: 'matmul' }], 2, attentionTolerances(false));
    const first = { 'present.0.key': { dims: [1, 1, 1, 2], data: Float32Array.of(0, 0) }, 'jiangu_attention.0.q': { dims: [1, 2, 1, 2], data: Float32Array.of(1, 0, 0, 1) }, 'jiangu_attention.0.probs': { dims: [1, 2, 1, 1], data: Float32Array.of(1, 1) } };
    expect(twice.addPass(outputs(first), 0, 1)).toBeNull();
    const second = twice.addPass(outputs({ 'jiangu_attention.0.q': { dims: [1, 2, 1, 2], data: Float32Array.of(1, 0, 0, 1) }, 'jiangu_attention.0.scale': { dims: [], data: Float32Array.of(2) } }), 1, 1);
    expect(second).toMatchObject({ kind: 'check', what: 'scale', layer: 0, maxDiff: 1 });
    for (const p of [wrongRow!, shape!, second!]) for (const text of words(p)) expect(text).not.toContain('undefined');
  });
  it('a gqa layer: rotated keys that are not the rows in the cache are refused (rotation), and the queries rotated as the keys', () => {
    // 1 head, 1 key head, d = 2, packed q|k|v; cos/sin of 90°: (a, b) → (−b, a).
    const layout = [{ kind: 'gqa' as const, heads: 1, kvHeads: 1, scale: 0, rotary: 'half' as const, packed: true }];
    const qkv: FloatTensor = { dims: [1, 1, 6], data: Float32Array.of(1, 2, 3, 4, 0, 0) };
    const trig = { 'jiangu_attention.0.cos': { dims: [1, 1], data: Float32Array.of(0) }, 'jiangu_attention.0.sin': { dims: [1, 1], data: Float32Array.of(1) } };
    const good = new AttentionPassage(layout, 1, attentionTolerances(false));
    expect(good.addPass(outputs({ ...trig, 'jiangu_attention.0.q': qkv, 'present.0.key': { dims: [1, 1, 1, 2], data: Float32Array.of(-4, 3) } }), 0, 1)).toBeNull();
    expect(Array.from(good.layer(0).q)).toEqual([-2, 1]);
    expect(good.layer(0).scale).toBeCloseTo(1 / Math.SQRT2, 7);
    const bad = new AttentionPassage(layout, 1, attentionTolerances(false)).addPass(outputs({ ...trig, 'jiangu_attention.0.q': qkv, 'present.0.key': { dims: [1, 1, 1, 2], data: Float32Array.of(3, 4) } }), 0, 1);
    expect(bad).toMatchObject({ kind: 'check', what: 'rotation', layer: 0, position: 0 });
    for (const text of words(bad!)) expect(text).not.toContain('undefined');
  });
});
