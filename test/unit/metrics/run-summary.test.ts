import { describe, expect, it } from 'vitest';
import { publishedKeyScores, summaryDifference, summaryMismatches } from '../../../src/lib/core/metrics/run-summary.ts';

describe('summaryMismatches', () => {
  it('lists values further apart than the tolerance, and keys missing on either side', () => {
    const stored = { overall: 50.004, pooled: 40, 'task:a': 30, extra: 1 };
    const recomputed = { overall: 50, pooled: 41, 'task:a': 30, 'task:b': null };
    expect(summaryMismatches(stored, recomputed)).toEqual([
      { key: 'pooled', stored: 40, recomputed: 41 },
      { key: 'task:b', stored: null, recomputed: null },
      { key: 'extra', stored: 1, recomputed: null },
    ]);
    expect(summaryMismatches({ overall: 50.01 }, { overall: 50 })).toEqual([{ key: 'overall', stored: 50.01, recomputed: 50 }]);
    expect(summaryMismatches({ overall: null }, { overall: null })).toEqual([]);
  });
});

describe('summaryDifference', () => {
  it('is here minus stated, in points, and null when either side has no number', () => {
    expect(summaryDifference({ overall: 40 }, { overall: 42.5 })).toEqual({ stated: 40, here: 42.5, difference: 2.5 });
    expect(summaryDifference({ pooled: 40 }, { pooled: 30 }, 'pooled').difference).toBe(-10);
    expect(summaryDifference({ overall: null }, { overall: 42 })).toEqual({ stated: null, here: 42, difference: null });
    expect(summaryDifference({}, { overall: 42 }).difference).toBeNull();
  });
});

describe('publishedKeyScores', () => {
  it("maps a summary onto the papers' keys: AncientBench competencies and overall, C3Bench tasks and average", () => {
    const summary = { overall: 41, pooled: 40, items: 30, 'task:Radical': 33, 'group:glyph': 35, 'group:meaning': 50 };
    expect(publishedKeyScores('ancientbench', summary)).toEqual({ overall: 41, glyph: 35, meaning: 50 });
    expect(publishedKeyScores('c3bench', { overall: 20, items: 5, 'task:ner': 12.5, 'task:translation': 3 })).toEqual({ average: 20, ner: 12.5, translation: 3 });
    expect(publishedKeyScores('aclue', summary)).toEqual({});
  });
});

describe('failed items in summaries', () => {
  it('adds a `failed` key only when items failed, and counts them among the items', async () => {
    const { mcSummary, scoreGenerationRun, summaryOfGenerationScores } = await import('../../../src/lib/core/metrics/index.ts');
    const ok = [
      { itemId: 'a', task: '古文单字多义', correct: true },
      { itemId: 'b', task: '古文单字多义', correct: false },
    ];
    expect(mcSummary('aclue', ok)).not.toHaveProperty('failed');
    const failure = { code: 'run.item-too-long', params: {} };
    const withFailed = mcSummary('aclue', [...ok, { itemId: 'c', task: '古文单字多义', correct: null, failure }]);
    expect(withFailed).toMatchObject({ failed: 1, items: 3, pooled: 50, 'task:古文单字多义': 50 });

    // A failed generation is not scored (its empty output would score 0), only counted.
    const pair = { task: 'classification', generationTask: 'classification' as const, references: ['诗'] };
    const scores = scoreGenerationRun('c3bench', [{ ...pair, output: '诗' }, { ...pair, output: '', failure }]);
    expect(scores.tasks[0]).toMatchObject({ n: 1, score: 100 });
    expect(scores).toMatchObject({ failed: 1, failedByTask: { classification: 1 } });
    expect(summaryOfGenerationScores(scores, 2)).toMatchObject({ failed: 1, items: 2 });
  });
});
