import { describe, expect, it } from 'vitest';
import { resolveHubRevision, type RevisionLookup } from '../../../workers/hub-revision.ts';

const SHA = '0123456789abcdef0123456789abcdef01234567';
const HOST = 'https://hub.example/';
const source = { kind: 'hub' as const, id: 'org/model', revision: 'main' };

function lookup(options: { header?: string; api?: Response | Error }): RevisionLookup & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    cached: async (url) => {
      asked.push(`cache ${url}`);
      return options.header === undefined ? undefined : new Response('{}', { headers: { 'X-Repo-Commit': options.header } });
    },
    fetch: (async (url: string) => {
      asked.push(`fetch ${url}`);
      if (options.api instanceof Error) throw options.api;
      return options.api ?? new Response('not found', { status: 404 });
    }) as typeof fetch,
  };
}

describe('resolveHubRevision', () => {
  it('takes a revision that is already a commit as it is, asking nothing', async () => {
    const l = lookup({});
    expect(await resolveHubRevision({ ...source, revision: SHA }, HOST, l)).toEqual({ commit: SHA, how: 'pinned' });
    expect(l.asked).toEqual([]);
  });

  it('reads X-Repo-Commit from the cached config.json, built as transformers.js builds its URLs', async () => {
    const l = lookup({ header: SHA.toUpperCase() });
    expect(await resolveHubRevision({ ...source, revision: 'refs/pr/1' }, HOST, l)).toEqual({ commit: SHA, how: 'response-header' });
    expect(l.asked).toEqual([`cache ${HOST}org/model/resolve/refs%2Fpr%2F1/config.json`]);
  });

  it('asks the hub API when the cache has no usable header', async () => {
    const l = lookup({ header: 'not-a-commit', api: Response.json({ sha: SHA }) });
    expect(await resolveHubRevision(source, HOST, l)).toEqual({ commit: SHA, how: 'hub-api' });
    expect(l.asked[1]).toBe(`fetch ${HOST}api/models/org/model/revision/main`);
  });

  it('says why when neither gives a commit', async () => {
    expect(await resolveHubRevision(source, HOST, lookup({}))).toEqual({
      commit: null,
      how: null,
      note: `${HOST}api/models/org/model/revision/main answered HTTP 404`,
    });
    expect((await resolveHubRevision(source, HOST, lookup({ api: Response.json({ sha: 42 }) }))).note).toMatch(/gave no commit hash/);
    expect((await resolveHubRevision(source, HOST, lookup({ api: new TypeError('Failed to fetch') }))).note).toMatch(/Failed to fetch$/);
  });
});
