// The site's pages, by the route that shows each (router.page): every page is a chunk of its own,
// loaded when its route first opens, so that start-up parses and runs the shell (header, router,
// prompts) and the one page asked for, not all ten in one long task. The service worker precaches
// every chunk (vite.config.ts's globPatterns), so each page still opens offline.
import type { PageId } from './route.ts';

export const pages = {
  playground: () => import('./playground/Playground.svelte'),
  data: () => import('./data/DataPage.svelte'),
  evaluate: () => import('./evaluate/EvaluatePage.svelte'),
  run: () => import('./evaluate/RunPage.svelte'),
  probe: () => import('./memorization/ProbePage.svelte'),
  'probe-link': () => import('./memorization/ProbeLinkPage.svelte'),
  shared: () => import('./evaluate/SharedPage.svelte'),
  classroom: () => import('./classroom/Classroom.svelte'),
  compare: () => import('./compare/ComparePage.svelte'),
  reading: () => import('./reading/ReadingPage.svelte'),
} satisfies Record<PageId, () => Promise<unknown>>;

/**
 * Starts loading the page `page` names, before the shell mounts: its chunk then comes while the shell
 * is drawn, not after. A failure is App.svelte's to show (its own import of the page fails the same way).
 */
export function preloadPage(page: PageId): void {
  pages[page]().catch(() => {});
}
