// Holm's step-down adjustment (Holm 1979, Scand J Statist 6:65) for a family of m p-values, used
// where Compare sets up to fifteen per-task tests side by side: the smallest p is multiplied by m,
// the next by m − 1, …, each adjusted value is kept at least as large as the one before it (the
// step-down stops at the first non-rejection, so a later p can never be "more significant"), and
// clamped to 1. With p(1) ≤ … ≤ p(m):
//   adjusted p(i) = min(1, max over j ≤ i of (m − j + 1) · p(j)).
// It controls the family-wise error rate under any dependence between the tests (the tasks of two
// runs are not independent), which is why it is chosen over Hochberg's or Šidák's, which need more.
// Rejecting at level α where adjusted p ≤ α is exactly Holm's procedure.

export const HOLM_SIGNATURE = 'holm-1979-step-down';

/**
 * Holm-adjusted p-values in the input order; nulls (no test) stay null and are not counted in the
 * family. Ties keep their input order, which does not change any adjusted value.
 */
export function holmAdjust(pValues: readonly (number | null)[]): (number | null)[] {
  for (const p of pValues) {
    if (p !== null && !(p >= 0 && p <= 1)) throw new RangeError(`a p-value must be in [0, 1], got ${p}`);
  }
  const tested = pValues.flatMap((p, index) => (p === null ? [] : [{ p, index }])).sort((a, b) => a.p - b.p || a.index - b.index);
  const m = tested.length;
  const out: (number | null)[] = pValues.map(() => null);
  let running = 0;
  tested.forEach(({ p, index }, rank) => {
    running = Math.max(running, Math.min(1, (m - rank) * p));
    out[index] = running;
  });
  return out;
}
