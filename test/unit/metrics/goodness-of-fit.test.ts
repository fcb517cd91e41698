import { describe, expect, it } from 'vitest';
import {
  chiSquareSurvival,
  compositionCount,
  exactMultinomialPValue,
  goodnessOfFit,
  pearsonStatistic,
} from '../../../src/lib/core/metrics/goodness-of-fit.ts';

describe('chiSquareSurvival', () => {
  it('matches the published critical values of chi-square tables', () => {
    // Any chi-square table (e.g. NIST/SEMATECH e-Handbook 1.3.6.7.4): upper-tail 0.05 and 0.01 points.
    expect(chiSquareSurvival(7.815, 3)).toBeCloseTo(0.05, 4);
    expect(chiSquareSurvival(11.345, 3)).toBeCloseTo(0.01, 4);
    expect(chiSquareSurvival(3.841, 1)).toBeCloseTo(0.05, 4);
    expect(chiSquareSurvival(18.307, 10)).toBeCloseTo(0.05, 4);
  });

  it('matches scipy.stats.chi2.sf to 1e-9 relative, in the body and the far tail', () => {
    // python3 -c "from scipy.stats import chi2; print([chi2.sf(x, d) for x, d in [(7.815,3),(11.345,3),(3.841,1),(18.307,10),(0.5,1),(2.0,4),(50.0,3),(120.0,7),(0.01,2)]])"
    // (scipy 1.17.1)
    const cases: [number, number, number][] = [
      [7.815, 3, 0.049993902974883875],
      [11.345, 3, 0.009999384083287103],
      [3.841, 1, 0.050013683763956804],
      [18.307, 10, 0.05000058909139812],
      [0.5, 1, 0.47950012218695337],
      [2.0, 4, 0.7357588823428847],
      [50.0, 3, 7.989179244951495e-11],
      [120.0, 7, 7.661246463353007e-23],
      [0.01, 2, 0.9950124791926823],
    ];
    for (const [x, df, p] of cases) expect(Math.abs(chiSquareSurvival(x, df) - p) / p).toBeLessThan(1e-9);
  });

  it('is 1 at 0 and rejects df < 1', () => {
    expect(chiSquareSurvival(0, 3)).toBe(1);
    expect(() => chiSquareSurvival(1, 0)).toThrow(RangeError);
  });
});

describe('exact multinomial test', () => {
  // Reference values from an independent brute force in Python with exact fractions: every
  // composition of n enumerated, p = Σ P(x) over P(x) ≤ P(obs)·(1 + 1e-7). The script (run once):
  //   def comps(n, m): yield every tuple of m whole numbers summing to n
  //   def exact(obs, exp): p_i = Fraction(exp_i, Σexp); prob(x) = n!·Π p_i^x_i / x_i!;
  //     return float(Σ prob(x) for x in comps(n, m) if prob(x) <= prob(obs)·(1 + Fraction(1, 10**7)))
  //   with X² from scipy.stats.chisquare(obs, exp).
  const cases: { observed: number[]; expected: number[]; p: number; x2: number }[] = [
    { observed: [1, 1, 8, 0], expected: [3, 3, 2, 2], p: 0.0001922386, x2: 22.666666666666668 },
    { observed: [5, 5, 5, 5], expected: [5, 5, 5, 5], p: 1.0, x2: 0 },
    { observed: [0, 12, 0], expected: [4, 4, 4], p: 5.645029269476762e-6, x2: 24 },
    { observed: [24, 12, 15, 9], expected: [15, 15, 15, 15], p: 0.04757119904582541, x2: 8.4 },
    { observed: [30, 5, 20], expected: [20, 15, 20], p: 0.0017168364526602635, x2: 11.666666666666668 },
    { observed: [3, 0, 1, 0], expected: [1, 1, 1, 1], p: 0.203125, x2: 6 },
  ];
  for (const c of cases) {
    it(`observed ${c.observed} against ${c.expected}`, () => {
      const fit = goodnessOfFit(c.observed, c.expected)!;
      expect(fit.method).toBe('exact-multinomial');
      expect(fit.df).toBe(c.expected.length - 1);
      expect(fit.statistic).toBeCloseTo(c.x2, 10);
      expect(Math.abs(fit.pValue - c.p) / c.p).toBeLessThan(1e-7);
    });
  }

  it('two cells: the two-sided exact binomial test (7 of 10 against 1/2: 352/1024)', () => {
    // P(X ≤ 3) + P(X ≥ 7) for X ~ Bin(10, 1/2) = 2·(1 + 10 + 45 + 120)/1024.
    expect(exactMultinomialPValue([7, 3], [0.5, 0.5])).toBeCloseTo(352 / 1024, 12);
  });

  it('counts compositions as C(n + m − 1, m − 1)', () => {
    expect(compositionCount(10, 4)).toBe(286);
    expect(compositionCount(100, 4)).toBe(176_851);
    expect(compositionCount(64, 4)).toBe(47_905);
    expect(compositionCount(65, 4)).toBe(50_116);
    expect(compositionCount(5, 1)).toBe(1);
  });
});

describe('goodnessOfFit', () => {
  it('uses exact up to 50,000 compositions (n = 64 of four letters), chi-square past them (n = 65)', () => {
    expect(goodnessOfFit([16, 16, 16, 16], [1, 1, 1, 1])!.method).toBe('exact-multinomial');
    expect(goodnessOfFit([17, 16, 16, 16], [1, 1, 1, 1])!.method).toBe('chi-square');
    // The exact p of (40, 20, 25, 15) against quarters is 0.004152951803087324 (the brute force above,
    // n = 100); past the limit it is the chi-square approximation:
    // python3 -c "from scipy.stats import chisquare; print(chisquare([40,20,25,15],[25,25,25,25]))" → p 0.002905152774267437
    const fit = goodnessOfFit([40, 20, 25, 15], [25, 25, 25, 25])!;
    expect(fit).toMatchObject({ method: 'chi-square', df: 3, statistic: 14 });
    expect(Math.abs(fit.pValue - 0.002905152774267437) / 0.002905152774267437).toBeLessThan(1e-9);
    expect(Math.abs(exactMultinomialPValue([40, 20, 25, 15], [0.25, 0.25, 0.25, 0.25]) - 0.004152951803087324) / 0.004152951803087324).toBeLessThan(1e-7);
  });

  it('uses chi-square on larger tables, df = categories expected − 1', () => {
    // n = 200 in four cells: C(203, 3) = 1,373,701 compositions.
    // python3 -c "from scipy.stats import chisquare; print(chisquare([80,40,50,30],[50,50,50,50]))"
    // → statistic 28.0, pvalue 3.632036559382284e-06
    const fit = goodnessOfFit([80, 40, 50, 30], [50, 50, 50, 50])!;
    expect(fit.method).toBe('chi-square');
    expect(fit.df).toBe(3);
    expect(fit.statistic).toBeCloseTo(28, 12);
    expect(Math.abs(fit.pValue - 3.632036559382284e-6) / 3.632036559382284e-6).toBeLessThan(1e-9);
  });

  it('scales expected counts to the observed total', () => {
    expect(goodnessOfFit([1, 1, 8, 0], [6, 6, 4, 4])!.pValue).toBeCloseTo(0.0001922386, 9);
  });

  it('a letter predicted whose gold count is 0 is impossible under H0: p = 0, X² = Infinity', () => {
    const fit = goodnessOfFit([2, 1, 1], [4, 0, 0])!;
    expect(fit).toEqual({ statistic: Infinity, df: 0, pValue: 0, method: 'exact-multinomial' });
    expect(pearsonStatistic([3, 1], [4, 0])).toBe(Infinity);
  });

  it('categories with nothing expected and nothing observed are left out of df', () => {
    const fit = goodnessOfFit([7, 3, 0], [5, 5, 0])!;
    expect(fit.df).toBe(1);
    expect(fit.pValue).toBeCloseTo(352 / 1024, 12);
  });

  it('is null for n = 0', () => {
    expect(goodnessOfFit([0, 0], [0, 0])).toBeNull();
  });
});
