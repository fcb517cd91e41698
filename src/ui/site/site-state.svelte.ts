// What the page knows about the site itself, apart from any model or run: whether its service
// worker controls the page (so it opens offline), whether the page is cross-origin isolated (so
// ORT's wasm may use threads), and whether a new build is waiting. The service worker's registration
// (register.ts) writes it; the header's status line and the update prompt read it.
import type { Notice } from '../../lib/core/notices/index.ts';

export class SiteState {
  /** A service worker controls this page: its shell and ORT's wasm come from the cache. */
  controlled = $state(false);
  /** `self.crossOriginIsolated`: SharedArrayBuffer, so wasm threads, are available. */
  isolated = $state(typeof self !== 'undefined' && self.crossOriginIsolated === true);
  /** The precache is complete: the app shell and ORT's wasm are stored, the site opens with no network. */
  offlineReady = $state(false);
  /** A new build is installed and waits; it takes over only through applyUpdate(). */
  updateWaiting = $state(false);
  /** Why there is no service worker (unsupported, an insecure origin, registration failed); null when there is one or it is starting. */
  unavailable = $state<Notice | null>(null);
  /**
   * The service worker took over on this first visit, but the page was loaded without the isolation
   * headers and a run was in progress, so it did not reload itself: the page may offer a reload
   * (location.reload()) once the run is over, which gives wasm threads.
   */
  reloadForIsolation = $state(false);

  #controls: SiteControls | null = null;

  /** Called once by register.ts with the registration's actions. */
  connect(controls: SiteControls): void {
    this.#controls = controls;
  }

  /** Activates the waiting build and reloads the page once it controls it. Never called during a run. */
  async applyUpdate(): Promise<void> {
    await this.#controls?.applyUpdate();
  }

  /** Asks the server whether a new build exists (on an interval, when the tab becomes visible, and from tests). */
  async checkForUpdate(): Promise<void> {
    await this.#controls?.checkForUpdate();
  }
}

/** What the service worker's registration does for SiteState (nothing without one). */
export interface SiteControls {
  applyUpdate(): Promise<void>;
  checkForUpdate(): Promise<void>;
}

export const site = new SiteState();
