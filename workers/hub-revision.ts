// Which commit a hub model was loaded from. A revision like `main` moves; a run record must name the
// commit so the run can be repeated on the same files. Asked, in order:
//  1. the revision itself, when it is already a 40-hex commit;
//  2. the `X-Repo-Commit` header the hub sends with every resolved file, read from the copy of
//     config.json transformers.js keeps in Cache Storage (no request, so it works offline too);
//  3. the hub API (`api/models/<id>/revision/<revision>` gives `sha`), for hosts and caches that drop
//     the header. A mirror without that API gives null, and the record says so.
import type { ModelSource, ResolvedRevision } from '../src/lib/core/models/model-types.ts';

const COMMIT = /^[0-9a-f]{40}$/;

export interface RevisionLookup {
  /** The Cache Storage entry transformers.js wrote for a URL, if any. */
  cached: (url: string) => Promise<Response | undefined>;
  fetch: typeof fetch;
}

/** `host` ends with '/'; URLs are built as transformers.js builds them (`{model}/resolve/{revision}/`). */
export async function resolveHubRevision(source: Extract<ModelSource, { kind: 'hub' }>, host: string, lookup: RevisionLookup): Promise<ResolvedRevision> {
  const revision = source.revision || 'main';
  if (COMMIT.test(revision)) return { commit: revision, how: 'pinned' };
  const configUrl = `${host}${source.id}/resolve/${encodeURIComponent(revision)}/config.json`;
  try {
    const header = (await lookup.cached(configUrl))?.headers.get('x-repo-commit')?.toLowerCase();
    if (header && COMMIT.test(header)) return { commit: header, how: 'response-header' };
  } catch {
    // Cache Storage can be unavailable (opaque origins, storage off): ask the API instead.
  }
  const apiUrl = `${host}api/models/${source.id}/revision/${encodeURIComponent(revision)}`;
  try {
    const response = await lookup.fetch(apiUrl, { signal: AbortSignal.timeout(10_000) });
    if (!response.ok) return { commit: null, how: null, note: `${apiUrl} answered HTTP ${response.status}` };
    const sha = ((await response.json()) as { sha?: unknown }).sha;
    if (typeof sha === 'string' && COMMIT.test(sha)) return { commit: sha, how: 'hub-api' };
    return { commit: null, how: null, note: `${apiUrl} gave no commit hash` };
  } catch (error) {
    return { commit: null, how: null, note: `${apiUrl}: ${error instanceof Error ? error.message : String(error)}` };
  }
}
