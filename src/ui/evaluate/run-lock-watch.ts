// A run page follows another tab's hold on its run (issue 46): while the run is live there, the page
// shows it so and Resume is off; once that tab stops, Resume comes back, and the other way round.
// Web Locks have no change event, so the run's lock is looked at every LOCK_POLL_MS, as the update
// prompt does for its own purpose (site/UpdatePrompt.svelte), and only while a page could resume it.
import { runLockHeld } from '../../lib/engine/run-scheduler.ts';

/** How often a run page looks at its run's lock. */
export const LOCK_POLL_MS = 2000;

/**
 * Looks at run `runId`'s lock every LOCK_POLL_MS and calls `changed` (the page reads the run again)
 * whenever whether some tab holds it differs from what the page shows (`shownHeld`). Nothing is done
 * where Web Locks are missing. Returns the stop function, for an $effect's cleanup.
 *
 * @param runId The run on show.
 * @param shownHeld Whether the page shows the run as live in another tab now.
 * @param changed Reads the run again; not called again before it settles.
 */
export function watchRunLock(runId: string, shownHeld: () => boolean, changed: () => Promise<unknown>): () => void {
  let stopped = false;
  let looking = false;
  const look = async () => {
    if (looking) return;
    looking = true;
    try {
      const held = await runLockHeld(runId);
      if (!stopped && held !== null && held !== shownHeld()) await changed();
    } catch {
      // A failed look (a lock query refused, a read that failed) changes nothing: the next one tries again.
    } finally {
      looking = false;
    }
  };
  const timer = setInterval(() => void look(), LOCK_POLL_MS);
  return () => {
    stopped = true;
    clearInterval(timer);
  };
}
