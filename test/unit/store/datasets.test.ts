import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Item } from '../../../src/lib/core/benchmarks/types.ts';
import {
  countItems,
  datasetSizes,
  deleteDataset,
  getDataset,
  listDatasets,
  listTasks,
  loadItems,
  loadTaskItems,
  saveDataset,
} from '../../../src/lib/store/datasets.ts';
import { DatasetNotFoundError } from '../../../src/lib/store/errors.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { approxBytes } from '../../../src/lib/store/sizes.ts';
import { freshDb, makeItems, makeRecord, shuffled, snapshot } from './helpers.ts';

const aclueItems = makeItems('aclue', [
  { task: '通假字', dev: 3, test: 5 },
  { task: '古诗词情感分类', dev: 2, test: 4 },
]);
const aclue = makeRecord('aclue', aclueItems, 'ACLUE');
const wenmindItems = makeItems('wenmind', [{ task: 'punctuation', dev: 1, test: 30 }], 'w');
const wenmind = makeRecord('wenmind', wenmindItems, 'WenMind');

const byId = (a: Item, b: Item) => a.id.localeCompare(b.id);
const fileOrder = (items: readonly Item[], task: string, split?: 'dev' | 'test') =>
  items.filter((i) => i.task === task && (!split || i.split === split));

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

describe('saveDataset and the readers', () => {
  it('gives back the saved items, in file order per task and split, with the right counts', async () => {
    await saveDataset(db, aclue, shuffled(aclueItems));
    expect(await getDataset(db, 'aclue')).toEqual(aclue);
    expect(await listDatasets(db)).toEqual([aclue]);
    expect(await countItems(db, 'aclue')).toBe(aclueItems.length);
    expect(await listTasks(db, 'aclue')).toEqual(['通假字', '古诗词情感分类']);

    const all = await loadItems(db, 'aclue');
    expect([...all].sort(byId)).toEqual([...aclueItems].sort(byId));

    const dev = await loadTaskItems(db, 'aclue', '通假字', 'dev');
    expect(dev).toEqual(fileOrder(aclueItems, '通假字', 'dev'));
    expect(dev.map((i) => i.order)).toEqual([0, 1, 2]);
    expect(await loadTaskItems(db, 'aclue', '通假字', 'test')).toEqual(fileOrder(aclueItems, '通假字', 'test'));
    // No split: dev first, then test, each in file order.
    expect(await loadTaskItems(db, 'aclue', '古诗词情感分类')).toEqual(fileOrder(aclueItems, '古诗词情感分类'));
    expect(await loadTaskItems(db, 'aclue', '没有这个任务')).toEqual([]);
  });

  it('keeps datasets apart', async () => {
    await saveDataset(db, aclue, aclueItems);
    await saveDataset(db, wenmind, wenmindItems);
    expect(await countItems(db, 'aclue')).toBe(aclueItems.length);
    expect(await countItems(db, 'wenmind')).toBe(wenmindItems.length);
    expect(await loadItems(db, 'wenmind')).toEqual(wenmindItems);
    expect((await listDatasets(db)).map((r) => r.id)).toEqual(['aclue', 'wenmind']);
  });

  it('replaces an earlier import of the same dataset, leaving none of its items', async () => {
    await saveDataset(db, aclue, aclueItems);
    await saveDataset(db, wenmind, wenmindItems);
    const second = makeItems('aclue', [{ task: '通假字', dev: 1, test: 2 }], 'v2-');
    const secondRecord = { ...makeRecord('aclue', second, 'ACLUE'), importedAt: '2025-02-01T00:00:00.000Z' };
    await saveDataset(db, secondRecord, second);
    expect(await getDataset(db, 'aclue')).toEqual(secondRecord);
    expect(await countItems(db, 'aclue')).toBe(3);
    expect(await loadItems(db, 'aclue')).toEqual(second);
    expect((await snapshot(db)).items.filter((i) => i.datasetId === 'aclue').every((i) => i.id.startsWith('v2-'))).toBe(true);
    expect(await countItems(db, 'wenmind')).toBe(wenmindItems.length);
  });

  it('says which dataset is missing', async () => {
    await expect(loadItems(db, 'ac-eval')).rejects.toBeInstanceOf(DatasetNotFoundError);
    await expect(loadTaskItems(db, 'ac-eval', 'x')).rejects.toThrow(/ac-eval is not stored/);
    await expect(listTasks(db, 'ac-eval')).rejects.toMatchObject({ name: 'DatasetNotFoundError', datasetId: 'ac-eval' });
    expect(await getDataset(db, 'ac-eval')).toBeUndefined();
    expect(await countItems(db, 'ac-eval')).toBe(0);
  });
});

describe('deleteDataset', () => {
  it('removes the record and items of that dataset only', async () => {
    await saveDataset(db, aclue, aclueItems);
    await saveDataset(db, wenmind, wenmindItems);
    expect(await deleteDataset(db, 'aclue')).toBe(true);
    expect(await getDataset(db, 'aclue')).toBeUndefined();
    expect(await countItems(db, 'aclue')).toBe(0);
    expect(await snapshot(db)).toEqual({ datasets: [wenmind], items: [...wenmindItems].sort(byId) });
    expect(await deleteDataset(db, 'aclue')).toBe(false);
  });
});

describe('datasetSizes', () => {
  it('estimates each dataset as JSON × 2, biggest first', async () => {
    await saveDataset(db, aclue, aclueItems);
    await saveDataset(db, wenmind, wenmindItems);
    const sizes = await datasetSizes(db);
    const expected = (record: typeof aclue, items: Item[]) => items.reduce((s, i) => s + approxBytes(i), approxBytes(record));
    expect(sizes).toEqual([
      { id: 'wenmind', title: 'WenMind', itemCount: 31, approxBytes: expected(wenmind, wenmindItems) },
      { id: 'aclue', title: 'ACLUE', itemCount: 14, approxBytes: expected(aclue, aclueItems) },
    ]);
    expect(sizes[0].approxBytes).toBeGreaterThan(sizes[1].approxBytes);
    expect(approxBytes({ a: '古' })).toBe(JSON.stringify({ a: '古' }).length * 2);
  });
});
