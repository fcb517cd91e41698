// The page's side of workers/import.worker.ts: prepare (adapt) a dataset in the worker, then store
// it or drop it. Failures come back as notices, so the page words them in its language.
import type { DatasetRecord } from '../core/benchmarks/types.ts';
import type { IdenticalOptions } from '../core/benchmarks/identical-options.ts';
import { JianguError, notice, type Notice } from '../core/notices/index.ts';
import { DB_NAME } from '../store/schema.ts';
import type { ImportReply, ImportRequest } from './import-messages.ts';

/** An import refused in the worker: every notice it sent, headline first. */
export class ImportFailure extends JianguError {
  constructor(readonly notices: readonly Notice[]) {
    super(notices[0] ?? notice('data.import-worker-failed', { detail: 'no reason given' }));
    this.name = 'ImportFailure';
  }
}

export type WorkerFactory = () => Worker;

export const defaultImportWorker: WorkerFactory = () =>
  new Worker(new URL('../../../workers/import.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-import' });

/** A dataset adapted in its worker, not stored yet: store it, or discard it. Either ends the worker. */
export class PreparedImport {
  private constructor(
    private readonly worker: Worker,
    /** The record it would store (counts, files, source). */
    readonly record: DatasetRecord,
    /** Source items deliberately not imported. */
    readonly skipped: number,
    /** Items imported whose options repeat one another: said on import, naming them. */
    readonly identical: IdenticalOptions = { count: 0, examples: [] },
  ) {}

  /**
   * Adapts `request.files` in a new worker. The files' bytes are moved to the worker, not copied.
   * @throws ImportFailure with the adapter's notices (DataError, DataProblemsError).
   */
  static async prepare(request: Extract<ImportRequest, { type: 'prepare' }>, factory: WorkerFactory = defaultImportWorker): Promise<PreparedImport> {
    // Plain copies: what the page holds may be reactive proxies, which postMessage cannot clone.
    request = {
      ...request,
      files: request.files.map(({ path, bytes, sha256 }) => ({ path, bytes, sha256 })),
      c3Mapping: request.c3Mapping ? { ...request.c3Mapping } : undefined,
    };
    const worker = factory();
    try {
      // Two views of one buffer must not be transferred twice (a DataCloneError).
      const transfer = [...new Set(request.files.map((file) => file.bytes.buffer as ArrayBuffer))];
      const answer = await ask(worker, request, transfer);
      if (answer.type !== 'prepared') throw failureOf(answer);
      return new PreparedImport(worker, answer.record, answer.skipped, answer.identical);
    } catch (error) {
      worker.terminate();
      throw error;
    }
  }

  /** Stores the prepared dataset all or nothing. @throws ImportFailure (storage full, a failed write). */
  async store(dbName: string = DB_NAME): Promise<void> {
    try {
      const answer = await ask(this.worker, { type: 'store', dbName }, []);
      if (answer.type !== 'stored') throw failureOf(answer);
    } finally {
      this.worker.terminate();
    }
  }

  /** Drops the prepared items; nothing is stored. */
  discard(): void {
    this.worker.terminate();
  }
}

function failureOf(answer: ImportReply): ImportFailure {
  return new ImportFailure(answer.type === 'failed' ? answer.notices : []);
}

function ask(worker: Worker, request: ImportRequest, transfer: Transferable[]): Promise<ImportReply> {
  return new Promise((resolve, reject) => {
    const done = () => {
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
    };
    const onMessage = (event: MessageEvent<ImportReply>) => {
      done();
      resolve(event.data);
    };
    const onError = (event: ErrorEvent) => {
      done();
      event.preventDefault();
      reject(new ImportFailure([notice('data.import-worker-failed', { detail: event.message || 'the worker stopped' })]));
    };
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.postMessage(request, transfer);
  });
}
