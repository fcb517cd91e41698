// The loaded model as the UI sees it: one worker client, its load progress, what it runs on, and the
// last error. A crashed worker is replaced on the next load, so the page keeps working. The client
// comes from the page's model pool (model-pool.ts): a model another view holds is shared, not loaded twice.
import { ModelClient, ModelError } from '../lib/engine/model-client.ts';
import { modelPool } from '../lib/engine/model-pool.ts';
import { modelError } from '../lib/engine/model-errors.ts';
import type { LoadParams, LoadProgress, LoadResult } from '../lib/engine/messages.ts';
import { requestPersistenceBeforeModelLoad } from '../lib/store/storage.ts';

export type SessionStatus = 'empty' | 'loading' | 'ready' | 'failed';

export class ModelSession {
  status = $state<SessionStatus>('empty');
  files = $state<Record<string, LoadProgress>>({});
  info = $state<LoadResult | null>(null);
  error = $state<ModelError | null>(null);
  /** Whether `error` came from loading the model or from a later request, so the page can say which. */
  errorDuring = $state<'load' | 'request'>('load');
  /** What was asked for in the last load, for labels. */
  params = $state<LoadParams | null>(null);
  /**
   * The last load asked for, even one the user declined at the memory check: `params` then stays the
   * model still loaded, and this is the one the memory note and the way on speak of.
   */
  asked = $state<LoadParams | null>(null);
  private clientInstance: ModelClient | null = null;

  get client(): ModelClient | null {
    return this.status === 'ready' ? this.clientInstance : null;
  }

  async load(params: LoadParams): Promise<void> {
    const before = { status: this.status, files: this.files, info: this.info, params: this.params };
    this.asked = params;
    this.status = 'loading';
    this.files = {};
    this.error = null;
    this.info = null;
    this.params = params;
    void requestPersistenceBeforeModelLoad(params.source);
    const choice = modelPool.clientFor(this, params);
    const previous = this.clientInstance;
    this.clientInstance = choice.client;
    try {
      this.info = await choice.client.load(params, {
        onProgress: (p) => (this.files = { ...this.files, [p.file]: p }),
      });
      choice.settle(true);
      this.status = 'ready';
    } catch (error) {
      // Declined at the memory check, the load never reached the worker: the model loaded before is
      // still there and still usable, and the page says why the new one was not loaded.
      if (error instanceof ModelError && error.notice.code === 'model.memory-declined') {
        choice.settle(false);
        this.clientInstance = previous;
        ({ status: this.status, files: this.files, info: this.info, params: this.params } = before);
        this.error = error;
        this.errorDuring = 'load';
      } else {
        choice.settle(true);
        this.fail(error);
      }
    }
  }

  /** Records an error from any request; a dead worker is dropped so the next load starts afresh. */
  fail(error: unknown): void {
    this.error = error instanceof ModelError ? error : new ModelError(modelError('internal', 'internal', [{ detail: String(error) }]));
    this.errorDuring = this.status === 'loading' ? 'load' : 'request';
    // After running out of memory the worker's wasm heap is not to be trusted (ORT's wasm aborts on a
    // failed allocation): the model is loaded again, in a fresh worker, as the message says to.
    // A load that failed leaves nothing loaded in the worker either. Views that share it find it ended,
    // as this one does when another view ended it (its client is no longer alive).
    if (this.error.code === 'internal' || this.error.code === 'out-of-memory' || this.status === 'loading' || this.clientInstance?.alive === false) {
      modelPool.discard(this);
      this.clientInstance = null;
      this.status = 'failed';
    }
  }
}

/** The page's one model, kept while the user moves between pages. */
export const modelSession = new ModelSession();

/** The Reading page's second model, read side by side with the first (issue 37): a worker of its own, unless it is the first's model (model-pool.ts). */
export const secondSession = new ModelSession();
