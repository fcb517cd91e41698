// fmt.bounded (number-format.ts): the formatter of numbers whose honest range is wider than their
// place (log p, summed log-likelihoods, t). Fixed decimals where they fit, fewer as the magnitude
// grows, then scientific notation with a minus sign, never wider than the width asked for.
import { describe, expect, it } from 'vitest';
import { CELL_WIDTH, numberFormats } from '../../../src/ui/i18n/number-format.ts';
import { formattingTag } from '../../../src/ui/i18n/choose.ts';
import { MINUS } from '../../../src/ui/i18n/interval.ts';

const en = numberFormats(() => formattingTag('en', []));
const zh = numberFormats(() => formattingTag('zh', []));
const width = (s: string) => [...s].length;

describe('fmt.bounded', () => {
  it('prints the usual fixed decimals where they fit, exactly as fmt.number does', () => {
    for (const f of [en, zh]) {
      for (const x of [0, -0.5, -3.14159, 2.5, -45.123456, -99_999.9999]) expect(f.bounded(x, 4, CELL_WIDTH)).toBe(f.number(x, 4));
    }
    // At the width exactly: twelve characters, four decimals.
    expect(en.bounded(-99_999.9999, 4, 12)).toBe('-99,999.9999');
    expect(en.bounded(12.5, 2, 12)).toBe('12.50');
  });

  it('drops decimals one at a time as the magnitude grows (one token\'s lowest log p was −131,072.0000, 13 characters)', () => {
    expect(en.bounded(-131_072, 4, 12)).toBe('-131,072.000');
    expect(zh.bounded(-131_072, 4, 12)).toBe('-131,072.000');
    expect(en.bounded(-1_234_567.891, 4, 12)).toBe('-1,234,567.9');
    expect(en.bounded(-12_345_678.9, 4, 12)).toBe('-12,345,679');
    expect(en.bounded(999_999_999, 2, 12)).toBe('999,999,999');
    // One past what fits in 12 with no decimals: scientific.
    expect(en.bounded(-1_000_000_000, 2, 11)).toBe(`${MINUS}1E9`);
  });

  it('goes to scientific notation with a minus sign beyond, keeping up to the page\'s decimals', () => {
    // An option text's lowest sum (2^17 tokens of −131,072 nats) and a t of 10^12.
    expect(en.bounded(-(2 ** 34), 4, 12)).toBe(`${MINUS}1.718E10`);
    expect(zh.bounded(-(2 ** 34), 4, 12)).toBe(`${MINUS}1.718E10`);
    expect(en.bounded(-1e12, 2, 12)).toBe(`${MINUS}1E12`);
    expect(en.bounded(3.25e14, 2, 12)).toBe('3.25E14');
    // Fewer mantissa digits when the width is tighter still; a locale's own decimal separator stays.
    expect(en.bounded(-1.23456e300, 4, 8)).toBe(`${MINUS}1.2E300`);
    expect(numberFormats(() => 'de-DE').bounded(-(2 ** 34), 4, 12)).toBe(`${MINUS}1,718E10`);
    expect(en.bounded(-(2 ** 34), 4, 12)).not.toContain('-');
  });

  it('never prints wider than the width, for any finite number from 7 characters up, in both languages', () => {
    for (const f of [en, zh]) {
      for (let w = 7; w <= 20; w++) {
        for (let k = -320; k <= 308; k += 7) {
          for (const x of [10 ** k, -(10 ** k), -1.999999 * 10 ** Math.min(k, 307), Number.MAX_VALUE, -Number.MAX_VALUE, -Number.MIN_VALUE]) {
            for (const digits of [0, 2, 4]) {
              const printed = f.bounded(x, digits, w);
              expect(width(printed), `${x} with ${digits} decimals in ${w}: "${printed}"`).toBeLessThanOrEqual(w);
            }
          }
        }
      }
    }
  });

  it('shows no value as an em dash', () => {
    expect(en.bounded(null, 4, 12)).toBe('—');
    expect(en.bounded(undefined, 4, 12)).toBe('—');
    expect(zh.bounded(Number.NaN, 4, 12)).toBe('—');
  });
});
