// The reading view's colours: a token's surprise (−log₂ p) in six bands, from "expected" (under one
// bit: the model gave it more than half its probability) to "a surprise" (twelve bits or more: less
// than one chance in 4,096). Bands rather than a continuous ramp, so a class can read a colour off the
// legend; each band is distinguishable in greyscale on a projector (lightness falls band by band).
export interface SurpriseBand {
  /** Bits from (inclusive) … to (exclusive); the last band has no end. */
  from: number;
  to: number | null;
  background: string;
  ink: string;
  /** What the band means to a class, in English and Chinese (the chance is 2^−bits). */
  word: readonly [string, string];
}

export const SURPRISE_BANDS: readonly SurpriseBand[] = [
  { from: 0, to: 1, background: '#e8f5e9', ink: '#1b1b1b', word: ['expected: better than 1 in 2', '意料之中：机会超过 2 分之 1'] },
  { from: 1, to: 2, background: '#c8e6c9', ink: '#1b1b1b', word: ['likely: 1 in 2 to 1 in 4', '很可能：2 分之 1 到 4 分之 1'] },
  { from: 2, to: 4, background: '#fff59d', ink: '#1b1b1b', word: ['plausible: 1 in 4 to 1 in 16', '说得过去：4 分之 1 到 16 分之 1'] },
  { from: 4, to: 8, background: '#ffcc80', ink: '#1b1b1b', word: ['unexpected: 1 in 16 to 1 in 256', '出乎意料：16 分之 1 到 256 分之 1'] },
  { from: 8, to: 12, background: '#ef6c00', ink: '#ffffff', word: ['surprising: 1 in 256 to 1 in 4,096', '很意外：256 分之 1 到 4,096 分之 1'] },
  { from: 12, to: null, background: '#b71c1c', ink: '#ffffff', word: ['a shock: under 1 in 4,096', '大吃一惊：不到 4,096 分之 1'] },
];

/** The band of a surprise in bits. */
export function bandOf(bits: number): SurpriseBand {
  return SURPRISE_BANDS.find((b) => b.to === null || bits < b.to) ?? SURPRISE_BANDS[SURPRISE_BANDS.length - 1];
}
