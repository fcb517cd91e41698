// The paired, task-stratified bootstrap: its per-task resampling distribution against scipy's
// multinomial and the closed-form moments, and its interval and p where they are exact.
import { describe, expect, it } from 'vitest';
import { differenceDistribution, pairedBootstrap, pairedBootstrapSignature } from '../../../src/lib/core/metrics/paired-bootstrap.ts';

/** P(S = s) from the distribution's CDF. */
function pmf(table: Parameters<typeof differenceDistribution>[0]): Map<number, number> {
  const d = differenceDistribution(table);
  return new Map(Array.from(d.cdf, (c, k) => [d.offset + k, c - (k === 0 ? 0 : d.cdf[k - 1])]));
}

describe('differenceDistribution: X − Y for n items drawn with replacement', () => {
  it('equals the multinomial sum scipy gives (n = 12: 4 only this run right, 2 only the baseline)', () => {
    // python3 -c "
    // from scipy.stats import multinomial
    // n=12; p=[4/12,2/12,6/12]; pmf={}
    // for x in range(n+1):
    //   for y in range(n+1-x): pmf[x-y]=pmf.get(x-y,0)+multinomial.pmf([x,y,n-x-y],n,p)
    // print([(s, repr(float(pmf[s]))) for s in sorted(pmf) if -3<=s<=6])"
    const want: [number, number][] = [
      [-3, 0.019294241461540382],
      [-2, 0.04147327755603391],
      [-1, 0.07524244628931041],
      [0, 0.11558159253640676],
      [1, 0.1504848925786209],
      [2, 0.1658931102241357],
      [3, 0.1543539316923229],
      [4, 0.12054230120323782],
      [5, 0.07834489153076243],
      [6, 0.04186130257168706],
    ];
    const got = pmf({ both: 3, onlyThis: 4, onlyBaseline: 2, neither: 3 });
    for (const [s, p] of want) expect(got.get(s)!, `S = ${s}`).toBeCloseTo(p, 13);
  });

  it('has the multinomial mean n(pb − pc) and variance n(pb + pc − (pb − pc)²) for a task of 2,870 items', () => {
    const table = { both: 900, onlyThis: 800, onlyBaseline: 650, neither: 520 };
    const n = 2870;
    const [pb, pc] = [800 / n, 650 / n];
    let mean = 0;
    let second = 0;
    for (const [s, p] of pmf(table)) {
      mean += s * p;
      second += s * s * p;
    }
    expect(mean).toBeCloseTo(n * (pb - pc), 8);
    expect(second - mean * mean).toBeCloseTo(n * (pb + pc - (pb - pc) ** 2), 6);
  });

  it('is a point where no item is discordant, or all one way', () => {
    expect([...pmf({ both: 5, onlyThis: 0, onlyBaseline: 0, neither: 7 })].filter(([, p]) => p > 0)).toEqual([[0, 1]]);
    expect([...pmf({ both: 0, onlyThis: 9, onlyBaseline: 0, neither: 0 })].filter(([, p]) => p > 0)).toEqual([[9, 1]]);
    expect([...pmf({ both: 0, onlyThis: 0, onlyBaseline: 4, neither: 0 })].filter(([, p]) => p > 0)).toEqual([[-4, 1]]);
  });
});

describe('pairedBootstrap', () => {
  it('no discordant item: every resample is 0, so the interval is [0, 0] and p = 1', () => {
    const [r] = pairedBootstrap([{ both: 10, onlyThis: 0, onlyBaseline: 0, neither: 5 }], [[1]], { resamples: 500 });
    expect(r).toMatchObject({ difference: 0, low: 0, high: 0, pValue: 1, resamples: 500 });
  });

  it('every discordant item one way: every resample is +1, so p = 2 · (1 + 0) / (B + 1)', () => {
    const [r] = pairedBootstrap([{ both: 0, onlyThis: 8, onlyBaseline: 0, neither: 0 }], [[1]]);
    expect(r!.low).toBe(1);
    expect(r!.high).toBe(1);
    expect(r!.pValue).toBeCloseTo(2 / 10_001, 15);
  });

  it('is the same for the same seed, and a target with no weight has none', () => {
    const strata = [
      { both: 3, onlyThis: 4, onlyBaseline: 2, neither: 3 },
      { both: 1, onlyThis: 1, onlyBaseline: 5, neither: 2 },
    ];
    const a = pairedBootstrap(strata, [[0.5, 0.5], [0, 0]]);
    expect(a[1]).toBeNull();
    expect(pairedBootstrap(strata, [[0.5, 0.5]])[0]).toEqual(a[0]);
    expect(a[0]!.difference).toBeCloseTo(0.5 * (2 / 12) + 0.5 * (-4 / 9), 15);
  });

  it('names B, the seed, the PRNG, the interval and the p in its signature', () => {
    const signature = pairedBootstrapSignature();
    expect(signature).toContain('bs:10000');
    expect(signature).toContain('seed:12345');
    expect(signature).toContain('rng:mulberry32');
    expect(signature).toContain('strata:task');
    expect(signature).toContain('ci:percentile-95');
    expect(signature).toContain('p:two-sided-2x(1+min(#<=0,#>=0))/(B+1)');
  });
});
