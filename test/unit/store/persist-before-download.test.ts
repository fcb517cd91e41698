// Persistent storage is asked for before the first large download, not after the first save: the
// dataset's first fetch comes after `persist()`, and never waits on its answer (a browser that
// prompts must not hold the download).
import { afterEach, describe, expect, it, vi } from 'vitest';
import { freshDb } from './helpers.ts';

type ImportModule = typeof import('../../../src/lib/data/import-dataset.ts');

/** Fresh modules (so the once-per-page memo in storage.ts starts empty) with `navigator.storage` faked. */
async function load(persist: () => Promise<boolean>): Promise<ImportModule> {
  vi.resetModules();
  vi.stubGlobal('navigator', { storage: { persist } });
  return import('../../../src/lib/data/import-dataset.ts');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('fetchCatalogFiles', () => {
  it('asks persist() before its first fetch', async () => {
    const calls: string[] = [];
    const { fetchCatalogFiles } = await load(async () => {
      calls.push('persist');
      return true;
    });
    const fetchImpl = vi.fn(async (url: string | URL | Request) => {
      calls.push(`fetch ${String(url)}`);
      return new Response('not the pinned bytes');
    }) as unknown as typeof fetch;
    // The bytes are not the pinned ones, so the download stops at the first file's hash check.
    await expect(fetchCatalogFiles('cmmlu-ancient', { mirror: 'http://127.0.0.1/mirror', fetchImpl })).rejects.toThrow();
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls[0]).toBe('persist');
    expect(calls[1]).toMatch(/^fetch http:\/\/127\.0\.0\.1\/mirror\/cmmlu-ancient_chinese\//);
    expect(calls.filter((c) => c === 'persist')).toHaveLength(1);
  });

  it('does not wait for the answer: a prompt left open holds no byte back', async () => {
    const persist = vi.fn(() => new Promise<boolean>(() => {}));
    const { fetchCatalogFiles } = await load(persist);
    const fetchImpl = vi.fn(async () => new Response('x')) as unknown as typeof fetch;
    await expect(fetchCatalogFiles('cmmlu-ancient', { mirror: 'http://127.0.0.1/mirror', fetchImpl })).rejects.toThrow();
    expect(persist).toHaveBeenCalledTimes(1);
    expect(fetchImpl).toHaveBeenCalled();
  });
});

describe('storeDataset', () => {
  it('no longer asks after the save (the download already did)', async () => {
    const persist = vi.fn(async () => true);
    const { storeDataset } = await load(persist);
    const db = await freshDb();
    const csv = 'Question,A,B,C,D,Answer\n问,甲,乙,丙,丁,A\n';
    await storeDataset(db, 'ancientbench', [{ path: '通假字.csv', bytes: new TextEncoder().encode(csv), sha256: 'x' }], { origin: 'import' });
    expect(persist).not.toHaveBeenCalled();
    db.close();
  });
});
