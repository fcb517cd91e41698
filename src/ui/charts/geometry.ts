// Pure geometry for the SVG charts: scales, ticks, radar coordinates, label wrapping. No DOM: the
// charts must draw the same thing in every browser and in tests, so text widths are estimated from
// the characters (CJK ideographs are one em wide, everything else is taken as 0.6 em) rather than
// measured.

export interface Point {
  x: number;
  y: number;
}

/** `value` limited to [min, max]. */
export function clamp(value: number, min: number, max: number): number {
  return Math.min(max, Math.max(min, value));
}

/** A coordinate rounded to hundredths, so attribute strings are short and the same in every run. */
export function round2(value: number): number {
  const rounded = Math.round(value * 100) / 100;
  return rounded === 0 ? 0 : rounded; // no "-0" in attributes
}

/**
 * A linear map from `domain` to `range` (either may run backwards, as a y axis does). A domain of
 * zero width maps everything to range[0] instead of dividing by zero.
 */
export function linearScale(domain: readonly [number, number], range: readonly [number, number]): (value: number) => number {
  const [d0, d1] = domain;
  const [r0, r1] = range;
  const width = d1 - d0;
  if (width === 0) return () => r0;
  return (value) => r0 + ((value - d0) / width) * (r1 - r0);
}

/**
 * Round tick values from 0 up to at most `max`, about `count` intervals apart, with steps of 1, 2,
 * 2.5 or 5 times a power of ten: niceTicks(100, 4) = [0, 25, 50, 75, 100]; niceTicks(1, 5) = [0, 0.2, …, 1].
 * A step that does not divide `max` stops at the last tick below it (the caller draws `max` itself).
 */
export function niceTicks(max: number, count: number): number[] {
  if (!(max > 0) || !Number.isFinite(max)) return [0];
  const intervals = Math.max(1, Math.round(count));
  const raw = max / intervals;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = ([1, 2, 2.5, 5, 10].find((m) => m * magnitude >= raw * (1 - 1e-12)) ?? 10) * magnitude;
  const ticks: number[] = [];
  for (let i = 0; ; i++) {
    // toPrecision strips float noise (3 × 0.2 = 0.6000000000000001) so "0.6" is what fmt receives.
    const tick = Number((i * step).toPrecision(12));
    if (tick > max * (1 + 1e-12)) break;
    ticks.push(tick);
  }
  return ticks;
}

/** The angle of radar axis `axisIndex` of `axisCount`, in radians clockwise from straight up. */
export function radarAngle(axisIndex: number, axisCount: number): number {
  return (2 * Math.PI * axisIndex) / axisCount;
}

/**
 * Where `value` (on 0..max) sits on radar axis `axisIndex` of `axisCount`: axis 0 points straight up
 * and the others follow clockwise. Values are clamped to 0..max; null sits at the centre.
 */
export function radarPoint(axisIndex: number, axisCount: number, value: number | null, max: number, radius: number, center: Point): Point {
  const share = value === null || !(max > 0) ? 0 : clamp(value / max, 0, 1);
  const angle = radarAngle(axisIndex, axisCount);
  // SVG's y grows downward, so "up" is −cos.
  return { x: center.x + radius * share * Math.sin(angle), y: center.y - radius * share * Math.cos(angle) };
}

/** A closed SVG path through the points: `M x y L x y … Z`; empty for no points. */
export function polygonPath(points: readonly Point[]): string {
  if (points.length === 0) return '';
  return `${points.map((p, i) => `${i === 0 ? 'M' : 'L'}${round2(p.x)} ${round2(p.y)}`).join(' ')} Z`;
}

/** How a label beside a point at `x` should anchor so it reads away from `centerX`. */
export function sideAnchor(x: number, centerX: number, tolerance = 1): 'start' | 'middle' | 'end' {
  if (Math.abs(x - centerX) <= tolerance) return 'middle';
  return x > centerX ? 'start' : 'end';
}

/** East Asian wide characters: CJK ideographs, kana, hangul, full-width forms and CJK punctuation. */
function isWide(codePoint: number): boolean {
  return (
    (codePoint >= 0x1100 && codePoint <= 0x115f) ||
    (codePoint >= 0x2e80 && codePoint <= 0xa4cf) ||
    (codePoint >= 0xac00 && codePoint <= 0xd7a3) ||
    (codePoint >= 0xf900 && codePoint <= 0xfaff) ||
    (codePoint >= 0xfe30 && codePoint <= 0xfe4f) ||
    (codePoint >= 0xff00 && codePoint <= 0xff60) ||
    (codePoint >= 0xffe0 && codePoint <= 0xffe6) ||
    (codePoint >= 0x20000 && codePoint <= 0x3fffd)
  );
}

/** An upper estimate of a text's width at `fontSize`: wide characters 1 em, others 0.6 em. */
export function estimateTextWidth(text: string, fontSize: number): number {
  let ems = 0;
  for (const char of text) ems += isWide(char.codePointAt(0)!) ? 1 : 0.6;
  return ems * fontSize;
}

/** A label laid out on at most a few lines, and whether words had to be left off the end. */
export interface WrappedLabel {
  lines: string[];
  /** True when the label did not fit and its last line ends in an ellipsis. */
  shortened: boolean;
}

interface LabelToken {
  text: string;
  /** Whether whitespace stood before it in the label (kept between words, dropped at line starts). */
  spaced: boolean;
}

/**
 * The places a label may break: between words (runs of non-space characters) and around each wide
 * character (a Chinese phrase has no spaces, and breaking between two characters splits no word).
 * CJK closing punctuation stays with the character before it.
 */
function labelTokens(label: string): LabelToken[] {
  const tokens: LabelToken[] = [];
  let word = '';
  let spaced = false;
  let pendingSpace = false;
  const flush = () => {
    if (word) tokens.push({ text: word, spaced });
    word = '';
    spaced = false;
  };
  for (const char of label) {
    const code = char.codePointAt(0)!;
    if (/\s/u.test(char)) {
      flush();
      pendingSpace = tokens.length > 0;
      continue;
    }
    if (isWide(code)) {
      const closing = /[，。、；：！？）」』》〉】]/u.test(char);
      if (closing && (word || tokens.length > 0) && !pendingSpace) {
        if (word) word += char;
        else tokens[tokens.length - 1].text += char;
        continue;
      }
      flush();
      tokens.push({ text: char, spaced: pendingSpace });
    } else {
      if (!word) spaced = pendingSpace;
      word += char;
    }
    pendingSpace = false;
  }
  flush();
  return tokens;
}

/**
 * `label` broken into lines of at most `maxWidth` (estimated at `fontSize`), at most `maxLines` of
 * them. Lines break only between words or between wide characters, never inside a word: a single word
 * wider than `maxWidth` gets a line of its own, whole. A label that needs more lines keeps whole words
 * on its last line and ends it with "…" (the caller shows the full label on hover).
 */
export function wrapLabel(label: string, maxWidth: number, fontSize: number, maxLines = 2): WrappedLabel {
  const tokens = labelTokens(label);
  const lines: LabelToken[][] = [];
  let line: LabelToken[] = [];
  const text = (ts: readonly LabelToken[]) => ts.map((tk, i) => (i > 0 && tk.spaced ? ' ' : '') + tk.text).join('');
  for (const token of tokens) {
    if (line.length > 0 && estimateTextWidth(text([...line, token]), fontSize) > maxWidth) {
      lines.push(line);
      line = [];
    }
    line.push(token);
  }
  if (line.length > 0) lines.push(line);
  const limit = Math.max(1, Math.floor(maxLines));
  if (lines.length <= limit) return { lines: lines.map(text), shortened: false };
  const kept = lines.slice(0, limit);
  const last = [...kept[limit - 1]];
  // Drop whole words from the end until the ellipsis fits; the first word always stays.
  while (last.length > 1 && estimateTextWidth(`${text(last)}…`, fontSize) > maxWidth) last.pop();
  return { lines: [...kept.slice(0, limit - 1).map(text), `${text(last)}…`], shortened: true };
}
