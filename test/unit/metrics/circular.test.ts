import { describe, expect, it } from 'vitest';
import { wilsonInterval } from '../../../src/lib/core/metrics/accuracy.ts';
import { allRotationsCorrect, circularSummary, type CircularInput } from '../../../src/lib/core/metrics/circular.ts';

const LETTERS = ['A', 'B', 'C', 'D'];
/** An item right or wrong under rotations 0, 1, …: `outcome[0]` is the result itself. */
function item(itemId: string, task: string, options: number, outcome: (boolean | null)[], extra: Partial<CircularInput> = {}): CircularInput {
  return {
    itemId,
    task,
    letters: LETTERS.slice(0, options),
    correct: outcome[0],
    rotations: outcome.slice(1).map((correct, i) => ({ rotation: i + 1, correct })),
    ...extra,
  };
}

const T = true;
const F = false;
// The small table: five scored items, one incomplete, one failed, one with no key, one plain.
const results: CircularInput[] = [
  item('i1', 't1', 4, [T, T, T, T]),
  item('i2', 't1', 4, [T, F, T, F]),
  item('i3', 't1', 4, [F, F, F, F]),
  item('i4', 't2', 3, [T, T, T]),
  item('i5', 't2', 2, [F, T]),
  item('i6', 't2', 4, [T, T, T]), // 2 of 3 rotations: incomplete
  { ...item('i7', 't2', 4, [T, T, T, T]), rotations: [{ rotation: 1, correct: true }, { rotation: 2, correct: null, failure: { code: 'run.item-too-long' } }, { rotation: 3, correct: true }] },
  { itemId: 'i8', task: 't1', letters: LETTERS, correct: true }, // not circular
  item('i9', 't1', 4, [null, null, null, null]),
];

describe('circularSummary', () => {
  const s = circularSummary(results)!;

  it('counts circular items, incomplete and failed apart', () => {
    expect(s).toMatchObject({ items: 8, scored: 5, incomplete: 1, failed: 1 });
  });

  it('accuracy per rotation over the scored items that have that rotation', () => {
    // rotation 0: i1 i2 i4 right of 5; 1: i1 i4 i5 of 5; 2: i1 i2 i4 of 4 (i5 has 2 options); 3: i1 of 3.
    expect(s.perRotation.map((r) => [r.rotation, r.k, r.n])).toEqual([
      [0, 3, 5],
      [1, 3, 5],
      [2, 3, 4],
      [3, 1, 3],
    ]);
    expect(s.perRotation[0].accuracy).toBe(0.6);
    expect(s.perRotation[3].wilson).toEqual(wilsonInterval(1, 3));
  });

  it('mean of item shares, with Wilson on the sum of the shares', () => {
    // Shares 1, ½, 0, 1, ½: mean 0.6; their sum, 3, is the successes out of 5 items.
    expect(s.mean.accuracy).toBeCloseTo(0.6, 12);
    expect(s.mean.interval).toEqual(wilsonInterval(3, 5));
  });

  it('the mean interval is not 0 wide when every item has the same share (a model that always says C)', () => {
    // Eight four-option items, each right under exactly one rotation: every share is ¼, sample spread 0.
    const alwaysOne = Array.from({ length: 8 }, (_, i) => item(`c${i}`, 't', 4, [T, F, F, F]));
    const m = circularSummary(alwaysOne)!.mean;
    expect(m.accuracy).toBe(0.25);
    expect(m.interval).toEqual(wilsonInterval(2, 8));
    expect(m.interval!.high - m.interval!.low).toBeGreaterThan(0.3);
  });

  it('perf: right under every rotation (i1, i4)', () => {
    expect(s.perf).toEqual({ k: 2, n: 5, accuracy: 0.4, wilson: wilsonInterval(2, 5) });
  });

  it('more-N: right under at least N rotations; fewer options than N never reach N', () => {
    // Right counts: i1 4, i2 2, i3 0, i4 3 (of 3), i5 1 (of 2).
    expect(s.atLeast.map((a) => [a.rotations, a.k, a.n])).toEqual([
      [1, 4, 5],
      [2, 3, 5],
      [3, 2, 5],
      [4, 1, 5],
    ]);
  });

  it('per task perf and mean', () => {
    expect(s.tasks.map((t) => [t.task, t.perf.k, t.perf.n, t.mean.accuracy])).toEqual([
      ['t1', 1, 3, 0.5],
      ['t2', 1, 2, 0.75],
    ]);
  });

  it('with four options everywhere the mean equals the mean of per-rotation accuracies', () => {
    const four = circularSummary(results.slice(0, 3))!;
    const meanOfRotations = four.perRotation.reduce((sum, r) => sum + r.accuracy!, 0) / four.perRotation.length;
    expect(four.mean.accuracy).toBeCloseTo(meanOfRotations, 12);
    expect(four.mean.interval!.low).toBeGreaterThanOrEqual(0);
  });

  it('null without rotations; nulls, not zeros, with no scored item', () => {
    expect(circularSummary([results[7]])).toBeNull();
    const none = circularSummary([results[5]])!;
    expect(none).toMatchObject({ items: 1, scored: 0, incomplete: 1, perf: { k: 0, n: 0, accuracy: null, wilson: null }, mean: { accuracy: null, interval: null } });
  });
});

describe('allRotationsCorrect', () => {
  it('is the per-item perf outcome, null when it cannot be told', () => {
    expect(results.map(allRotationsCorrect)).toEqual([true, false, false, true, false, null, null, null, null]);
  });
});
