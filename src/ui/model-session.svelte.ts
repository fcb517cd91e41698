// The loaded model as the UI sees it: one worker client, its load progress, what it runs on, and the
// last error. A crashed worker is replaced on the next load, so the page keeps working.
import { ModelClient, ModelError } from '../lib/engine/model-client.ts';
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
  private clientInstance: ModelClient | null = null;

  get client(): ModelClient | null {
    return this.status === 'ready' ? this.clientInstance : null;
  }

  async load(params: LoadParams): Promise<void> {
    this.status = 'loading';
    this.files = {};
    this.error = null;
    this.info = null;
    this.params = params;
    void requestPersistenceBeforeModelLoad(params.source);
    this.clientInstance ??= new ModelClient();
    try {
      this.info = await this.clientInstance.load(params, {
        onProgress: (p) => (this.files = { ...this.files, [p.file]: p }),
      });
      this.status = 'ready';
    } catch (error) {
      this.fail(error);
    }
  }

  /** Records an error from any request; a dead worker is dropped so the next load starts afresh. */
  fail(error: unknown): void {
    this.error = error instanceof ModelError ? error : new ModelError(modelError('internal', 'internal', [{ detail: String(error) }]));
    this.errorDuring = this.status === 'loading' ? 'load' : 'request';
    if (this.error.code === 'internal' || this.status === 'loading') {
      this.clientInstance?.terminate();
      this.clientInstance = null;
      this.status = 'failed';
    }
  }
}

/** The page's one model, kept while the user moves between pages. */
export const modelSession = new ModelSession();

/** The Reading page's second model, read side by side with the first (issue 37); its own worker. */
export const secondSession = new ModelSession();

/** The Reading page's logit lens loads, one per model shown (a load with the lens outputs is the lens view's own). */
export const lensSessions = [new ModelSession(), new ModelSession()] as const;
