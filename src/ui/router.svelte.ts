// Pages are chosen by the URL fragment (#/data, #/run/<id>), so the site stays static and every page
// and every run has a link.

import { parseRoute, type PageId } from './route.ts';

export type { PageId } from './route.ts';
export { decodeParam, parseRoute } from './route.ts';

const parse = parseRoute;

class Router {
  page = $state<PageId>(parse(location.hash).page);
  param = $state<string | null>(parse(location.hash).param);
  raw = $state<string | null>(parse(location.hash).raw);
  constructor() {
    window.addEventListener('hashchange', () => {
      const next = parse(location.hash);
      this.page = next.page;
      this.param = next.param;
      this.raw = next.raw;
    });
  }
}

export const router = new Router();
