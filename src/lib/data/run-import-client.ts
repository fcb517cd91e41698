// The page's side of workers/run-import.worker.ts: hands it the picked files (File objects are
// cloned as handles, not read here) and waits for the run ids it stored, hearing its steps.
import { JianguError, notice, type Notice } from '../core/notices/index.ts';
import { DB_NAME } from '../store/schema.ts';
import type { RunImportProgress } from './import-runs.ts';

export type RunImportRequest = { files: File[]; folder: boolean; dbName: string };
export type RunImportReply = { type: 'progress'; progress: RunImportProgress } | { type: 'imported'; runIds: string[] } | { type: 'failed'; notice: Notice };

export const defaultRunImportWorker = () => new Worker(new URL('../../../workers/run-import.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-run-import' });

/**
 * Imports `files` in a new worker; resolves with the stored runs' ids.
 * @throws JianguError with the import's notice (the file and what is wrong); nothing is stored then.
 */
export function importRunsInWorker(files: readonly File[], folder: boolean, onProgress?: (p: RunImportProgress) => void, factory = defaultRunImportWorker, dbName = DB_NAME): Promise<string[]> {
  const worker = factory();
  return new Promise<string[]>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<RunImportReply>) => {
      const m = event.data;
      if (m.type === 'progress') return onProgress?.(m.progress);
      worker.terminate();
      if (m.type === 'imported') resolve(m.runIds);
      else reject(new JianguError(m.notice));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new JianguError(notice('data.import-worker-failed', { detail: event.message || 'the worker stopped' })));
    });
    worker.postMessage({ files: [...files], folder, dbName } satisfies RunImportRequest);
  });
}
