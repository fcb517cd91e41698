// Kemp's modal binomial draw (PriDe's bootstrap draws its count of right answers with it): each
// outcome k takes a stretch of u of length P(k), so a grid of N uniforms lands on k about N·P(k)
// times, P from scipy.
import { describe, expect, it } from 'vitest';
import { binomialDraw, logFactorials } from '../../../src/lib/core/metrics/binomial-draw.ts';

/** How many of the grid u = (i + ½)/N land on each outcome. */
function gridCounts(n: number, p: number, grid: number): number[] {
  const table = logFactorials(n);
  const counts = new Array<number>(n + 1).fill(0);
  for (let i = 0; i < grid; i++) counts[binomialDraw((i + 0.5) / grid, n, p, table)]++;
  return counts;
}

describe('binomialDraw', () => {
  it('gives each outcome of Binomial(12, 0.35) its probability’s share of [0, 1)', () => {
    // python3 -c "from scipy.stats import binom; print([float(x) for x in binom.pmf(range(13),12,0.35)])"
    const pmf = [
      0.005688009063105735, 0.03675328933083693, 0.10884627994132463, 0.19536511784340338, 0.23669235431027727, 0.20391956679039275, 0.12810331759909277,
      0.05912460812265816, 0.019897704656663812, 0.004761843849458006, 0.0007692209295278319, 7.530834275097653e-5, 3.379220508056638e-6,
    ];
    const grid = 1_000_000;
    gridCounts(12, 0.35, grid).forEach((count, k) => expect(Math.abs(count - grid * pmf[k]), `k = ${k}`).toBeLessThanOrEqual(1));
  });

  it('has mean np and variance np(1 − p) at PriDe’s size (27,272 items, p = 0.55)', () => {
    const [n, p, grid] = [27_272, 0.55, 200_000];
    const counts = gridCounts(n, p, grid);
    let mean = 0;
    let second = 0;
    counts.forEach((c, k) => {
      mean += (c * k) / grid;
      second += (c * k * k) / grid;
    });
    expect(mean).toBeCloseTo(n * p, 1);
    expect((second - mean * mean) / (n * p * (1 - p))).toBeCloseTo(1, 2);
  });

  it('p = 0 and p = 1 are certain; refuses n past the table and p outside [0, 1]', () => {
    const table = logFactorials(10);
    expect(binomialDraw(0.7, 10, 0, table)).toBe(0);
    expect(binomialDraw(0.7, 10, 1, table)).toBe(10);
    expect(binomialDraw(0.3, 0, 0.5, table)).toBe(0);
    expect(() => binomialDraw(0.5, 11, 0.5, table)).toThrow(RangeError);
    expect(() => binomialDraw(0.5, 5, 1.5, table)).toThrow(RangeError);
  });
});
