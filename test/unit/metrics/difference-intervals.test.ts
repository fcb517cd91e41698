import { describe, expect, it } from 'vitest';
import { newcombePaired, newcombeUnpaired, pairedPhi } from '../../../src/lib/core/metrics/difference-intervals.ts';

// Published values, four decimals as printed. Sources:
//  - Unpaired: Newcombe (1998a) Stat Med 17:873, Table II, method 10. Example (a) 56/70 − 48/80 as
//    given in this project's brief; (d) 5/56 − 0/29 as transcribed in the ratesci package's tests
//    (petelaud/ratesci tests/testthat/test3.R, "Newcombe RD example (d)"). The other rows
//    ((b) 9/10 − 3/10, (c), (e)–(h)) are Table II's values as we recall them; each agrees to four
//    decimals with the formula, so a transcription slip would have shown as a mismatch.
//  - Paired: Newcombe (1998b) Stat Med 17:2635, the worked example a=20, b=12, c=2, d=16: method 10
//    gives 0.0562 to 0.3292, as transcribed in the same ratesci tests, which also give 0.0618 to
//    0.3242 for the same square-and-add with the plain (uncorrected) phi and label it method 8. Also Fagerland, Lydersen & Laake (2014) Table 8.x examples as checked by
//    the contingencytables R package (ocbe-uio/contingencytables tests/testthat/test-ch8.R, Cavo et al.
//    2012: −0.1186 to −0.0046) and ratesci (Bentur et al. 2009: −0.507 to −0.026; Tang 2010:
//    −0.1574 to 0.4136).
const round4 = (x: number) => Math.round(x * 1e4) / 1e4;

describe('newcombeUnpaired (Newcombe 1998a, method 10)', () => {
  const table2: [string, number, number, number, number, number, number][] = [
    ['(a)', 56, 70, 48, 80, 0.0524, 0.3339],
    ['(b)', 9, 10, 3, 10, 0.1705, 0.809],
    ['(c)', 6, 7, 2, 7, 0.0582, 0.8062],
    ['(d)', 5, 56, 0, 29, -0.0381, 0.1926],
    ['(e)', 0, 10, 0, 20, -0.1611, 0.2775],
    ['(f)', 0, 10, 0, 10, -0.2775, 0.2775],
    ['(g)', 10, 10, 0, 20, 0.6791, 1],
    ['(h)', 10, 10, 0, 10, 0.6075, 1],
  ];
  for (const [name, k1, n1, k2, n2, low, high] of table2) {
    it(`Table II example ${name}: ${k1}/${n1} − ${k2}/${n2} → ${low} to ${high}`, () => {
      const r = newcombeUnpaired(k1, n1, k2, n2)!;
      expect(r.difference).toBeCloseTo(k1 / n1 - k2 / n2, 12);
      expect(round4(r.low)).toBe(low);
      expect(round4(r.high)).toBe(high);
    });
  }

  it('is antisymmetric: swapping the samples negates and swaps the limits', () => {
    const ab = newcombeUnpaired(56, 70, 48, 80)!;
    const ba = newcombeUnpaired(48, 80, 56, 70)!;
    expect(ba.difference).toBeCloseTo(-ab.difference, 12);
    expect(ba.low).toBeCloseTo(-ab.high, 12);
    expect(ba.high).toBeCloseTo(-ab.low, 12);
  });

  it('a wider z gives a wider interval', () => {
    const r95 = newcombeUnpaired(56, 70, 48, 80)!;
    const r99 = newcombeUnpaired(56, 70, 48, 80, 2.5758293035489)!;
    expect(r99.low).toBeLessThan(r95.low);
    expect(r99.high).toBeGreaterThan(r95.high);
  });

  it('null for an empty sample; a RangeError for impossible counts', () => {
    expect(newcombeUnpaired(0, 0, 3, 10)).toBeNull();
    expect(newcombeUnpaired(3, 10, 0, 0)).toBeNull();
    expect(() => newcombeUnpaired(11, 10, 3, 10)).toThrow(RangeError);
    expect(() => newcombeUnpaired(1.5, 10, 3, 10)).toThrow(RangeError);
  });
});

describe('newcombePaired (Newcombe 1998b, method 10)', () => {
  it("the paper's example a=20, b=12, c=2, d=16: 0.2, 0.0562 to 0.3292", () => {
    const r = newcombePaired(20, 12, 2, 16)!;
    expect(r.difference).toBeCloseTo(0.2, 12);
    expect(round4(r.low)).toBe(0.0562);
    expect(round4(r.high)).toBe(0.3292);
  });

  it('Fagerland et al. examples: Cavo (59, 6, 16, 80), Bentur (1, 1, 7, 12), Tang (8, 3, 1, 2)', () => {
    const cavo = newcombePaired(59, 6, 16, 80)!;
    expect(round4(cavo.difference)).toBe(-0.0621);
    expect([round4(cavo.low), round4(cavo.high)]).toEqual([-0.1186, -0.0046]);
    const bentur = newcombePaired(1, 1, 7, 12)!;
    expect([Math.round(bentur.low * 1000) / 1000, Math.round(bentur.high * 1000) / 1000]).toEqual([-0.507, -0.026]);
    const tang = newcombePaired(8, 3, 1, 2)!;
    expect([round4(tang.low), round4(tang.high)]).toEqual([-0.1574, 0.4136]);
  });

  it("phi: the paper's corrected correlation, 0 inside [0, n/2] and when a margin is 0", () => {
    // 20·16 − 12·2 = 296 > 25 → (296 − 25) / sqrt(32·18·22·28)
    expect(pairedPhi(20, 12, 2, 16)).toBeCloseTo(271 / Math.sqrt(32 * 18 * 22 * 28), 14);
    // ad − bc = 10 − 9 = 1 ≤ n/2 → 0
    expect(pairedPhi(5, 3, 3, 2)).toBe(0);
    // negative: kept as is
    expect(pairedPhi(1, 5, 5, 1)).toBeCloseTo(-24 / Math.sqrt(6 * 6 * 6 * 6), 14);
    // a margin of 0 (nobody got it wrong in the first run)
    expect(pairedPhi(10, 0, 0, 0)).toBe(0);
  });

  it("the paper's correction of phi widens the interval against the plain-phi limits 0.0618 to 0.3242", () => {
    // Plain phi = 296 / sqrt(32·18·22·28) ≈ 0.497 > corrected ≈ 0.455: less correlation taken out.
    const r = newcombePaired(20, 12, 2, 16)!;
    expect(r.low).toBeLessThan(0.0618);
    expect(r.high).toBeGreaterThan(0.3242);
    expect(pairedPhi(20, 12, 2, 16)).toBeLessThan(296 / Math.sqrt(32 * 18 * 22 * 28));
  });

  it('no discordant pairs: difference 0 and an interval around it', () => {
    const r = newcombePaired(30, 0, 0, 10)!;
    expect(r.difference).toBe(0);
    expect(r.low).toBeLessThan(0);
    expect(r.high).toBeGreaterThan(0);
  });

  it('stays within [−1, 1] at the extremes', () => {
    const r = newcombePaired(0, 10, 0, 0)!;
    expect(r.difference).toBe(1);
    expect(r.high).toBe(1);
    expect(r.low).toBeGreaterThan(0);
    expect(r.low).toBeLessThanOrEqual(1);
  });

  it('null when there are no pairs; a RangeError for a negative count', () => {
    expect(newcombePaired(0, 0, 0, 0)).toBeNull();
    expect(() => newcombePaired(-1, 2, 3, 4)).toThrow(RangeError);
  });
});
