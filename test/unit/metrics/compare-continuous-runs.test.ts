// Which runs compare on continuous scores, on which items, and the sentence's inputs.
import { describe, expect, it } from 'vitest';
import { compareContinuousRuns, separationSentence } from '../../../src/lib/core/metrics/compare-continuous-runs.ts';
import { wilcoxonSignedRank } from '../../../src/lib/core/metrics/compare-continuous.ts';
import type { ContinuousItem } from '../../../src/lib/core/metrics/continuous.ts';

const items = (values: number[], bpb: boolean): ContinuousItem[] =>
  values.map((p, i) => ({ itemId: `i${i}`, task: i % 2 ? '词汇' : '句读', pGold: p, logPGold: Math.log(p), bitsPerByte: bpb ? 1 - p : null }));

describe('compareContinuousRuns', () => {
  const a = [0.2, 0.3, 0.25, 0.4, 0.1, 0.33];
  const b = [0.3, 0.35, 0.3, 0.5, 0.2, 0.3];
  it('pairs common items by task and id; p(gold) for letters, and bits per byte too for cloze', () => {
    const letters = compareContinuousRuns('aclue', { scoring: 'letter-logits', items: items(a, false) }, { scoring: 'letter-logits', items: items(b, false).slice(1) }, ['句读', '词汇']);
    expect(letters.kind).toBe('compared');
    if (letters.kind !== 'compared') return;
    expect(letters.metrics.map((m) => m.metric)).toEqual(['pGold']);
    const d = b.slice(1).map((x, i) => x - a[i + 1]);
    expect(letters.metrics[0].pooled.n).toBe(5);
    expect(letters.metrics[0].pooled.meanDifference).toBeCloseTo(d.reduce((s, x) => s + x, 0) / 5, 12);
    expect(letters.metrics[0].pooled.wilcoxon).toEqual(wilcoxonSignedRank(d));
    const cloze = compareContinuousRuns('aclue', { scoring: 'cloze', items: items(a, true) }, { scoring: 'cloze', items: items(b, true) }, ['句读', '词汇']);
    expect(cloze.kind === 'compared' && cloze.metrics.map((m) => m.metric)).toEqual(['pGold', 'bitsPerByte']);
  });

  it('letters against option text: accuracy only; generated answers or a link: unavailable', () => {
    expect(compareContinuousRuns('aclue', { scoring: 'letter-logits', items: items(a, false) }, { scoring: 'cloze', items: items(b, true) }, [])).toEqual({ kind: 'formulations-differ', baseline: 'letter-logits', other: 'cloze' });
    expect(compareContinuousRuns('aclue', { scoring: 'generate-extract', items: [] }, { scoring: 'generate-extract', items: [] }, []).kind).toBe('unavailable');
    expect(compareContinuousRuns('aclue', null, { scoring: 'cloze', items: [] }, []).kind).toBe('unavailable');
  });
});

describe('separationSentence', () => {
  it('uses the items both runs scored and the discordant share for the detectable difference', () => {
    // 400 paired items, 60 discordant: (1.96 + 0.8416) · √(0.15 / 400) = 5.43 points.
    const s = separationSentence({ pValue: 0.3, b: 25, c: 35, paired: 400 }, { n: 400, meanDifference: 0.02, wilcoxon: { n: 390, rankSumPositive: 1, z: 3, pValue: 0.002 } });
    expect(s.separation).toBe('continuous-only');
    expect(s.n).toBe(400);
    expect(s.detectable).toBeCloseTo(100 * (1.959963984540054 + 0.8416212335729143) * Math.sqrt(60 / 400 / 400), 10);
    expect(separationSentence({ pValue: 0.01, b: 1, c: 9, paired: 10 }, null).separation).toBe('accuracy-only');
  });
});
