// What the Data page shows and does: the stored datasets, storage use, and one job per dataset
// (downloading, waiting for a C3Bench field mapping, storing) with its progress or its error.
import type { C3Mapping } from '../../lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../lib/core/benchmarks/catalog.ts';
import type { DatasetId, DatasetRecord } from '../../lib/core/benchmarks/types.ts';
import { checkUserFile, fetchCatalogFiles, storeDataset, type CheckedFile, type FetchProgress } from '../../lib/data/import-dataset.ts';
import { downloadBytes } from '../../lib/data/download.ts';
import { currentMirror } from '../../lib/data/settings.ts';
import { MAX_FILE_BYTES } from '../../lib/core/benchmarks/text.ts';
import { deleteDataset, listDatasets } from '../../lib/store/datasets.ts';
import { openJianguDb, type JianguDatabase } from '../../lib/store/schema.ts';
import { storageEstimate, type StorageEstimate } from '../../lib/store/storage.ts';
import { fmt, t } from '../i18n/locale.svelte.ts';

export type Job =
  | { phase: 'downloading'; progress: FetchProgress | null; abort: AbortController }
  | { phase: 'mapping'; files: CheckedFile[]; origin: 'catalog' | 'import'; source: string }
  | { phase: 'storing' }
  | { phase: 'failed'; message: string }
  // Counts, not a sentence: the page words it in the interface language of the moment.
  | { phase: 'done'; itemCount: number; skipped: number };

/** What a finished job says, e.g. "Stored 80 items." */
export function doneMessage(job: { itemCount: number; skipped: number }): string {
  const items = fmt.count(job.itemCount);
  const skipped = fmt.count(job.skipped);
  return job.skipped
    ? t(`Stored ${items} items (${skipped} source items not imported).`, `已存储 ${items} 道题（源文件中有 ${skipped} 项未导入）。`)
    : t(`Stored ${items} items.`, `已存储 ${items} 道题。`);
}

/** Every failure here already carries a message naming the file, line, URL or size involved. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

export class DataState {
  stored = $state<DatasetRecord[]>([]);
  estimate = $state<StorageEstimate | null>(null);
  persisted = $state<boolean | null>(null);
  mirror = $state<string | null>(currentMirror());
  jobs = $state<Partial<Record<DatasetId, Job>>>({});
  /** Set once the stored list has been read (the page shows nothing as stored before). */
  loaded = $state(false);
  private database: Promise<JianguDatabase> | null = null;

  private db(): Promise<JianguDatabase> {
    this.database ??= openJianguDb();
    return this.database;
  }

  async refresh(): Promise<void> {
    this.stored = await listDatasets(await this.db());
    this.estimate = await storageEstimate();
    this.persisted = typeof navigator.storage?.persisted === 'function' ? await navigator.storage.persisted() : null;
    this.loaded = true;
  }

  record(id: DatasetId): DatasetRecord | undefined {
    return this.stored.find((r) => r.id === id);
  }

  /** Downloads a catalog dataset, checks it, and stores it (C3Bench first asks for its field mapping). */
  async download(id: DatasetId): Promise<void> {
    const abort = new AbortController();
    this.jobs[id] = { phase: 'downloading', progress: null, abort };
    try {
      const files = await fetchCatalogFiles(id, {
        mirror: this.mirror,
        signal: abort.signal,
        onProgress: (progress) => (this.jobs[id] = { phase: 'downloading', progress, abort }),
      });
      if (id === 'c3bench') {
        this.jobs[id] = { phase: 'mapping', files, origin: 'catalog', source: getDataset(id).repository ?? 'C3Bench' };
        return;
      }
      await this.store(id, files, 'catalog');
    } catch (error) {
      this.jobs[id] = { phase: 'failed', message: messageOf(error) };
    }
  }

  cancel(id: DatasetId): void {
    const job = this.jobs[id];
    if (job?.phase === 'downloading') job.abort.abort();
    else if (job?.phase === 'mapping') delete this.jobs[id];
  }

  /** A file the user dropped or picked: AncientBench stores at once, C3Bench asks for its mapping. */
  async importFile(id: 'ancientbench' | 'c3bench', name: string, bytes: Uint8Array, source = name): Promise<void> {
    try {
      const file = await checkUserFile(name, bytes);
      if (id === 'c3bench') {
        this.jobs[id] = { phase: 'mapping', files: [file], origin: 'import', source };
        return;
      }
      await this.store(id, [file], 'import', source);
    } catch (error) {
      this.jobs[id] = { phase: 'failed', message: messageOf(error) };
    }
  }

  /** A file at a URL the user typed (their own copy, a colleague's server). */
  async importUrl(id: 'ancientbench' | 'c3bench', url: string): Promise<void> {
    const abort = new AbortController();
    this.jobs[id] = { phase: 'downloading', progress: null, abort };
    try {
      const bytes = await downloadBytes(url, {
        maxBytes: MAX_FILE_BYTES,
        signal: abort.signal,
        onProgress: (p) =>
          (this.jobs[id] = { phase: 'downloading', progress: { file: url, filesDone: 0, filesTotal: 1, loaded: p.loaded, total: p.total }, abort }),
      });
      const name = decodeURIComponent(new URL(url).pathname.split('/').pop() || 'download');
      await this.importFile(id, name, bytes, url);
    } catch (error) {
      this.jobs[id] = { phase: 'failed', message: messageOf(error) };
    }
  }

  /** Finishes a C3Bench import once the user confirmed the field mapping. */
  async confirmMapping(mapping: C3Mapping): Promise<void> {
    const job = this.jobs.c3bench;
    if (job?.phase !== 'mapping') return;
    try {
      await this.store('c3bench', job.files, job.origin, job.source, mapping);
    } catch (error) {
      this.jobs.c3bench = { phase: 'failed', message: messageOf(error) };
    }
  }

  async remove(id: DatasetId): Promise<void> {
    try {
      await deleteDataset(await this.db(), id);
      delete this.jobs[id];
    } catch (error) {
      this.jobs[id] = { phase: 'failed', message: messageOf(error) };
    }
    await this.refresh();
  }

  private async store(id: DatasetId, files: CheckedFile[], origin: 'catalog' | 'import', source?: string, c3Mapping?: C3Mapping) {
    this.jobs[id] = { phase: 'storing' };
    const { record, adapted } = await storeDataset(await this.db(), id, files, { origin, source, c3Mapping });
    const skipped = adapted.skipped.reduce((n, s) => n + s.count, 0);
    this.jobs[id] = { phase: 'done', itemCount: record.itemCount, skipped };
    await this.refresh();
  }
}
