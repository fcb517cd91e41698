// The run index (issue 46, item 3): one small entry per scoring run (core/record/run-list-entry.ts),
// written in the same transaction as its record by every write of the runs store (store/runs.ts,
// data/backup.ts), so a list reads 10,000 entries of a few hundred bytes, already checked, instead of
// 10,000 whole records checked one by one on the page's thread.
//
// The index is derived from the records: when its count differs from theirs (a record written by an
// older version in another tab, a store edited by hand), it is built again from the records before
// it is read, so a list never leaves a stored run out.
import type { IDBPTransaction, StoreNames } from 'idb';
import { INDEX_ENTRY_VERSION, indexEntryOf, isUnreadableEntry, type IndexEntry, type RunListEntry } from '../core/record/run-list-entry.ts';
import type { RunRecord } from '../core/record/run.ts';
import type { UnreadableRecord } from '../core/record/stored-check.ts';
import { fillIndex, openJianguDb, type JianguDatabase, type JianguDb } from './schema.ts';

type WriteTx = IDBPTransaction<JianguDb, StoreNames<JianguDb>[], 'readwrite' | 'versionchange'>;

/** Writes `run`'s entry in `tx` (which must include 'runIndex'); the caller writes the record in the same transaction. */
export function indexRun(tx: WriteTx, run: RunRecord | unknown, key: string = (run as RunRecord).id): Promise<unknown> {
  early = null;
  return tx.objectStore('runIndex').put(indexEntryOf(run, key));
}

/** Removes the entries of `ids` in `tx`, beside the records' own removal. */
export function unindexRuns(tx: WriteTx, ids: readonly string[]): Promise<unknown>[] {
  early = null;
  const store = tx.objectStore('runIndex');
  return ids.map((id) => store.delete(id));
}

/** The listed runs, newest first, and the records no page can show, as lists name them. */
export interface IndexedRuns {
  runs: RunListEntry[];
  unreadable: UnreadableRecord[];
}

/** Entries read per request (readIndex). */
const INDEX_PAGE = 1000;

const newestFirst = (a: string | null, b: string | null) => (a === b ? 0 : (a ?? '') < (b ?? '') ? 1 : -1);

/**
 * A listing begun before the page that shows it was loaded (readRunListEarly), for its first listing
 * only: any write of the runs store in this tab (indexRun, unindexRuns) drops it, and it is not taken
 * once EARLY_FOR_MS have passed.
 */
let early: { at: number; list: Promise<IndexedRuns> } | null = null;
const EARLY_FOR_MS = 10_000;

/**
 * Starts reading the run list at start-up, while the page that lists runs is still loading (main.ts):
 * at 10,000 runs the read takes ~0.7 s, mostly in the browser's database, and the page's start-up
 * about as long; one after the other they took Evaluate and Compare to ~2 s (npm run bench, many-runs).
 */
export function readRunListEarly(): void {
  const list = openJianguDb().then(async (db) => {
    try {
      return await readList(db);
    } finally {
      db.close();
    }
  });
  list.catch(() => {}); // the page's own listing reads again, and says what is wrong
  early = { at: Date.now(), list };
}

/** Every entry, the index built again first when it does not cover the runs store. */
export async function listIndexedRuns(db: JianguDatabase): Promise<IndexedRuns> {
  const begun = early;
  early = null;
  if (begun && Date.now() - begun.at < EARLY_FOR_MS) {
    try {
      return await begun.list;
    } catch {
      // Read again below, on the page's own connection.
    }
  }
  return readList(db);
}

async function readList(db: JianguDatabase): Promise<IndexedRuns> {
  let entries = await readIndex(db);
  if (entries === null) {
    await rebuildIndex(db);
    entries = (await readIndex(db)) ?? [];
  }
  const runs: RunListEntry[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const e of entries) {
    if (isUnreadableEntry(e)) unreadable.push({ id: e.id, createdAt: e.createdAt, store: 'runs', problem: e.unreadable });
    else runs.push(e);
  }
  runs.sort((a, b) => newestFirst(a.createdAt, b.createdAt));
  unreadable.sort((a, b) => newestFirst(a.createdAt, b.createdAt));
  return { runs, unreadable };
}

/**
 * The index's entries, or null when they are not one per stored run, key for key, each of this
 * version's shape (then it is built again: an entry an older version wrote lacks what lists now read).
 */
async function readIndex(db: JianguDatabase): Promise<IndexEntry[] | null> {
  const tx = db.transaction(['runs', 'runIndex']);
  // Keys only from the records: both stores list them in key order, so the two lists must be equal.
  const keys = await tx.objectStore('runs').getAllKeys();
  const index = tx.objectStore('runIndex');
  // Read in pages, each made on the page's thread in the task of its own request (10,000 entries in
  // one request made one task of ~130 ms: npm run bench, many-runs). The pages are cut at the records'
  // keys and asked for at once; the first and last are open-ended, so an entry without a record is read too.
  const pages: Promise<IndexEntry[]>[] = [];
  for (let start = 0; start === 0 || start < keys.length; start += INDEX_PAGE) {
    const end = start + INDEX_PAGE;
    const lower = start === 0 ? null : keys[start];
    const upper = end >= keys.length ? null : keys[end];
    const range = lower === null ? (upper === null ? undefined : IDBKeyRange.upperBound(upper, true)) : upper === null ? IDBKeyRange.lowerBound(lower) : IDBKeyRange.bound(lower, upper, false, true);
    pages.push(index.getAll(range));
  }
  const entries = (await Promise.all(pages)).flat();
  await tx.done;
  return keys.length === entries.length && keys.every((key, i) => key === entries[i].id && entries[i].v === INDEX_ENTRY_VERSION) ? entries : null;
}

/** Builds the index again from the records. */
export async function rebuildIndex(db: JianguDatabase): Promise<void> {
  const tx = db.transaction(['runs', 'runIndex'], 'readwrite');
  await tx.objectStore('runIndex').clear();
  await fillIndex(tx);
  await tx.done;
}
