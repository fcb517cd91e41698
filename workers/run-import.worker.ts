// Imports run files off the page's thread (issue 22): reading, inflating, parsing, checking the docs
// against the stored items and storing, all here (src/lib/data/import-runs.ts); a backup's restore too
// (src/lib/data/backup.ts). The page hears the
// steps as they go, then the stored run ids, or the notice that says what was wrong. One worker per
// import, ended afterwards.
import { noticeOf } from '../src/lib/core/notices/index.ts';
import { importRunFiles } from '../src/lib/data/import-runs.ts';
import { importBackup } from '../src/lib/data/backup.ts';
import type { RunImportReply, RunImportRequest } from '../src/lib/data/run-import-client.ts';
import { openJianguDb } from '../src/lib/store/schema.ts';

const reply = (message: RunImportReply) => self.postMessage(message);

self.addEventListener('message', (event: MessageEvent<RunImportRequest>) => {
  void handle(event.data).catch((error: unknown) => reply({ type: 'failed', notice: noticeOf(error) }));
});

async function handle(request: RunImportRequest): Promise<void> {
  const db = await openJianguDb(request.dbName);
  try {
    if (request.backup) return reply({ type: 'restored', report: await importBackup(db, request.files[0]) });
    const runIds = await importRunFiles(db, request.files, request.folder, (progress) => reply({ type: 'progress', progress }));
    reply({ type: 'imported', runIds });
  } finally {
    db.close();
  }
}
