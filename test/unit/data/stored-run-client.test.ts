// The classroom's chunked read of a dataset's items (stored-run-client.ts readItemsInChunks), in Node
// with fake-indexeddb: every item of the dataset, each once, none of another dataset's, for sizes at,
// below and past a chunk.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ITEMS_PER_READ, readItemsInChunks } from '../../../src/lib/data/stored-run-client.ts';
import { loadItems, saveDataset } from '../../../src/lib/store/datasets.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb, makeItems, makeRecord } from '../store/helpers.ts';

const byId = (a: { id: string }, b: { id: string }) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

describe('readItemsInChunks', () => {
  let db: JianguDatabase;
  beforeEach(async () => {
    db = await freshDb();
  });
  afterEach(() => db.close());

  for (const test of [0, 7, ITEMS_PER_READ - 1, 2 * ITEMS_PER_READ - 1, 2 * ITEMS_PER_READ + 5]) {
    it(`reads every item of a dataset of ${test + 1} items, and no other dataset's`, async () => {
      const items = makeItems('ancientbench', [{ task: 'Radical', dev: 1, test }]);
      await saveDataset(db, makeRecord('ancientbench', items), items);
      // A neighbour whose keys sort right after: it must not leak in.
      const other = makeItems('c3bench', [{ task: 'x', dev: 1, test: 3 }]);
      await saveDataset(db, makeRecord('c3bench', other), other);
      const read = await readItemsInChunks(db, 'ancientbench');
      expect(read.length).toBe(items.length);
      expect([...read].sort(byId)).toEqual([...(await loadItems(db, 'ancientbench'))].sort(byId));
    });
  }
});
