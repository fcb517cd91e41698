import { afterEach, describe, expect, it, vi } from 'vitest';

type StorageModule = typeof import('../../../src/lib/store/storage.ts');

/** A fresh copy of the module, so its once-per-page memo starts empty. */
async function load(storage?: Partial<StorageManager>): Promise<StorageModule> {
  vi.resetModules();
  if (storage) vi.stubGlobal('navigator', { storage });
  return import('../../../src/lib/store/storage.ts');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('outside a browser', () => {
  it('does nothing and reports nothing', async () => {
    vi.stubGlobal('navigator', undefined);
    const { requestPersistence, storageEstimate } = await load();
    expect(await requestPersistence()).toBe(false);
    expect(await storageEstimate()).toBeNull();
  });
});

describe('requestPersistence', () => {
  it('asks once and reuses the answer', async () => {
    const persist = vi.fn(async () => true);
    const { requestPersistence } = await load({ persist });
    expect(await requestPersistence()).toBe(true);
    expect(await requestPersistence()).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
  });

  it('never throws', async () => {
    const { requestPersistence } = await load({
      persist: () => Promise.reject(new DOMException('nope', 'SecurityError')),
    });
    expect(await requestPersistence()).toBe(false);
  });
});

describe('storageEstimate', () => {
  it('reports usage and quota', async () => {
    const { storageEstimate } = await load({ estimate: async () => ({ usage: 1234, quota: 5_000_000 }) });
    expect(await storageEstimate()).toEqual({ usage: 1234, quota: 5_000_000 });
  });

  it('gives null when the browser has no quota to tell or fails', async () => {
    expect(await (await load({ estimate: async () => ({}) })).storageEstimate()).toBeNull();
    expect(await (await load({ estimate: () => Promise.reject(new Error('x')) })).storageEstimate()).toBeNull();
  });
});

describe('requestPersistenceBeforeModelLoad', () => {
  it('asks before a hub model load, once per page load', async () => {
    const persist = vi.fn(async () => true);
    const { requestPersistenceBeforeModelLoad, persistenceRequested } = await load({ persist });
    expect(persistenceRequested()).toBeNull();
    expect(await requestPersistenceBeforeModelLoad({ kind: 'hub' })).toBe(true);
    expect(await requestPersistenceBeforeModelLoad({ kind: 'hub' })).toBe(true);
    expect(persist).toHaveBeenCalledTimes(1);
    expect(await persistenceRequested()).toBe(true);
  });

  it("asks nothing for the site's own models, which download nothing to keep", async () => {
    const persist = vi.fn(async () => true);
    const { requestPersistenceBeforeModelLoad, persistenceRequested } = await load({ persist });
    expect(requestPersistenceBeforeModelLoad({ kind: 'site' })).toBeNull();
    expect(persist).not.toHaveBeenCalled();
    expect(persistenceRequested()).toBeNull();
  });
});
