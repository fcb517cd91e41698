// Adapts an imported or downloaded dataset off the page's thread (a 50 MB AncientBench file takes
// seconds to parse), with the same core code the page and the Node tests use, then stores it when
// the page asks. One worker per import: it holds one prepared dataset and is ended afterwards.
import { noticesOf } from '../src/lib/core/benchmarks/errors.ts';
import { identicalOptions } from '../src/lib/core/benchmarks/identical-options.ts';
import { prepareDataset, type StoredDataset } from '../src/lib/data/import-dataset.ts';
import type { ImportReply, ImportRequest } from '../src/lib/data/import-messages.ts';
import { saveDataset } from '../src/lib/store/datasets.ts';
import { openJianguDb } from '../src/lib/store/schema.ts';

let prepared: StoredDataset | null = null;

const reply = (message: ImportReply) => self.postMessage(message);

self.addEventListener('message', (event: MessageEvent<ImportRequest>) => {
  void handle(event.data).catch((error: unknown) => reply({ type: 'failed', notices: noticesOf(error) }));
});

async function handle(request: ImportRequest): Promise<void> {
  if (request.type === 'prepare') {
    prepared = prepareDataset(request.id, request.files, { origin: request.origin, source: request.source, c3Mapping: request.c3Mapping, mirror: request.mirror });
    const skipped = prepared.adapted.skipped.reduce((n, group) => n + group.count, 0);
    reply({ type: 'prepared', record: prepared.record, skipped, identical: identicalOptions(prepared.adapted.items) });
    return;
  }
  if (!prepared) throw new Error('nothing was prepared to store');
  const db = await openJianguDb(request.dbName);
  try {
    await saveDataset(db, prepared.record, prepared.adapted.items);
  } finally {
    db.close();
  }
  prepared = null;
  reply({ type: 'stored' });
}
