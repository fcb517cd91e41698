// The page's side of workers/export.worker.ts: asks for a file or a share link, built from the store
// in the worker, and hands a file to the browser's download.
import { JianguError, notice, type Notice } from '../core/notices/index.ts';
import { DB_NAME } from '../store/schema.ts';
import type { ExportRequest, ExportResult } from './export-files.ts';

export type ExportWorkerRequest = { request: ExportRequest; dbName: string };
/** A file comes back as a Blob made in the worker: the page then copies no bytes (a 100 MB run file's copy was its own long task). */
export type WorkerExportResult = Exclude<ExportResult, { kind: 'file' }> | { kind: 'file'; name: string; type: string; blob: Blob };
export type ExportReply = { type: 'done'; result: WorkerExportResult } | { type: 'failed'; notice: Notice };

export const defaultExportWorker = () => new Worker(new URL('../../../workers/export.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-export' });

/** Builds `request` in a new worker. @throws JianguError with the worker's notice. */
export function exportInWorker(request: ExportRequest, factory = defaultExportWorker, dbName = DB_NAME): Promise<WorkerExportResult> {
  const worker = factory();
  return new Promise<WorkerExportResult>((resolve, reject) => {
    worker.addEventListener('message', (event: MessageEvent<ExportReply>) => {
      worker.terminate();
      if (event.data.type === 'done') resolve(event.data.result);
      else reject(new JianguError(event.data.notice));
    });
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      worker.terminate();
      reject(new JianguError(notice('export.worker-failed', { detail: event.message || 'the worker stopped' })));
    });
    worker.postMessage({ request, dbName } satisfies ExportWorkerRequest);
  });
}

/** Hands a built file (its bytes, or the worker's Blob) to the browser as a download. */
export function download(file: Extract<ExportResult | WorkerExportResult, { kind: 'file' }>): void {
  const blob = 'blob' in file ? file.blob : new Blob([file.bytes as BlobPart], { type: file.type });
  const url = URL.createObjectURL(blob);
  const a = Object.assign(document.createElement('a'), { href: url, download: file.name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
