import { describe, expect, it } from 'vitest';
import { accuracy, standardError, standardErrorFromCounts, wilsonInterval, Z_95 } from '../../../src/lib/core/metrics/accuracy.ts';

const scores = (k: number, n: number): boolean[] => Array.from({ length: n }, (_, i) => i < k);

describe('accuracy', () => {
  it('is the share correct, null when empty', () => {
    expect(accuracy(scores(7, 10))).toBe(0.7);
    expect(accuracy([])).toBeNull();
  });
});

describe('standardError', () => {
  // sample standard deviation (n − 1) over sqrt(n) = sqrt(p(1 − p)/(n − 1))
  it('k = 7, n = 10: sqrt(0.21 / 9) = 0.152753', () => {
    expect(standardError(scores(7, 10))).toBeCloseTo(0.152753, 6);
  });

  it('k = 3, n = 4: sqrt(0.1875 / 3) = 0.25; k = 1, n = 2: 0.5', () => {
    expect(standardError(scores(3, 4))).toBeCloseTo(0.25, 12);
    expect(standardError(scores(1, 2))).toBeCloseTo(0.5, 12);
  });

  it('is 0 when all agree, 0 for n = 1, null for n = 0', () => {
    expect(standardError(scores(10, 10))).toBe(0);
    expect(standardError([true])).toBe(0);
    expect(standardError([])).toBeNull();
  });

  it('uses n − 1, not n (the population form would give 0.144914)', () => {
    expect(standardErrorFromCounts(7, 10)).not.toBeCloseTo(Math.sqrt(0.21 / 10), 4);
  });
});

describe('wilsonInterval', () => {
  it('k = 7, n = 10 → [0.3968, 0.8922]', () => {
    const ci = wilsonInterval(7, 10)!;
    expect(ci.low).toBeCloseTo(0.3968, 4);
    expect(ci.high).toBeCloseTo(0.8922, 4);
  });

  it('k = 0 and k = n stay inside [0, 1]', () => {
    expect(wilsonInterval(0, 10)).toEqual({ low: 0, high: expect.closeTo(0.2775, 4) });
    expect(wilsonInterval(10, 10)).toEqual({ low: expect.closeTo(0.7225, 4), high: 1 });
    expect(wilsonInterval(1, 1)).toEqual({ low: expect.closeTo(0.2065, 4), high: 1 });
  });

  it('is null for n = 0 and narrower for a smaller z', () => {
    expect(wilsonInterval(0, 0)).toBeNull();
    const wide = wilsonInterval(7, 10)!;
    const narrow = wilsonInterval(7, 10, 1)!;
    expect(narrow.low).toBeGreaterThan(wide.low);
    expect(narrow.high).toBeLessThan(wide.high);
    expect(Z_95).toBe(1.959963984540054);
  });

  it('refuses impossible counts', () => {
    expect(() => wilsonInterval(11, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1.5, 10)).toThrow(RangeError);
    expect(() => wilsonInterval(1, 10, 0)).toThrow(RangeError);
  });
});
