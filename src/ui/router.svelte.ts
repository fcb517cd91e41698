// Pages are chosen by the URL fragment (#/data, #/run/<id>), so the site stays static and every page
// and every run has a link.

export type PageId = 'playground' | 'data' | 'evaluate' | 'run' | 'probe' | 'probe-link' | 'shared' | 'classroom' | 'compare' | 'reading';
const pages: readonly PageId[] = ['playground', 'data', 'evaluate', 'run', 'probe', 'probe-link', 'shared', 'classroom', 'compare', 'reading'];

/**
 * Percent-decodes a parameter. Never throws: a `%` not followed by two hex digits (a link cut or
 * mangled when copied) keeps the text as it is, so the page it names can say what is wrong with it.
 */
export function decodeParam(param: string): string {
  try {
    return decodeURIComponent(param);
  } catch {
    return param;
  }
}

/** The page and its parameter for a fragment; never throws, whatever the fragment holds. */
export function parseRoute(hash: string): { page: PageId; param: string | null } {
  // Everything after the page id is its parameter (`classroom/shared/<payload>` gives `shared/<payload>`).
  const [id, ...rest] = hash.replace(/^#\/?/, '').split('?')[0].split('/');
  const page = (pages as readonly string[]).includes(id) ? (id as PageId) : 'playground';
  const param = rest.join('/');
  return { page, param: param ? decodeParam(param) : null };
}

const parse = parseRoute;

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
