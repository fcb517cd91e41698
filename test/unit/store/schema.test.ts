import { afterEach, describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { DB_VERSION, keptConnection, openJianguDb, type JianguDatabase, type RunRecord } from '../../../src/lib/store/schema.ts';
import { freshDb } from './helpers.ts';
import { bucketOf } from '../../../src/lib/store/run-list-buckets.ts';

let db: JianguDatabase | undefined;
afterEach(() => db?.close());

function indexShape(database: JianguDatabase, store: 'items' | 'runs' | 'results' | 'probeRuns' | 'probeResults' | 'runIndex' | 'runListBuckets') {
  const tx = database.transaction(store);
  const os = tx.objectStore(store);
  return {
    keyPath: os.keyPath,
    indexes: Object.fromEntries([...os.indexNames].map((name) => [name, os.index(name).keyPath])),
  };
}

describe('openJianguDb', () => {
  it('creates every store and index from version 0', async () => {
    db = await freshDb();
    expect(db.version).toBe(DB_VERSION);
    expect(DB_VERSION).toBe(5);
    expect([...db.objectStoreNames].sort()).toEqual(['datasets', 'items', 'probeResults', 'probeRuns', 'results', 'runIndex', 'runListBuckets', 'runs']);
    expect(db.transaction('datasets').store.keyPath).toBe('id');
    expect(indexShape(db, 'items')).toEqual({
      keyPath: ['datasetId', 'id'],
      indexes: {
        'by-dataset': 'datasetId',
        'by-dataset-task': ['datasetId', 'task'],
        'by-dataset-split': ['datasetId', 'split'],
        'by-dataset-task-split-order': ['datasetId', 'task', 'split', 'order'],
      },
    });
    expect(indexShape(db, 'runs')).toEqual({ keyPath: 'id', indexes: { 'by-dataset': 'datasetId', 'by-created': 'createdAt' } });
    expect(indexShape(db, 'results')).toEqual({ keyPath: ['runId', 'itemId'], indexes: { 'by-run': 'runId' } });
    expect(indexShape(db, 'probeRuns')).toEqual({ keyPath: 'id', indexes: { 'by-created': 'createdAt' } });
    expect(indexShape(db, 'probeResults')).toEqual({ keyPath: ['runId', 'itemId'], indexes: { 'by-run': 'runId' } });
    expect(indexShape(db, 'runIndex')).toEqual({ keyPath: 'id', indexes: { 'by-created': 'createdAt' } });
    // Out-of-line keys: a bucket's number (store/run-list-buckets.ts).
    expect(indexShape(db, 'runListBuckets')).toEqual({ keyPath: null, indexes: {} });
  });

  it('upgrades a version-1 database to the current version keeping its runs, adds the memorization stores, and lists its run (unreadable) in the run index', async () => {
    const name = `jiangu-v1-${crypto.randomUUID()}`;
    // Version 1 as the build before memorization runs made it.
    const v1 = await openDB(name, 1, {
      upgrade(old) {
        old.createObjectStore('datasets', { keyPath: 'id' });
        old.createObjectStore('items', { keyPath: ['datasetId', 'id'] });
        const runs = old.createObjectStore('runs', { keyPath: 'id' });
        runs.createIndex('by-dataset', 'datasetId');
        runs.createIndex('by-created', 'createdAt');
        old.createObjectStore('results', { keyPath: ['runId', 'itemId'] }).createIndex('by-run', 'runId');
      },
    });
    await v1.put('runs', { id: 'kept', createdAt: '2025-01-01T00:00:00Z' });
    v1.close();
    db = await openJianguDb(name);
    expect(db.version).toBe(DB_VERSION);
    expect(await db.get('runs', 'kept')).toMatchObject({ id: 'kept' });
    expect([...db.objectStoreNames]).toContain('probeRuns');
    expect(await db.count('probeResults')).toBe(0);
    // A record of two fields is no run a page can show: its entry says so (store/run-index.test.ts has readable ones).
    expect(await db.get('runIndex', 'kept')).toMatchObject({ id: 'kept', createdAt: '2025-01-01T00:00:00Z', unreadable: { code: 'import.field-wrong' } });
    // The index by date is made over the entries the same upgrade wrote, and the buckets hold them.
    expect(await db.getAllKeysFromIndex('runIndex', 'by-created')).toEqual(['kept']);
    expect((await db.getAll('runListBuckets')).flat()).toEqual([await db.get('runIndex', 'kept')]);
    expect(await db.getAllKeys('runListBuckets')).toEqual([bucketOf('kept')]);
  });

  it('upgrades a version-3 database: its run index gets its date order, over the entries it holds', async () => {
    const name = `jiangu-v3-${crypto.randomUUID()}`;
    const v3 = await openDB(name, 3, {
      upgrade(old) {
        const runs = old.createObjectStore('runs', { keyPath: 'id' });
        runs.createIndex('by-created', 'createdAt');
        old.createObjectStore('runIndex', { keyPath: 'id' });
      },
    });
    await v3.put('runIndex', { v: 2, id: 'older', createdAt: '2025-01-01T00:00:00Z' });
    await v3.put('runIndex', { v: 2, id: 'newer', createdAt: '2025-06-01T00:00:00Z' });
    await v3.put('runIndex', { v: 2, id: 'no-date', createdAt: null, unreadable: {} });
    v3.close();
    db = await openJianguDb(name);
    expect(db.version).toBe(DB_VERSION);
    // An entry without a date (an unreadable record's) has no place in the date order: the full list names it.
    expect(await db.getAllKeysFromIndex('runIndex', 'by-created')).toEqual(['older', 'newer']);
    // Version 5: the entries it holds, in their buckets.
    const inBuckets = (await db.getAll('runListBuckets')).flat();
    expect(inBuckets.map((e) => e.id).sort()).toEqual(['newer', 'no-date', 'older']);
    for (const id of ['older', 'newer', 'no-date']) expect((await db.get('runListBuckets', bucketOf(id)))!.map((e) => e.id)).toContain(id);
  });

  it('upgrades a version-4 database: the run index\'s entries go into their buckets, as they are', async () => {
    const name = `jiangu-v4-${crypto.randomUUID()}`;
    const v4 = await openDB(name, 4, {
      upgrade(old) {
        old.createObjectStore('runs', { keyPath: 'id' }).createIndex('by-created', 'createdAt');
        old.createObjectStore('runIndex', { keyPath: 'id' }).createIndex('by-created', 'createdAt');
      },
    });
    const ids = Array.from({ length: 300 }, (_, i) => `run-${i}`);
    for (const id of ids) await v4.put('runIndex', { v: 2, id, createdAt: '2025-01-01T00:00:00Z' });
    v4.close();
    db = await openJianguDb(name);
    const buckets = await db.getAllKeys('runListBuckets');
    const held = await db.getAll('runListBuckets');
    expect(held.flat().map((e) => e.id).sort()).toEqual([...ids].sort());
    held.forEach((entries, i) => entries.forEach((e) => expect(bucketOf(e.id)).toBe(buckets[i])));
    expect(held.flat().find((e) => e.id === 'run-7')).toEqual({ v: 2, id: 'run-7', createdAt: '2025-01-01T00:00:00Z' });
  });

  it('reopens an existing database without rerunning the ladder, keeping its data', async () => {
    const name = `jiangu-reopen-${crypto.randomUUID()}`;
    const first = await openJianguDb(name);
    const run = { id: 'r1', createdAt: '2025-01-01T00:00:00Z', updatedAt: '2025-01-01T00:00:00Z', datasetId: 'aclue', status: 'created', warnings: [] };
    await first.put('runs', run as unknown as RunRecord); // the config does not matter to the schema
    first.close();
    db = await openJianguDb(name);
    expect(db.version).toBe(DB_VERSION);
    expect(await db.get('runs', 'r1')).toMatchObject({ id: 'r1', status: 'created' });
  });

  it('closes itself when a newer version of the app needs to upgrade', async () => {
    const name = `jiangu-blocking-${crypto.randomUUID()}`;
    db = await openJianguDb(name);
    const newer = await openDB(name, DB_VERSION + 1);
    expect(newer.version).toBe(DB_VERSION + 1);
    newer.close();
    expect(() => db?.transaction('datasets')).toThrow();
  });
});

describe('keptConnection', () => {
  it('keeps the connection it opened, and opens afresh after an open that failed', async () => {
    const name = `kept-${Math.random()}`;
    // A database of a later version than this code's: the open fails (VersionError).
    (await openDB(name, DB_VERSION + 1)).close();
    const connection = keptConnection(name);
    await expect(connection()).rejects.toThrow(/version/i);
    await new Promise<void>((resolve, reject) => {
      const deleting = indexedDB.deleteDatabase(name);
      deleting.onsuccess = () => resolve();
      deleting.onerror = () => reject(deleting.error);
    });
    const opened = await connection();
    expect(opened.version).toBe(DB_VERSION);
    expect(await connection()).toBe(opened);
    db = opened;
  });
});
