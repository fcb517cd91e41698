// What the Data page shows and does: the stored datasets, storage use, and one job per dataset
// (downloading, waiting for a C3Bench field mapping, adapting and storing, asking before replacing)
// with its progress or its error. Errors are kept as notices and worded where they are shown, so a
// language switch rewords them. Adapting runs in workers/import.worker.ts, off this thread.
import type { C3Mapping } from '../../lib/core/benchmarks/adapters/index.ts';
import { DataError, noticesOf } from '../../lib/core/benchmarks/errors.ts';
import { getDataset } from '../../lib/core/benchmarks/catalog.ts';
import type { DatasetId, DatasetRecord } from '../../lib/core/benchmarks/types.ts';
import type { Notice } from '../../lib/core/notices/index.ts';
import { checkUserFile, fetchCatalogFiles, type CheckedFile, type FetchProgress } from '../../lib/data/import-dataset.ts';
import { ImportFailure, PreparedImport } from '../../lib/data/import-client.ts';
import { downloadBytes } from '../../lib/data/download.ts';
import { currentMirror } from '../../lib/data/settings.ts';
import { MAX_FILE_BYTES } from '../../lib/core/benchmarks/text.ts';
import { datasetUse, deleteDataset, listDatasets, runsOnDataset, type RunOnDataset } from '../../lib/store/datasets.ts';
import { openJianguDb, type JianguDatabase } from '../../lib/store/schema.ts';
import { persistenceRequested, requestPersistence, storageEstimate, type StorageEstimate } from '../../lib/store/storage.ts';
import { fmt, locale, t } from '../i18n/locale.svelte.ts';
import type { IdenticalOptions } from '../../lib/core/benchmarks/identical-options.ts';

/** Where a job was started: a catalog card (download) or the import panel. Each shows only its own. */
export type JobOrigin = 'catalog' | 'import';

/** What would replace a stored dataset, waiting for the user to agree. */
export interface PendingReplacement {
  stored: DatasetRecord;
  /** Runs made on the stored files: their questions would no longer be stored. */
  runs: number;
  incoming: DatasetRecord;
}

export type Job =
  | { phase: 'downloading'; origin: JobOrigin; progress: FetchProgress | null; abort: AbortController }
  | { phase: 'mapping'; origin: JobOrigin; files: CheckedFile[]; source: string }
  | { phase: 'storing'; origin: JobOrigin }
  | ({ phase: 'confirm-replace'; origin: JobOrigin } & PendingReplacement)
  /** Asked before a delete: the stored copy and the runs made on it (what stops working for them). */
  | { phase: 'confirm-delete'; origin: JobOrigin; stored: DatasetRecord; runs: RunOnDataset[] }
  /** Every notice of the failure, headline first. */
  | { phase: 'failed'; origin: JobOrigin; notices: Notice[] }
  // Counts, not a sentence: the page words it in the interface language of the moment.
  | { phase: 'done'; origin: JobOrigin; itemCount: number; skipped: number; identical?: IdenticalOptions };

/** What a finished job says, e.g. "Stored 80 items." */
export function doneMessage(job: { itemCount: number; skipped: number }): string {
  const items = fmt.countOf(job.itemCount, 'item', 'items', '道题');
  const skipped = fmt.countOf(job.skipped, 'source item', 'source items', '项');
  return job.skipped
    ? t(`Stored ${items} (${skipped} not imported).`, `已存储 ${items}（源文件中有 ${skipped}未导入）。`)
    : t(`Stored ${items}.`, `已存储 ${items}。`);
}

/** The items stored whose options repeat one another, named (the first few), or null when there are none. */
export function identicalMessage(job: { identical?: IdenticalOptions }): string | null {
  const found = job.identical;
  if (!found || found.count === 0) return null;
  const named = found.examples.map((e) => `${e.id} (${e.letters.join(locale.current === 'zh' ? '、' : ', ')})`).join(locale.current === 'zh' ? '；' : '; ');
  const more = found.count > found.examples.length;
  return t(
    `Warning: ${fmt.countOf(found.count, 'item has', 'items have', '道题')} options with the same text, which no reading can tell apart: ${named}${more ? '; …' : ''}. They are stored as the file has them; check the file, or leave their tasks out of a run.`,
    `注意：有 ${fmt.count(found.count)} 道题的选项文字重复，读题也无法区分：${named}${more ? '；……' : ''}。已按文件原样存储；请检查文件，或在评测时不选这些任务。`,
  );
}

function failureNotices(error: unknown): Notice[] {
  return error instanceof ImportFailure ? [...error.notices] : noticesOf(error);
}

export class DataState {
  stored = $state<DatasetRecord[]>([]);
  estimate = $state<StorageEstimate | null>(null);
  /** Whether the browser keeps this origin's storage through pressure (`persisted()`); null where it cannot say. */
  persisted = $state<boolean | null>(null);
  /** The answer to this page load's `persist()` request: null until one was made and answered. */
  persistAnswer = $state<boolean | null>(null);
  mirror = $state<string | null>(currentMirror());
  jobs = $state<Partial<Record<DatasetId, Job>>>({});
  /** Set once the stored list has been read (the page shows nothing as stored before). */
  loaded = $state(false);
  private database: Promise<JianguDatabase> | null = null;
  /** The prepared import a confirm-replace job waits on, per dataset (not state: it holds a worker). */
  private readonly pending = new Map<DatasetId, PreparedImport>();

  private db(): Promise<JianguDatabase> {
    this.database ??= openJianguDb();
    return this.database;
  }

  async refresh(): Promise<void> {
    this.stored = await listDatasets(await this.db());
    this.estimate = await storageEstimate();
    this.persisted = await readPersisted();
    const asked = persistenceRequested();
    if (asked) this.persistAnswer = await asked;
    this.loaded = true;
  }

  /**
   * Asks for persistent storage (once per page load) before a download or a store begins, without
   * waiting: a browser that prompts must not hold the download. The answer shows when it comes.
   */
  private askPersistence(): void {
    void requestPersistence().then(async (granted) => {
      this.persistAnswer = granted;
      this.persisted = granted || (await readPersisted());
    });
  }

  record(id: DatasetId): DatasetRecord | undefined {
    return this.stored.find((r) => r.id === id);
  }

  /** The job of `id` if it was started from `origin` (a card and the import panel each show their own). */
  job(id: DatasetId, origin: JobOrigin): Job | undefined {
    const job = this.jobs[id];
    return job?.origin === origin ? job : undefined;
  }

  /** Downloads a catalog dataset, checks it, and stores it (C3Bench first asks for its field mapping). */
  async download(id: DatasetId): Promise<void> {
    const abort = new AbortController();
    this.drop(id);
    this.askPersistence();
    this.jobs[id] = { phase: 'downloading', origin: 'catalog', progress: null, abort };
    // The mirror the files come from (none: the pinned upstream), kept in the stored record.
    const mirror = this.mirror ?? undefined;
    try {
      const files = await fetchCatalogFiles(id, {
        mirror,
        signal: abort.signal,
        onProgress: (progress) => (this.jobs[id] = { phase: 'downloading', origin: 'catalog', progress, abort }),
      });
      if (id === 'c3bench') {
        this.jobs[id] = { phase: 'mapping', origin: 'catalog', files, source: getDataset(id).repository ?? 'C3Bench' };
        return;
      }
      await this.store(id, files, 'catalog', undefined, undefined, mirror);
    } catch (error) {
      this.jobs[id] = { phase: 'failed', origin: 'catalog', notices: failureNotices(error) };
    }
  }

  cancel(id: DatasetId): void {
    const job = this.jobs[id];
    if (job?.phase === 'downloading') job.abort.abort();
    else if (job?.phase === 'mapping' || job?.phase === 'confirm-replace') {
      this.drop(id);
      delete this.jobs[id];
    }
  }

  /** A file the user dropped or picked: AncientBench stores at once, C3Bench asks for its mapping. */
  async importFile(id: 'ancientbench' | 'c3bench', name: string, bytes: Uint8Array, source = name): Promise<void> {
    this.drop(id);
    try {
      const file = await checkUserFile(name, bytes);
      if (id === 'c3bench') {
        this.jobs[id] = { phase: 'mapping', origin: 'import', files: [file], source };
        return;
      }
      await this.store(id, [file], 'import', source);
    } catch (error) {
      this.jobs[id] = { phase: 'failed', origin: 'import', notices: failureNotices(error) };
    }
  }

  /**
   * A file the user picked or dropped: its size is checked from File.size before a byte is read (a
   * 953 MiB pick froze the tab reading it whole before it was refused), and a file the browser cannot
   * read (a 4 GiB file, one moved or locked since) gets a message, not an uncaught error.
   */
  async importPicked(id: 'ancientbench' | 'c3bench', file: File): Promise<void> {
    this.drop(id);
    if (file.size > MAX_FILE_BYTES) {
      this.jobs[id] = { phase: 'failed', origin: 'import', notices: failureNotices(new DataError({ file: file.name }, 'data.file-too-large', { bytes: file.size, limit: MAX_FILE_BYTES })) };
      return;
    }
    let bytes: Uint8Array;
    try {
      bytes = new Uint8Array(await file.arrayBuffer());
    } catch (error) {
      const reason = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
      this.jobs[id] = { phase: 'failed', origin: 'import', notices: failureNotices(new DataError({ file: file.name }, 'data.file-unreadable', { reason })) };
      return;
    }
    await this.importFile(id, file.name, bytes);
  }

  /** A file at a URL the user typed (their own copy, a colleague's server). */
  async importUrl(id: 'ancientbench' | 'c3bench', url: string): Promise<void> {
    const abort = new AbortController();
    this.drop(id);
    this.askPersistence();
    this.jobs[id] = { phase: 'downloading', origin: 'import', progress: null, abort };
    try {
      const bytes = await downloadBytes(url, {
        maxBytes: MAX_FILE_BYTES,
        signal: abort.signal,
        onProgress: (p) =>
          (this.jobs[id] = {
            phase: 'downloading',
            origin: 'import',
            progress: { file: url, filesDone: 0, filesTotal: 1, loaded: p.loaded, total: p.total },
            abort,
          }),
      });
      const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'download');
      await this.importFile(id, name, bytes, url);
    } catch (error) {
      this.jobs[id] = { phase: 'failed', origin: 'import', notices: failureNotices(error) };
    }
  }

  /** Finishes a C3Bench import once the user confirmed the field mapping. */
  async confirmMapping(mapping: C3Mapping): Promise<void> {
    const job = this.jobs.c3bench;
    if (job?.phase !== 'mapping') return;
    try {
      await this.store('c3bench', job.files, job.origin, job.source, mapping);
    } catch (error) {
      this.jobs.c3bench = { phase: 'failed', origin: job.origin, notices: failureNotices(error) };
    }
  }

  /** The user agreed to replace the stored dataset with the prepared one. */
  async confirmReplace(id: DatasetId): Promise<void> {
    const job = this.jobs[id];
    const prepared = this.pending.get(id);
    if (job?.phase !== 'confirm-replace' || !prepared) return;
    this.pending.delete(id);
    try {
      await this.commit(id, prepared, job.origin);
    } catch (error) {
      this.jobs[id] = { phase: 'failed', origin: job.origin, notices: failureNotices(error) };
    }
  }

  /** Asks before deleting: names the stored copy and the runs made on it (the page shows the question). */
  async askRemove(id: DatasetId): Promise<void> {
    const stored = this.record(id);
    if (!stored) return;
    try {
      this.jobs[id] = { phase: 'confirm-delete', origin: 'catalog', stored, runs: await runsOnDataset(await this.db(), id) };
    } catch (error) {
      this.jobs[id] = { phase: 'failed', origin: 'catalog', notices: failureNotices(error) };
    }
  }

  /** The user kept the dataset. */
  keep(id: DatasetId): void {
    if (this.jobs[id]?.phase === 'confirm-delete') delete this.jobs[id];
  }

  async remove(id: DatasetId): Promise<void> {
    try {
      await deleteDataset(await this.db(), id);
      delete this.jobs[id];
    } catch (error) {
      this.jobs[id] = { phase: 'failed', origin: 'catalog', notices: failureNotices(error) };
    }
    await this.refresh();
  }

  /** Ends a prepared import nobody will store (a new import of the same dataset, a cancel). */
  private drop(id: DatasetId): void {
    this.pending.get(id)?.discard();
    this.pending.delete(id);
  }

  /**
   * Adapts the files in the import worker, then stores them; when they would replace a stored copy
   * made from other files, first asks (the job waits in confirm-replace, nothing is written).
   */
  private async store(id: DatasetId, files: CheckedFile[], origin: JobOrigin, source?: string, c3Mapping?: C3Mapping, mirror?: string) {
    // A file the user picked was never downloaded: its store is the first large write.
    this.askPersistence();
    this.jobs[id] = { phase: 'storing', origin };
    const prepared = await PreparedImport.prepare({ type: 'prepare', id, files, origin, source, c3Mapping, mirror });
    const use = await datasetUse(await this.db(), id).catch(() => null);
    if (use && !sameFiles(use.record, prepared.record)) {
      this.pending.set(id, prepared);
      this.jobs[id] = { phase: 'confirm-replace', origin, stored: use.record, runs: use.runs, incoming: prepared.record };
      return;
    }
    await this.commit(id, prepared, origin);
  }

  private async commit(id: DatasetId, prepared: PreparedImport, origin: JobOrigin) {
    this.jobs[id] = { phase: 'storing', origin };
    await prepared.store();
    this.jobs[id] = { phase: 'done', origin, itemCount: prepared.record.itemCount, skipped: prepared.skipped, identical: prepared.identical };
    await this.refresh();
  }
}

async function readPersisted(): Promise<boolean | null> {
  if (typeof navigator === 'undefined' || typeof navigator.storage?.persisted !== 'function') return null;
  return navigator.storage.persisted().catch(() => null);
}

/** The same files by content: downloading the pinned files again, or importing the same file, replaces nothing. */
function sameFiles(a: DatasetRecord, b: DatasetRecord): boolean {
  const hashes = new Set(a.files.map((file) => file.sha256));
  return a.files.length === b.files.length && b.files.every((file) => hashes.has(file.sha256));
}
