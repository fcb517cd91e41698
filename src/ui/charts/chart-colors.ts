// Chart colours: the Okabe–Ito palette (Okabe & Ito 2008, "Color Universal Design"), whose eight
// colours stay distinguishable under the common colour-vision deficiencies. Ordered so the first
// series get the strongest contrast on the site's paper background; yellow, faint on paper, comes last.

/** Series colours in the order series are given them. */
export const SERIES_COLORS: readonly string[] = [
  '#0072B2', // blue
  '#D55E00', // vermillion
  '#009E73', // bluish green
  '#CC79A7', // reddish purple
  '#E69F00', // orange
  '#56B4E9', // sky blue
  '#000000', // black
  '#F0E442', // yellow
];

/** The colour of series `index`; past eight the colours repeat (the legend and dashes still tell them apart). */
export function seriesColor(index: number): string {
  const n = SERIES_COLORS.length;
  return SERIES_COLORS[((index % n) + n) % n];
}

/** Axes, ticks, whiskers and labels: the site's ink. */
export const INK = '#1f1d1a';
/** Secondary text such as tick labels: the site's muted ink. */
export const MUTED_INK = '#6b655c';
/** Grid rings and gridlines: the site's rule colour. */
export const GRID = '#d9d1c3';
/** Behind hollow dots, so they read as empty: the site's paper. */
export const PAPER = '#faf7f0';
/** The dash pattern of reference (published) series and of the perfect-calibration diagonal. */
export const DASH = '6 4';
