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
}

export const SURPRISE_BANDS: readonly SurpriseBand[] = [
  { from: 0, to: 1, background: '#e8f5e9', ink: '#1b1b1b' },
  { from: 1, to: 2, background: '#c8e6c9', ink: '#1b1b1b' },
  { from: 2, to: 4, background: '#fff59d', ink: '#1b1b1b' },
  { from: 4, to: 8, background: '#ffcc80', ink: '#1b1b1b' },
  { from: 8, to: 12, background: '#ef6c00', ink: '#ffffff' },
  { from: 12, to: null, background: '#b71c1c', ink: '#ffffff' },
];

/** The band of a surprise in bits. */
export function bandOf(bits: number): SurpriseBand {
  return SURPRISE_BANDS.find((b) => b.to === null || bits < b.to) ?? SURPRISE_BANDS[SURPRISE_BANDS.length - 1];
}
