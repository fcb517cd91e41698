// The run page's whole-benchmark estimate (issue 36), wherever the run is: fed one result at a time
// while it runs in this tab (estimate-view.ts liveEstimate, at each of the page's throttled draws:
// O(new results) plus a snapshot), else computed once for the stored results (in the stored-run
// worker for a large run: stored-run-client.ts storedRunEstimate).
import type { BenchmarkEstimate } from '../../lib/core/metrics/benchmark-estimate.ts';
import { halfWidthOf } from '../../lib/core/metrics/benchmark-estimate.ts';
import type { ItemResult, McRunRecord, RunRecord } from '../../lib/core/record/run.ts';
import { storedRunEstimate, type WorkPlace } from '../../lib/data/stored-run-client.ts';
import { stoppedByRule } from '../../lib/engine/stop-rule.ts';
import { signSettledStopText } from '../compare/paired-sequence-text.ts';
import { openJianguDb } from '../../lib/store/schema.ts';
import { fmt } from '../i18n/locale.svelte.ts';
import { stoppedText } from './estimate-text.ts';
import { liveEstimate } from './estimate-view.ts';

export interface RunEstimateInput {
  run: McRunRecord | null;
  /** The live run's results list while it runs here (LiveResults). */
  live: { results: { readonly all: readonly ItemResult[] } } | null;
  /** The stored results once it does not. */
  stored: readonly ItemResult[] | null;
}

/** `spentMs`: a live run's, the page's time spent on its estimate so far (benches read it). */
export type ShownEstimate = { estimate: BenchmarkEstimate | null; computedIn: WorkPlace | 'live'; spentMs?: number };

/** Call during a component's setup: `current` follows `input` (a live run at each draw, a stored run once read). */
export function runEstimateOf(input: () => RunEstimateInput): { readonly current: ShownEstimate | null } {
  let fromStore = $state.raw<({ of: readonly ItemResult[] } & ShownEstimate) | null>(null);
  $effect(() => {
    const { run, live, stored } = input();
    if (!run || live || !stored || stored.length === 0) return;
    let current = true;
    void (async () => {
      const db = await openJianguDb();
      try {
        const { estimate, computedIn } = await storedRunEstimate(db, run, stored);
        if (current) fromStore = { of: stored, estimate, computedIn };
      } finally {
        db.close();
      }
    })();
    return () => void (current = false);
  });
  const value = $derived.by((): ShownEstimate | null => {
    const { run, live, stored } = input();
    if (!run) return null;
    if (live) return { ...liveEstimate(live.results, run), computedIn: 'live' };
    return fromStore && fromStore.of === stored ? { estimate: fromStore.estimate, computedIn: fromStore.computedIn } : null;
  });
  return {
    get current() {
      return value;
    },
  };
}

/** The status line's note for a run its stop rule ended: how far it got and why; null for any other run. */
export function stopNote(run: RunRecord, resultCount: number, estimate: BenchmarkEstimate | null, zh: boolean): string | null {
  const rule = stoppedByRule(run, resultCount);
  if (!rule) return null;
  if (rule.kind === 'sign-settled') return signSettledStopText({ asked: fmt.count(resultCount), items: fmt.count(run.config.itemIds.length) }, zh);
  const reached = halfWidthOf(estimate?.measures.find((m) => m.measure === 'accuracy')?.rows[0]?.estimate.sequence ?? null);
  return stoppedText({ asked: fmt.count(resultCount), items: fmt.count(run.config.itemIds.length), halfWidth: fmt.fraction(rule.halfWidth, 1), reached: reached === null ? null : fmt.fraction(reached, 1) }, zh);
}
