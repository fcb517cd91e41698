// What a share link carries of a memorization run: each item's probe scores as small integers, and
// the check that what a link reproduces matches what its sender saw.
//
// Rounding: a score becomes round(score / 0.01), clamped to ±4096 (scores beyond ±40.96 show at the
// bound), and comes back as code / 100; an item with no score is LINK_SCORE_NONE. Every code fits a
// signed 16-bit integer, so the link codec can store them as an Int16Array (2 bytes an item and
// probe before deflate). Why these numbers:
//  - 0.01: the page shows scores, quartiles and means to two decimals and draws histograms with
//    bins of 0.1 or wider; a score moves at most 0.005 (half a step), so every summary field moves at
//    most 0.005 too (quantiles and means are 1-Lipschitz in each value), which the last shown digit
//    can only just reflect. Two items within 0.01 may swap places in a "most familiar" list.
//  - ±40.96: Min-K% Prob is a mean of log-probabilities in nats, and a mean below −41 over a text's
//    lowest fifth needs those tokens at p ≈ 1e-18 on average; Min-K%++ is in standard deviations,
//    where a mean below −41 needs positions whose σ is almost 0. Values beyond are clamped, counted
//    by checkLinkSummary, and the page can say so.
import { summarizeScores, SUMMARY_FIELDS, type ScoreSummary } from './score-summary.ts';

export const LINK_SCORE_STEP = 0.01;
/** Codes run over ±LINK_SCORE_MAX_CODE: ±40.96 in score. */
export const LINK_SCORE_MAX_CODE = 4096;
export const LINK_SCORE_LIMIT = LINK_SCORE_MAX_CODE / 100;
/** No score (an item too short, failed, or not run yet). */
export const LINK_SCORE_NONE = -32768;
/** How far a summary field from a link may be from the sender's: half a step, and float slack. */
export const LINK_SUMMARY_TOLERANCE = LINK_SCORE_STEP / 2 + 1e-9;

/** One score's code (see the header). */
export function scoreToLinkCode(score: number | null): number {
  if (score === null || Number.isNaN(score)) return LINK_SCORE_NONE;
  // Math.round's halves go up; round-off in score · 100 decides a few halves either way, and both
  // neighbours are within half a step.
  const code = Math.round(score * 100);
  return Math.max(-LINK_SCORE_MAX_CODE, Math.min(LINK_SCORE_MAX_CODE, code === 0 ? 0 : code));
}

/** A code's score; null for LINK_SCORE_NONE. Throws on a code no encoder writes (a damaged link). */
export function scoreFromLinkCode(code: number): number | null {
  if (code === LINK_SCORE_NONE) return null;
  if (!Number.isInteger(code) || Math.abs(code) > LINK_SCORE_MAX_CODE) throw new RangeError(`score code ${code} is outside ±${LINK_SCORE_MAX_CODE}`);
  // code / 100 is the double nearest the two-decimal value; code · 0.01 is not always.
  return code / 100;
}

export function scoresToLink(scores: readonly (number | null)[]): Int16Array {
  return Int16Array.from(scores, scoreToLinkCode);
}

export function scoresFromLink(codes: ArrayLike<number>): (number | null)[] {
  return Array.from(codes, scoreFromLinkCode);
}

export type SummaryField = (typeof SUMMARY_FIELDS)[number] | 'n';

export type LinkSummaryCheck =
  | { kind: 'matches' }
  /** Some scores sat at ±40.96: they were clamped, so quantiles and means cannot be checked; `count` of them. */
  | { kind: 'clamped'; count: number }
  | { kind: 'differs'; field: SummaryField; recorded: number | null; fromLink: number | null };

/**
 * Does the summary the sender recorded (from exact scores) match the one recomputed from the link's
 * rounded scores? n must be equal; every other field within LINK_SUMMARY_TOLERANCE. A link whose
 * scores touch the clamp cannot be held to that: it reports `clamped` after checking n.
 */
export function checkLinkSummary(recorded: ScoreSummary | null, fromLink: readonly (number | null)[]): LinkSummaryCheck {
  const summary = summarizeScores(fromLink);
  const recordedN = recorded?.n ?? 0;
  const linkN = summary?.n ?? 0;
  if (recordedN !== linkN) return { kind: 'differs', field: 'n', recorded: recordedN, fromLink: linkN };
  if (!recorded || !summary) return { kind: 'matches' };
  const clamped = fromLink.filter((s) => s !== null && Math.abs(s) >= LINK_SCORE_LIMIT).length;
  if (clamped > 0) return { kind: 'clamped', count: clamped };
  for (const field of SUMMARY_FIELDS) {
    if (!(Math.abs(recorded[field] - summary[field]) <= LINK_SUMMARY_TOLERANCE)) return { kind: 'differs', field, recorded: recorded[field], fromLink: summary[field] };
  }
  return { kind: 'matches' };
}

/** `link-score|step:0.01|clamp:+-40.96|none:-32768|int16`. */
export const LINK_SCORE_SIGNATURE = `link-score|step:${LINK_SCORE_STEP}|clamp:+-${LINK_SCORE_LIMIT}|none:${LINK_SCORE_NONE}|int16`;
