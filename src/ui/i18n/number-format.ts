// The interface's number formats, apart from the locale state (locale.svelte.ts builds `fmt` on
// them with the chosen language's tag), so a unit test can put the widest values a file may hold
// through exactly what the pages print (test/unit/formats/printed-width.test.ts).

export interface NumberFormats {
  /** An integer count, with the locale's grouping (1,234 / 1,234). */
  count(n: number | null | undefined): string;
  /** A number with exactly `digits` decimals (default: as many as it has). */
  number(x: number | null | undefined, digits?: number | null): string;
  /** A value already on 0..100, with `digits` decimals and no % sign (table cells say % in their header). */
  points(x: number | null | undefined, digits?: number): string;
  /** A fraction 0..1 as percent points, `digits` decimals, no % sign. */
  fraction(x: number | null | undefined, digits?: number): string;
  /**
   * A number whose honest range is wider than its place (a log p, a summed log-likelihood, a t), in at
   * most `width` characters: `digits` decimals where that fits, fewer as the magnitude grows, and
   * beyond, scientific notation with up to `digits` fraction digits, as many as fit, and a minus sign
   * (U+2212) for both signs ("−1.718E10"). Any finite number fits a width of 7 ("−1E−308"). Where the
   * fixed form fits, it is fmt.number's, sign and all, so a column of everyday values reads as before.
   */
  bounded(x: number | null | undefined, digits: number, width: number): string;
}

/**
 * A table cell's number column (the item inspector's log p, the file-order test's t): at most twelve
 * characters. A t in running text ("t = …") keeps to it too: a t wider than a cell says nothing more.
 */
export const CELL_WIDTH = 12;

const MINUS_SIGN = '\u2212';
/** Characters as a reader counts them (code points), not UTF-16 units. */
const chars = (s: string): number => [...s].length;

/** Number formats in the language `tag()` names at each call; null and undefined show as an em dash. */
export function numberFormats(tag: () => string): NumberFormats {
  const cache = new Map<string, Intl.NumberFormat>();
  const format = (digits: number | null): Intl.NumberFormat => {
    const key = `${tag()}|${digits}`;
    let f = cache.get(key);
    if (!f) {
      f = new Intl.NumberFormat(tag(), digits === null ? {} : { minimumFractionDigits: digits, maximumFractionDigits: digits });
      cache.set(key, f);
    }
    return f;
  };
  const scientific = (digits: number): Intl.NumberFormat => {
    const key = `${tag()}|e${digits}`;
    let f = cache.get(key);
    if (!f) {
      f = new Intl.NumberFormat(tag(), { notation: 'scientific', minimumFractionDigits: 0, maximumFractionDigits: digits });
      cache.set(key, f);
    }
    return f;
  };
  const formats: NumberFormats = {
    count: (n) => (n === null || n === undefined ? '—' : format(0).format(n)),
    number: (x, digits = null) => (x === null || x === undefined || Number.isNaN(x) ? '—' : format(digits).format(x)),
    points: (x, digits = 2) => formats.number(x, digits),
    fraction: (x, digits = 2) => (x === null || x === undefined ? '—' : formats.number(100 * x, digits)),
    bounded: (x, digits, width) => {
      if (x === null || x === undefined || Number.isNaN(x)) return '—';
      for (let d = digits; d >= 0; d--) {
        const fixed = format(d).format(x);
        if (chars(fixed) <= width) return fixed;
      }
      // Scientific: the most fraction digits, up to the page's, that fit.
      let narrowest = '';
      for (let d = digits; d >= 0; d--) {
        narrowest = scientific(d).formatToParts(x).map((part) => (part.type === 'minusSign' || part.type === 'exponentMinusSign' ? MINUS_SIGN : part.value)).join('');
        if (chars(narrowest) <= width) return narrowest;
      }
      return narrowest;
    },
  };
  return formats;
}
