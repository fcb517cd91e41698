import { describe, expect, it } from 'vitest';
import { bootstrapInterval, bootstrapIntervals, bootstrapSignature, mulberry32, percentileSorted } from '../../../../src/lib/core/metrics/generation/bootstrap.ts';
import { generationOverall, taskPercents } from '../../../../src/lib/core/metrics/generation/overall.ts';
import { f1FromCounts, precisionRecallF1 } from '../../../../src/lib/core/metrics/generation/prf.ts';

describe('mulberry32', () => {
  it('is deterministic per seed, uniform in [0, 1)', () => {
    const a = mulberry32(42);
    const b = mulberry32(42);
    const first = Array.from({ length: 5 }, () => a());
    expect(Array.from({ length: 5 }, () => b())).toEqual(first);
    expect(mulberry32(43)()).not.toBe(first[0]);
    const r = mulberry32(1);
    let sum = 0;
    for (let i = 0; i < 10000; i++) {
      const u = r();
      expect(u >= 0 && u < 1).toBe(true);
      sum += u;
    }
    expect(sum / 10000).toBeCloseTo(0.5, 1);
  });
});

describe('percentileSorted', () => {
  it("interpolates linearly between order statistics (numpy's default)", () => {
    expect(percentileSorted([1, 2, 3, 4], 0.5)).toBe(2.5);
    expect(percentileSorted([1, 2, 3, 4], 0)).toBe(1);
    expect(percentileSorted([1, 2, 3, 4], 1)).toBe(4);
    expect(percentileSorted([0, 10], 0.025)).toBeCloseTo(0.25, 12);
  });
});

describe('bootstrapInterval', () => {
  // 40 items, tp/fp/fn rows with some variety.
  const rows = new Float64Array(Array.from({ length: 40 }, (_, i) => [i % 3, i % 5 === 0 ? 1 : 0, i % 7 === 0 ? 2 : 0]).flat());
  const f1 = (s: Float64Array): number | null => f1FromCounts(s[0], s[1], s[2]);
  const sums = [0, 1, 2].map((j) => rows.filter((_, k) => k % 3 === j).reduce((a, b) => a + b, 0));
  const point = f1FromCounts(sums[0], sums[1], sums[2])!;

  it('same seed, same interval; another seed, another; the interval contains the point estimate', () => {
    const a = bootstrapInterval(rows, 3, f1);
    expect(bootstrapInterval(rows, 3, f1)).toEqual(a);
    expect(bootstrapInterval(rows, 3, f1, { seed: 99 })).not.toEqual(a);
    expect(a).toMatchObject({ resamples: 1000, used: 1000, seed: 12345, level: 0.95 });
    expect(a!.low).toBeLessThan(point);
    expect(a!.high).toBeGreaterThan(point);
    expect(a!.high - a!.low).toBeLessThan(0.5);
  });

  it('several metrics see the same resamples', () => {
    const [x, y] = bootstrapIntervals(rows, 3, [f1, f1], { resamples: 200, seed: 5 });
    expect(x).toEqual(y);
    expect(x).toEqual(bootstrapInterval(rows, 3, f1, { resamples: 200, seed: 5 }));
  });

  it('no items or no defined resample: no interval; bad options are refused', () => {
    expect(bootstrapInterval(new Float64Array(0), 3, f1)).toBeNull();
    expect(bootstrapInterval(new Float64Array([0, 0, 0]), 3, f1)).toBeNull();
    expect(() => bootstrapInterval(rows, 3, f1, { resamples: 0 })).toThrow(/resamples/);
    expect(() => bootstrapInterval(rows, 3, f1, { seed: -1 })).toThrow(/seed/);
    expect(() => bootstrapInterval(new Float64Array(4), 3, f1)).toThrow(/rows of 3/);
  });

  it('states the method in its signature', () => {
    expect(bootstrapSignature()).toBe('bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items');
    expect(bootstrapSignature({ resamples: 500, seed: 7 })).toBe('bs:500|seed:7|ci:percentile-95|rng:mulberry32|resample:items');
  });
});

describe('precisionRecallF1', () => {
  it('micro P, R, F1; undefined sides are null', () => {
    expect(precisionRecallF1({ tp: 3, fp: 1, fn: 2 })).toEqual({ tp: 3, fp: 1, fn: 2, precision: 0.75, recall: 0.6, f1: 6 / 9 });
    expect(precisionRecallF1({ tp: 0, fp: 0, fn: 2 })).toMatchObject({ precision: null, recall: 0, f1: 0 });
    expect(precisionRecallF1({ tp: 0, fp: 0, fn: 0 })).toMatchObject({ precision: null, recall: null, f1: null });
  });
});

describe('generationOverall', () => {
  it("is the mean of the five task scores in percent (the paper's Average)", () => {
    const overall = generationOverall({ classification: 80, retrieval: 50, ner: 60, punctuation: 70, translation: 40 });
    expect(overall).toMatchObject({ score: 60, of: 5, missing: [] });
    expect(overall.signature).toBe('gen-avg|tasks:cls-acc,ret-acc-l1,ner-f1,punct-f1,bleu|scale:percent|empty:excluded|version:1');
  });

  it('leaves out tasks without a score and says how many it is over', () => {
    expect(generationOverall({ classification: 80, ner: null, translation: 40 })).toMatchObject({ score: 60, of: 2, missing: ['retrieval', 'ner', 'punctuation'] });
    expect(generationOverall({})).toMatchObject({ score: null, of: 0 });
  });

  it('takes level-1 accuracy for retrieval and mark F1 for punctuation from the summaries', () => {
    const percents = taskPercents({
      retrieval: { levels: [{ level: 1, n: 4, correct: 3, accuracy: 0.75, wilson: null }], exact: { n: 4, correct: 1, accuracy: 0.25, wilson: null }, signature: '' },
      translation: { n: 1, bleu: { score: 42, counts: [], totals: [], precisions: [], bp: 1, sys_len: 0, ref_len: 0 }, interval: null, signature: '' },
    });
    expect(percents).toEqual({ classification: null, retrieval: 75, ner: null, punctuation: null, translation: 42 });
  });
});
