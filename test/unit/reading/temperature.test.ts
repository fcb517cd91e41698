// The temperature dial's numbers (core/reading/temperature.ts): the sampler's own distribution
// (sampleStep's, bit for bit) on real next-token rows of the jiangu-tiny reference forward and on
// large random rows, greedy at T = 0, top-k, the entropy against hand-computed cases, and the
// favourite's probability falling as T rises.
import { beforeAll, describe, expect, it } from 'vitest';
import { encodeFixture, forward, loadReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { sampleStep } from '../../../src/lib/core/reading/sampling.ts';
import { chanceOf, distributionAt, prepareTemperatureRow, temperatureDistribution } from '../../../src/lib/core/reading/temperature.ts';
import { PROMPTS } from '../fixtures/prompts.ts';

let rows: Float32Array[];
beforeAll(() => {
  const ref = loadReferenceModel('jiangu-tiny', 'fp32');
  rows = [PROMPTS[3], PROMPTS[4]].flatMap((p) => forward(ref, encodeFixture(p)).logits);
});

/** A row of `vocab` float32 logits, with a few exact ties, from a seed. */
function randomRow(vocab: number, seed: number): Float32Array {
  const draw = mulberry32(seed);
  const row = new Float32Array(vocab);
  for (let v = 0; v < vocab; v++) row[v] = Math.fround(8 * draw() - 4);
  row[vocab - 1] = row[3];
  return row;
}

const TEMPERATURES = [0, 0.05, 0.3, 0.5, 0.75, 1, 1.35, 2];

/** Bit for bit: every id, and every probability by Object.is (no tolerance). */
function expectSameDistribution(got: { ids: Int32Array; probs: Float64Array }, want: { ids: Int32Array; probs: Float64Array }, label: string) {
  expect(Array.from(got.ids), label).toEqual(Array.from(want.ids));
  expect(got.probs.length, label).toBe(want.probs.length);
  for (let j = 0; j < want.probs.length; j++) if (!Object.is(got.probs[j], want.probs[j])) expect.fail(`${label}: p[${j}] ${got.probs[j]} ≠ ${want.probs[j]}`);
}

describe('the dial gives sampleStep’s distribution', () => {
  it('bit for bit, on reference rows at every temperature and top-k, from one prepared row per top-k', () => {
    expect(rows.length).toBeGreaterThan(20);
    const vocab = rows[0].length;
    for (const [r, row] of rows.entries()) {
      for (const topK of [0, 1, 5, 40, vocab, vocab + 3]) {
        const prepared = prepareTemperatureRow(row, topK);
        for (const temperature of TEMPERATURES) {
          const want = sampleStep(row, { temperature, topK }, 0.5).distribution;
          const label = `row ${r} T ${temperature} K ${topK}`;
          expectSameDistribution(distributionAt(prepared, temperature).distribution, want, label);
          const once = temperatureDistribution(row, { temperature, topK }, 10);
          expectSameDistribution(once.distribution, want, label);
          expect(once.candidates).toBe(want.ids.length);
          expect(once.top.map((c) => c.id)).toEqual(Array.from(want.ids.subarray(0, 10)));
          once.top.forEach((c, j) => expect(Object.is(c.p, want.probs[j])).toBe(true));
        }
      }
    }
  });

  it('bit for bit on rows of Qwen’s size (the packed sort) and on float64 rows (the comparator sort)', () => {
    const big = randomRow(151_936, 7);
    const small64 = Float64Array.from(randomRow(3_000, 9), (x) => x + 1e-9);
    for (const row of [big, small64]) {
      for (const topK of [0, 50, 20_000]) {
        const prepared = prepareTemperatureRow(row, topK);
        for (const temperature of [0, 0.4, 1, 2]) expectSameDistribution(distributionAt(prepared, temperature).distribution, sampleStep(row, { temperature, topK }, 0.1).distribution, `${row.length} K ${topK} T ${temperature}`);
      }
    }
  });
});

describe('greedy, top-k and ranks', () => {
  it('T = 0 is the argmax alone with p = 1 (equal maxima: the lowest id), no spread', () => {
    const row = Float32Array.of(1, 3, 2, 3, -1);
    const d = temperatureDistribution(row, { temperature: 0, topK: 0 });
    expect(d.top).toEqual([{ id: 1, p: 1, rank: 1 }]);
    expect([d.candidates, d.entropyBits]).toEqual([1, 0]);
    expect(Array.from(d.distribution.ids)).toEqual([1]);
    for (const row of rows.slice(0, 5)) {
      const greedy = temperatureDistribution(row, { temperature: 0, topK: 5 });
      expect(greedy.top[0].id).toBe(sampleStep(row, { temperature: 0, topK: 5 }, 0.99).token);
    }
  });

  it('top-k keeps exactly K, the lower ids at a tie on the boundary, renormalised; 0 and K ≥ the vocabulary keep all', () => {
    const row = Float32Array.of(0, 2, 1, 1, 1, -3);
    const d = temperatureDistribution(row, { temperature: 1, topK: 3 });
    expect(d.candidates).toBe(3);
    expect(d.top.map((c) => c.id)).toEqual([1, 2, 3]);
    const total = d.top.reduce((s, c) => s + c.p, 0);
    expect(total).toBeCloseTo(1, 15);
    // e² : e : e over the three kept.
    expect(d.top[0].p).toBeCloseTo(Math.E ** 2 / (Math.E ** 2 + 2 * Math.E), 15);
    expect(temperatureDistribution(row, { temperature: 1, topK: 0 }).candidates).toBe(6);
    expect(temperatureDistribution(row, { temperature: 1, topK: 99 }).candidates).toBe(6);
    expect(temperatureDistribution(row, { temperature: 1, topK: 0 }, 3).top).toHaveLength(3);
  });

  it('ranks: equal logits share the better rank; chanceOf gives a cut token p = 0 and its rank in the whole row', () => {
    const row = Float32Array.of(0, 2, 1, 1, 1, -3);
    const prepared = prepareTemperatureRow(row, 3);
    const d = distributionAt(prepared, 1);
    expect(d.top.map((c) => c.rank)).toEqual([1, 2, 2]);
    expect(chanceOf(prepared, d, 4)).toEqual({ p: 0, rank: 2 });
    expect(chanceOf(prepared, d, 5)).toEqual({ p: 0, rank: 6 });
    expect(chanceOf(prepared, d, 1)).toEqual({ p: d.top[0].p, rank: 1 });
    expect(() => chanceOf(prepared, d, 6)).toThrow(RangeError);
    expect(chanceOf(prepared, distributionAt(prepared, 0), 2)).toEqual({ p: 0, rank: 2 });
  });

  it('refuses what the sampler refuses', () => {
    expect(() => temperatureDistribution(Float32Array.of(1, 2), { temperature: -0.1, topK: 0 })).toThrow(RangeError);
    expect(() => temperatureDistribution(Float32Array.of(1, 2), { temperature: 1, topK: 1.5 })).toThrow(RangeError);
    expect(() => temperatureDistribution(Float32Array.of(1, NaN), { temperature: 1, topK: 0 })).toThrow(RangeError);
    expect(() => distributionAt(prepareTemperatureRow(Float32Array.of(1, 2), 0), Infinity)).toThrow(RangeError);
  });
});

describe('entropy and the favourite across temperatures', () => {
  it('entropy in bits against hand-computed cases', () => {
    // p = 1/4, 1/4, 1/2: H = 2·(1/4)·2 + (1/2)·1 = 1.5 bits.
    expect(temperatureDistribution([0, 0, Math.LN2], { temperature: 1, topK: 0 }).entropyBits).toBeCloseTo(1.5, 14);
    // Four equal logits: 2 bits at any T > 0.
    for (const temperature of [0.1, 1, 2]) expect(temperatureDistribution(Float32Array.of(5, 5, 5, 5), { temperature, topK: 0 }).entropyBits).toBeCloseTo(2, 14);
    // Weights 1 : 4 at T = 2 become 1 : 2, p = 1/3, 2/3: H = log₂ 3 − 2/3.
    expect(temperatureDistribution([0, Math.log(4)], { temperature: 2, topK: 0 }).entropyBits).toBeCloseTo(Math.log2(3) - 2 / 3, 14);
    // Top-2 of 1 : 1 : 1 : 1: one bit.
    expect(temperatureDistribution(Float32Array.of(5, 5, 5, 5), { temperature: 1, topK: 2 }).entropyBits).toBeCloseTo(1, 14);
  });

  it('the favourite’s p never rises as T rises (1 at T = 0), and the spread never falls', () => {
    for (const row of rows) {
      const prepared = prepareTemperatureRow(row, 0);
      let lastP = Infinity;
      let lastH = -Infinity;
      for (let i = 0; i <= 40; i++) {
        const temperature = i * 0.05;
        const d = distributionAt(prepared, temperature);
        expect(d.top[0].id).toBe(prepared.argmax);
        expect(d.top[0].p).toBeLessThanOrEqual(lastP);
        expect(d.entropyBits).toBeGreaterThanOrEqual(lastH - 1e-12);
        lastP = d.top[0].p;
        lastH = d.entropyBits;
      }
      // Strictly, where the row's best two logits differ.
      const [a, b] = distributionAt(prepared, 1).top;
      if (a.p > b.p) expect(distributionAt(prepared, 0.5).top[0].p).toBeGreaterThan(a.p);
      expect(distributionAt(prepared, 2).top[0].p).toBeLessThan(a.p);
    }
  });
});
