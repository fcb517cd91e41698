import { describe, expect, it } from 'vitest';
import { calibration, calibrationBinIndex, type CalibrationInput } from '../../../src/lib/core/metrics/calibration.ts';

const item = (probs: number[], predicted: number | null, gold: number | null, correct: boolean | null = predicted === null || gold === null ? null : predicted === gold): CalibrationInput => ({
  probs,
  predicted,
  gold,
  correct,
});

// Four items by hand, 10 bins:
//   0.90 right, 0.95 wrong → bin 9: count 2, mean confidence 0.925, accuracy 0.5, gap 0.425
//   0.60 right             → bin 6: count 1, gap |1 − 0.6| = 0.4
//   0.25 wrong             → bin 2: count 1, gap 0.25
//   ECE = ½·0.425 + ¼·0.4 + ¼·0.25 = 0.375; MCE = 0.425
//   Brier: 0.015 + 1.805 + 0.26 + 0.75 = 2.83, / 4 = 0.7075
const fourItems: CalibrationInput[] = [
  item([0.9, 0.05, 0.05], 0, 0),
  item([0.95, 0.05], 0, 1),
  item([0.3, 0.6, 0.1], 1, 1),
  item([0.25, 0.25, 0.25, 0.25], 2, 0),
];

describe('calibration: hand-computed', () => {
  const result = calibration(fourItems);

  it('bins the chosen-letter confidences', () => {
    expect(result.n).toBe(4);
    expect(result.bins).toHaveLength(10);
    expect(result.bins.map((b) => b.count)).toEqual([0, 0, 1, 0, 0, 0, 1, 0, 0, 2]);
    expect(result.bins[9].meanConfidence).toBeCloseTo(0.925, 12);
    expect(result.bins[9].accuracy).toBe(0.5);
    expect(result.bins[6]).toMatchObject({ low: 0.6, high: 0.7, count: 1, meanConfidence: 0.6, accuracy: 1 });
    expect(result.bins[0]).toMatchObject({ count: 0, meanConfidence: null, accuracy: null });
  });

  it('ECE = 0.375, MCE = 0.425, Brier = 0.7075', () => {
    expect(result.ece).toBeCloseTo(0.375, 12);
    expect(result.maxCalibrationError).toBeCloseTo(0.425, 12);
    expect(result.brier).toBeCloseTo(0.7075, 12);
    expect(result.brierN).toBe(4);
  });

  it('states how it was computed', () => {
    expect(result.signature).toBe('calibration|conf:predicted-letter-prob|bins:10-equal-width|ece:weighted-l1|brier:multiclass-sum|version:1');
    expect(calibration(fourItems, 15).signature).toContain('bins:15-equal-width');
  });

  it('fewer bins merge the gaps: 1 bin gives |mean accuracy − mean confidence|', () => {
    // accuracy 2/4 = 0.5, mean confidence (0.9 + 0.95 + 0.6 + 0.25)/4 = 0.675
    expect(calibration(fourItems, 1).ece).toBeCloseTo(0.175, 12);
  });
});

describe('calibration: Brier', () => {
  it('binary [0.7, 0.3] with gold 0: 0.3² + 0.3² = 0.18 (the multi-class form, twice the binary 0.09)', () => {
    expect(calibration([item([0.7, 0.3], 0, 0)]).brier).toBeCloseTo(0.18, 12);
  });

  it('is 0 for a certain right answer and 2 for a certain wrong one', () => {
    expect(calibration([item([1, 0, 0, 0], 0, 0)]).brier).toBe(0);
    expect(calibration([item([0, 1, 0, 0], 1, 3)]).brier).toBe(2);
  });

  it('skips items without a gold index but still bins them', () => {
    const result = calibration([item([0.7, 0.3], 0, 0), item([0.6, 0.4], 0, null, true)]);
    expect(result.n).toBe(2);
    expect(result.brierN).toBe(1);
    expect(result.brier).toBeCloseTo(0.18, 12);
  });
});

describe('calibration: a perfectly calibrated set', () => {
  // 100 items at each bin centre c = 0.05, 0.15, …, 0.95, of which exactly 100·c are right.
  const items: CalibrationInput[] = [];
  for (let k = 0; k < 10; k++) {
    const c = (k + 0.5) / 10;
    const right = Math.round(100 * c);
    for (let i = 0; i < 100; i++) items.push(item([c, 1 - c], 0, i < right ? 0 : 1));
  }

  it('has ECE ≈ 0 and MCE ≈ 0', () => {
    const result = calibration(items);
    expect(result.n).toBe(1000);
    expect(result.bins.every((b) => b.count === 100)).toBe(true);
    expect(result.ece).toBeLessThan(1e-12);
    expect(result.maxCalibrationError).toBeLessThan(1e-12);
  });

  it('while an overconfident copy (every item claims 0.95) does not', () => {
    const overconfident = items.map((x) => ({ ...x, probs: [0.95, 0.05] }));
    // accuracy over all = 500/1000 = 0.5 in the one bin used → ECE = 0.45
    expect(calibration(overconfident).ece).toBeCloseTo(0.45, 12);
  });
});

describe('calibration: bin edges', () => {
  it('0 → bin 0, 0.1 → bin 1 (lower edge inclusive), 1.0 → the last bin', () => {
    const result = calibration([item([0, 1], 0, 1), item([0.1, 0.9], 0, 1), item([1, 0], 0, 0), item([0.0999999, 0.9000001], 0, 1)]);
    expect(result.bins[0].count).toBe(2);
    expect(result.bins[1].count).toBe(1);
    expect(result.bins[9].count).toBe(1);
    expect(result.bins[9].high).toBe(1);
  });

  it('every edge k/B lands in bin k, for B up to 50 (floor(k/B·B) alone is not always k)', () => {
    for (let b = 1; b <= 50; b++) {
      for (let k = 0; k < b; k++) expect(calibrationBinIndex(k / b, b), `${k}/${b}`).toBe(k);
      expect(calibrationBinIndex(1, b)).toBe(b - 1);
    }
  });

  it('just below an edge stays in the lower bin', () => {
    expect(calibrationBinIndex(0.3 - 1e-12, 10)).toBe(2);
    expect(calibrationBinIndex(1 - 1e-12, 10)).toBe(9);
  });
});

describe('calibration: exclusions and emptiness', () => {
  it('leaves out and counts items without a key, without probabilities, without a prediction', () => {
    const result = calibration([
      item([0.8, 0.2], 0, 0),
      item([0.8, 0.2], 0, null, null),
      item([], 1, 1, true),
      item([], null, 1, false),
      item([0.5, 0.5], null, 0, false),
    ]);
    expect(result.n).toBe(1);
    expect(result.excluded).toEqual({ noAnswerKey: 1, noProbabilities: 2, noPrediction: 1 });
    expect(result.ece).toBeCloseTo(0.2, 12);
  });

  it('n = 0: ECE, MCE and Brier are null, not 0', () => {
    for (const items of [[], [item([], 0, 0, true)]]) {
      const result = calibration(items);
      expect(result.n).toBe(0);
      expect(result.ece).toBeNull();
      expect(result.maxCalibrationError).toBeNull();
      expect(result.brier).toBeNull();
      expect(result.bins.every((b) => b.count === 0 && b.accuracy === null)).toBe(true);
    }
  });
});

describe('calibration: bad input', () => {
  const ok = item([0.5, 0.5], 0, 0);
  it.each([
    ['a NaN', [0.5, Number.NaN]],
    ['a negative value', [1.2, -0.2]],
    ['a value above 1', [1.5, 0.5]],
    ['a sum of 0.9', [0.5, 0.4]],
    ['Infinity', [Number.POSITIVE_INFINITY, 0]],
  ])('throws a RangeError naming the position for %s', (_, probs) => {
    expect(() => calibration([ok, ok, item(probs, 0, 0)])).toThrow(RangeError);
    expect(() => calibration([ok, ok, item(probs, 0, 0)])).toThrow(/position 2/);
  });

  it('accepts a float32 softmax whose sum drifts by less than 1e-6', () => {
    expect(calibration([item([0.3333333, 0.3333333, 0.3333333], 0, 0)]).n).toBe(1);
  });

  it('rejects an index outside the letters', () => {
    expect(() => calibration([item([0.5, 0.5], 2, 0)])).toThrow(/predicted = 2/);
    expect(() => calibration([item([0.5, 0.5], 0, -1)])).toThrow(/gold = -1/);
    expect(() => calibration([ok], 0)).toThrow(RangeError);
  });
});
