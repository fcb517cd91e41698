import { afterEach, describe, expect, it } from 'vitest';
import { openDB } from 'idb';
import { DB_VERSION, openJianguDb, type JianguDatabase, type RunRecord } from '../../../src/lib/store/schema.ts';
import { freshDb } from './helpers.ts';

let db: JianguDatabase | undefined;
afterEach(() => db?.close());

function indexShape(database: JianguDatabase, store: 'items' | 'runs' | 'results') {
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
    expect(DB_VERSION).toBe(1);
    expect([...db.objectStoreNames].sort()).toEqual(['datasets', 'items', 'results', 'runs']);
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
