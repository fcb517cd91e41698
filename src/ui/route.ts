// A fragment (#/data, #/run/<id>, #/reading/<query>) as a page and its parameter: plain functions, so
// unit tests read them without Svelte's runes (router.svelte.ts holds the page's state).
// Every link and every hash the site sets is built by routeTo, and parseRoute decodes a parameter
// once: an id restored from a backup may hold any character, and an id written into a fragment as it
// stands is read back as another (`%32d4` decodes to `2d4`, `q?z=1` stops at its `?`, `a,b` is two
// ids on Compare), so a page would open, export or delete a run other than the one its row named.

export type PageId = 'playground' | 'data' | 'evaluate' | 'run' | 'probe' | 'probe-link' | 'shared' | 'classroom' | 'compare' | 'reading';
const pages: readonly PageId[] = ['playground', 'data', 'evaluate', 'run', 'probe', 'probe-link', 'shared', 'classroom', 'compare', 'reading'];

/**
 * One id as a fragment holds it: every character that means something in a URL is escaped. A lone
 * surrogate (no stored id should hold one: the importers refuse it) cannot be percent-encoded and
 * would throw while a list is drawn; it is written as U+FFFD, a link the page then finds no run for.
 */
export function encodeId(id: string): string {
  return encodeURIComponent(id.replace(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g, '\uFFFD'));
}

/**
 * The fragment of a page, or of one stored run on it (`#/run/<id>`, `#/probe/<id>`, `#/classroom/<id>`),
 * or of several (`#/compare/<id>,<id>`): each id encoded on its own, so its `/`, `,`, `?`, `#` and
 * `%` stay its own characters. parseRoute gives `param` back as the one id; for several, idsOfRoute.
 */
export function routeTo(page: PageId, id?: string | readonly string[]): string {
  if (id === undefined) return `#/${page}`;
  const ids = typeof id === 'string' ? [id] : id;
  return ids.length === 0 ? `#/${page}` : `#/${page}/${ids.map(encodeId).join(',')}`;
}

/**
 * The ids of a several-id route (Compare's), from its parameter as it stands (parseRoute's `raw`):
 * split on the commas routeTo put between them before each is decoded, so an id's own `,` (sent as
 * `%2C`) does not split it. Blanks and repeats are dropped.
 */
export function idsOfRoute(raw: string | null): string[] {
  return [...new Set((raw ?? '').split(',').map((id) => id.trim()).filter((id) => id.length > 0).map(decodeParam))];
}

/**
 * The classroom's `shared/<payload>` form (a share link's) apart from a stored run's id, read from
 * the parameter as it stands: a run id's own `/` is encoded (`shared%2Fx`), so a run named `shared/x`
 * opens as the run it is, not as a link.
 */
export function classroomSource(raw: string): { kind: 'run'; runId: string } | { kind: 'shared'; payload: string } {
  return raw.startsWith('shared/') ? { kind: 'shared', payload: decodeParam(raw.slice('shared/'.length)) } : { kind: 'run', runId: decodeParam(raw) };
}

/** The classroom for a share link's payload (base64url, so encoding leaves it as it is). */
export const classroomSharedRoute = (payload: string): string => `#/classroom/shared/${encodeId(payload)}`;

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
