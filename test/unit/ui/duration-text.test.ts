import { describe, expect, it } from 'vitest';
import { durationText } from '../../../src/ui/evaluate/pace-text.ts';

describe('durationText', () => {
  it('says seconds, then minutes, then hours and minutes, in both languages', () => {
    expect(durationText(0.2, false)).toBe('about 1 s');
    expect(durationText(89, false)).toBe('about 89 s');
    expect(durationText(90, false)).toBe('about 2 min');
    expect(durationText(42 * 60, true)).toBe('约 42 分钟');
    expect(durationText(59.4 * 60, false)).toBe('about 59 min');
    expect(durationText(59.6 * 60, false)).toBe('about 1 h');
    expect(durationText(3 * 3600 + 20 * 60 + 10, false)).toBe('about 3 h 20 min');
    expect(durationText(3 * 3600 + 20 * 60 + 10, true)).toBe('约 3 小时 20 分钟');
    // From ten hours on, to ten minutes.
    expect(durationText(12 * 3600 + 17 * 60, false)).toBe('about 12 h 20 min');
    expect(durationText(Number.POSITIVE_INFINITY, false)).toBe('…');
  });
});
