// Reads and checks large stored runs and computes their bootstrap intervals off the page's thread
// (src/lib/data/stored-run-work.ts). One worker for the page's life: requests carry an id, and each
// answer's parts come back in order under it; the store is opened per read and closed after.
import { doStoredRunTask, type StoredRunReply, type StoredRunRequest } from '../src/lib/data/stored-run-work.ts';
import { openJianguDb, type JianguDatabase } from '../src/lib/store/schema.ts';

const reply = (message: StoredRunReply) => self.postMessage(message);

self.addEventListener('message', (event: MessageEvent<StoredRunRequest>) => {
  const { id, dbName, task } = event.data;
  // Opened for a read and closed after it: a connection held open would block the site's upgrades.
  let opened: Promise<JianguDatabase> | null = null;
  const db = () => (opened ??= openJianguDb(dbName));
  void doStoredRunTask(task, db, (part) => reply({ id, ...part }))
    .catch((error: unknown) => reply({ id, type: 'failed', detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }))
    .finally(() => void opened?.then((d) => d.close()));
});
