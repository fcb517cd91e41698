import { describe, expect, it } from 'vitest';
import { continuationScore, logSoftmaxPick, rowStats } from '../../../src/lib/core/logprobs.ts';

describe('continuationScore', () => {
  it('sums the full-vocabulary log-softmax at each token, hand-worked', () => {
    // Row 1: logits (0, ln 3) → p = (¼, ¾); token 1: log ¾. Row 2: (ln 2, 0, 0) → p = (½, ¼, ¼); token 2: log ¼.
    const rows = [new Float32Array([0, Math.log(3), -Infinity]), new Float32Array([Math.log(2), 0, 0])];
    const score = continuationScore(rows, [0, 0], 3, [1, 2]);
    expect(score.logLikelihood).toBeCloseTo(Math.log(0.75) + Math.log(0.25), 6);
    // Token 2 is not row 2's argmax (index 0).
    expect(score.isGreedy).toBe(false);
    expect(continuationScore(rows, [0, 0], 3, [1, 0]).isGreedy).toBe(true);
  });
  it('reads rows at offsets inside one logits block, and ties go to the first index', () => {
    const block = new Float32Array([9, 9, 1, 2, 2, 0]); // two rows of 3
    expect(continuationScore([block, block], [0, 3], 3, [0, 0]).isGreedy).toBe(true);
    expect(continuationScore([block, block], [0, 3], 3, [0, 1]).isGreedy).toBe(false);
    expect(continuationScore([block, block], [0, 3], 3, [1, 1]).isGreedy).toBe(false);
  });
  it('takes the first row\'s stats from the caller when given (a context row shared by every option), as if computed', () => {
    const row = new Float32Array([0.5, -1, 3, 3, 2]);
    const stats = rowStats(row, 0, 5);
    expect(stats.best).toBe(2);
    expect(row[1] - stats.logZ).toBeCloseTo(logSoftmaxPick(row, 0, 5, [1])[0], 12);
    const next = new Float32Array([1, 0, 0, 0, 0]);
    expect(continuationScore([row, next], [0, 0], 5, [2, 0], stats)).toEqual(continuationScore([row, next], [0, 0], 5, [2, 0]));
    // Stats that are not the row's are used as given: the caller owns them.
    expect(continuationScore([row, next], [0, 0], 5, [2, 0], { logZ: stats.logZ, best: 3 }).isGreedy).toBe(false);
  });
  it('refuses a row count that is not the token count, and an empty continuation', () => {
    expect(() => continuationScore([new Float32Array(2)], [0], 2, [0, 1])).toThrow(/one logits row per token/u);
    expect(() => continuationScore([], [], 2, [])).toThrow(/at least one token/u);
  });
});
