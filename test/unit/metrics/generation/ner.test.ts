import { describe, expect, it } from 'vitest';
import { nerCorpus, nerItem, nerSignature, parseEntities } from '../../../../src/lib/core/metrics/generation/ner.ts';

describe('parseEntities', () => {
  it('splits on 、，,；;。 and whitespace; 无 is no entity', () => {
    expect(parseEntities('孔子、孟子，荀子,老子；庄子;墨子 韩非\n鲁。')).toEqual(['孔子', '孟子', '荀子', '老子', '庄子', '墨子', '韩非', '鲁']);
    expect(parseEntities('无')).toEqual([]);
    expect(parseEntities('')).toEqual([]);
  });
});

describe('nerItem', () => {
  it('matches exactly, in any order', () => {
    expect(nerItem('孟子、孔子', '孔子、孟子')).toMatchObject({ tp: 2, fp: 0, fn: 0, matched: ['孟子', '孔子'] });
    expect(nerItem('实体：孔子，鲁国', '孔子、齐')).toMatchObject({ tp: 1, fp: 1, fn: 1, spurious: ['鲁国'], missing: ['齐'] });
  });

  it('counts duplicates as multisets', () => {
    expect(nerItem('孔子、孔子', '孔子')).toMatchObject({ tp: 1, fp: 1, fn: 0, predicted: ['孔子', '孔子'] });
    expect(nerItem('孔子', '孔子、孔子')).toMatchObject({ tp: 1, fp: 0, fn: 1, missing: ['孔子'] });
    expect(nerItem('孔子、孔子', '孔子、孔子')).toMatchObject({ tp: 2, fp: 0, fn: 0 });
  });

  it('无, empty output and no reference entities', () => {
    expect(nerItem('无', '无')).toMatchObject({ tp: 0, fp: 0, fn: 0, predicted: [], reference: [] });
    expect(nerItem('无', '孔子')).toMatchObject({ tp: 0, fp: 0, fn: 1 });
    expect(nerItem('', '孔子、孟子')).toMatchObject({ tp: 0, fp: 0, fn: 2 });
    expect(nerItem('孔子', '无')).toMatchObject({ tp: 0, fp: 1, fn: 0 });
    expect(nerItem('答案：无。', '')).toMatchObject({ tp: 0, fp: 0, fn: 0 });
  });
});

describe('nerCorpus', () => {
  // tp = 2 + 1 + 0 + 0 = 3, fp = 0 + 1 + 0 + 1 = 2, fn = 0 + 1 + 2 + 0 = 3:
  // P = 3/5, R = 3/6, F1 = 6/11.
  const pairs = [
    { output: '孔子、孟子', references: ['孔子、孟子'] },
    { output: '孔子、孔子', references: ['孔子、颜回'] },
    { output: '', references: ['鲁、齐'] },
    { output: '楚', references: ['无'] },
  ];

  it('sums counts over the corpus (micro)', () => {
    const score = nerCorpus(pairs);
    expect(score).toMatchObject({ n: 4, tp: 3, fp: 2, fn: 3 });
    expect(score.precision).toBeCloseTo(0.6, 15);
    expect(score.recall).toBeCloseTo(0.5, 15);
    expect(score.f1).toBeCloseTo(6 / 11, 15);
    expect(score.signature).toBe(nerSignature());
    expect(score.signature).toBe('ner-f1|avg:micro|match:exact-multiset|split:、，,；;。ws|none:无|post:2|bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items');
  });

  it('gives a seeded bootstrap interval that contains the estimate', () => {
    const a = nerCorpus(pairs);
    expect(a.f1Interval).toMatchObject({ resamples: 1000, seed: 12345, level: 0.95 });
    expect(a.f1Interval!.low).toBeLessThanOrEqual(a.f1!);
    expect(a.f1Interval!.high).toBeGreaterThanOrEqual(a.f1!);
    expect(nerCorpus(pairs).f1Interval).toEqual(a.f1Interval);
    expect(nerCorpus(pairs, { seed: 7 }).f1Interval).not.toEqual(a.f1Interval);
  });

  it('no entities anywhere: no precision, recall or F1; predictions without reference entities: F1 0', () => {
    expect(nerCorpus([{ output: '无', references: ['无'] }])).toMatchObject({ precision: null, recall: null, f1: null, f1Interval: null });
    expect(nerCorpus([{ output: '孔子', references: ['无'] }])).toMatchObject({ precision: 0, recall: null, f1: 0 });
    expect(nerCorpus([])).toMatchObject({ n: 0, f1: null, f1Interval: null });
  });

  it('refuses an item without a reference', () => {
    expect(() => nerCorpus([{ output: '孔子', references: [] }])).toThrow(/item 1 has no reference/);
  });
});
