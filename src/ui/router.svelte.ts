// Pages are chosen by the URL fragment (#/data), so the site stays static and every page has a link.

export type PageId = 'playground' | 'data';
const pages: readonly PageId[] = ['playground', 'data'];

function fromHash(hash: string): PageId {
  const id = hash.replace(/^#\/?/, '').split(/[/?]/)[0];
  return (pages as readonly string[]).includes(id) ? (id as PageId) : 'playground';
}

class Router {
  page = $state<PageId>(fromHash(location.hash));
  constructor() {
    window.addEventListener('hashchange', () => (this.page = fromHash(location.hash)));
  }
}

export const router = new Router();
