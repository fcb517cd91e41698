import { describe, expect, it } from 'vitest';
import { argmax, logSoftmaxPick, renormalize } from '../../../src/lib/core/logprobs.ts';

describe('logSoftmaxPick', () => {
  it('equals a hand computation on a small row', () => {
    // log softmax([1, 2, 3])[k] = x_k - log(e + e^2 + e^3)
    const logZ = Math.log(Math.E + Math.E ** 2 + Math.E ** 3);
    const got = logSoftmaxPick(new Float32Array([1, 2, 3]), 0, 3, [2, 0]);
    expect(got[0]).toBeCloseTo(3 - logZ, 12);
    expect(got[1]).toBeCloseTo(1 - logZ, 12);
  });

  it('reads the row at the given offset (the last position of a [seq, vocab] block)', () => {
    const logits = new Float32Array([9, 9, 9, 0, 0, Math.log(2)]);
    const [a, c] = logSoftmaxPick(logits, 3, 3, [0, 2]);
    expect(Math.exp(a)).toBeCloseTo(1 / 4, 6); // log(2) is rounded to float32
    expect(Math.exp(c)).toBeCloseTo(2 / 4, 6);
  });

  it('stays finite for large logits over a large vocabulary', () => {
    const row = new Float32Array(150_000).fill(-30);
    row[7] = 1000;
    const [lp] = logSoftmaxPick(row, 0, row.length, [7]);
    expect(lp).toBeLessThanOrEqual(0);
    expect(lp).toBeGreaterThan(-1e-9);
  });

  it('refuses ids outside the vocabulary and rows outside the array', () => {
    expect(() => logSoftmaxPick(new Float32Array(4), 0, 4, [4])).toThrow(/outside the vocabulary/);
    expect(() => logSoftmaxPick(new Float32Array(4), 2, 4, [0])).toThrow(/outside an array/);
  });
});

describe('renormalize and argmax', () => {
  it('turns letter log-probabilities into probabilities that sum to one', () => {
    const p = renormalize([Math.log(0.1), Math.log(0.2), Math.log(0.05), Math.log(0.05)]);
    expect(p.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    expect(p[1]).toBeCloseTo(0.5, 12);
  });

  it('breaks ties toward the earlier letter', () => {
    expect(argmax([0.1, 0.4, 0.4, 0.1])).toBe(1);
    expect(argmax([-1, -1])).toBe(0);
  });
});
