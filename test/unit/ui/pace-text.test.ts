import { describe, expect, it } from 'vitest';
import { paceText } from '../../../src/ui/evaluate/pace-text.ts';

describe('paceText', () => {
  it('gives items per second from one a second up, and seconds per item below (never "0.0 items/s")', () => {
    expect(paceText(2.54, false)).toBe('2.5 items/s');
    expect(paceText(2.54, true)).toBe('每秒 2.5 题');
    expect(paceText(1 / 82, false)).toBe('82 s per item');
    expect(paceText(1 / 82, true)).toBe('每题 82 秒');
    expect(paceText(0.4, false)).toBe('2.5 s per item');
    expect(paceText(0, false)).toBe('…');
    expect(paceText(Number.NaN, true)).toBe('…');
  });
});
