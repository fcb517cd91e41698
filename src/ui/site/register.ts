// Registers the service worker (src/sw.ts) for the main page and keeps `site` up to date: whether it
// controls the page, whether the page is isolated, whether the precache is complete, whether a new
// build waits. Only the main page calls this (main.ts): the harness page never registers one, and
// the dev server has none (import.meta.env.PROD is false there).
import { Workbox } from 'workbox-window';
import { notice } from '../../lib/core/notices/index.ts';
import { runState } from '../evaluate/run-state.svelte.ts';
import { site, type SiteState } from './site-state.svelte.ts';

/** sessionStorage key: this tab already reloaded once to become isolated (a reload loop's guard). */
const ISOLATION_RELOAD = 'jiangu.isolation-reload';
const UPDATE_CHECK_MS = 30 * 60 * 1000;

declare global {
  interface Window {
    /** The site state, for the browser tests (checkForUpdate, applyUpdate). */
    jianguSite?: SiteState;
    /** Set before the page loads by browser tests that leave the service worker out. */
    jianguNoServiceWorker?: boolean;
  }
}

export function registerServiceWorker(): void {
  window.jianguSite = site;
  if (!import.meta.env.PROD) return;
  // The browser tests of everything but the service worker turn it off (scripts/browser.ts
  // openPage): each fresh context would precache 28 MB, minutes over the suite. The service
  // worker's own tests (test/browser/offline.test.ts) open their contexts without this.
  if (window.jianguNoServiceWorker === true) return;
  if (!('serviceWorker' in navigator)) {
    // Service workers need a secure context: https, or http on localhost.
    site.unavailable = window.isSecureContext ? notice('site.sw-unsupported') : notice('site.sw-insecure', { origin: location.origin });
    return;
  }
  const base = new URL(import.meta.env.BASE_URL, location.href);
  const wb = new Workbox(new URL('sw.js', base).href, { scope: base.pathname, type: 'classic' });
  /** This page asked the waiting build to take over (applyUpdate). */
  let updating = false;
  /** Another tab applied a new build: this page's scripts are the old build under the new worker. */
  let takenOver = false;
  site.controlled = navigator.serviceWorker.controller !== null;

  wb.addEventListener('waiting', () => {
    site.updateWaiting = true;
  });
  wb.addEventListener('controlling', (event) => {
    site.controlled = true;
    // The page asked for the new build (applyUpdate): reload once it controls the page, so the
    // page's scripts and the worker's cache are the same build.
    if (updating) {
      location.reload();
      return;
    }
    if (event.isUpdate) {
      // Applied in another tab: nothing reloads here by itself (a run may be going); the update
      // prompt's reload brings the page and the worker to the same build.
      takenOver = true;
      site.updateWaiting = true;
      return;
    }
    if (!self.crossOriginIsolated) reloadForIsolation();
  });

  site.connect({
    async applyUpdate() {
      if (takenOver) return location.reload();
      if (!site.updateWaiting) return;
      updating = true;
      wb.messageSkipWaiting();
    },
    async checkForUpdate() {
      await wb.update();
    },
  });

  wb.register()
    .then(async (registration) => {
      if (!registration) return;
      setInterval(() => void site.checkForUpdate().catch(() => {}), UPDATE_CHECK_MS);
      document.addEventListener('visibilitychange', () => {
        if (document.visibilityState === 'visible') void site.checkForUpdate().catch(() => {});
      });
      // Controlled but not isolated on load: the visit before the worker took over was in another
      // session, or the reload did not happen yet.
      if (site.controlled && !self.crossOriginIsolated) reloadForIsolation();
      await wb.active;
      const status = (await wb.messageSW({ type: 'PRECACHE_STATUS' })) as { complete?: boolean } | undefined;
      site.offlineReady = status?.complete === true;
    })
    .catch((error: unknown) => {
      site.unavailable = notice('site.sw-failed', { detail: error instanceof Error ? error.message : String(error) });
    });
}

/**
 * The worker now adds the isolation headers, but this page was loaded without them: reload once,
 * unless a run is in progress in this tab (then the page offers the reload), and only once per
 * session (a host or browser that still leaves the page unisolated must not loop).
 */
function reloadForIsolation(): void {
  if (sessionStorage.getItem(ISOLATION_RELOAD)) return;
  if (runState.running) {
    site.reloadForIsolation = true;
    return;
  }
  sessionStorage.setItem(ISOLATION_RELOAD, '1');
  location.reload();
}
