import { describe, expect, it } from 'vitest';
import { intervalText, MINUS, signedText, withMinusSign } from '../../../src/ui/i18n/interval.ts';

const en = new Intl.NumberFormat('en-US', { minimumFractionDigits: 3, maximumFractionDigits: 3 });
const zh = new Intl.NumberFormat('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe('intervals and signs as pages print them', () => {
  it('writes Intl’s negative numbers with a minus sign and a word between the ends (was "-1,971.944–-1,272.557")', () => {
    expect(intervalText(en.format(-1971.944), en.format(-1272.557), 'en')).toBe(`${MINUS}1,971.944 to ${MINUS}1,272.557`);
    expect(intervalText(zh.format(-6.37), zh.format(-0.001), 'zh')).toBe(`${MINUS}6.37 至 ${MINUS}0.00`);
    expect(intervalText(en.format(-0.5), en.format(2), 'en')).toBe(`${MINUS}0.500 to 2.000`);
  });

  it('changes only a sign before the digits: positive numbers, dashes standing for a missing value and inner hyphens stay', () => {
    expect(withMinusSign('1,234.5')).toBe('1,234.5');
    expect(withMinusSign('—')).toBe('—');
    expect(withMinusSign('-.5')).toBe(`${MINUS}.5`);
    expect(withMinusSign(`${MINUS}3`)).toBe(`${MINUS}3`);
    expect(withMinusSign('1-2')).toBe('1-2');
  });

  it('shows a difference’s sign: plus above zero, minus sign below, none at zero', () => {
    expect(signedText(1.2, '1.20')).toBe('+1.20');
    expect(signedText(-0.35, '-0.35')).toBe(`${MINUS}0.35`);
    expect(signedText(0, '0.00')).toBe('0.00');
  });
});
