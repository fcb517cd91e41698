// What the header's status line and the update prompt decide, as plain functions of what the page
// knows, so the rules are tested in Node and the components only word them.

// ORT's thread rule lives with the model client's (src/lib/core/models/wasm-threads.ts, where the
// onnxruntime-web source it follows is cited); the header words it.
export { ortDefaultThreads } from '../../lib/core/models/wasm-threads.ts';

/** How the site stands for a visit with no network. */
export type OfflineState =
  /** The precache is complete: the shell and ORT's wasm open with no network. */
  | 'ready'
  /** A service worker controls the page and is still storing the shell. */
  | 'saving'
  /** There is no service worker, and the page knows why (site.unavailable). */
  | 'unavailable'
  /** Nothing yet: a first visit before the service worker has started. */
  | 'not-yet';

export function offlineState(site: { controlled: boolean; offlineReady: boolean; unavailable: unknown }): OfflineState {
  if (site.offlineReady) return 'ready';
  if (site.unavailable) return 'unavailable';
  return site.controlled ? 'saving' : 'not-yet';
}

/**
 * Whether to offer a reload that makes the page cross-origin isolated: the service worker adds
 * COOP/COEP to the responses it serves, which this page (loaded before it took control) lacks.
 * `reloadForIsolation` is the service worker's own word for it, where it gives one.
 */
export function offerIsolationReload(site: { isolated: boolean; controlled: boolean; reloadForIsolation?: boolean }): boolean {
  if (site.isolated) return false;
  return site.reloadForIsolation === true || site.controlled;
}

/** The update prompt: hidden, shown with Reload disabled while an evaluation runs, or ready. */
export type UpdatePromptState = 'hidden' | 'blocked' | 'ready';

export function updatePromptState(input: {
  updateWaiting: boolean;
  dismissed: boolean;
  /** A run executes in this tab (runState.running). */
  runningHere: boolean;
  /** Run ids whose Web Lock some tab holds; null where Web Locks are missing or not read yet. */
  heldRuns: ReadonlySet<string> | null;
}): UpdatePromptState {
  if (!input.updateWaiting || input.dismissed) return 'hidden';
  // A reload would end the run in this tab; in another tab, the new build's service worker would take
  // over a page made with the old one, mid-run, so that tab's run holds the update back as well.
  if (input.runningHere || (input.heldRuns !== null && input.heldRuns.size > 0)) return 'blocked';
  return 'ready';
}
