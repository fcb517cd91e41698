// The page's side of workers/export.worker.ts: asks for a file or a share link, built from the store
// in the worker, and hands a file to the browser's download.
import { JianguError, notice, type Notice } from '../core/notices/index.ts';
import { DB_NAME } from '../store/schema.ts';
import type { ExportRequest, ExportResult } from './export-files.ts';

export type ExportWorkerRequest = { request: ExportRequest; dbName: string };
export type ExportReply = { type: 'done'; result: ExportResult } | { type: 'failed'; notice: Notice };

export const defaultExportWorker = () => new Worker(new URL('../../../workers/export.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-export' });

/** Builds `request` in a new worker. @throws JianguError with the worker's notice. */
export function exportInWorker(request: ExportRequest, factory = defaultExportWorker, dbName = DB_NAME): Promise<ExportResult> {
  const worker = factory();
  return new Promise<ExportResult>((resolve, reject) => {
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

/** Hands a built file to the browser as a download. */
export function download(file: Extract<ExportResult, { kind: 'file' }>): void {
  const url = URL.createObjectURL(new Blob([file.bytes as BlobPart], { type: file.type }));
  const a = Object.assign(document.createElement('a'), { href: url, download: file.name });
  a.click();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
