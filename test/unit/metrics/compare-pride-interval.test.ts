// Compare's PriDe row shows the debiased accuracy's bootstrap interval (prideDebias's
// debiased.interval, which carries the prior's own error), not the Wilson interval of its counts.
import { describe, expect, it } from 'vitest';
import { compareRuns, type ComparableRun } from '../../../src/lib/core/metrics/compare.ts';

const run = (id: string, pride: NonNullable<NonNullable<ComparableRun['robustness']>['pride']>): ComparableRun => ({
  id,
  label: id,
  origin: 'local',
  datasetId: 'aclue',
  kind: 'multiple-choice',
  mcItems: [{ itemId: '通假字/0', task: '通假字', correct: true, prediction: 'A' }],
  robustness: { pride },
});

describe('compareRuns: the PriDe row', () => {
  it('takes the bootstrap interval when the run has one, Wilson otherwise (in points)', () => {
    const withBootstrap = run('a', { k: 30, n: 40, accuracy: 0.75, wilson: { low: 0.6, high: 0.86 }, interval: { low: 0.55, high: 0.9 } });
    const wilsonOnly = run('b', { k: 20, n: 40, accuracy: 0.5, wilson: { low: 0.35, high: 0.65 } });
    const cells = compareRuns([withBootstrap, wilsonOnly]).rows.find((r) => r.key === 'pride:debiased')!.cells;
    expect(cells[0].interval!.low).toBeCloseTo(55, 12);
    expect(cells[0].interval!.high).toBeCloseTo(90, 12);
    expect(cells[1].interval!.low).toBeCloseTo(35, 12);
    expect(cells[1].interval!.high).toBeCloseTo(65, 12);
  });
});
