import { describe, expect, it } from 'vitest';
import { compareContinuous, minimumDetectableAccuracyDifference, separation, wilcoxonSignedRank, type PairedValue } from '../../../src/lib/core/metrics/compare-continuous.ts';
import { aggregateContinuous } from '../../../src/lib/core/metrics/continuous.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';

describe('wilcoxonSignedRank', () => {
  it('matches scipy 1.17.1 (zero_method wilcox, correction False, method approx)', () => {
    // python3 -c "import scipy.stats as st; print(st.wilcoxon([0.3,-0.1,0.2,0.2,0.0,0.5,-0.2,0.1,0.1,0.4,-0.05,0.3], zero_method='wilcox', correction=False, method='approx'))"
    // statistic 10.0 (= min(R+, R−); 11 non-zero, ranks sum to 66, so R+ = 56), p 0.03996565688935289
    const a = wilcoxonSignedRank([0.3, -0.1, 0.2, 0.2, 0.0, 0.5, -0.2, 0.1, 0.1, 0.4, -0.05, 0.3])!;
    expect(a.n).toBe(11);
    expect(a.rankSumPositive).toBe(56);
    expect(a.pValue).toBeCloseTo(0.03996565688935289, 12);
    // Many ties and zeros: statistic 27.0, p 0.18971245143593063
    const b = wilcoxonSignedRank([1, 1, 1, -1, 2, 2, -2, 3, 0, 0, 1, -1, 2, 4, -3])!;
    expect(b.n).toBe(13);
    expect(Math.min(b.rankSumPositive, (13 * 14) / 2 - b.rankSumPositive)).toBe(27);
    expect(b.pValue).toBeCloseTo(0.18971245143593063, 12);
  });
  it('has no test when every difference is 0, and is symmetric in sign', () => {
    expect(wilcoxonSignedRank([0, 0])).toBeNull();
    const d = [0.2, -0.1, 0.4, 0.3];
    expect(wilcoxonSignedRank(d.map((x) => -x))!.pValue).toBeCloseTo(wilcoxonSignedRank(d)!.pValue, 14);
  });
});

describe('compareContinuous', () => {
  const random = mulberry32(9);
  const pairs: PairedValue[] = [];
  for (let i = 0; i < 300; i++) {
    const task = ['a', 'b', 'c'][i % 3];
    const baseline = 0.25 + 0.1 * random();
    // Task a: the other run is better by 0.05 everywhere give or take noise; b and c: no difference.
    const other = baseline + (task === 'a' ? 0.05 : 0) + 0.02 * (random() - 0.5);
    pairs.push({ itemId: `i${i}`, task, baseline, other });
  }
  const result = compareContinuous('aclue', pairs, ['a', 'b', 'c'], { resamples: 500 });

  it('separates the task that differs and not those that do not', () => {
    const [a, b, c] = result.tasks;
    expect(a.meanDifference!).toBeCloseTo(0.05, 2);
    expect(a.pHolm!).toBeLessThan(1e-6);
    expect(b.pHolm!).toBeGreaterThan(0.05);
    expect(c.pHolm!).toBeGreaterThan(0.05);
    expect(a.estimate!.low).toBeGreaterThan(0);
    expect(b.estimate!.low).toBeLessThan(0);
    expect(b.estimate!.high).toBeGreaterThan(0);
  });

  it('Overall is the mean of the task means of d, equal to the difference of the runs\' Overalls', () => {
    const base = aggregateContinuous('aclue', pairs.map((p) => ({ itemId: p.itemId, task: p.task, pGold: p.baseline, logPGold: 0, bitsPerByte: null })), 'pGold', ['a', 'b', 'c']);
    const other = aggregateContinuous('aclue', pairs.map((p) => ({ itemId: p.itemId, task: p.task, pGold: p.other, logPGold: 0, bitsPerByte: null })), 'pGold', ['a', 'b', 'c']);
    expect(result.overall.estimate!.estimate).toBeCloseTo(other.overall.estimate!.estimate - base.overall.estimate!.estimate, 12);
    expect(result.overall.of).toBe(3);
    expect(result.overall.estimate!.pValue).toBeLessThan(0.01);
  });

  it('the smallest detectable accuracy difference and the separation sentence', () => {
    // (1.95996 + 0.84162) · √(0.3 / 164) = 0.11982 (CMMLU 古汉语's 164 items, 30% discordant)
    expect(minimumDetectableAccuracyDifference(164, 0.3)).toBeCloseTo(0.1198236488808715, 12);
    expect(minimumDetectableAccuracyDifference(0, 0.3)).toBeNull();
    expect(minimumDetectableAccuracyDifference(100, 0)).toBeCloseTo(2.8012 * 0.01, 3);
    expect(separation(0.4, 0.001)).toBe('continuous-only');
    expect(separation(0.01, 0.001)).toBe('both');
    expect(separation(0.01, 0.3)).toBe('accuracy-only');
    expect(separation(null, null)).toBe('neither');
  });
});
