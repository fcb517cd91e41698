// How many items of a k-shot run were asked with fewer than k exemplars. The prompt builder drops
// exemplars from the end until a prompt fits the context limit (protocols/context-limit.ts), so a
// "5-shot" run on a model with 2,048 positions can hold 4-shot prompts; the item's result records
// how many it used. A number reported as "5-shot" must say so next to it (issue 23: 8 of 30 items
// had 4 exemplars and only the item detail said it).

/** The part of an item's result this needs (multiple-choice results record shotsUsed). */
export interface ShotsUsedInput {
  shotsUsed?: number;
  /** A failed item ran no prompt: it is counted apart, not as a short one. */
  failure?: unknown;
}

export interface ShotShortfall {
  /** The exemplars the run asked for. */
  shots: number;
  /** Items (that ran) with fewer exemplars than asked. */
  fewer: number;
  /** The fewest exemplars any item had. */
  fewest: number;
  /** Items with each count below `shots`, fewest last (e.g. [[4, 8], [3, 1]]). */
  byCount: [shots: number, items: number][];
}

/** The items asked with fewer exemplars than `shots`; null when none were (or the run is 0-shot). */
export function shotShortfall(shots: number, results: readonly ShotsUsedInput[]): ShotShortfall | null {
  if (shots <= 0) return null;
  const counts = new Map<number, number>();
  for (const r of results) {
    if (r.failure || r.shotsUsed === undefined || r.shotsUsed >= shots) continue;
    counts.set(r.shotsUsed, (counts.get(r.shotsUsed) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  const byCount = [...counts.entries()].sort((a, b) => b[0] - a[0]);
  return { shots, fewer: byCount.reduce((sum, [, n]) => sum + n, 0), fewest: byCount[byCount.length - 1][0], byCount };
}

/** Summary keys a run file and a share link carry for it (only when some item was short, as `failed`). */
export const SHOTS_FEWER_KEY = 'shots:fewer';
export const SHOTS_FEWEST_KEY = 'shots:fewest';

/** The shortfall as a summary states it (a link's, a run file's); null when it states none. */
export function shortfallFromSummary(shots: number, summary: Record<string, number | null>): Pick<ShotShortfall, 'shots' | 'fewer' | 'fewest'> | null {
  const fewer = summary[SHOTS_FEWER_KEY];
  const fewest = summary[SHOTS_FEWEST_KEY];
  if (typeof fewer !== 'number' || fewer <= 0 || typeof fewest !== 'number') return null;
  return { shots, fewer, fewest };
}
