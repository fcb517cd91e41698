// All or nothing: every failed save must leave the datasets and items stores exactly as before.
// Quota errors are simulated three ways, matching how browsers report them: a put that throws
// synchronously, a put request that fails later (bubbling to the transaction and aborting it), and
// a transaction aborted with QuotaExceededError on tx.error (Chrome's commit-time failure). The last
// two reach into fake-indexeddb 6's internals (`_rawObjectStore.storeRecord`, `transaction._abort`),
// since the public API cannot make a request fail.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Item } from '../../../src/lib/core/benchmarks/types.ts';
import { datasetSizes, saveDataset } from '../../../src/lib/store/datasets.ts';
import { DatasetSaveError, DatasetValidationError, StorageFullError } from '../../../src/lib/store/errors.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { approxBytes, formatBytes } from '../../../src/lib/store/sizes.ts';
import { freshDb, makeItems, makeRecord, snapshot } from './helpers.ts';

interface FakeStoreInternals {
  _rawObjectStore: { storeRecord: (...args: unknown[]) => unknown };
  transaction: IDBTransaction & { _abort(errorName: string | null): void };
}

type PutHook = (store: IDBObjectStore & FakeStoreInternals, call: number, put: () => IDBRequest) => IDBRequest;

/** Routes every IDBObjectStore.put through `hook`; `call` counts puts from 1. */
function hookPut(hook: PutHook): void {
  const original = IDBObjectStore.prototype.put;
  let call = 0;
  vi.spyOn(IDBObjectStore.prototype, 'put').mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
    call += 1;
    return hook(this as IDBObjectStore & FakeStoreInternals, call, () => original.apply(this, args));
  });
}

/** Makes the request of the next put fail asynchronously with `name`, as a real disk error would. */
function failRequest(store: FakeStoreInternals, name: string, put: () => IDBRequest): IDBRequest {
  const raw = store._rawObjectStore;
  const storeRecord = raw.storeRecord;
  raw.storeRecord = () => {
    raw.storeRecord = storeRecord;
    throw new DOMException('simulated', name);
  };
  return put();
}

const oldItems = makeItems('aclue', [{ task: '通假字', dev: 2, test: 4 }], 'old-');
const oldAclue = makeRecord('aclue', oldItems, 'ACLUE');
const newItems = makeItems('aclue', [{ task: '通假字', dev: 3, test: 6 }, { task: '断句', dev: 1, test: 3 }], 'new-');
const newAclue = { ...makeRecord('aclue', newItems, 'ACLUE'), importedAt: '2025-03-01T00:00:00.000Z' };
const wenmindItems = makeItems('wenmind', [{ task: 'punctuation', dev: 2, test: 40 }], 'w');
const wenmind = makeRecord('wenmind', wenmindItems, 'WenMind');
const needed = newItems.reduce((sum, item) => sum + approxBytes(item), approxBytes(newAclue));

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
  await saveDataset(db, oldAclue, oldItems);
  await saveDataset(db, wenmind, wenmindItems);
});
afterEach(() => {
  vi.restoreAllMocks();
  db.close();
});

async function expectUnchangedAfter(save: () => Promise<void>): Promise<unknown> {
  const before = await snapshot(db);
  expect(before.items).toHaveLength(oldItems.length + wenmindItems.length);
  const error = await save().then(
    () => undefined,
    (e: unknown) => e,
  );
  vi.restoreAllMocks();
  expect(error).toBeInstanceOf(Error);
  expect(await snapshot(db)).toEqual(before);
  return error;
}

describe('a save that fails part-way changes nothing', () => {
  it('an item that cannot be cloned (DataCloneError)', async () => {
    const bad = newItems.map((item, i) => (i === 4 ? ({ ...item, explanation: () => 'no' } as unknown as Item) : item));
    const error = await expectUnchangedAfter(() => saveDataset(db, newAclue, bad));
    expect(error).toBeInstanceOf(DatasetSaveError);
    expect(error).toMatchObject({ itemId: newItems[4].id });
    expect((error as Error).message).toMatch(/DataCloneError/);
    expect((error as Error).message).toContain('line');
  });

  it('an item without a key (DataError)', async () => {
    const bad = newItems.map((item, i) => (i === 6 ? ({ ...item, id: undefined } as unknown as Item) : item));
    const error = await expectUnchangedAfter(() => saveDataset(db, newAclue, bad));
    expect(error).toMatchObject({ name: 'DatasetSaveError', message: expect.stringMatching(/DataError/) });
  });

  it('a put request that fails after being queued (ConstraintError)', async () => {
    hookPut((store, call, put) => (call === 5 ? failRequest(store, 'ConstraintError', put) : put()));
    const error = await expectUnchangedAfter(() => saveDataset(db, newAclue, newItems));
    expect(error).toBeInstanceOf(DatasetSaveError);
    expect(error).toMatchObject({ itemId: newItems[4].id });
    expect((error as Error).message).toMatch(/ConstraintError/);
  });

  it('the transaction aborted from outside mid-way', async () => {
    hookPut((store, call, put) => {
      const request = put();
      if (call === 3) store.transaction.abort();
      return request;
    });
    const error = await expectUnchangedAfter(() => saveDataset(db, newAclue, newItems));
    expect(error).toBeInstanceOf(DatasetSaveError);
  });

  it('items that do not fit the record are refused before any write', async () => {
    let puts = 0;
    const counting: PutHook = (_store, _call, put) => {
      puts += 1;
      return put();
    };
    hookPut(counting);
    const dup = [...newItems, { ...newItems[2], order: 99 }];
    const dupError = await expectUnchangedAfter(() => saveDataset(db, newAclue, dup));
    expect(dupError).toBeInstanceOf(DatasetValidationError);
    expect((dupError as Error).message).toContain(`item id ${newItems[2].id} appears twice`);

    hookPut(counting);
    const foreign = [...newItems, { ...wenmindItems[0], id: 'stray' }];
    const foreignError = await expectUnchangedAfter(() => saveDataset(db, newAclue, foreign));
    expect(foreignError).toBeInstanceOf(DatasetValidationError);
    expect((foreignError as Error).message).toContain('item stray (data/dev/punctuation.csv, line 2) belongs to dataset wenmind, not aclue');
    expect(puts).toBe(0);
  });
});

describe('QuotaExceededError becomes StorageFullError', () => {
  const ways: [string, PutHook][] = [
    [
      'thrown by put',
      (_store, call, put) => {
        if (call === 5) throw new DOMException('simulated', 'QuotaExceededError');
        return put();
      },
    ],
    ['on a put request', (store, call, put) => (call === 5 ? failRequest(store, 'QuotaExceededError', put) : put())],
    [
      'on tx.error when the transaction aborts',
      (store, _call, put) => {
        const request = put();
        if (store.name === 'datasets') store.transaction._abort('QuotaExceededError');
        return request;
      },
    ],
  ];

  it.each(ways)('%s', async (_label, hook) => {
    hookPut(hook);
    const error = await expectUnchangedAfter(() => saveDataset(db, newAclue, newItems));
    expect(error).toBeInstanceOf(StorageFullError);
    const full = error as StorageFullError;
    expect(full.neededBytes).toBe(needed);
    expect(full.suggestions).toEqual(await datasetSizes(db));
    expect(full.suggestions.map((s) => s.id)).toEqual(['wenmind', 'aclue']);
    expect(full.message).toContain(`about ${formatBytes(needed)}`);
    expect(full.message).toMatch(/approximate/);
    const wen = full.message.indexOf(`WenMind (wenmind, about ${formatBytes(full.suggestions[0].approxBytes)})`);
    const old = full.message.indexOf('ACLUE (aclue, about');
    expect(wen).toBeGreaterThan(-1);
    expect(old).toBeGreaterThan(wen);
    expect(full.message).toContain('an older import of this one');
    expect((full.cause as DOMException).name).toBe('QuotaExceededError');
  });

  it('says so when nothing is stored to delete', async () => {
    const empty = await freshDb();
    hookPut((store, call, put) => (call === 2 ? failRequest(store, 'QuotaExceededError', put) : put()));
    const error = await saveDataset(empty, newAclue, newItems).catch((e: unknown) => e);
    vi.restoreAllMocks();
    expect(error).toBeInstanceOf(StorageFullError);
    expect((error as StorageFullError).suggestions).toEqual([]);
    expect((error as Error).message).toMatch(/No datasets are stored/);
    expect(await snapshot(empty)).toEqual({ datasets: [], items: [] });
    empty.close();
  });
});
