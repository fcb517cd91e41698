// A fragment (#/data, #/run/<id>, #/reading/<query>) as a page and its parameter: plain functions, so
// unit tests read them without Svelte's runes (router.svelte.ts holds the page's state).

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

/**
 * The page and its parameter for a fragment; never throws, whatever the fragment holds. `raw` is the
 * parameter as it stands, not decoded: for a page whose parameter is a query that decodes itself
 * (the Reading page's), so that a `%26` in a passage stays a character and not a separator.
 */
export function parseRoute(hash: string): { page: PageId; param: string | null; raw: string | null } {
  // Everything after the page id is its parameter (`classroom/shared/<payload>` gives `shared/<payload>`).
  const [id, ...rest] = hash.replace(/^#\/?/, '').split('?')[0].split('/');
  const page = (pages as readonly string[]).includes(id) ? (id as PageId) : 'playground';
  const param = rest.join('/');
  return { page, param: param ? decodeParam(param) : null, raw: param || null };
}
