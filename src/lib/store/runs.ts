// Runs and their per-item results. A run is written before its first item and each result the
// moment it exists, so closing the tab loses at most the item in flight.
import { RunImportError, refusal, type ImportedRun } from '../core/formats/import-validate.ts';
import type { ItemResult, McRunRecord, RunOrigin, RunRecord, RunStatus } from '../core/record/run.ts';
import { jianguError, notice } from '../core/notices/index.ts';
import { checkAgainstLocalKey, type LocalKey } from '../core/record/key-check.ts';
import { runSummary } from '../core/metrics/run-summary.ts';
import type { DatasetId } from '../core/benchmarks/types.ts';
import { getDataset, loadItems } from './datasets.ts';
import { isQuotaError, unlessStorageFull } from './errors.ts';
import { INDEX_STORES, type JianguDatabase } from './schema.ts';
import { abortQuietly, transactionEnd, writesCommitted } from './transaction-end.ts';
import { indexRun, unindexRuns } from './run-index.ts';
import { recordName, storedRunRefusal, unreadableNotice, type UnreadableRecord } from '../core/record/stored-check.ts';
import { checkedRunLabel } from '../core/record/run-label.ts';

/** Stores a new run (its configuration fixed from now on). */

/** The overall score of an imported file's results with the file's own key; null when they cannot be summarised (the store then refuses them). */
function fileOverallOf(run: RunRecord, results: readonly ItemResult[]): number | null {
  try {
    return runSummary(run, results).overall ?? null;
  } catch {
    return null;
  }
}

/** @throws JianguError run.storage-full-start when the browser has no room for it: nothing is stored then. */
export async function createRun(db: JianguDatabase, run: RunRecord): Promise<void> {
  await unlessStorageFull(async () => {
    // The record and its list entry (run-index.ts) together, or neither.
    const tx = db.transaction(['runs', ...INDEX_STORES], 'readwrite');
    await writesCommitted(tx, [tx.objectStore('runs').add(run), indexRun(tx, run)]);
  }, notice('run.storage-full-start'));
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
 * @throws JianguError run.storage-full (no item) when the browser has no room: the record is as it was.
 */
export async function updateRun<R extends RunRecord = RunRecord>(
  db: JianguDatabase,
  id: string,
  patch: Partial<Pick<McRunRecord, 'status' | 'environment' | 'contextLimit' | 'check' | 'letterTokens' | 'warnings' | 'error' | 'decodingOptions' | 'modelCheck'>>,
): Promise<R> {
  const tx = db.transaction(['runs', ...INDEX_STORES], 'readwrite');
  const run = await tx.objectStore('runs').get(id);
  if (!run) throw jianguError('runs.not-stored', { runId: id });
  const next = { ...run, ...patch, updatedAt: new Date().toISOString() } as R;
  if (patch.status !== 'failed' && 'error' in run && patch.error === undefined && patch.status) delete next.error;
  await unlessStorageFull(() => writesCommitted(tx, [tx.objectStore('runs').put(next), indexRun(tx, next)]), notice('run.storage-full', { itemId: null }));
  return next;
}

export async function setRunStatus(db: JianguDatabase, id: string, status: RunStatus, error?: string): Promise<RunRecord> {
  return updateRun(db, id, error === undefined ? { status } : { status, error });
}

/**
 * Writes one item's result; a result written twice (a resumed item) is replaced.
 * @throws JianguError run.storage-full naming the item when the browser has no room: nothing of it is stored.
 */
export async function saveResult(db: JianguDatabase, result: ItemResult): Promise<void> {
  await unlessStorageFull(() => db.put('results', result), notice('run.storage-full', { itemId: result.itemId }));
}

/** A run's results in run order. */
export async function loadResults(db: JianguDatabase, runId: string): Promise<ItemResult[]> {
  const results = await db.getAllFromIndex('results', 'by-run', runId);
  return results.sort((a, b) => a.index - b.index);
}

export async function deleteRun(db: JianguDatabase, id: string): Promise<void> {
  await deleteRuns(db, [id]);
}

/** Deletes runs and all their results in one transaction: all of them, or (on a failure) none. */
export async function deleteRuns(db: JianguDatabase, ids: readonly string[]): Promise<void> {
  const tx = db.transaction(['runs', 'results', ...INDEX_STORES], 'readwrite');
  await Promise.all([
    ...ids.flatMap((id) => [tx.objectStore('runs').delete(id), tx.objectStore('results').delete(IDBKeyRange.bound([id], [id, []]))]),
    ...unindexRuns(tx, ids),
    tx.done,
  ]);
}

/** A stored run and its results when a page can show them; the problem when it cannot; null when none is stored. */
export type CheckedRun = { run: RunRecord; results: ItemResult[] } | { unreadable: UnreadableRecord } | null;

/** One run and its results, checked together (each result against the run, as an imported file's are). */
export async function readRunChecked(db: JianguDatabase, id: string): Promise<CheckedRun> {
  const tx = db.transaction(['runs', 'results']);
  const [run, results] = await Promise.all([tx.objectStore('runs').get(id), tx.objectStore('results').index('by-run').getAll(id), tx.done]);
  if (run === undefined) return null;
  const refused = storedRunRefusal(run, results);
  if (refused) return { unreadable: { ...recordName(run, id), store: 'runs', problem: unreadableNotice(id, refused) } };
  return { run, results: results.sort((a, b) => a.index - b.index) };
}

/**
 * A stored record exactly as IndexedDB holds it, with its results, as JSON (for the user to keep or
 * send before deleting a record no page can show). Nothing is checked: it is the raw record.
 */
export async function rawRecordJson(db: JianguDatabase, store: 'runs' | 'probeRuns', id: string): Promise<string> {
  const resultStore = store === 'runs' ? 'results' : 'probeResults';
  const tx = db.transaction([store, resultStore]);
  const [record, results] = await Promise.all([tx.objectStore(store).get(id), tx.objectStore(resultStore).index('by-run').getAll(id), tx.done]);
  return `${JSON.stringify({ format: 'jiangu-stored-record', store, id, record: record ?? null, results }, null, 2)}\n`;
}

/**
 * Sets or clears (empty text) the user's label of a run, trimmed; refuses one longer than
 * RUN_LABEL_MAX or with a control character. Returns the run as stored after.
 * @throws JianguError run.label-storage-full when the browser has no room: the run is as it was.
 */
export async function setRunLabel(db: JianguDatabase, id: string, label: string): Promise<RunRecord> {
  const trimmed = checkedRunLabel(label);
  const tx = db.transaction(['runs', ...INDEX_STORES], 'readwrite');
  const run = await tx.objectStore('runs').get(id);
  if (!run) throw jianguError('runs.not-stored', { runId: id });
  // A changed record has a new updatedAt, so a page holding the old one (Compare) reads it again.
  const next = { ...run, updatedAt: new Date().toISOString() } as RunRecord;
  if (trimmed) next.label = trimmed;
  else delete next.label;
  await unlessStorageFull(() => writesCommitted(tx, [tx.objectStore('runs').put(next), indexRun(tx, next)]), notice('run.label-storage-full'));
  return next;
}

/**
 * Stores a run read from a file (parseRunFile) under a new local id, with all its results, in one
 * readwrite transaction over runs and results: on any failure it aborts and nothing is stored.
 * Called once per imported file. The id is new even when the same file is imported twice, so an
 * import never replaces a run; `origin.originalRunId` keeps the id the run had where it was made.
 *
 * Every write is issued without awaiting the previous one (IndexedDB queues them in order), and
 * nothing else is awaited while the transaction is open.
 *
 * @param db The open database.
 * @param imported The run and its results, as parseRunFile returns them (run.origin set).
 * @returns The run as stored.
 * @throws RunImportError naming the file when the write fails (storage full, a value that cannot
 *   be stored); the stores are then unchanged.
 */
export async function importRun(db: JianguDatabase, imported: ImportedRun): Promise<RunRecord> {
  const fileName = imported.run.origin?.fileName ?? 'The imported run';
  const id = crypto.randomUUID();
  const fileOrigin = imported.run.origin ?? {
    kind: 'jiangu-file' as const,
    fileName,
    importedAt: new Date().toISOString(),
    originalRunId: imported.run.id,
    storedSummary: null,
    summaryMismatches: [],
  };
  // Read before the transaction opens: nothing else may be awaited while it is.
  const checked = checkAgainstLocalKey({ ...imported.run, origin: fileOrigin }, imported.results, await localKey(db, imported.run.datasetId), fileOverallOf(imported.run, imported.results));
  if (checked.results.length === 0 && imported.results.length > 0) {
    // Not one result names an item of the stored copy: another version of the benchmark, or not it at all.
    throw new RunImportError(fileName, refusal('import.no-item-in-local-copy', { results: imported.results.length, datasetId: imported.run.datasetId, first: checked.check.setApartIds?.[0] ?? '' }));
  }
  // The same run with the same results already stored: nothing new to store (the page offers the stored copy).
  const stored = await storedCopyOf(db, imported.run, fileOrigin, checked.results);
  if (stored) throw jianguError('run.already-stored', { fileName, runId: stored.id, createdAt: stored.createdAt });
  // The same file with other results (edited, or checked against another copy of the benchmark) makes another copy, and says so.
  const copies = await earlierCopies(db, imported.run, fileOrigin);
  const warnings = copies.length > 0 ? [...imported.run.warnings, notice('run.imported-before', { copies: copies.length, firstImportedAt: copies[0] })] : imported.run.warnings;
  const run = { ...imported.run, id, origin: checked.origin, warnings } as RunRecord;
  const results = checked.results.map((result) => ({ ...result, runId: id }));

  const tx = db.transaction(['runs', 'results', ...INDEX_STORES], 'readwrite');
  const ended = transactionEnd(tx);
  let failed: { error: unknown; itemId: string | undefined } | undefined;
  const note = (itemId: string | undefined) => (error: unknown) => {
    failed ??= { error, itemId };
  };
  let current: string | undefined;
  try {
    tx.objectStore('runs').add(run).catch(note(undefined));
    indexRun(tx, run).catch(note(undefined));
    const store = tx.objectStore('results');
    for (const result of results) {
      current = result.itemId;
      store.add(result).catch(note(result.itemId));
    }
    current = undefined;
  } catch (error) {
    // A synchronous throw (DataCloneError, DataError) does not abort the transaction by itself.
    failed = { error, itemId: current };
    abortQuietly(tx);
  }
  const end = await ended;
  if (end.committed && !failed) return run;

  const cause = (failed && !isAbortError(failed.error) ? failed.error : null) ?? (end.committed ? null : end.error) ?? failed?.error;
  if (isQuotaError(cause) || isQuotaError(end.committed ? null : end.error)) {
    throw new RunImportError(fileName, refusal('import.storage-full', { results: results.length }), { cause });
  }
  const detail = cause instanceof Error || cause instanceof DOMException ? `${cause.name}: ${cause.message}` : String(cause ?? 'the transaction was aborted');
  throw new RunImportError(fileName, refusal('import.store-failed', { itemId: failed?.itemId || null, detail }), { cause });
}

/**
 * "Already stored" (issue 34): a stored run of the same benchmark, started at the same moment, that
 * is the same run (a run made here: its id is the file's run id; an imported one: its original run
 * id is; an lm-eval run has none on either side) and holds the same results, field for field once
 * both were checked against this browser's key (the results' run ids aside), and the same
 * configuration field for field (a file that claims another protocol, template or backend for the
 * same results is another copy, stored with the imported-before warning, never pointed at a stored
 * run with other settings). Another file name, or another import date, does not make another run;
 * another result or setting does.
 */
export async function storedCopyOf(db: JianguDatabase, run: RunRecord, origin: RunOrigin, results: readonly ItemResult[]): Promise<RunRecord | null> {
  const identity = origin.originalRunId ?? null;
  // Found by the date index: only the runs started at that moment are read, never every stored run (issue 46).
  const candidates = (await db.getAllFromIndex('runs', 'by-created', run.createdAt)).filter(
    (r) => r.datasetId === run.datasetId && (r.origin ? (r.origin.originalRunId ?? null) : r.id) === identity && canonicalJson(r.config) === canonicalJson(run.config),
  );
  if (candidates.length === 0) return null;
  const wanted = results.map(resultFingerprint).sort();
  for (const candidate of candidates) {
    const theirs = (await loadResults(db, candidate.id)).map(resultFingerprint).sort();
    if (theirs.length === wanted.length && theirs.every((f, i) => f === wanted[i])) return candidate;
  }
  return null;
}

/** A result as canonical JSON (keys sorted, the run id left out), to compare two copies of one result. */
function resultFingerprint(result: ItemResult): string {
  const { runId: _runId, ...rest } = result;
  return canonicalJson(rest);
}

function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}

/** When runs imported earlier from the same file (same name, run, date and items) were imported, oldest first. */
async function earlierCopies(db: JianguDatabase, run: RunRecord, origin: RunOrigin): Promise<string[]> {
  const same = (await db.getAllFromIndex('runs', 'by-created', run.createdAt)).filter(
    (r) =>
      r.origin?.kind === origin.kind &&
      r.origin.fileName === origin.fileName &&
      (r.origin.originalRunId ?? null) === (origin.originalRunId ?? null) &&
      r.datasetId === run.datasetId &&
      r.createdAt === run.createdAt &&
      r.config.itemIds.length === run.config.itemIds.length,
  );
  return same.map((r) => r.origin!.importedAt).sort();
}

/** This browser's copy of a benchmark, as the key imported runs are checked against; null when not stored. */
async function localKey(db: JianguDatabase, datasetId: DatasetId): Promise<LocalKey | null> {
  const dataset = await getDataset(db, datasetId);
  if (!dataset) return null;
  return { items: new Map((await loadItems(db, datasetId)).map((item) => [item.id, item])), files: dataset.files };
}

/**
 * Checks an imported run's answer key again, for a run imported before its benchmark was stored here
 * (or by a version that did not check): when the benchmark is stored now, the results are rescored
 * with the local key and the check is recorded, in one transaction. Returns the run as stored after.
 * A run made here, or one already checked against stored data, is returned unchanged.
 */
export async function recheckImportedKey(db: JianguDatabase, runId: string): Promise<RunRecord | undefined> {
  const run = await getRun(db, runId);
  const check = run?.origin?.keyCheck;
  // A check of an older version left results of items the local copy lacks in the run: check again, to set them apart.
  const leftForeignIn = check !== undefined && check.setApart === undefined && check.missing > 0;
  if (!run?.origin || (check && check.status !== 'no-local-data' && !leftForeignIn)) return run;
  const local = await localKey(db, run.datasetId);
  if (!local && run.origin.keyCheck) return run;
  const before = await loadResults(db, runId);
  const checked = checkAgainstLocalKey({ ...run, origin: run.origin }, before, local, fileOverallOf(run, before));
  // Checked before (its results already carry the local key): what that check found about the file's key stays.
  const origin = check && check.status !== 'no-local-data' && checked.origin.keyCheck
    ? { ...checked.origin, keyCheck: { ...checked.origin.keyCheck, status: check.status, disagreements: check.disagreements, fileOverall: check.fileOverall, compared: check.compared } }
    : checked.origin;
  const next = { ...run, origin } as RunRecord;
  const kept = new Set(checked.results.map((r) => r.itemId));
  const tx = db.transaction(['runs', 'results', ...INDEX_STORES], 'readwrite');
  const results = tx.objectStore('results');
  // Results set apart (items the stored copy does not have) leave the run, so they enter no number.
  const gone = before.filter((r) => !kept.has(r.itemId)).map((r) => results.delete([runId, r.itemId]));
  await Promise.all([tx.objectStore('runs').put(next), indexRun(tx, next), ...checked.results.map((r) => results.put(r)), ...gone, tx.done]);
  return next;
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}
