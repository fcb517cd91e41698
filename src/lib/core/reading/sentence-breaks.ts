// 断句 from probabilities (issue 37): a punctuated passage loses its marks, the model reads the
// characters, and at each gap between characters the page shows the probability that a mark comes
// next (the row's punctuation mass, row-reading.ts) beside whether the original had one there.
//
// How it relates to C3Bench's punctuation task (metrics/generation/punctuation.ts): the same
// characters and gaps (segmentPunctuated: gap 0 before the first character, gap k after the k-th,
// the end gap included) and the same position-only counts, so at a threshold the precision, recall
// and F1 here are that task's position F1 for an output that puts a mark at every gap whose
// probability reaches the threshold (sentence-breaks.test.ts checks it against punctuationItem).
// What differs: nothing is generated, so no text can change and no mark is chosen (which mark is
// C3Bench's mark F1, not read here); and a gap inside a token (a tokenizer that merges characters)
// has no row that predicts it: it counts as "no mark", as would gap 0 when the tokenizer adds no BOS.
import { segmentPunctuated } from '../metrics/generation/punctuation.ts';
import { precisionRecallF1, type PrecisionRecallF1 } from '../metrics/generation/prf.ts';
import { tokenEndingAt, type PassageReading } from './passage.ts';

export interface BreakGap {
  /** 0 = before the first character, k = after the k-th. */
  position: number;
  /** The original's mark here ('' none). */
  mark: string;
  /** p(a mark comes next) here; null inside a token (or before the first one without a BOS row). */
  probability: number | null;
}

export interface BreakStrip {
  chars: string[];
  gaps: BreakGap[];
}

/** The passage the model is given: the punctuated text's characters, marks and whitespace removed. */
export function unpunctuated(punctuated: string): string {
  return segmentPunctuated(punctuated).chars.join('');
}

/** The strip of `punctuated` from the reading of unpunctuated(punctuated). */
export function breakStrip(punctuated: string, reading: PassageReading): BreakStrip {
  const { chars, marks } = segmentPunctuated(punctuated);
  if (reading.chars.join('') !== chars.join('')) throw new RangeError('the reading is not of this passage without its punctuation');
  const gaps: BreakGap[] = marks.map((mark, position) => {
    let row = -1;
    if (position === 0) row = reading.pieces[0]?.special && reading.charEnds[0] === 0 ? 0 : -1;
    else row = tokenEndingAt(reading, position);
    return { position, mark, probability: row < 0 ? null : reading.rows[row].punctuationMass };
  });
  return { chars, gaps };
}

/** A mark predicted at every gap whose probability reaches `threshold`: position-only counts, as C3Bench's. */
export function breaksAt(strip: BreakStrip, threshold: number): PrecisionRecallF1 & { predicted: boolean[] } {
  const predicted = strip.gaps.map((g) => g.probability !== null && g.probability >= threshold);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  strip.gaps.forEach((g, i) => {
    const gold = g.mark !== '';
    if (predicted[i] && gold) tp++;
    else if (predicted[i]) fp++;
    else if (gold) fn++;
  });
  return { ...precisionRecallF1({ tp, fp, fn }), predicted };
}
