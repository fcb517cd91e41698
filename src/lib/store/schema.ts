// The one IndexedDB schema of the app and the upgrade ladder that builds it. Every store lives
// here, so a reader sees the whole database in one file and each version's change in one rung.
import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction, type StoreNames } from 'idb';
import type { DatasetId, DatasetRecord, Item, Split } from '../core/benchmarks/types.ts';
import type { ItemResult, RunRecord as AnyRunRecord } from '../core/record/run.ts';
import type { ProbeResult, ProbeRunRecord } from '../core/record/probe-run.ts';
import { indexEntryOf, type IndexEntry } from '../core/record/run-list-entry.ts';

/** The schema version this build opens. Raise it by one and add a rung to `upgrade` for any change. */
export const DB_VERSION = 5;

/** The default database name; tests pass their own to stay isolated. */
export const DB_NAME = 'jiangu';

export type { RunStatus } from '../core/record/run.ts';
/** A run and its per-item results: the types live with the run record (core/record/run.ts). */
export type RunRecord = AnyRunRecord;
export type ResultRecord = ItemResult;

export interface JianguDb extends DBSchema {
  datasets: { key: DatasetId; value: DatasetRecord };
  items: {
    key: [DatasetId, string];
    value: Item;
    indexes: {
      'by-dataset': DatasetId;
      'by-dataset-task': [DatasetId, string];
      'by-dataset-split': [DatasetId, Split];
      /** One task's items in file order (dev before test) with no sorting after the read. */
      'by-dataset-task-split-order': [DatasetId, string, Split, number];
    };
  };
  runs: { key: string; value: RunRecord; indexes: { 'by-dataset': DatasetId; 'by-created': string } };
  results: { key: [string, string]; value: ResultRecord; indexes: { 'by-run': string } };
  /** Memorization runs (core/record/probe-run.ts): apart from scoring runs, which every list and Compare reads. */
  probeRuns: { key: string; value: ProbeRunRecord; indexes: { 'by-created': string } };
  /** Their items' statistics and their shards' log-likelihoods. */
  probeResults: { key: [string, string]; value: ProbeResult; indexes: { 'by-run': string } };
  /**
   * One small entry per scoring run, what a list shows (core/record/run-list-entry.ts), written in the
   * same transaction as its record (store/run-index.ts): lists read these (a long list's newest rows
   * by date, a whole list from runListBuckets), never every record.
   */
  runIndex: { key: string; value: IndexEntry; indexes: { 'by-created': string } };
  /** The same entries in a few values of many entries each (store/run-list-buckets.ts): what a whole list reads. */
  runListBuckets: { key: number; value: IndexEntry[] };
}

/** The stores every write of a scoring run's record writes beside it (store/run-index.ts indexRun, unindexRuns). */
export const INDEX_STORES = ['runIndex', 'runListBuckets'] as const;

export type JianguDatabase = IDBPDatabase<JianguDb>;

/**
 * Builds or migrates the schema. Called by idb inside the version-change transaction when the
 * stored version is below DB_VERSION.
 *
 * @param db The database being upgraded; only here may stores and indexes be created.
 * @param oldVersion The version the browser had stored: 0 for a first visit.
 */
function upgrade(db: JianguDatabase, oldVersion: number, tx: IDBPTransaction<JianguDb, StoreNames<JianguDb>[], 'versionchange'>): void {
  if (oldVersion < 1) {
    db.createObjectStore('datasets', { keyPath: 'id' });
    const items = db.createObjectStore('items', { keyPath: ['datasetId', 'id'] });
    items.createIndex('by-dataset', 'datasetId');
    items.createIndex('by-dataset-task', ['datasetId', 'task']);
    items.createIndex('by-dataset-split', ['datasetId', 'split']);
    items.createIndex('by-dataset-task-split-order', ['datasetId', 'task', 'split', 'order']);
    const runs = db.createObjectStore('runs', { keyPath: 'id' });
    runs.createIndex('by-dataset', 'datasetId');
    runs.createIndex('by-created', 'createdAt');
    const results = db.createObjectStore('results', { keyPath: ['runId', 'itemId'] });
    results.createIndex('by-run', 'runId');
  }
  if (oldVersion < 2) {
    // Memorization runs (issue 26).
    const probeRuns = db.createObjectStore('probeRuns', { keyPath: 'id' });
    probeRuns.createIndex('by-created', 'createdAt');
    const probeResults = db.createObjectStore('probeResults', { keyPath: ['runId', 'itemId'] });
    probeResults.createIndex('by-run', 'runId');
  }
  if (oldVersion < 3) {
    // The run index (issue 46): built once from the runs stored before it, each record checked as it goes.
    db.createObjectStore('runIndex', { keyPath: 'id' });
    void fillIndex(tx);
  }
  if (oldVersion < 4) {
    // The run index by date (issue 46): a long list's newest rows are read first (store/run-index.ts readNewestRuns).
    tx.objectStore('runIndex').createIndex('by-created', 'createdAt');
  }
  if (oldVersion < 5) {
    // The index's entries in buckets (issue 46): a whole list reads 64 values, not one per run. Filled
    // from the entries the index holds; a store older than the index has them written by the rung
    // above, whose fillIndex writes the buckets too, once its cursor is done (this store exists by then).
    db.createObjectStore('runListBuckets');
    if (oldVersion >= 3) void tx.objectStore('runIndex').getAll().then((entries) => fillBuckets(tx, entries));
  }
  // if (oldVersion < 6) { ... } — the next rung goes here; rungs never change once released.
}

// The run list's buckets (store/run-list-buckets.ts): here, as the upgrade fills them.
/** How many buckets: at 10,000 runs, ~160 entries (~60 KB) in each, what a run's write reads and writes again. */
export const RUN_LIST_BUCKETS = 64;

/** The bucket of a run's id: FNV-1a over its UTF-16 code units. */
export function bucketOf(id: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < id.length; i++) hash = Math.imul(hash ^ id.charCodeAt(i), 0x01000193);
  return (hash >>> 0) % RUN_LIST_BUCKETS;
}

/** Writes `entries` as the whole of the buckets in `tx` (their store emptied first): the index built again. */
export function fillBuckets(tx: IDBPTransaction<JianguDb, StoreNames<JianguDb>[], 'readwrite' | 'versionchange'>, entries: Iterable<IndexEntry>): Promise<unknown>[] {
  const buckets = new Map<number, IndexEntry[]>();
  for (const entry of entries) {
    const bucket = bucketOf(entry.id);
    if (!buckets.has(bucket)) buckets.set(bucket, []);
    buckets.get(bucket)!.push(entry);
  }
  const store = tx.objectStore('runListBuckets');
  return [store.clear(), ...[...buckets].map(([bucket, list]) => store.put(list, bucket))];
}

/**
 * Writes every record's entry in `tx`, one record at a time (a cursor: never every record in memory),
 * then the buckets whole; the upgrade rung's, and store/run-index.ts rebuildIndex's. The buckets'
 * store is touched only after the cursor: the version-3 rung calls this before the version-5 rung
 * has made it.
 */
export async function fillIndex(tx: IDBPTransaction<JianguDb, StoreNames<JianguDb>[], 'readwrite' | 'versionchange'>): Promise<void> {
  const index = tx.objectStore('runIndex');
  const entries: IndexEntry[] = [];
  for (let cursor = await tx.objectStore('runs').openCursor(); cursor; cursor = await cursor.continue()) {
    const entry = indexEntryOf(cursor.value, String(cursor.key));
    entries.push(entry);
    void index.put(entry);
  }
  await Promise.all(fillBuckets(tx, entries));
}

/**
 * Opens (and on a first visit or after an app update, creates or migrates) the database. Called
 * once at start-up by whoever owns the connection; tests call it with a fresh name each.
 *
 * When a newer version of the app opens the same database in another tab, this connection closes
 * itself so that tab's upgrade is not blocked; later calls on it then throw InvalidStateError,
 * and the page should reload.
 *
 * @param name The database name: DB_NAME in the app, a unique name per test.
 */
export async function openJianguDb(name: string = DB_NAME): Promise<JianguDatabase> {
  const db: JianguDatabase = await openDB<JianguDb>(name, DB_VERSION, {
    upgrade: (database, oldVersion, _newVersion, tx) => upgrade(database, oldVersion, tx),
    blocking() {
      db.close();
    },
  });
  return db;
}

/**
 * One connection for a page state, opened at its first use and kept; an open that failed is not kept,
 * so the next use opens afresh (a run list's Try again, a page opened again).
 */
export function keptConnection(name: string = DB_NAME): () => Promise<JianguDatabase> {
  let opening: Promise<JianguDatabase> | null = null;
  return () =>
    (opening ??= openJianguDb(name).catch((error: unknown) => {
      opening = null;
      throw error;
    }));
}
