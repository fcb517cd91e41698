// Runs and their per-item results. A run is written before its first item and each result the
// moment it exists, so closing the tab loses at most the item in flight.
import type { ItemResult, McRunRecord, RunRecord, RunStatus } from '../core/record/run.ts';
import type { JianguDatabase } from './schema.ts';

/** Stores a new run (its configuration fixed from now on). */
export async function createRun(db: JianguDatabase, run: RunRecord): Promise<void> {
  await db.add('runs', run);
}

export async function getRun(db: JianguDatabase, id: string): Promise<RunRecord | undefined> {
  return db.get('runs', id);
}

/** Newest first. */
export async function listRuns(db: JianguDatabase): Promise<RunRecord[]> {
  return (await db.getAllFromIndex('runs', 'by-created')).reverse();
}

/**
 * Changes a run's mutable parts (status, environment, check, warnings, error) in one transaction;
 * the configuration never changes.
 */
export async function updateRun<R extends RunRecord = RunRecord>(
  db: JianguDatabase,
  id: string,
  patch: Partial<Pick<McRunRecord, 'status' | 'environment' | 'check' | 'letterTokens' | 'warnings' | 'error'>>,
): Promise<R> {
  const tx = db.transaction('runs', 'readwrite');
  const run = await tx.store.get(id);
  if (!run) throw new Error(`No run ${id} is stored.`);
  const next = { ...run, ...patch, updatedAt: new Date().toISOString() } as R;
  if (patch.status !== 'failed' && 'error' in run && patch.error === undefined && patch.status) delete next.error;
  await tx.store.put(next);
  await tx.done;
  return next;
}

export async function setRunStatus(db: JianguDatabase, id: string, status: RunStatus, error?: string): Promise<RunRecord> {
  return updateRun(db, id, error === undefined ? { status } : { status, error });
}

/** Writes one item's result; a result written twice (a resumed item) is replaced. */
export async function saveResult(db: JianguDatabase, result: ItemResult): Promise<void> {
  await db.put('results', result);
}

/** A run's results in run order. */
export async function loadResults(db: JianguDatabase, runId: string): Promise<ItemResult[]> {
  const results = await db.getAllFromIndex('results', 'by-run', runId);
  return results.sort((a, b) => a.index - b.index);
}

export async function deleteRun(db: JianguDatabase, id: string): Promise<void> {
  const tx = db.transaction(['runs', 'results'], 'readwrite');
  await Promise.all([
    tx.objectStore('runs').delete(id),
    tx.objectStore('results').delete(IDBKeyRange.bound([id], [id, []])),
    tx.done,
  ]);
}
