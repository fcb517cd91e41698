// Holm's step-down adjustment, against a hand computation and a Python implementation.
import { describe, expect, it } from 'vitest';
import { holmAdjust } from '../../../src/lib/core/metrics/holm.ts';

// python3 -c "
// def holm(p):
//     m=len(p); o=sorted(range(m),key=lambda i:p[i]); out=[0]*m; run=0
//     for r,i in enumerate(o): run=max(run,min(1,(m-r)*p[i])); out[i]=run
//     return out
// print(holm([0.01,0.04,0.03,0.005])); print(holm([0.2, 0.001, 0.04, 0.04, 0.5, 0.012]))"
// → [0.03, 0.06, 0.06, 0.02]
// → [0.4, 0.006, 0.16, 0.16, 0.5, 0.06]

describe('holmAdjust', () => {
  it('by hand: 0.005·4 = 0.02, 0.01·3 = 0.03, 0.03·2 = 0.06, 0.04·1 = 0.04 raised to 0.06 (step-down)', () => {
    const adjusted = holmAdjust([0.01, 0.04, 0.03, 0.005]);
    [0.03, 0.06, 0.06, 0.02].forEach((want, i) => expect(adjusted[i]).toBeCloseTo(want, 15));
  });

  it('matches the Python implementation, ties included, and clamps at 1', () => {
    const adjusted = holmAdjust([0.2, 0.001, 0.04, 0.04, 0.5, 0.012]);
    [0.4, 0.006, 0.16, 0.16, 0.5, 0.06].forEach((want, i) => expect(adjusted[i]).toBeCloseTo(want, 15));
    expect(holmAdjust([0.6, 0.7])).toEqual([1, 1]);
  });

  it('leaves rows without a test out of the family', () => {
    const adjusted = holmAdjust([null, 0.01, null, 0.04]);
    expect(adjusted[0]).toBeNull();
    expect(adjusted[2]).toBeNull();
    expect(adjusted[1]).toBeCloseTo(0.02, 15);
    expect(adjusted[3]).toBeCloseTo(0.04, 15);
    expect(holmAdjust([])).toEqual([]);
  });

  it('refuses a value that is not a p-value', () => {
    expect(() => holmAdjust([0.5, 1.2])).toThrow(RangeError);
    expect(() => holmAdjust([Number.NaN])).toThrow(RangeError);
  });
});
