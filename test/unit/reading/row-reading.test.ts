// readRow against the plainest computation there is: every token's log-probability in float64,
// sorted (ties by id), counted — on rows of the TypeScript reference forward of jiangu-tiny and on
// rows with ties and masked tokens made on purpose.
import { describe, expect, it } from 'vitest';
import { encodeFixture, forward, loadReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { readRow, surpriseBits } from '../../../src/lib/core/reading/row-reading.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';

function plain(row: ArrayLike<number>, target: number | null, top: number, punctuation: readonly number[] | null) {
  const values = Array.from(row);
  const max = Math.max(...values.filter((x) => x > -Infinity));
  const logZ = max + Math.log(values.reduce((s, x) => s + Math.exp(x - max), 0));
  const order = values.map((x, id) => ({ id, x })).sort((a, b) => b.x - a.x || a.id - b.id);
  return {
    logprob: target === null ? null : values[target] - logZ,
    rank: target === null ? null : values.filter((x) => x > values[target]).length + 1,
    topIds: order.slice(0, top).map((o) => o.id),
    topLogprobs: order.slice(0, top).map((o) => o.x - logZ),
    punctuationMass: punctuation ? punctuation.reduce((s, id) => s + Math.exp(values[id] - logZ), 0) : null,
  };
}

describe('readRow', () => {
  it("is the plain computation on the reference forward's rows of jiangu-tiny", () => {
    const model = loadReferenceModel('jiangu-tiny', 'fp32');
    const ids = encodeFixture('学而时习之，不亦说乎？');
    const { logits: rows } = forward(model, ids);
    const vocab = model.vocabSize;
    const logits = new Float32Array(ids.length * vocab);
    rows.forEach((r, j) => logits.set(r, j * vocab));
    const punctuation = encodeFixture('，。？！');
    for (let j = 0; j < ids.length; j++) {
      const row = logits.subarray(j * vocab, (j + 1) * vocab);
      const target = j + 1 < ids.length ? ids[j + 1] : null;
      const got = readRow(logits, j * vocab, vocab, target, 10, punctuation);
      const want = plain(row, target, 10, punctuation);
      expect(got.topIds).toEqual(want.topIds);
      expect(got.rank).toBe(want.rank);
      if (want.logprob === null) expect(got.logprob).toBeNull();
      else expect(got.logprob).toBeCloseTo(want.logprob, 10);
      got.topLogprobs.forEach((x, i) => expect(x).toBeCloseTo(want.topLogprobs[i], 10));
      expect(got.punctuationMass).toBeCloseTo(want.punctuationMass!, 12);
    }
  });

  it('lists ties by the lower id, ranks a tie with the better rank, and gives a masked token nothing', () => {
    const row = new Float32Array([1, 3, 3, -Infinity, 2, 3, 0]);
    const got = readRow(row, 0, row.length, 5, 4, [3, 6]);
    expect(got.topIds).toEqual([1, 2, 5, 4]);
    expect(got.rank).toBe(1);
    expect(readRow(row, 0, row.length, 3, 2, null).rank).toBe(7);
    expect(got.punctuationMass).toBeCloseTo(Math.exp(0) / [1, 3, 3, 2, 3, 0].reduce((s, x) => s + Math.exp(x), 0), 12);
    // Random rows with many ties: the same as the plain computation, at every k.
    const random = mulberry32(4);
    for (let trial = 0; trial < 50; trial++) {
      const r = Float32Array.from({ length: 40 }, () => Math.floor(random() * 6));
      const k = 1 + Math.floor(random() * 12);
      const t = Math.floor(random() * 40);
      const got2 = readRow(r, 0, 40, t, k, null);
      const want = plain(r, t, k, null);
      expect(got2.topIds).toEqual(want.topIds);
      expect(got2.rank).toBe(want.rank);
    }
  });

  it('reads a row at an offset, and refuses a target outside the vocabulary', () => {
    const row = new Float32Array([9, 9, 0, 1, 2]);
    expect(readRow(row, 2, 3, 2, 1, null).topIds).toEqual([2]);
    expect(() => readRow(row, 2, 3, 3, 1, null)).toThrow(RangeError);
    expect(surpriseBits(Math.log(0.25))).toBeCloseTo(2, 12);
  });
});
