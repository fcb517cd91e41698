// What a precision stop saved (issue 44): how many items it took of the ones it estimates, the time
// they took on this device and the time every one of them would have taken, from the run's own
// recorded times (each result's completedAt) after the run, or from the measured pace before it.

/** A gap between two results longer than this many seconds, and than PAUSE_FACTOR typical gaps, is a pause. */
export const PAUSE_SECONDS = 60;
export const PAUSE_FACTOR = 20;

/**
 * Seconds the run spent on its items, from the times its results were stored (ms since the epoch, any
 * order): the sum of the gaps between consecutive results, a pause (a Resume after a day, a model
 * loaded again) counted as one typical gap (the median), plus one typical gap for the first item,
 * whose start is not recorded. Null with fewer than two timed results.
 */
export function runSeconds(completedAt: readonly number[]): { seconds: number; perItem: number } | null {
  const times = completedAt.filter((t) => Number.isFinite(t)).sort((a, b) => a - b);
  if (times.length < 2) return null;
  const gaps = times.slice(1).map((t, i) => t - times[i]);
  const sorted = [...gaps].sort((a, b) => a - b);
  const typical = sorted[Math.floor((sorted.length - 1) / 2)];
  const pause = Math.max(PAUSE_SECONDS * 1000, PAUSE_FACTOR * typical);
  const ms = gaps.reduce((sum, gap) => sum + (gap > pause ? typical : gap), typical);
  return { seconds: ms / 1000, perItem: ms / 1000 / times.length };
}

export interface StopSaved {
  /** The half-width known (0..1 scale). */
  halfWidth: number;
  /** Items asked before the stop, and the items the estimate is of. */
  asked: number;
  population: number;
  /** asked ÷ population. */
  share: number;
  /** The asked items' time here, and every item's at the same pace; null without a pace. */
  seconds: number | null;
  wholeSeconds: number | null;
}

/** `perItemSeconds`: the run's own seconds per item, or the pace measured before it; null when unknown. */
export function stopSavedOf(p: { halfWidth: number; asked: number; population: number; perItemSeconds: number | null }): StopSaved {
  const pace = p.perItemSeconds !== null && Number.isFinite(p.perItemSeconds) && p.perItemSeconds > 0 ? p.perItemSeconds : null;
  return {
    halfWidth: p.halfWidth,
    asked: p.asked,
    population: p.population,
    share: p.population > 0 ? p.asked / p.population : 0,
    seconds: pace === null ? null : pace * p.asked,
    wholeSeconds: pace === null ? null : pace * p.population,
  };
}
