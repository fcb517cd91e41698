/** rowStatistics against examples worked by hand, and its edges. */
import { describe, expect, it } from 'vitest';
import { rowStatistics } from '../../../src/lib/core/logprobs.ts';
import { positionStatistics } from '../metrics/memorization-helpers.ts';

describe('rowStatistics', () => {
  it('a uniform row: every log p is −log V, so μ = −log V and σ = 0; the argmax is the first of the ties', () => {
    const s = rowStatistics(new Float32Array(8).fill(2.5), 0, 8, 5);
    expect(s.logprob).toBeCloseTo(-Math.log(8), 14);
    expect(s.mean).toBeCloseTo(-Math.log(8), 14);
    expect(s.std).toBe(0);
    expect(s.argmax).toBe(0);
  });

  it('two tokens with p = 1/4, 3/4: μ = ¼ log ¼ + ¾ log ¾ and σ = √(p q) · |log ¼ − log ¾| = (√3 / 4) log 3', () => {
    // logits 0 and log 3 (any constant added changes nothing), read at an offset into a longer array.
    const row = [9, 9, 7, 7 + Math.log(3), 9];
    const s = rowStatistics(row, 2, 2, 0);
    expect(s.logprob).toBeCloseTo(Math.log(1 / 4), 14);
    expect(s.mean).toBeCloseTo(0.25 * Math.log(0.25) + 0.75 * Math.log(0.75), 14);
    expect(s.std).toBeCloseTo((Math.sqrt(3) / 4) * Math.log(3), 14);
    expect(s.argmax).toBe(1);
    expect(rowStatistics(row, 2, 2, 1).logprob).toBeCloseTo(Math.log(3 / 4), 14);
  });

  it('equals the centred moments Σ p (log p − μ)² computed separately, on a row of 50,000', () => {
    const V = 50_000;
    const row = Float32Array.from({ length: V }, (_, i) => Math.sin(i * 0.37) * 4 + Math.cos(i * 0.011) * 2);
    const s = rowStatistics(row, 0, V, 123);
    const separately = positionStatistics(row, 123);
    expect(s.mean).toBeCloseTo(separately.mean, 10);
    expect(s.std).toBeCloseTo(separately.std, 10);
    expect(s.logprob).toBeCloseTo(separately.logprob, 10);
  });

  it('a token of probability 0 (a logit of −∞) adds nothing: no NaN', () => {
    const s = rowStatistics([0, -Infinity, 0], 0, 3, 2);
    expect(s.mean).toBeCloseTo(Math.log(0.5), 14);
    expect(s.std).toBeCloseTo(0, 7);
    expect(Number.isNaN(s.std)).toBe(false);
    expect(rowStatistics([0, -Infinity, 0], 0, 3, 1).logprob).toBe(-Infinity);
  });

  it('refuses a target outside the vocabulary and a row outside the array', () => {
    expect(() => rowStatistics([1, 2, 3], 0, 3, 3)).toThrow(RangeError);
    expect(() => rowStatistics([1, 2, 3], 0, 3, 1.5)).toThrow(RangeError);
    expect(() => rowStatistics([1, 2, 3], 1, 3, 0)).toThrow(RangeError);
  });
});
