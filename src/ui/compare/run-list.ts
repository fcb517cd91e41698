// What the Compare page's list of stored runs says of each run beyond its label: its status as the
// Evaluate run list says it, and how many of its planned items have results; and what both lists say
// when the runs cannot be read. Pure, for Node tests.
import type { RunStatus } from '../../lib/core/record/run.ts';
import { notice, type Notice } from '../../lib/core/notices/index.ts';
import { describeCause } from '../../lib/store/errors.ts';

/**
 * Runs stored as `running` that no tab runs now, as the Evaluate and Compare lists both say:
 * a running run whose Web Lock no tab holds was left so by a closed or reloaded tab. `held`: the
 * run ids whose locks are held (heldRunIds), null where the browser has no Web Locks (then none
 * can be told interrupted, and none is).
 */
export function interruptedRunIds(runs: readonly { id: string; status: RunStatus }[], held: ReadonlySet<string> | null): Set<string> {
  if (held === null) return new Set();
  return new Set(runs.filter((run) => run.status === 'running' && !held.has(run.id)).map((run) => run.id));
}

/** The status to list a run under. */
export function listedStatus(status: RunStatus, interrupted: boolean): RunStatus | 'interrupted' {
  return interrupted && status === 'running' ? 'interrupted' : status;
}

/**
 * The Items column: the planned count alone when every planned item has its result, else how many
 * have one (a paused or interrupted run's 3,778 of 28,657), so a run is never listed by a size it
 * does not have. `done` undefined: not counted yet.
 */
export function itemsDone(done: number | undefined, planned: number): { done: number; planned: number } | { planned: number } {
  return done === undefined || done >= planned ? { planned } : { done, planned };
}

/** What the Evaluate and Compare lists say when the stored runs cannot be read (a failed read of the database). */
export function runListFailure(error: unknown, kind: 'scoring' | 'memorization' = 'scoring'): Notice {
  return notice(kind === 'scoring' ? 'run.list-failed' : 'probe.list-failed', { detail: describeCause(error) });
}
