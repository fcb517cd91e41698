// Pages are chosen by the URL fragment (#/data, #/run/<id>), so the site stays static and every page
// and every run has a link.

export type PageId = 'playground' | 'data' | 'evaluate' | 'run' | 'shared' | 'classroom' | 'compare';
const pages: readonly PageId[] = ['playground', 'data', 'evaluate', 'run', 'shared', 'classroom', 'compare'];

function parse(hash: string): { page: PageId; param: string | null } {
  // Everything after the page id is its parameter (`classroom/shared/<payload>` gives `shared/<payload>`).
  const [id, ...rest] = hash.replace(/^#\/?/, '').split('?')[0].split('/');
  const page = (pages as readonly string[]).includes(id) ? (id as PageId) : 'playground';
  const param = rest.join('/');
  return { page, param: param ? decodeURIComponent(param) : null };
}

class Router {
  page = $state<PageId>(parse(location.hash).page);
  param = $state<string | null>(parse(location.hash).param);
  constructor() {
    window.addEventListener('hashchange', () => {
      const next = parse(location.hash);
      this.page = next.page;
      this.param = next.param;
    });
  }
}

export const router = new Router();
