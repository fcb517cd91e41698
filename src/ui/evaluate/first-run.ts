// What the Evaluate page tells a user before Start: how many items the selection holds, and the
// first run's item limit. Pure, for Node tests. (How long a run takes: core/metrics/run-estimate.ts.)

/** Test items a run of `selected` tasks would hold: each task's count, at most `limit` when one is set. */
export function selectionTotal(counts: Readonly<Record<string, number>>, selected: readonly string[], limit: number | null): number {
  const cap = limit !== null && limit > 0 ? Math.floor(limit) : Infinity;
  return selected.reduce((sum, key) => sum + Math.min(counts[key] ?? 0, cap), 0);
}

/**
 * Items per task suggested for a first run of a large selection: enough to see every step and a
 * rough score per task, small enough to finish in minutes on a laptop. Runs take the first items in
 * file order, so such a run is a look, not a result to compare with the papers.
 */
export const FIRST_RUN_LIMIT = 20;
/** Selections above this many items get FIRST_RUN_LIMIT on a first run (ACLUE: 5,041; the AncientBench sample: 280). */
export const FIRST_RUN_THRESHOLD = 1000;

/** The limit to fill in before a first run (no run stored here yet), or null for all items. */
export function firstRunLimit(hasRuns: boolean, fullTotal: number): number | null {
  return !hasRuns && fullTotal > FIRST_RUN_THRESHOLD ? FIRST_RUN_LIMIT : null;
}
