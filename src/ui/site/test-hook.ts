// A handle on the site state for the browser tests: a waiting update or a missing service worker
// only happen on a real deploy, so the tests set them here to see the page's answer. It exposes
// nothing a script in this page could not already reach, and changes nothing by itself.
import { site, type SiteState } from './site-state.svelte.ts';

declare global {
  interface Window {
    jianguSite?: SiteState;
  }
}

export function exposeSiteState(): void {
  if (typeof window !== 'undefined') window.jianguSite = site;
}
