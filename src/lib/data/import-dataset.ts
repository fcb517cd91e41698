// Getting a dataset into the store: download a catalog dataset's pinned files (from upstream or a
// mirror) and check every byte, or take a file the user gives; adapt; store all or nothing. Each
// step either finishes or leaves the store exactly as it was.
import { downloadPlan, getDataset } from '../core/benchmarks/catalog.ts';
import { adaptDataset, type AdaptResult, type RawFile } from '../core/benchmarks/adapters/index.ts';
import type { C3Mapping } from '../core/benchmarks/adapters/c3bench.ts';
import { buildDatasetRecord } from '../core/benchmarks/summary.ts';
import { MAX_FILE_BYTES } from '../core/benchmarks/text.ts';
import type { DatasetFile, DatasetId, DatasetRecord } from '../core/benchmarks/types.ts';
import { saveDataset } from '../store/datasets.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { requestPersistence } from '../store/storage.ts';
import { downloadBytes } from './download.ts';
import { checkSha256 } from './hash.ts';
import { jianguError } from '../core/notices/index.ts';

/** A file as fetched or picked, with the sha256 computed here. */
export interface CheckedFile extends RawFile {
  sha256: string;
}

export interface FetchProgress {
  file: string;
  filesDone: number;
  filesTotal: number;
  /** Bytes of all files so far, and in all (known from the catalog's pinned sizes when pinned). */
  loaded: number;
  total: number | null;
}

/**
 * Downloads every file of a catalog dataset, from its upstream repository at the pinned commit or
 * from `mirror`, and refuses any file whose sha256 is not the pinned one. Nothing is stored yet.
 * Asks the browser to keep the site's data (persist) before the first file is fetched.
 */
export async function fetchCatalogFiles(
  id: DatasetId,
  options: { mirror?: string | null; signal?: AbortSignal; onProgress?: (p: FetchProgress) => void; fetchImpl?: typeof fetch } = {},
): Promise<CheckedFile[]> {
  const plan = downloadPlan(id, options.mirror ?? undefined);
  if (plan.length === 0) throw jianguError('data.no-public-files', { title: getDataset(id).title });
  // Asked before the first byte is fetched, and not awaited: a browser that prompts must not hold the download.
  void requestPersistence();
  const known = plan.every((f) => f.bytes !== null);
  const total = known ? plan.reduce((n, f) => n + (f.bytes ?? 0), 0) : null;
  let done = 0;
  const files: CheckedFile[] = [];
  for (const [index, file] of plan.entries()) {
    const bytes = await downloadBytes(file.url, {
      signal: options.signal,
      maxBytes: MAX_FILE_BYTES,
      fetchImpl: options.fetchImpl,
      onProgress: (p) =>
        options.onProgress?.({ file: file.path, filesDone: index, filesTotal: plan.length, loaded: done + p.loaded, total }),
    });
    const sha256 = await checkSha256(file.path, bytes, file.sha256);
    done += bytes.byteLength;
    files.push({ path: file.path, bytes, sha256 });
    options.onProgress?.({ file: file.path, filesDone: index + 1, filesTotal: plan.length, loaded: done, total });
  }
  return files;
}

/** Hashes a file the user picked or fetched from a URL of their own. */
export async function checkUserFile(path: string, bytes: Uint8Array): Promise<CheckedFile> {
  return { path, bytes, sha256: await checkSha256(path, bytes, null) };
}

export interface StoreOptions {
  origin: 'catalog' | 'import';
  /** For imports: the URL or file name shown as the dataset's source. */
  source?: string;
  c3Mapping?: C3Mapping;
  /** A catalog download through a data mirror: its address, kept in the record (the Data page names it). */
  mirror?: string;
  /** Injectable for tests. */
  now?: () => Date;
}

export interface StoredDataset {
  record: DatasetRecord;
  adapted: AdaptResult;
}

/**
 * Adapts checked files and stores the dataset all or nothing, replacing an earlier import of the
 * same dataset. Adapter errors (DataError) and storage errors (StorageFullError) propagate with
 * the store unchanged. (Persistence was asked for before the download, in fetchCatalogFiles.)
 */
export async function storeDataset(db: JianguDatabase, id: DatasetId, files: readonly CheckedFile[], options: StoreOptions): Promise<StoredDataset> {
  const prepared = prepareDataset(id, files, options);
  await saveDataset(db, prepared.record, prepared.adapted.items);
  return prepared;
}

/**
 * Adapts checked files and builds the record that would be stored, without storing anything: the
 * first half of storeDataset, which the import worker runs off the page's thread. Throws DataError.
 */
export function prepareDataset(id: DatasetId, files: readonly CheckedFile[], options: StoreOptions): StoredDataset {
  const adapted = adaptDataset(id, files, { c3Mapping: options.c3Mapping });
  const recordFiles: DatasetFile[] = files.map((f) => ({ path: f.path, sha256: f.sha256, bytes: f.bytes.byteLength }));
  const record = buildDatasetRecord({
    id,
    origin: options.origin,
    files: recordFiles,
    items: adapted.items,
    importedAt: (options.now?.() ?? new Date()).toISOString(),
    source: options.source,
    fieldMapping: options.c3Mapping ? { ...options.c3Mapping } : adapted.fieldMapping,
    mirror: options.mirror,
  });
  return { record, adapted };
}
