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
  /**
   * The entries checked against the records' keys, after the list is returned: true when they are
   * one per record (the list stands), false when the index was built again (a record written behind
   * its back: the caller lists again). At 10,000 runs the keys took ~260 ms, read after the entries.
   */
  checked: Promise<boolean>;
}

/**
 * Where the index is cut into pages, each read by a request of its own, so that each page's entries
 * are made on the page's thread in a task of their own (10,000 entries in one request made one task
 * of ~130 ms: npm run bench, many-runs): the first character of the key, which for the site's ids
 * (crypto.randomUUID, lowercase hex) cuts 10,000 runs into 16 pages of ~600. Any other key falls in
 * one of them too: the pages cover every key, in key order.
 */
const PAGE_STARTS = '123456789abcdef'.split('');

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
      const listed = await readList(db);
      // The check's own request is already asked for; the connection closes once it is answered.
      void listed.checked.finally(() => db.close());
      return listed;
    } catch (error) {
      db.close();
      throw error;
    }
  });
  list.catch(() => {}); // the page's own listing reads again, and says what is wrong
  early = { at: Date.now(), list };
}

/** Every entry, newest first; the index built again first when it is empty or of an older shape, or after (`checked`) when it lacks a record's. */
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
  let { entries, checked } = readIndex(db);
  let read = await entries;
  // An empty index (the first visit after the index came, or every entry lost) is checked before it
  // is listed, as is one of an older shape: a list never shows "no runs" for a store that holds some.
  if ((read.length === 0 || read.some((e) => e.v !== INDEX_ENTRY_VERSION)) && !(await checked.catch(() => true))) {
    ({ entries, checked } = readIndex(db));
    read = await entries;
  }
  const runs: RunListEntry[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const e of read) {
    if (isUnreadableEntry(e)) unreadable.push({ id: e.id, createdAt: e.createdAt, store: 'runs', problem: e.unreadable });
    else runs.push(e);
  }
  runs.sort((a, b) => newestFirst(a.createdAt, b.createdAt));
  unreadable.sort((a, b) => newestFirst(a.createdAt, b.createdAt));
  return { runs, unreadable, checked };
}

/**
 * The index's entries, in key order, and whether they are one per stored run, key for key, each of
 * this version's shape: when not, the index is built again from the records and `checked` is false.
 */
function readIndex(db: JianguDatabase): { entries: Promise<IndexEntry[]>; checked: Promise<boolean> } {
  const tx = db.transaction(['runs', 'runIndex']);
  const index = tx.objectStore('runIndex');
  const bounds = [null, ...PAGE_STARTS, null];
  const pages: Promise<IndexEntry[]>[] = [];
  for (let i = 0; i + 1 < bounds.length; i++) {
    const [lower, upper] = [bounds[i], bounds[i + 1]];
    pages.push(index.getAll(lower === null ? IDBKeyRange.upperBound(upper!, true) : upper === null ? IDBKeyRange.lowerBound(lower) : IDBKeyRange.bound(lower, upper, false, true)));
  }
  // Asked for after the pages (a transaction's requests are answered in order): keys only, yet the
  // records' store is read whole for them.
  const keys = tx.objectStore('runs').getAllKeys();
  const entries = Promise.all(pages).then((read) => read.flat());
  const checked = (async () => {
    const [read, stored] = await Promise.all([entries, keys]);
    await tx.done;
    if (stored.length === read.length && stored.every((key, i) => key === read[i].id && read[i].v === INDEX_ENTRY_VERSION)) return true;
    await rebuildIndex(db);
    return false;
  })();
  checked.catch(() => {}); // a failed check leaves the list as read; the next listing checks again
  return { entries, checked };
}

/** Builds the index again from the records. */
export async function rebuildIndex(db: JianguDatabase): Promise<void> {
  const tx = db.transaction(['runs', 'runIndex'], 'readwrite');
  await tx.objectStore('runIndex').clear();
  await fillIndex(tx);
  await tx.done;
}
