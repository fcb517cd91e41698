// Builds exports and share links off the page's thread (src/lib/data/export-files.ts): one request,
// one answer (the file as a Blob, or the link's payload), or the notice of what failed.
import { noticeOf } from '../src/lib/core/notices/index.ts';
import { buildExport } from '../src/lib/data/export-files.ts';
import type { ExportReply, ExportWorkerRequest, WorkerExportResult } from '../src/lib/data/export-client.ts';
import { openJianguDb } from '../src/lib/store/schema.ts';

self.addEventListener('message', (event: MessageEvent<ExportWorkerRequest>) => {
  void (async () => {
    const db = await openJianguDb(event.data.dbName);
    try {
      const built = await buildExport(db, event.data.request);
      // A file goes back as a Blob (passed by reference): the page copies none of its bytes.
      const result: WorkerExportResult = built.kind === 'file' ? { kind: 'file', name: built.name, type: built.type, blob: new Blob([built.bytes as BlobPart], { type: built.type }) } : built;
      self.postMessage({ type: 'done', result } satisfies ExportReply);
    } finally {
      db.close();
    }
  })().catch((error: unknown) => self.postMessage({ type: 'failed', notice: noticeOf(error) } satisfies ExportReply));
});
