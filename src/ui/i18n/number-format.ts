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
}

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
  const formats: NumberFormats = {
    count: (n) => (n === null || n === undefined ? '—' : format(0).format(n)),
    number: (x, digits = null) => (x === null || x === undefined || Number.isNaN(x) ? '—' : format(digits).format(x)),
    points: (x, digits = 2) => formats.number(x, digits),
    fraction: (x, digits = 2) => (x === null || x === undefined ? '—' : formats.number(100 * x, digits)),
  };
  return formats;
}
