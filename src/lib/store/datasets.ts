// Datasets and their items: saving an import all-or-nothing, reading tasks in file order, deleting.
import type { DatasetId, DatasetRecord, Item, Split } from '../core/benchmarks/types.ts';
import { notice, type Notice } from '../core/notices/index.ts';
import { DatasetNotFoundError, DatasetSaveError, DatasetValidationError, StorageFullError, isQuotaError, type ValidationProblem } from './errors.ts';
import type { JianguDatabase } from './schema.ts';
import type { ModelSource } from '../core/models/model-types.ts';
import { approxBytes, type DatasetSize } from './sizes.ts';
import { abortQuietly, transactionEnd } from './transaction-end.ts';

/**
 * The key range of every key that starts with `prefix`. Arrays sort after strings and numbers in
 * IndexedDB, so `[...prefix, []]` is above every key with that prefix.
 */
function prefixRange(...prefix: (string | number)[]): IDBKeyRange {
  return IDBKeyRange.bound(prefix, [...prefix, []]);
}

function validate(record: DatasetRecord, items: readonly Item[]): void {
  const problems: ValidationProblem[] = [];
  const seen = new Map<string, Item>();
  for (const item of items) {
    if (item.datasetId !== record.id) problems.push({ kind: 'foreign', item });
    const first = seen.get(item.id);
    if (first) problems.push({ kind: 'duplicate', first, second: item });
    else seen.set(item.id, item);
  }
  if (problems.length) throw new DatasetValidationError(record.id, problems);
}

/**
 * Saves a downloaded or imported dataset, replacing any earlier import with the same id. Called
 * once per import, after the adapter has produced every item. All or nothing: one readwrite
 * transaction deletes the old items, puts the new ones and then the record; on any failure it
 * aborts and the store is exactly as before.
 *
 * Every put is issued without awaiting the previous one (IndexedDB queues them in order), so no
 * chunking is needed and nothing else is awaited while the transaction is open.
 *
 * @param db The open database.
 * @param record What is known about the dataset; its `id` keys the items.
 * @param items Every item of the dataset; each `datasetId` must equal `record.id`, ids unique.
 * @throws DatasetValidationError before writing, if the items do not fit the record.
 * @throws StorageFullError when the browser's quota is exceeded, naming datasets to delete.
 * @throws DatasetSaveError for any other failure (an item that cannot be cloned, an abort).
 */
export async function saveDataset(db: JianguDatabase, record: DatasetRecord, items: readonly Item[]): Promise<void> {
  validate(record, items);
  const tx = db.transaction(['datasets', 'items'], 'readwrite');
  const ended = transactionEnd(tx);
  let failed: { error: unknown; item: Item | undefined } | undefined;
  const note = (item: Item | undefined) => (error: unknown) => {
    failed ??= { error, item };
  };
  let thrown: { error: unknown; item: Item | undefined } | undefined;
  let current: Item | undefined;
  try {
    const store = tx.objectStore('items');
    store.delete(prefixRange(record.id)).catch(note(undefined));
    for (const item of items) {
      current = item;
      store.put(item).catch(note(item));
    }
    current = undefined;
    tx.objectStore('datasets').put(record).catch(note(undefined));
  } catch (error) {
    // A synchronous throw (DataCloneError, DataError) does not abort the transaction by itself.
    thrown = { error, item: current };
    abortQuietly(tx);
  }
  const end = await ended;
  if (end.committed && !thrown) return;

  // Requests aborted along with the transaction fail with AbortError; prefer the first real cause.
  const candidates = [thrown, end.committed ? undefined : { error: end.error, item: undefined }, failed].filter(
    (c): c is { error: unknown; item: Item | undefined } => c !== undefined && c.error != null,
  );
  if (candidates.some((c) => isQuotaError(c.error))) {
    const neededBytes = approxBytes(record) + items.reduce((sum, item) => sum + approxBytes(item), 0);
    // Read after the failed transaction ended, in a new one, so the list is what is really stored.
    const suggestions = await datasetSizes(db).catch((): DatasetSize[] => []);
    const cause = candidates.find((c) => isQuotaError(c.error))?.error;
    throw new StorageFullError({ datasetId: record.id, title: record.title, neededBytes, suggestions, cause });
  }
  const cause = candidates.find((c) => !isAbortError(c.error)) ?? candidates[0];
  const item = cause?.item ?? candidates.find((c) => c.item)?.item;
  throw new DatasetSaveError(record.id, item, cause?.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
}

function isAbortError(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'name' in error && error.name === 'AbortError';
}

/**
 * Lists every stored dataset record, ordered by id. Called by the datasets view and at start-up
 * to know what is available offline.
 *
 * @param db The open database.
 */
export async function listDatasets(db: JianguDatabase): Promise<DatasetRecord[]> {
  return db.getAll('datasets');
}

/**
 * Reads one dataset record, or undefined if it is not stored.
 *
 * @param db The open database.
 * @param id The dataset to read.
 */
export async function getDataset(db: JianguDatabase, id: DatasetId): Promise<DatasetRecord | undefined> {
  return db.get('datasets', id);
}

/**
 * Deletes a dataset's record and all its items in one transaction; other datasets are untouched.
 * Called when the user removes a dataset (e.g. to free space). Runs and results are kept.
 *
 * @param db The open database.
 * @param id The dataset to delete.
 * @returns Whether a record was stored under that id.
 */
export async function deleteDataset(db: JianguDatabase, id: DatasetId): Promise<boolean> {
  const tx = db.transaction(['datasets', 'items'], 'readwrite');
  const [count] = await Promise.all([
    tx.objectStore('datasets').count(id),
    tx.objectStore('items').delete(prefixRange(id)),
    tx.objectStore('datasets').delete(id),
    tx.done,
  ]);
  return count > 0;
}

/**
 * Counts the stored items of a dataset (0 when it is not stored).
 *
 * @param db The open database.
 * @param id The dataset to count.
 */
export async function countItems(db: JianguDatabase, id: DatasetId): Promise<number> {
  return db.countFromIndex('items', 'by-dataset', id);
}

async function readItems(db: JianguDatabase, datasetId: DatasetId, range: IDBKeyRange): Promise<Item[]> {
  const tx = db.transaction(['datasets', 'items'], 'readonly');
  const [record, items] = await Promise.all([
    tx.objectStore('datasets').get(datasetId),
    tx.objectStore('items').index('by-dataset-task-split-order').getAll(range),
    tx.done,
  ]);
  if (!record) throw new DatasetNotFoundError(datasetId);
  return items;
}

/**
 * Loads one task's items in file order, read straight from the (dataset, task, split, order)
 * index. Called when a run starts on a task, and for few-shot exemplars (the first k dev items).
 *
 * @param db The open database.
 * @param datasetId The dataset.
 * @param task The dataset's own task key (see Item.task); an unknown task gives [].
 * @param split Only this split; when omitted, dev items come first, then test, each in file order.
 * @throws DatasetNotFoundError if the dataset is not stored.
 */
export async function loadTaskItems(db: JianguDatabase, datasetId: DatasetId, task: string, split?: Split): Promise<Item[]> {
  return readItems(db, datasetId, split ? prefixRange(datasetId, task, split) : prefixRange(datasetId, task));
}

/**
 * Loads every item of a dataset, ordered by task key, then split (dev, test), then file order.
 *
 * @param db The open database.
 * @param datasetId The dataset.
 * @throws DatasetNotFoundError if the dataset is not stored.
 */
export async function loadItems(db: JianguDatabase, datasetId: DatasetId): Promise<Item[]> {
  return readItems(db, datasetId, prefixRange(datasetId));
}

/**
 * Lists a dataset's task keys as its record states them (the adapter's order).
 *
 * @param db The open database.
 * @param datasetId The dataset.
 * @throws DatasetNotFoundError if the dataset is not stored.
 */
export async function listTasks(db: JianguDatabase, datasetId: DatasetId): Promise<string[]> {
  const record = await db.get('datasets', datasetId);
  if (!record) throw new DatasetNotFoundError(datasetId);
  return Object.keys(record.tasks);
}

/**
 * Estimates how much room each stored dataset takes, biggest first. Called to suggest what to
 * delete when storage is full. The estimate is the JSON length of the record and of every item,
 * times 2 (UTF-16): it reads every item, one dataset at a time, so it is not free on large data.
 *
 * @param db The open database.
 */
export async function datasetSizes(db: JianguDatabase): Promise<DatasetSize[]> {
  const tx = db.transaction(['datasets', 'items'], 'readonly');
  const records = await tx.objectStore('datasets').getAll();
  const index = tx.objectStore('items').index('by-dataset');
  const sizes: DatasetSize[] = [];
  for (const record of records) {
    // Only this transaction's own requests are awaited, so it stays alive between them.
    const items = await index.getAll(record.id);
    const bytes = items.reduce((sum, item) => sum + approxBytes(item), approxBytes(record));
    sizes.push({ id: record.id, title: record.title, itemCount: items.length, approxBytes: bytes });
  }
  await tx.done;
  return sizes.sort((a, b) => b.approxBytes - a.approxBytes);
}

/** What a run needs to know whether its questions are still stored. */
export interface RunDataClaim {
  datasetId: DatasetId;
  /** The files (and their sha256) the run's items came from; empty when the run does not say. */
  datasetFiles: readonly { path: string; sha256: string }[];
  itemIds: readonly string[];
}

/** Whether a stored record holds exactly the files a run was made on (same sha256s, as a set). */
function sameFiles(record: DatasetRecord, files: RunDataClaim['datasetFiles']): boolean {
  const stored = new Set(record.files.map((file) => file.sha256));
  return files.length === record.files.length && files.every((file) => stored.has(file.sha256));
}

/**
 * Says why a run's items are not (all) in this browser's copy of its dataset, or null when they
 * are. Called by a run's page (and classroom mode) before it shows questions, so it can say
 * "replaced by <file> on <date>" rather than "missing".
 *
 * - `store.dataset-not-stored`: no copy (never downloaded or imported here, or deleted).
 * - `store.dataset-replaced`: the stored copy came from other files (another AncientBench file was
 *   imported over it, a C3Bench file of another hash): names its source and when it was imported.
 * - `store.items-not-stored`: same files, or the run names none (an lm-eval import), but some of its
 *   item ids are not there.
 *
 * @param db The open database.
 * @param run The run's dataset, files and item ids (a RunConfig has all three).
 */
export async function whyRunItemsAreMissing(db: JianguDatabase, run: RunDataClaim): Promise<Notice | null> {
  const tx = db.transaction(['datasets', 'items'], 'readonly');
  const record = await tx.objectStore('datasets').get(run.datasetId);
  if (!record) return notice('store.dataset-not-stored', { dataset: run.datasetId });
  if (run.datasetFiles.length > 0 && !sameFiles(record, run.datasetFiles)) {
    return notice('store.dataset-replaced', { title: record.title, by: record.source, on: record.importedAt });
  }
  const keys = new Set((await tx.objectStore('items').index('by-dataset').getAllKeys(run.datasetId)).map((key) => key[1]));
  const missing = run.itemIds.filter((id) => !keys.has(id)).length;
  return missing === 0 ? null : notice('store.items-not-stored', { title: record.title, missing, total: run.itemIds.length });
}

/** A stored dataset and what depends on it, for asking before it is replaced. */
export interface DatasetUse {
  record: DatasetRecord;
  /** Runs made on exactly these files: their items would no longer be stored after a replacement. */
  runs: number;
}

/**
 * The stored copy of a dataset and how many runs were made on it, or null when none is stored.
 * Called before an import that would replace it, so the page can ask first.
 *
 * @param db The open database.
 * @param id The dataset about to be imported.
 */
export async function datasetUse(db: JianguDatabase, id: DatasetId): Promise<DatasetUse | null> {
  const tx = db.transaction(['datasets', 'runs'], 'readonly');
  const [record, runs] = await Promise.all([tx.objectStore('datasets').get(id), tx.objectStore('runs').index('by-dataset').getAll(id)]);
  if (!record) return null;
  return { record, runs: runs.filter((run) => sameFiles(record, run.config.datasetFiles)).length };
}

/** A run made on a dataset, as the page names it before the dataset is deleted. */
export interface RunOnDataset {
  id: string;
  kind: 'scoring' | 'memorization';
  createdAt: string;
  source: ModelSource;
  dtype: string;
  label: string | null;
}

/**
 * The runs (scoring and memorization) made on a stored dataset, newest first, for the page that asks
 * before deleting it: their numbers stay, but their questions (item detail, classroom) and resuming
 * them need the dataset. A record too damaged to name is left out here (the run lists name it).
 */
export async function runsOnDataset(db: JianguDatabase, id: DatasetId): Promise<RunOnDataset[]> {
  const tx = db.transaction(['runs', 'probeRuns']);
  const [runs, probes] = await Promise.all([tx.objectStore('runs').index('by-dataset').getAll(id), tx.objectStore('probeRuns').getAll(), tx.done]);
  const named = (kind: RunOnDataset['kind']) => (r: { id: string; createdAt: unknown; config?: { model?: { source?: unknown; dtype?: unknown } } | null; label?: unknown }): RunOnDataset[] => {
    const model = r.config?.model;
    if (typeof r.createdAt !== 'string' || !model || typeof model.dtype !== 'string') return [];
    const source = model.source as { kind?: unknown; id?: unknown; name?: unknown } | undefined;
    if (!(source?.kind === 'hub' && typeof source.id === 'string') && !(source?.kind === 'site' && typeof source.name === 'string')) return [];
    return [{ id: r.id, kind, createdAt: r.createdAt, source: source as ModelSource, dtype: model.dtype, label: typeof r.label === 'string' ? r.label : null }];
  };
  return [...runs.flatMap(named('scoring')), ...probes.filter((p) => p.datasetId === id).flatMap(named('memorization'))].sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
}

