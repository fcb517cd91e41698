// The page's side of the model worker: a typed promise per request, progress and token callbacks,
// cancellation through AbortSignal, and a clear error when the worker itself dies.
import type {
  GenerateItemParams,
  GenerateItemResult,
  GenerateParams,
  GenerateResult,
  LoadParams,
  LoadProgress,
  LoadResult,
  ModelErrorCode,
  ModelErrorInfo,
  RequestKind,
  RequestMap,
  ScoreItemParams,
  ScoreClozeItemParams,
  ScoreClozeItemResult,
  ScoreItemResult,
  TextStatisticsParams,
  ReadPassageParams,
  ReadPassageResult,
  NextTokenRowParams,
  NextTokenRowResult,
  LogitLensParams,
  LogitLensResult,
  AttentionReadParams,
  AttentionReadResult,
  AttentionAtParams,
  AttentionAtResult,
  SampleStepsParams,
  SampleStepsResult,
  SampledTokenStep,
  TextStatisticsResult,
  ScoreParams,
  ScoreResult,
  ScoreItemOnTheWire,
  ScoreOnTheWire,
  WireResult,
  WorkerReply,
  WorkerRequest,
  WorkerStats,
} from './messages.ts';
import { noticeOf, renderNotice, type Notice } from '../core/notices/index.ts';
import { isSiteModelName } from '../core/models/model-names.ts';
import { assertHostAllowed, savedWasmThreads } from '../data/settings.ts';
import { clampWasmThreads, type ThreadFacts, type WasmThreadsSetting } from '../core/models/wasm-threads.ts';
import type { ModelSource } from './messages.ts';
import { modelError, workerCrashError, type LoadContext } from './model-errors.ts';
import { logSoftmaxPick } from '../core/logprobs.ts';
import { hasFeatures, resultFor, sameSession, withFeaturesOf } from './shared-session.ts';

/** A failure the worker reported (or the worker's death), with a code the page can act on. */
export class ModelError extends Error {
  readonly code: ModelErrorCode;
  readonly notice: Notice;
  readonly detail?: string;
  constructor(info: ModelErrorInfo) {
    super(info.message);
    this.name = 'ModelError';
    this.code = info.code;
    this.notice = info.notice;
    this.detail = info.detail;
  }
}

interface Pending {
  resolve: (result: never) => void;
  reject: (error: ModelError) => void;
  onProgress?: (progress: LoadProgress) => void;
  onToken?: (tokenId: number, text: string) => void;
  onSampledStep?: (index: number, step: SampledTokenStep) => void;
}

export interface RequestOptions {
  signal?: AbortSignal;
}

/**
 * Asked before every load that any client starts, before anything is fetched for it: it resolves to
 * let the load go on and rejects (with a ModelError) to refuse it. The page sets the memory check here
 * (src/ui/models/memory-check.svelte.ts), so every page's loads pass the same check; the test harness
 * sets none.
 */
export type LoadCheck = (params: LoadParams) => Promise<void>;
let loadCheck: LoadCheck | null = null;

/** Sets (or, with null, removes) the check every load waits for. */
export function setLoadCheck(check: LoadCheck | null): void {
  loadCheck = check;
}

/** Workers are created by the page; tests may pass their own factory. */
export type WorkerFactory = () => Worker;

export const defaultWorkerFactory: WorkerFactory = () =>
  new Worker(new URL('../../../workers/model.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-model' });

/** Whether this page may run wasm threads, and its logical cores: what the thread count is clamped to. */
export function pageThreadFacts(): ThreadFacts {
  const g = globalThis as { crossOriginIsolated?: boolean; navigator?: { hardwareConcurrency?: number } };
  return { isolated: g.crossOriginIsolated === true, cores: g.navigator?.hardwareConcurrency };
}

export class ModelClient {
  private worker: Worker;
  private readonly pending = new Map<number, Pending>();
  private nextId = 1;
  private dead: ModelError | null = null;
  /** The wasm threads of the first load this worker was sent (ORT fixes them there); null before one. */
  private workerThreads: WasmThreadsSetting | null = null;
  /** The model the worker was last asked to load (its backend once known), to name it if the worker is lost. */
  private lastLoad: Partial<Pick<LoadContext, 'source' | 'dtype' | 'backend'>> | null = null;
  /**
   * The session this worker holds (what its load was sent with, the thread count resolved) and what
   * the load answered; null before one, during another load, and after a failure. A load it answers
   * is answered from here (shared-session.ts), with no message to the worker.
   */
  private held: { params: LoadParams; result: LoadResult } | null = null;
  /** The load under way, so a second view asking for the same model waits for it instead of loading again. */
  private loading: { params: LoadParams; promise: Promise<LoadResult> } | null = null;

  /**
   * `shared`: the client is one of the page's model pool (model-pool.ts), whose views share it: a
   * load of the session it holds is answered from there. A client of its own (the harness's, the
   * bench's, a run's WASM check) loads afresh every time it is asked, as a test of a load expects.
   */
  constructor(
    private readonly factory: WorkerFactory = defaultWorkerFactory,
    private readonly options: { shared?: boolean } = {},
  ) {
    this.worker = this.start();
  }

  private start(): Worker {
    const worker = this.factory();
    // A replaced worker's late events are not this client's any more.
    const current = () => this.worker === worker;
    worker.addEventListener('message', (event: MessageEvent<WorkerReply>) => current() && this.receive(event.data));
    worker.addEventListener('error', (event: ErrorEvent) => {
      event.preventDefault();
      // An allocation that failed where nothing caught it is a memory failure, told as one.
      if (current()) this.fail(workerCrashError(event.message, this.lastLoad));
    });
    worker.addEventListener('messageerror', () => {
      if (current()) this.fail(modelError('internal', 'model.worker-bad-message', []));
    });
    return worker;
  }

  /**
   * A fresh worker in place of this one, for a load with another thread count: ORT reads
   * `env.wasm.numThreads` once, when its wasm backend initializes at a worker's first session
   * (onnxruntime-common's backend-impl.ts caches the backend's init; onnxruntime-web's
   * wasm-factory.ts starts the module's thread pool with `numThreads` and proxy-wrapper.ts's
   * initializeWebAssemblyAndOrtRuntime returns early ever after), so a worker cannot change it.
   * What the old worker still had to answer fails as cancelled.
   */
  private restart(): void {
    const old = this.worker;
    this.worker = this.start();
    old.terminate();
    const stopped = new ModelError(modelError('cancelled', 'model.worker-stopped', []));
    for (const pending of this.pending.values()) pending.reject(stopped);
    this.pending.clear();
    this.held = null;
    this.loading = null;
  }

  /** `params` with the wasm thread count this client would load them with. */
  private resolved(params: LoadParams): LoadParams {
    // The caller's count (the bench's), else the user's setting; never more than the browser allows.
    return { ...params, wasmThreads: clampWasmThreads(params.wasmThreads ?? savedWasmThreads(), pageThreadFacts()) };
  }

  /**
   * Whether this worker holds, or is loading, the session a load of `params` asks for (outputs
   * aside: a load that wants more loads it again with both). The model pool shares such a worker.
   */
  holds(params: LoadParams): boolean {
    if (this.dead) return false;
    const asked = this.resolved(params);
    return (this.held !== null && sameSession(this.held.params, this.held.result, asked)) || (this.loading !== null && sameSession(this.loading.params, null, asked));
  }

  /** Whether the worker is still usable (not crashed, not terminated). */
  get alive(): boolean {
    return this.dead === null;
  }

  /**
   * Loads a model, replacing the one loaded before. Refused before the worker is asked when the source
   * breaks the host rule (src/lib/data/hosts.ts): a model host from a link or the page address that
   * the user has not agreed to, a non-http host, or a site folder name that is not one path segment.
   * Then the page's load check (setLoadCheck), which may ask the user, and may refuse.
   */
  load(params: LoadParams, options: RequestOptions & { onProgress?: (p: LoadProgress) => void } = {}): Promise<LoadResult> {
    const refused = refusal(params.source);
    if (refused) return Promise.reject(refused);
    if (this.dead) return Promise.reject(this.dead);
    const asked = this.resolved(params);
    let load = asked;
    if (this.options.shared) {
      // The session held (or being loaded) answers a load it has everything for: nothing more is
      // loaded, so no memory check either; the view gets the result its own load would have given.
      if (this.held && sameSession(this.held.params, this.held.result, asked) && hasFeatures(this.held.params, asked)) return Promise.resolve(resultFor(this.held.result, params));
      if (this.loading && sameSession(this.loading.params, null, asked) && hasFeatures(this.loading.params, asked)) return this.loading.promise.then((r) => resultFor(r, params));
      // The same model wanting outputs it lacks: loaded again with every output of both, so whoever
      // shares this worker is still answered.
      const base = this.loading ?? this.held;
      if (base && sameSession(base.params, this.held?.result ?? null, asked)) load = withFeaturesOf(asked, base.params);
    }
    // The page's check first, when it set one; without one the load is sent at once, as before.
    const sent = loadCheck ? loadCheck(params).then(() => this.sendLoad(load, options)) : this.sendLoad(load, options);
    return this.options.shared ? sent.then((r) => resultFor(r, params)) : sent;
  }

  private sendLoad(params: LoadParams, options: RequestOptions & { onProgress?: (p: LoadProgress) => void }): Promise<LoadResult> {
    if (this.dead) return Promise.reject(this.dead);
    const wasmThreads = params.wasmThreads!;
    if (this.workerThreads !== null && this.workerThreads !== wasmThreads) this.restart();
    this.workerThreads = wasmThreads;
    const last = { source: params.source, dtype: params.dtype, ...(params.backend === 'auto' ? {} : { backend: params.backend }) };
    this.lastLoad = last;
    // The worker unloads what it held as soon as it takes the load.
    this.held = null;
    const promise = this.request('load', params, options, { onProgress: options.onProgress }).then((result) => {
      if (this.lastLoad === last) this.lastLoad = { ...last, backend: result.backendInfo.backend };
      return result;
    });
    const loading = { params, promise };
    this.loading = loading;
    promise.then(
      (result) => {
        if (this.loading === loading) [this.held, this.loading] = [{ params, result }, null];
      },
      () => {
        if (this.loading === loading) this.loading = null;
      },
    );
    return promise;
  }

  /** Log-probabilities of each candidate as the next token after the prompt. */
  score(params: ScoreParams, options: RequestOptions = {}): Promise<ScoreResult> {
    return this.request('score', params, options, {}).then(scoreFromWire);
  }

  /** Builds one multiple-choice item's prompt with the run's protocol and scores its letters. */
  scoreItem(params: ScoreItemParams, options: RequestOptions = {}): Promise<ScoreItemResult> {
    return this.request('scoreItem', params, options, {}).then(scoreItemFromWire);
  }

  /** Builds one multiple-choice item's cloze context and scores each option's text as its continuation. */
  scoreClozeItem(params: ScoreClozeItemParams, options: RequestOptions = {}): Promise<ScoreClozeItemResult> {
    return this.request('scoreClozeItem', params, options, {});
  }

  /** Per-position statistics of a text (TextStatisticsParams). */
  textStatistics(params: TextStatisticsParams, options: RequestOptions = {}): Promise<TextStatisticsResult> {
    return this.request('textStatistics', params, options, {});
  }

  /** The passage's tokens and the row after each (the reading view, 断句). */
  readPassage(params: ReadPassageParams, options: RequestOptions = {}): Promise<ReadPassageResult> {
    return this.request('readPassage', params, options, {});
  }

  /** The logits row after a text (and after `tokens`, when given): NextTokenRowParams says which view's row. */
  nextTokenRow(params: NextTokenRowParams, options: RequestOptions = {}): Promise<NextTokenRowResult> {
    return this.request('nextTokenRow', params, options, {});
  }

  /** Builds one multiple-choice item's prompt and generates a greedy answer to it. */
  generateItem(params: GenerateItemParams, options: RequestOptions = {}): Promise<GenerateItemResult> {
    return this.request('generateItem', params, options, {});
  }

  /** Greedy generation; `onToken` receives each token and the text it adds, as it is produced. */
  generate(
    params: GenerateParams,
    options: RequestOptions & { onToken?: (tokenId: number, text: string) => void } = {},
  ): Promise<GenerateResult> {
    return this.request('generate', params, options, { onToken: options.onToken });
  }

  /** Every layer's top 5 at every position of a text (a load with `lens: true` whose check passed). */
  logitLens(params: LogitLensParams, options: RequestOptions = {}): Promise<LogitLensResult> {
    return this.request('logitLens', params, options, {});
  }

  /** Reads a text for the attention view and keeps its queries and keys in the worker (a load with `lens: true` whose attentionPath is `graph`). */
  attentionRead(params: AttentionReadParams, options: RequestOptions = {}): Promise<AttentionReadResult> {
    return this.request('attentionRead', params, options, {});
  }

  /** One position's attention in every layer, over the text the last attentionRead read. */
  attentionAt(params: AttentionAtParams, options: RequestOptions = {}): Promise<AttentionAtResult> {
    return this.request('attentionAt', params, options, {});
  }

  /** A prompt continued by Jiangu's seeded sampler (core/reading/sampling.ts); `onStep` receives each step as it is drawn. */
  sampleSteps(params: SampleStepsParams, options: RequestOptions & { onStep?: (index: number, step: SampledTokenStep) => void } = {}): Promise<SampleStepsResult> {
    return this.request('sampleSteps', params, options, { onSampledStep: options.onStep });
  }

  unload(): Promise<{ unloaded: boolean }> {
    this.held = null;
    this.loading = null;
    return this.request('unload', {}, {}, {});
  }

  /** GPU buffer counters, for leak checks. */
  stats(): Promise<WorkerStats> {
    return this.request('stats', {}, {}, {});
  }

  /** Stops the worker at once; pending requests fail. */
  terminate(): void {
    this.worker.terminate();
    this.fail(modelError('cancelled', 'model.worker-stopped', []));
  }

  private request<K extends RequestKind>(
    kind: K,
    params: RequestMap[K]['params'],
    options: RequestOptions,
    callbacks: Pick<Pending, 'onProgress' | 'onToken' | 'onSampledStep'>,
  ): Promise<WireResult<K>> {
    if (this.dead) return Promise.reject(this.dead);
    if (options.signal?.aborted) return Promise.reject(new ModelError(modelError('cancelled', 'model.cancelled', [])));
    const id = this.nextId++;
    return new Promise<WireResult<K>>((resolve, reject) => {
      this.pending.set(id, { resolve: resolve as (r: never) => void, reject, ...callbacks });
      options.signal?.addEventListener('abort', () => this.worker.postMessage({ id, kind: 'cancel' }), { once: true });
      this.worker.postMessage({ id, kind, params } as WorkerRequest);
    });
  }

  private receive(message: WorkerReply): void {
    const pending = this.pending.get(message.id);
    if (!pending) return;
    switch (message.kind) {
      case 'progress':
        pending.onProgress?.(message.progress);
        return;
      case 'token':
        pending.onToken?.(message.tokenId, message.text);
        return;
      case 'sampledStep':
        pending.onSampledStep?.(message.index, message.step);
        return;
      case 'result':
        this.pending.delete(message.id);
        pending.resolve(message.result as never);
        return;
      case 'error':
        this.pending.delete(message.id);
        pending.reject(new ModelError(message.error));
        return;
    }
  }

  private fail(info: ModelErrorInfo): void {
    this.dead = new ModelError(info);
    this.held = null;
    this.loading = null;
    for (const pending of this.pending.values()) pending.reject(this.dead);
    this.pending.clear();
  }
}

/**
 * A score from its wire form (see ScoreOnTheWire): each candidate's log-probability under the full
 * vocabulary, computed here from the last logits row the worker transferred, in float64 as before.
 */
export function scoreFromWire(wire: ScoreOnTheWire): ScoreResult {
  const { lastRow, candidates, ...rest } = wire;
  const logProbs = logSoftmaxPick(lastRow, 0, lastRow.length, candidates.map((c) => c.tokenId));
  return { ...rest, candidates: candidates.map((c, i) => ({ ...c, logProb: logProbs[i] })) };
}

export function scoreItemFromWire(wire: ScoreItemOnTheWire): ScoreItemResult {
  return { ...wire, score: scoreFromWire(wire.score) };
}

/** Why a load of `source` may not start, or null. */
function refusal(source: ModelSource): ModelError | null {
  if (source.kind === 'site') {
    return isSiteModelName(source.name) ? null : new ModelError(modelError('bad-request', 'link.site-model-name', [{ name: source.name.slice(0, 200) }]));
  }
  if (!source.host) return null;
  try {
    assertHostAllowed(source.host, 'model');
    return null;
  } catch (error) {
    const n = noticeOf(error);
    return new ModelError({ code: 'bad-request', notice: n, message: renderNotice(n, 'en') });
  }
}
