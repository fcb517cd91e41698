// Builds exports and share links off the page's thread (src/lib/data/export-files.ts): one request,
// one answer (the file's bytes, transferred, or the link's payload), or the notice of what failed.
import { noticeOf } from '../src/lib/core/notices/index.ts';
import { buildExport } from '../src/lib/data/export-files.ts';
import type { ExportReply, ExportWorkerRequest } from '../src/lib/data/export-client.ts';
import { openJianguDb } from '../src/lib/store/schema.ts';

self.addEventListener('message', (event: MessageEvent<ExportWorkerRequest>) => {
  void (async () => {
    const db = await openJianguDb(event.data.dbName);
    try {
      const result = await buildExport(db, event.data.request);
      const transfer = result.kind === 'file' ? [result.bytes.buffer as ArrayBuffer] : [];
      self.postMessage({ type: 'done', result } satisfies ExportReply, { transfer });
    } finally {
      db.close();
    }
  })().catch((error: unknown) => self.postMessage({ type: 'failed', notice: noticeOf(error) } satisfies ExportReply));
});
