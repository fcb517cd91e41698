import { describe, expect, it } from 'vitest';
import { stripPunctuation } from '../../../../src/lib/core/benchmarks/adapters/c3bench-values.ts';
import { alignCharacters } from '../../../../src/lib/core/metrics/generation/align.ts';
import { punctuationCorpus, punctuationItem, segmentPunctuated } from '../../../../src/lib/core/metrics/generation/punctuation.ts';

const chars = (text: string): string[] => Array.from(text);
const REF = '学而时习之，不亦说乎？';

describe('alignCharacters', () => {
  it('identity, substitution, deletion and insertion', () => {
    expect(Array.from(alignCharacters(chars('甲乙丙'), chars('甲乙丙')))).toEqual([0, 1, 2]);
    expect(Array.from(alignCharacters(chars('甲乙丙丁'), chars('甲戊丙丁')))).toEqual([0, 1, 2, 3]);
    expect(Array.from(alignCharacters(chars('甲乙丙丁'), chars('甲丙丁')))).toEqual([0, 2, 3]);
    expect(Array.from(alignCharacters(chars('甲乙丙'), chars('甲乙戊丙')))).toEqual([0, 1, -1, 2]);
    expect(Array.from(alignCharacters(chars('甲乙'), []))).toEqual([]);
    expect(Array.from(alignCharacters([], chars('甲')))).toEqual([-1]);
  });

  it('pairs unmatched stretches between LCS anchors in order', () => {
    // 丙 ≠ 己 and 丁 ≠ 庚, between anchors 乙 and 戊: 己 → 丙, 庚 → 丁; the extra 辛 has no partner.
    expect(Array.from(alignCharacters(chars('甲乙丙丁戊'), chars('甲乙己庚辛戊')))).toEqual([0, 1, 2, 3, -1, 4]);
  });
});

describe('segmentPunctuated', () => {
  it('reads characters and the marks in each gap, joining adjacent marks', () => {
    expect(segmentPunctuated('“子曰：“学。”')).toEqual({ chars: ['子', '曰', '学'], marks: ['“', '', '：“', '。”'] });
    expect(segmentPunctuated('甲, 乙.')).toEqual({ chars: ['甲', '乙'], marks: ['', '，', '。'] });
    expect(segmentPunctuated(REF).chars.join('')).toBe(stripPunctuation(REF));
  });
});

describe('punctuationItem', () => {
  it('the same punctuation is all correct', () => {
    const item = punctuationItem(REF, REF);
    expect(item).toMatchObject({ mark: { tp: 2, fp: 0, fn: 0 }, position: { tp: 2, fp: 0, fn: 0 }, changed: false });
    expect(item.gaps).toHaveLength(10);
    expect(item.gaps.filter((g) => g.status !== 'none').map((g) => [g.position, g.reference, g.predicted, g.status])).toEqual([
      [5, '，', '，', 'correct'],
      [9, '？', '？', 'correct'],
    ]);
  });

  it('a wrong mark is a false alarm and a miss, but a right position', () => {
    const item = punctuationItem('学而时习之。不亦说乎？', REF);
    expect(item).toMatchObject({ mark: { tp: 1, fp: 1, fn: 1 }, position: { tp: 2, fp: 0, fn: 0 } });
    expect(item.gaps[5]).toEqual({ position: 5, reference: '，', predicted: '。', status: 'wrong' });
  });

  it('missing and spurious marks', () => {
    const item = punctuationItem('学而，时习之不亦说乎？', REF);
    expect(item).toMatchObject({ mark: { tp: 1, fp: 1, fn: 1 }, position: { tp: 1, fp: 1, fn: 1 } });
    expect(item.gaps[2].status).toBe('spurious');
    expect(item.gaps[5].status).toBe('missing');
  });

  it('empty output: every reference mark missing', () => {
    expect(punctuationItem('', REF)).toMatchObject({ mark: { tp: 0, fp: 0, fn: 2 }, position: { tp: 0, fp: 0, fn: 2 }, changed: true });
    expect(punctuationItem('学而时习之不亦说乎', REF)).toMatchObject({ mark: { tp: 0, fp: 0, fn: 2 }, changed: false });
  });

  it('output with changed characters is aligned to the input', () => {
    // 時 for 时 and 悦 for 说 (substitutions), 时 dropped, 又 added: the marks still land after 之 and 乎.
    for (const output of ['学而時习之，不亦悦乎？', '学而习之，不亦说乎？', '学而时习之又，不亦说乎？', '学而时时习之，不亦说乎？']) {
      const item = punctuationItem(output, REF);
      expect(item.changed).toBe(true);
      expect(item.mark, output).toEqual({ tp: 2, fp: 0, fn: 0 });
    }
    // A mark after an added character joins the gap after the last aligned one.
    expect(punctuationItem('甲乙戊，丙丁。', '甲乙，丙丁。').mark).toEqual({ tp: 2, fp: 0, fn: 0 });
  });

  it('ASCII look-alikes count as the Chinese mark; a leading label and spaces are ignored', () => {
    expect(punctuationItem('句读：学而时习之, 不亦说乎?', REF).mark).toEqual({ tp: 2, fp: 0, fn: 0 });
  });

  it('combined marks (：“ and 。”) are one mark per gap', () => {
    const ref = '子曰：“学而时习之。”';
    const item = punctuationItem('子曰：学而时习之。', ref);
    expect(item).toMatchObject({ mark: { tp: 0, fp: 2, fn: 2 }, position: { tp: 2, fp: 0, fn: 0 } });
    expect(item.gaps[2]).toMatchObject({ reference: '：“', predicted: '：', status: 'wrong' });
  });
});

describe('punctuationCorpus', () => {
  // mark: (2,0,0) + (1,1,1) + (0,0,2) = tp 3, fp 1, fn 3 → F1 6/10; position: (2,0,0) + (2,0,0) + (0,0,2) → 8/10.
  const pairs = [
    { output: REF, references: [REF] },
    { output: '学而时习之。不亦说乎？', references: [REF] },
    { output: '', references: [REF] },
  ];

  it('micro F1 over all gaps, mark and position-only, each with a seeded interval', () => {
    const score = punctuationCorpus(pairs);
    expect(score.mark).toMatchObject({ tp: 3, fp: 1, fn: 3, precision: 0.75, recall: 0.5 });
    expect(score.mark.f1).toBeCloseTo(0.6, 15);
    expect(score.position).toMatchObject({ tp: 4, fp: 0, fn: 2, precision: 1 });
    expect(score.position.f1).toBeCloseTo(0.8, 15);
    expect(score.changed).toBe(1);
    for (const part of [score.mark, score.position]) {
      expect(part.f1Interval!.low).toBeLessThanOrEqual(part.f1!);
      expect(part.f1Interval!.high).toBeGreaterThanOrEqual(part.f1!);
    }
    expect(punctuationCorpus(pairs)).toEqual(score);
    expect(score.signature).toBe('punct-f1|avg:micro|unit:gap|align:lcs|marks:c3-punctuation|equiv:ascii-fullwidth|post:2|bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items');
  });
});
