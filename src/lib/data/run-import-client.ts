// The page's side of workers/run-import.worker.ts: hands it the picked files (File objects are
// cloned as handles, not read here) and waits for the run ids it stored, hearing its steps.
import { JianguError, notice, type Notice } from '../core/notices/index.ts';
import { DB_NAME } from '../store/schema.ts';
import type { RunImportProgress } from './import-runs.ts';
import type { BackupReport } from './backup.ts';

/** `backup`: the one file is a backup (backup.ts importBackup), read and restored in the worker. */
export type RunImportRequest = { files: File[]; folder: boolean; dbName: string; backup?: boolean };
export type RunImportReply = { type: 'progress'; progress: RunImportProgress } | { type: 'imported'; runIds: string[] } | { type: 'restored'; report: BackupReport } | { type: 'failed'; notice: Notice };

export const defaultRunImportWorker = () => new Worker(new URL('../../../workers/run-import.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-run-import' });

/**
 * Restores a backup file in a new worker (a 512 MiB backup is parsed and checked there, not on the
 * page's thread); resolves with what happened to each run.
 * @throws JianguError with the notice when the file is not a backup; nothing is stored then.
 */
export function importBackupInWorker(file: File, factory = defaultRunImportWorker, dbName = DB_NAME): Promise<BackupReport> {
  return ask(factory, { files: [file], folder: false, dbName, backup: true }, (m) => (m.type === 'restored' ? m.report : null));
}

/**
 * Imports `files` in a new worker; resolves with the stored runs' ids.
 * @throws JianguError with the import's notice (the file and what is wrong); nothing is stored then.
 */
export function importRunsInWorker(files: readonly File[], folder: boolean, onProgress?: (p: RunImportProgress) => void, factory = defaultRunImportWorker, dbName = DB_NAME): Promise<string[]> {
  return ask(factory, { files: [...files], folder, dbName }, (m) => (m.type === 'imported' ? m.runIds : null), onProgress);
}

/** One request to a new worker, ended at its answer: `answer` reads the reply that ends it. */
function ask<T>(factory: () => Worker, request: RunImportRequest, answer: (m: RunImportReply) => T | null, onProgress?: (p: RunImportProgress) => void): Promise<T> {
  const worker = factory();
  return new Promise<T>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<RunImportReply>) => {
      const m = event.data;
      if (m.type === 'progress') return onProgress?.(m.progress);
      worker.terminate();
      const value = answer(m);
      if (value !== null) resolve(value);
      else reject(new JianguError(m.type === 'failed' ? m.notice : notice('data.import-worker-failed', { detail: `unexpected reply ${m.type}` })));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new JianguError(notice('data.import-worker-failed', { detail: event.message || 'the worker stopped' })));
    });
    worker.postMessage(request);
  });
}
