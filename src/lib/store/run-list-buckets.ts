// The run index's entries again, kept in RUN_LIST_BUCKETS values of many entries each (issue 46,
// item 3): what a whole list reads. Chromium's IndexedDB pays per value read: 10,000 entries of a few
// hundred bytes, one value each, took 0.8-1.1 s to come at 10,000 stored runs (npm run bench,
// many-runs), where the same entries in 10 values took ~0.14 s in a bare page. The per-run entries
// (runIndex) stay: a long list's newest rows come from their date order (run-index.ts readNewestRuns).
//
// A run's entry lives in the bucket its id hashes to. Every write of runIndex writes the bucket in the
// same transaction (run-index.ts indexRun and unindexRuns), so the two hold the same entries; the
// list's check against the records' keys builds both again when they do not.
import type { IDBPTransaction, StoreNames } from 'idb';
import type { IndexEntry } from '../core/record/run-list-entry.ts';
import { bucketOf, RUN_LIST_BUCKETS, type JianguDb } from './schema.ts';

// Which bucket holds an id, and the buckets filled whole, live with the upgrade that fills them (schema.ts).
export { bucketOf, RUN_LIST_BUCKETS };

/** Buckets per read request: a list is read in four requests, each taken in by the page in a task of its own. */
const BUCKETS_PER_READ = 16;

type Tx = IDBPTransaction<JianguDb, StoreNames<JianguDb>[], IDBTransactionMode>;
type WriteTx = IDBPTransaction<JianguDb, StoreNames<JianguDb>[], 'readwrite' | 'versionchange'>;

/**
 * Each transaction's last change of each bucket: a second change of one bucket in a transaction
 * reads it after the first has written it (requests are answered in order, so both reads would
 * otherwise come before either write, and the second write would undo the first).
 */
const changing = new WeakMap<object, Map<number, Promise<void>>>();

function changeBucket(tx: WriteTx, bucket: number, change: (entries: IndexEntry[]) => IndexEntry[]): Promise<void> {
  let chains = changing.get(tx);
  if (!chains) changing.set(tx, (chains = new Map()));
  const before = chains.get(bucket) ?? Promise.resolve();
  // Run on as soon as the previous change's write is answered, still inside the transaction.
  const next = before
    .catch(() => undefined)
    .then(async () => {
      const store = tx.objectStore('runListBuckets');
      await store.put(change((await store.get(bucket)) ?? []), bucket);
    });
  chains.set(bucket, next);
  return next;
}

/** Puts `entry` in its bucket in `tx`, in place of the entry of the same id. */
export function bucketPut(tx: WriteTx, entry: IndexEntry): Promise<void> {
  return changeBucket(tx, bucketOf(entry.id), (entries) => [...entries.filter((e) => e.id !== entry.id), entry]);
}

/** Takes the entries of `ids` out of their buckets in `tx`: one change per bucket. */
export function bucketDelete(tx: WriteTx, ids: readonly string[]): Promise<void>[] {
  const byBucket = new Map<number, Set<string>>();
  for (const id of ids) {
    const bucket = bucketOf(id);
    if (!byBucket.has(bucket)) byBucket.set(bucket, new Set());
    byBucket.get(bucket)!.add(id);
  }
  return [...byBucket].map(([bucket, gone]) => changeBucket(tx, bucket, (entries) => entries.filter((e) => !gone.has(e.id))));
}

/** Every bucket's entries, in no particular order, read in a few requests of `tx` (which must include 'runListBuckets'). */
export function readBuckets(tx: Tx): Promise<IndexEntry[]> {
  const store = tx.objectStore('runListBuckets');
  const reads: Promise<IndexEntry[][]>[] = [];
  for (let first = 0; first < RUN_LIST_BUCKETS; first += BUCKETS_PER_READ) {
    reads.push(store.getAll(IDBKeyRange.bound(first, first + BUCKETS_PER_READ - 1)));
  }
  return Promise.all(reads).then((read) => read.flat(2));
}
