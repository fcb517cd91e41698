import { describe, expect, it } from 'vitest';
import { mcnemarExact, mcnemarExactFromCounts, pairedAgreement } from '../../../src/lib/core/metrics/mcnemar.ts';

/** Independent exact two-sided p: 2·Σ_{k≤m} C(n,k) / 2^n with BigInt, clamped to 1. */
function exactBigInt(b: number, c: number): number {
  const n = BigInt(b + c);
  const m = BigInt(Math.min(b, c));
  let choose = 1n;
  let sum = 0n;
  for (let k = 0n; k <= m; k++) {
    if (k > 0n) choose = (choose * (n - k + 1n)) / k;
    sum += choose;
  }
  // Scale to 1e-15 resolution before leaving BigInt.
  const scaled = (2n * sum * 10n ** 15n) / 2n ** n;
  return Math.min(1, Number(scaled) / 1e15);
}

/** Standard normal upper tail via erfc (Abramowitz–Stegun 7.1.26, |error| < 1.5e-7). */
function normalUpperTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.3275911 * x);
  const poly = t * (0.254829592 + t * (-0.284496736 + t * (1.421413741 + t * (-1.453152027 + t * 1.061405429))));
  return 0.5 * poly * Math.exp(-x * x);
}

describe('mcnemarExactFromCounts', () => {
  it('no discordant items: p = 1', () => {
    const r = mcnemarExactFromCounts(0, 0);
    expect(r).toMatchObject({ b: 0, c: 0, n: 0, pValue: 1, statistic: 0, method: 'exact-binomial-two-sided' });
    expect(r.signature).toContain('mcnemar');
  });

  it('b = 1, c = 0: 2 · 1/2 = 1', () => {
    expect(mcnemarExactFromCounts(1, 0).pValue).toBe(1);
  });

  it('b = 0, c = 5: 2 / 32 = 0.0625', () => {
    expect(mcnemarExactFromCounts(0, 5).pValue).toBeCloseTo(0.0625, 14);
  });

  it('b = 2, c = 8: 2 · 56 / 1024 = 0.109375', () => {
    const r = mcnemarExactFromCounts(2, 8);
    expect(r.pValue).toBeCloseTo(0.109375, 14);
    expect(r.statistic).toBe(2);
    expect(r.n).toBe(10);
  });

  it('b = 10, c = 30 matches the BigInt value 2·Σ_{k≤10} C(40,k)/2^40 to 1e-10', () => {
    const expected = exactBigInt(10, 30);
    expect(expected).toBeGreaterThan(0.0021);
    expect(expected).toBeLessThan(0.0023);
    expect(Math.abs(mcnemarExactFromCounts(10, 30).pValue - expected)).toBeLessThan(1e-10);
  });

  it('matches BigInt on a spread of counts', () => {
    for (const [b, c] of [[0, 1], [3, 3], [4, 5], [7, 20], [50, 80], [200, 260], [1, 300]] as const) {
      const p = mcnemarExactFromCounts(b, c).pValue;
      const expected = exactBigInt(b, c);
      expect(Math.abs(p - expected)).toBeLessThanOrEqual(Math.max(1e-12, 1e-9 * expected));
    }
  });

  it('b = c clamps to 1', () => {
    expect(mcnemarExactFromCounts(3, 3).pValue).toBe(1);
    expect(mcnemarExactFromCounts(5000, 5000).pValue).toBe(1);
  });

  it('b = 4000, c = 4200: finite, in (0, 1), close to the continuity-corrected normal approximation', () => {
    const p = mcnemarExactFromCounts(4000, 4200).pValue;
    expect(Number.isFinite(p)).toBe(true);
    expect(p).toBeGreaterThan(0);
    expect(p).toBeLessThan(1);
    const z = (Math.abs(4000 - 4200) - 1) / Math.sqrt(8200);
    const approx = 2 * normalUpperTail(z);
    expect(Math.abs(p - approx) / approx).toBeLessThan(0.05);
  });

  it('stays finite near n = 100,000 and underflows to 0, never NaN', () => {
    const near = mcnemarExactFromCounts(49_800, 50_200).pValue;
    expect(Number.isFinite(near)).toBe(true);
    expect(near).toBeGreaterThan(0);
    expect(near).toBeLessThan(1);
    const z = (400 - 1) / Math.sqrt(100_000);
    expect(Math.abs(near - 2 * normalUpperTail(z)) / near).toBeLessThan(0.05);
    const extreme = mcnemarExactFromCounts(0, 100_000).pValue;
    expect(Number.isNaN(extreme)).toBe(false);
    expect(extreme).toBe(0);
  });

  it('is symmetric in b and c', () => {
    for (const [b, c] of [[0, 5], [2, 8], [10, 30], [4000, 4200], [17, 3]] as const) {
      expect(mcnemarExactFromCounts(b, c).pValue).toBe(mcnemarExactFromCounts(c, b).pValue);
    }
  });

  it('rejects negative or fractional counts', () => {
    expect(() => mcnemarExactFromCounts(-1, 2)).toThrow(RangeError);
    expect(() => mcnemarExactFromCounts(1.5, 2)).toThrow(RangeError);
    expect(() => mcnemarExactFromCounts(1, Number.NaN)).toThrow(RangeError);
  });
});

describe('mcnemarExact', () => {
  it('counts only discordant pairs', () => {
    const pairs = [
      ...Array.from({ length: 2 }, () => ({ a: true, b: false })),
      ...Array.from({ length: 8 }, () => ({ a: false, b: true })),
      ...Array.from({ length: 30 }, () => ({ a: true, b: true })),
      ...Array.from({ length: 12 }, () => ({ a: false, b: false })),
    ];
    const r = mcnemarExact(pairs);
    expect(r).toMatchObject({ b: 2, c: 8, n: 10, statistic: 2 });
    expect(r.pValue).toBeCloseTo(0.109375, 14);
  });

  it('empty input: p = 1', () => {
    expect(mcnemarExact([]).pValue).toBe(1);
  });
});

describe('pairedAgreement', () => {
  it('counts same and different letters, null included', () => {
    const r = pairedAgreement(['A', 'B', null, 'C', null], ['A', 'C', null, null, 'D']);
    expect(r).toEqual({ same: 2, different: 3, differentIndices: [1, 3, 4], percentSame: 40 });
    expect(pairedAgreement([], []).percentSame).toBeNull();
  });

  it('rejects runs of different lengths', () => {
    expect(() => pairedAgreement(['A'], ['A', 'B'])).toThrow(RangeError);
  });
});
