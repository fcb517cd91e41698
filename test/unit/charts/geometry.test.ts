import { describe, expect, it } from 'vitest';
import {
  clamp,
  estimateTextWidth,
  linearScale,
  niceTicks,
  polygonPath,
  radarPoint,
  round2,
  sideAnchor,
} from '../../../src/ui/charts/geometry.ts';

const center = { x: 200, y: 150 };

describe('radarPoint', () => {
  it('4 axes at value = max land at top, right, bottom, left (axis 0 up, clockwise)', () => {
    const expected = [
      { x: 200, y: 50 },
      { x: 300, y: 150 },
      { x: 200, y: 250 },
      { x: 100, y: 150 },
    ];
    expected.forEach((want, i) => {
      const got = radarPoint(i, 4, 100, 100, 100, center);
      expect(Math.abs(got.x - want.x), `axis ${i} x`).toBeLessThan(1e-9);
      expect(Math.abs(got.y - want.y), `axis ${i} y`).toBeLessThan(1e-9);
    });
  });

  it('scales by value/max along the axis', () => {
    const half = radarPoint(1, 4, 25, 50, 100, center);
    expect(half.x).toBeCloseTo(250, 9);
    expect(half.y).toBeCloseTo(150, 9);
    // 3 axes: axis 1 at 120° clockwise from up → (sin 120°, −cos 120°) = (0.866025, 0.5)
    const p = radarPoint(1, 3, 52.5, 100, 200, { x: 0, y: 0 });
    expect(p.x).toBeCloseTo(90.93266739736606, 9); // 0.525 · 200 · sin 120°
    expect(p.y).toBeCloseTo(52.5, 9);
  });

  it('null and 0 sit at the centre; values are clamped to 0..max', () => {
    expect(radarPoint(2, 5, null, 100, 80, center)).toEqual(center);
    const zero = radarPoint(2, 5, 0, 100, 80, center);
    expect(zero.x).toBeCloseTo(200, 12);
    expect(zero.y).toBeCloseTo(150, 12);
    const over = radarPoint(0, 5, 250, 100, 80, center);
    expect(over.y).toBeCloseTo(70, 12);
    const under = radarPoint(0, 5, -10, 100, 80, center);
    expect(under.y).toBeCloseTo(150, 12);
  });
});

describe('niceTicks', () => {
  it('0..100 in quarters, 0..1 in fifths without float noise', () => {
    expect(niceTicks(100, 4)).toEqual([0, 25, 50, 75, 100]);
    expect(niceTicks(1, 5)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
    expect(niceTicks(1, 10)).toEqual([0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1]);
  });

  it('uses 1/2/2.5/5 steps and stops at max', () => {
    expect(niceTicks(100, 5)).toEqual([0, 20, 40, 60, 80, 100]);
    expect(niceTicks(90, 4)).toEqual([0, 25, 50, 75]);
    expect(niceTicks(7, 3)).toEqual([0, 2.5, 5]);
    expect(niceTicks(2000, 4)).toEqual([0, 500, 1000, 1500, 2000]);
  });

  it('degenerate maxima give just 0', () => {
    expect(niceTicks(0, 4)).toEqual([0]);
    expect(niceTicks(Number.NaN, 4)).toEqual([0]);
  });
});

describe('linearScale', () => {
  it('maps the domain onto the range, backwards too', () => {
    const x = linearScale([0, 100], [40, 640]);
    expect(x(0)).toBe(40);
    expect(x(50)).toBe(340);
    expect(x(100)).toBe(640);
    const y = linearScale([0, 1], [400, 20]);
    expect(y(0)).toBe(400);
    expect(y(0.25)).toBe(305);
  });

  it('a zero-width domain maps to the start of the range', () => {
    expect(linearScale([5, 5], [10, 20])(7)).toBe(10);
  });
});

describe('polygonPath', () => {
  it('closes the path and rounds to hundredths', () => {
    expect(polygonPath([{ x: 1, y: 2 }, { x: 3.14159, y: 4.005 }, { x: -0.001, y: 6 }])).toBe('M1 2 L3.14 4.01 L0 6 Z');
    expect(polygonPath([])).toBe('');
  });
});

describe('sideAnchor, clamp, round2, estimateTextWidth', () => {
  it('anchors by side of the centre', () => {
    expect(sideAnchor(300, 200)).toBe('start');
    expect(sideAnchor(100, 200)).toBe('end');
    expect(sideAnchor(200.0000001, 200)).toBe('middle');
  });

  it('clamps and rounds', () => {
    expect(clamp(5, 0, 1)).toBe(1);
    expect(clamp(-5, 0, 1)).toBe(0);
    expect(round2(1.005 + 1e-9)).toBe(1.01);
    expect(Object.is(round2(-0.001), 0)).toBe(true);
  });

  it('counts CJK as one em and Latin as 0.6 em', () => {
    expect(estimateTextWidth('文字', 12)).toBe(24);
    expect(estimateTextWidth('ab', 10)).toBe(12);
    expect(estimateTextWidth('字a', 10)).toBe(16);
    expect(estimateTextWidth('𠀀', 10)).toBe(10);
  });
});
