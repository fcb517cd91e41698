// How a page prints a signed number and an interval. Intl's English and Chinese formats write a
// negative number with a hyphen-minus, so "-6.37–-0.00" read as a dash between dashes: a minus sign
// (U+2212) for the sign, and a word between the ends ("to", 至), never a dash or an ellipsis.

import type { Locale } from './choose.ts';

export const MINUS = '\u2212';

/** A formatted number with its sign as a minus sign: the hyphen-minus (or other minus form) Intl wrote before the digits is replaced. */
export function withMinusSign(formatted: string): string {
  return formatted.replace(/^([^\d]*?)[-\u2010\u2011\u2012\u2013\ufe63\uff0d](?=[\d.,])/, `$1${MINUS}`);
}

/** "−6.37 to −0.01" / "−6.37 至 −0.01": the ends already formatted with the digits the page wants. */
export function intervalText(low: string, high: string, lang: Locale): string {
  return `${withMinusSign(low)}${lang === 'zh' ? ' 至 ' : ' to '}${withMinusSign(high)}`;
}

/** A difference with its sign always shown: "+1.20", "−0.35", "0.00". */
export function signedText(x: number, formatted: string): string {
  return x > 0 ? `+${formatted}` : withMinusSign(formatted);
}
