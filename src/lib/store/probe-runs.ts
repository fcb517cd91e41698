// Memorization runs in IndexedDB (core/record/probe-run.ts): the run record, and its items' and
// shards' results, each written the moment it exists so a reload loses at most the one in flight.
import type { ProbeResult, ProbeRunRecord } from '../core/record/probe-run.ts';
import { jianguError, notice } from '../core/notices/index.ts';
import { unlessStorageFull } from './errors.ts';
import { checkedRunLabel } from '../core/record/run-label.ts';
import type { JianguDatabase } from './schema.ts';

/** @throws JianguError run.storage-full-start when the browser has no room for it: nothing is stored then. */
export async function createProbeRun(db: JianguDatabase, run: ProbeRunRecord): Promise<void> {
  await unlessStorageFull(() => db.add('probeRuns', run), notice('run.storage-full-start'));
}

export async function getProbeRun(db: JianguDatabase, id: string): Promise<ProbeRunRecord | undefined> {
  return db.get('probeRuns', id);
}

/**
 * The newest `count` memorization runs, newest first, and how many are stored, read along the date
 * index: a list never reads every record (a backup may restore 10,000 of them, each with its item
 * ids). Runs are listed as they were before, by that index.
 */
export async function listProbeRuns(db: JianguDatabase, count: number): Promise<{ runs: ProbeRunRecord[]; total: number }> {
  const tx = db.transaction('probeRuns');
  const index = tx.store.index('by-created');
  const read = async () => {
    const total = await index.count();
    const runs: ProbeRunRecord[] = [];
    for (let cursor = await index.openCursor(null, 'prev'); cursor && runs.length < count; cursor = await cursor.continue()) runs.push(cursor.value);
    return { runs, total };
  };
  // With tx.done: a transaction that aborts rejects it too, and that rejection must not go unhandled.
  const [listed] = await Promise.all([read(), tx.done]);
  return listed;
}

/** Changes the fields a run's life changes; the rest of the record is fixed at creation. */
export async function updateProbeRun(db: JianguDatabase, id: string, patch: Partial<Pick<ProbeRunRecord, 'status' | 'environment' | 'contextLimit' | 'warnings' | 'error' | 'modelCheck'>>): Promise<ProbeRunRecord> {
  const tx = db.transaction('probeRuns', 'readwrite');
  const run = await tx.store.get(id);
  if (!run) throw jianguError('runs.not-stored', { runId: id });
  const next: ProbeRunRecord = { ...run, ...patch, updatedAt: new Date().toISOString() };
  // An error belongs to a failed run only: a resumed run drops the last one.
  if (patch.status && patch.status !== 'failed' && patch.error === undefined) delete next.error;
  // No room: said as a run's progress not saved (the record is as it was).
  await unlessStorageFull(async () => {
    await tx.store.put(next);
    await tx.done;
  }, notice('run.storage-full', { itemId: null }));
  return next;
}

/**
 * Sets or clears (empty text) the user's label of a run, by the scoring runs' rule (checkedRunLabel:
 * trimmed, bounded, no invisible character). Returns the run as stored after.
 */
export async function setProbeRunLabel(db: JianguDatabase, id: string, label: string): Promise<ProbeRunRecord> {
  const trimmed = checkedRunLabel(label);
  const tx = db.transaction('probeRuns', 'readwrite');
  const run = await tx.store.get(id);
  if (!run) throw jianguError('runs.not-stored', { runId: id });
  // A new updatedAt: Compare and the list hold records and read a changed one again.
  const next: ProbeRunRecord = { ...run, updatedAt: new Date().toISOString() };
  if (trimmed) next.label = trimmed;
  else delete next.label;
  await unlessStorageFull(async () => {
    await tx.store.put(next);
    await tx.done;
  }, notice('run.label-storage-full'));
  return next;
}

/** Writes one item's or shard's result; written twice (resumed), it is replaced. No room: run.storage-full naming it. */
export async function saveProbeResult(db: JianguDatabase, result: ProbeResult): Promise<void> {
  await unlessStorageFull(() => db.put('probeResults', result), notice('run.storage-full', { itemId: result.itemId }));
}

/** A run's results: items in run order, then shards in run order. */
export async function loadProbeResults(db: JianguDatabase, runId: string): Promise<ProbeResult[]> {
  const results = await db.getAllFromIndex('probeResults', 'by-run', runId);
  return results.sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === 'item' ? -1 : 1));
}

export async function deleteProbeRun(db: JianguDatabase, id: string): Promise<void> {
  const tx = db.transaction(['probeRuns', 'probeResults'], 'readwrite');
  const keys = await tx.objectStore('probeResults').index('by-run').getAllKeys(id);
  await Promise.all([tx.objectStore('probeRuns').delete(id), ...keys.map((key) => tx.objectStore('probeResults').delete(key)), tx.done]);
}

/**
 * Stores a memorization run read from a file (formats/memorization-run) under a new id, its results
 * with it, in one transaction: all of it or nothing. Returns the stored run.
 */
export async function importProbeRun(db: JianguDatabase, imported: { run: ProbeRunRecord; results: readonly ProbeResult[] }): Promise<ProbeRunRecord> {
  const id = crypto.randomUUID();
  const run: ProbeRunRecord = { ...imported.run, id };
  const tx = db.transaction(['probeRuns', 'probeResults'], 'readwrite');
  await Promise.all([tx.objectStore('probeRuns').add(run), ...imported.results.map((result) => tx.objectStore('probeResults').add({ ...result, runId: id })), tx.done]);
  return run;
}
