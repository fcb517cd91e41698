// Whether a run page's fresh read of its run found nothing new (issue 35). The run page reads its run
// again on every open while it still shows the last read; when nothing changed, the objects already
// drawn are kept, so a paper-size run is not drawn anew: a new results array redraws its table, item
// list and charts (0.3–0.6 s of the page's thread for 28,657 results).
import type { ItemResult, RunRecord } from '../../lib/core/record/run.ts';

/**
 * The same record (field for field), and the same results in the same order: a result is written
 * once and replaced whole when its item is asked again (a new completion time); its prompt's hash and
 * whether it failed are compared too.
 */
export function sameStoredRun(prior: { record: RunRecord; results: readonly ItemResult[] }, run: RunRecord, results: readonly ItemResult[]): boolean {
  if (prior.record.id !== run.id || prior.results.length !== results.length) return false;
  if (JSON.stringify(prior.record) !== JSON.stringify(run)) return false;
  return results.every((r, i) => {
    const p = prior.results[i];
    return p.itemId === r.itemId && p.completedAt === r.completedAt && p.promptHash === r.promptHash && !p.failure === !r.failure;
  });
}
