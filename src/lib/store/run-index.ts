// The run index (issue 46, item 3): one small entry per scoring run (core/record/run-list-entry.ts),
// written in the same transaction as its record by every write of the runs store (store/runs.ts,
// data/backup.ts), so a list reads 10,000 entries of a few hundred bytes, already checked, instead of
// 10,000 whole records checked one by one on the page's thread. A whole list reads them from their
// buckets (run-list-buckets.ts: 64 values, written beside the entries), a long list's newest rows from
// the entries' date order.
//
// The index is derived from the records: when its keys differ from theirs (a record written by an
// older version in another tab, a store edited by hand), it is built again from the records, found
// by a check after the list is read (IndexedRuns.checked) and the page lists again, so a list never
// leaves a stored run out for long; an empty index, or one of an older shape, is built before it is listed.
import { unwrap, type IDBPTransaction, type StoreNames } from 'idb';
import { INDEX_ENTRY_VERSION, indexEntryOf, isUnreadableEntry, type IndexEntry, type RunListEntry } from '../core/record/run-list-entry.ts';
import type { RunRecord } from '../core/record/run.ts';
import type { UnreadableRecord } from '../core/record/stored-check.ts';
import { fillIndex, INDEX_STORES, openJianguDb, type JianguDatabase, type JianguDb } from './schema.ts';
import { bucketDelete, bucketPut, readBuckets } from './run-list-buckets.ts';

type WriteTx = IDBPTransaction<JianguDb, StoreNames<JianguDb>[], 'readwrite' | 'versionchange'>;

/**
 * Writes `run`'s entry in `tx` (which must include INDEX_STORES), in the index and in its bucket
 * (run-list-buckets.ts); the caller writes the record in the same transaction.
 */
export function indexRun(tx: WriteTx, run: RunRecord | unknown, key: string = (run as RunRecord).id): Promise<unknown> {
  early = null;
  const entry = indexEntryOf(run, key);
  return Promise.all([tx.objectStore('runIndex').put(entry), bucketPut(tx, entry)]);
}

/** Removes the entries of `ids` in `tx` (which must include INDEX_STORES), beside the records' own removal. */
export function unindexRuns(tx: WriteTx, ids: readonly string[]): Promise<unknown>[] {
  early = null;
  const store = tx.objectStore('runIndex');
  return [...ids.map((id) => store.delete(id)), ...bucketDelete(tx, ids)];
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

const newestFirst = (a: string | null, b: string | null) => (a === b ? 0 : (a ?? '') < (b ?? '') ? 1 : -1);
/** A list's order: newest first, equal dates by id. */
const listOrder = (a: { createdAt: string | null; id: string }, b: { createdAt: string | null; id: string }) =>
  newestFirst(a.createdAt, b.createdAt) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * A listing begun before the page that shows it was loaded (readRunListEarly), for its first listing
 * only: any write of the runs store in this tab (indexRun, unindexRuns) drops it, and it is not taken
 * once EARLY_FOR_MS have passed.
 */
let early: { at: number; newest: Promise<NewestRuns | null> | null; list: Promise<IndexedRuns> } | null = null;
const EARLY_FOR_MS = 10_000;

/**
 * Starts reading the run list at start-up, while the page that lists runs is still loading (main.ts):
 * at 10,000 runs the read took 0.7-1.1 s before the buckets (0.4-0.7 s after), mostly in the browser's
 * database, and the page's start-up about as long; one after the other they took Evaluate and Compare
 * to ~2 s (npm run bench, many-runs).
 * `newest`: the rows a long list draws first (Compare's), read before the whole list (readNewestRuns).
 */
export function readRunListEarly(newest: number | null = null): void {
  const opened = openJianguDb();
  // The newest rows asked for first: a transaction's requests wait behind those asked before them.
  const first = newest === null ? null : opened.then((db) => readNewestRuns(db, newest));
  first?.catch(() => {});
  const list = opened.then(async (db) => {
    try {
      await first?.catch(() => {});
      const listed = await readList(db);
      // The check's own request is already asked for; the connection closes once it is answered.
      const close = () => db.close();
      void listed.checked.then(close, close);
      return listed;
    } catch (error) {
      db.close();
      throw error;
    }
  });
  list.catch(() => {}); // the page's own listing reads again, and says what is wrong
  early = { at: Date.now(), newest: first, list };
}

/**
 * Rows a long list draws first, and more at each "Show more" (Evaluate's and Compare's;
 * readRunListEarly's newest for them). 50, not 100: at 10,000 stored runs the page's longest task
 * was Blink's style, layout and paint of the rows drawn (276 ms of wall, 186 of it layout, with 100
 * rows), over the 200 ms a task may take; 50 rows kept it at 117-186 ms (npm run bench, many-runs).
 */
export const NEWEST_ROWS = 50;
/** A list longer than this draws its newest rows before the rest is read (the pages' preview); a shorter one is read whole in ~0.1 s. */
export const PREVIEW_FROM = 1000;

/** A long list's newest runs, how many entries the index holds, and each run's results counted (readNewestRuns). */
export interface NewestRuns {
  runs: RunListEntry[];
  total: number;
  done: Record<string, number>;
}

/** Entries readNewestRuns asks for beyond its rows, in case some of the newest are unreadable. */
const UNREADABLE_SPARE = 10;

type NewestRequest = { getAllRecords?: (options: { count: number; direction: 'prev' }) => IDBRequest<{ value: IndexEntry }[]> };

/**
 * The newest `count` listed runs, from the index's date order, the index's count, and each listed
 * run's results counted: what a long list draws first while the whole list is read (10,000 entries
 * take 0.4-0.7 s from their buckets, mostly in the browser's database, and a request asked for after
 * them waits for them).
 * Unchecked, as the list is before its check; null when an entry is of an older shape (the whole
 * listing builds the index again).
 */
export async function readNewestRuns(db: JianguDatabase, count: number): Promise<NewestRuns | null> {
  const tx = db.transaction(['runIndex', 'results']);
  // An aborted transaction rejects tx.done and every request not yet answered; the first failure
  // says why (the list's message), and the ones waited for only after it are not left unhandled.
  const finished = tx.done;
  finished.catch(() => {});
  const store = tx.objectStore('runIndex');
  const total = store.count();
  total.catch(() => {});
  const byDate = store.index('by-created');
  // One request where the browser has getAllRecords (Chromium 141 on), else a cursor (a request per
  // entry: 270 ms for 100 at 10,000 runs). Unreadable entries are left out: the request asks for
  // UNREADABLE_SPARE more, and a preview with more than those among its newest draws fewer rows.
  const raw = unwrap(byDate) as unknown as NewestRequest;
  let entries: IndexEntry[] = [];
  if (typeof raw.getAllRecords === 'function') {
    const request = raw.getAllRecords({ count: count + UNREADABLE_SPARE, direction: 'prev' });
    entries = await new Promise<IndexEntry[]>((resolve, reject) => {
      request.onsuccess = () => resolve(request.result.map((r) => r.value));
      request.onerror = () => reject(request.error);
    });
  } else {
    let readable = 0;
    for (let cursor = await byDate.openCursor(null, 'prev'); cursor && readable < count; cursor = await cursor.continue()) {
      entries.push(cursor.value);
      if (!isUnreadableEntry(cursor.value)) readable++;
    }
  }
  if (entries.some((e) => e.v !== INDEX_ENTRY_VERSION)) return null;
  const runs = entries.filter((e): e is RunListEntry => !isUnreadableEntry(e)).slice(0, count);
  const done = countIn(tx.objectStore('results').index('by-run'), runs);
  const counted = { total: await total, done: await done };
  await finished;
  // Equal dates in the whole list's order (listOrder: by id).
  runs.sort(listOrder);
  return { runs, ...counted };
}

/** How many results each of `runs` has, from the results index (no result is read): for the rows a list draws. */
export async function countResults(db: JianguDatabase, runs: readonly Pick<RunListEntry, 'id'>[]): Promise<Record<string, number>> {
  const tx = db.transaction('results');
  const [done] = await Promise.all([countIn(tx.store.index('by-run'), runs), tx.done]); // tx.done: see readNewestRuns
  return done;
}

async function countIn(byRun: { count(key: string): Promise<number> }, runs: readonly Pick<RunListEntry, 'id'>[]): Promise<Record<string, number>> {
  const counts = await Promise.all(runs.map((r) => byRun.count(r.id)));
  return Object.fromEntries(runs.map((r, i) => [r.id, counts[i]]));
}

/**
 * Every entry, newest first; the index built again first when it is empty or of an older shape, or
 * after (`checked`) when it lacks a record's. `newest`: its `count` newest runs are read first and
 * given to `show` while the rest is read (never after the whole list has come).
 */
export async function listIndexedRuns(db: JianguDatabase, newest?: { count: number; show: (first: NewestRuns) => void }): Promise<IndexedRuns> {
  const begun = early;
  early = null;
  const fresh = begun && Date.now() - begun.at < EARLY_FOR_MS ? begun : null;
  let listed = false;
  if (newest) {
    const first = fresh?.newest ?? readNewestRuns(db, newest.count);
    void first.then((runs) => runs && !listed && newest.show(runs)).catch(() => {});
  }
  try {
    if (fresh) {
      try {
        return await fresh.list;
      } catch {
        // Read again below, on the page's own connection.
      }
    }
    return await readList(db);
  } finally {
    listed = true;
  }
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
  // The last bucket read's own task was taking it in; the sort gets a task of its own (at 10,000 runs
  // the two were one task of 50-60 ms on a busy machine: npm run bench, many-runs).
  if (read.length > PREVIEW_FROM) await nextTask();
  const runs: RunListEntry[] = [];
  const unreadable: UnreadableRecord[] = [];
  for (const e of read) {
    if (isUnreadableEntry(e)) unreadable.push({ id: e.id, createdAt: e.createdAt, store: 'runs', problem: e.unreadable });
    else runs.push(e);
  }
  runs.sort(listOrder);
  unreadable.sort(listOrder);
  return { runs, unreadable, checked };
}

/**
 * The index's entries (from its buckets, in no particular order), and whether they are one per stored
 * run, key for key, each of this version's shape, as many as the per-run entries: when not, the index
 * is built again from the records and `checked` is false.
 */
function readIndex(db: JianguDatabase): { entries: Promise<IndexEntry[]>; checked: Promise<boolean> } {
  const tx = db.transaction(['runs', ...INDEX_STORES]);
  // The buckets, in a few requests, each taken in by the page in a task of its own (10,000 entries in
  // one request made one task of ~130 ms: npm run bench, many-runs).
  const read = readBuckets(tx);
  // Asked for after the buckets (a transaction's requests are answered in order), and compared once
  // the list is out: keys only, yet the records' store is read whole for them (~260 ms at 10,000 runs).
  const keys = tx.objectStore('runs').getAllKeys();
  const indexed = tx.objectStore('runIndex').count();
  const checked = (async () => {
    // tx.done in the same wait: a transaction that aborts (a failed read) rejects it, and waited
    // for only after the others, that rejection went unhandled.
    const [stored, listed, count] = await Promise.all([keys, read, indexed, tx.done]);
    const ids = new Set(listed.map((e) => e.id));
    const same = stored.length === listed.length && count === stored.length && ids.size === listed.length && stored.every((key) => ids.has(key));
    if (same && listed.every((e) => e.v === INDEX_ENTRY_VERSION)) return true;
    await rebuildIndex(db);
    return false;
  })();
  checked.catch(() => {}); // a failed check leaves the list as read; the next listing checks again
  return { entries: read, checked };
}

const nextTask = () => new Promise<void>((resolve) => setTimeout(resolve));

/** Builds the index again from the records. */
export async function rebuildIndex(db: JianguDatabase): Promise<void> {
  const tx = db.transaction(['runs', ...INDEX_STORES], 'readwrite');
  await tx.objectStore('runIndex').clear();
  await fillIndex(tx);
  await tx.done;
}
