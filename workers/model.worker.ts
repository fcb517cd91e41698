// The only module that imports transformers.js. It holds one model at a time and answers the typed
// requests of src/lib/engine/messages.ts one after another (a model is not re-entrant), so a
// cancel or a new request can always be read between two forward passes.
import {
  AutoConfig,
  AutoModelForCausalLM,
  AutoTokenizer,
  BaseStreamer,
  StoppingCriteria,
  StoppingCriteriaList,
  Tensor,
  env,
  random,
  type PreTrainedModel,
  type PreTrainedTokenizer,
} from '@huggingface/transformers';
import type {
  CancelMessage,
  GenerateParams,
  GenerateResult,
  LoadParams,
  LoadProgress,
  LoadResult,
  RequestMap,
  RequestKind,
  WireResult,
  WorkerReply,
  WorkerRequest,
  WorkerStats,
} from '../src/lib/engine/messages.ts';
import { classifyLoadError, classifyRunError, modelError, modelFileFor, type LoadContext } from '../src/lib/engine/model-errors.ts';
import { findExternalData } from './external-data.ts';
import { guardSessionCreation } from './session-guard.ts';
import { applyChatTemplate, encode, GQA_WEBGPU_PASS_ROWS, idsTensor, keptPrefixBudget, onesTensor, prefillRowsFor, RequestError, type Loaded } from './loaded-model.ts';
import { buildItemPrompt, disposePrefixes, prefill, refuseOverLimit, score, scoreItem } from './scoring.ts';
import { scoreClozeItem } from './cloze.ts';
import { modelContextOf } from '../src/lib/core/protocols/context-limit.ts';
import { JianguError, notice } from '../src/lib/core/notices/index.ts';
import { decodingOptions } from '../src/lib/core/protocols/decoding.ts';
import { resolveHubRevision } from './hub-revision.ts';
import { checkLoadedModel } from './model-check.ts';
import type { StatisticsPath } from '../src/lib/core/models/model-check.ts';
import { streamingCache, streamingFetch, streamNext } from './streamed-weights.ts';
import { countWasmWith, markStage, memoryMarks } from './memory-marks.ts';
import { ortSessionOptions } from './session-options.ts';
import { installLogitsRewrite, statisticsRefusalDetail, withLogitsRewrite } from './logits-rewrite-hook.ts';
import { checkStatistics, statisticsTolerance } from './statistics-check.ts';
import { installFetchControl, textStatistics } from './statistics.ts';
import { readPassage } from './reading.ts';
import { nextTokenRow } from './next-row.ts';
import { sampleContinuation } from './sample-steps.ts';
import { lensPathAfterLoad, logitLensOf } from './lens.ts';
import { attentionAt, attentionPathAfterLoad, attentionRead, dropAttentionPassage } from './attention.ts';
import { checkRewrittenLogits, checkTolerance, logitsPathOf } from './logits-path.ts';
import { ReadAhead } from './read-ahead.ts';
import { chooseBackend } from './backend-choice.ts';
import { FetchWatch } from './fetch-watch.ts';
import { WasmThreads } from './wasm-threads.ts';
import { MemoryFaults } from './memory-fault.ts';

declare const self: DedicatedWorkerGlobalScope;

// ORT's wasm comes from this site, never from a CDN.
const base = new URL(import.meta.env.BASE_URL, self.location.origin);
const ortWasm = env.backends.onnx.wasm!;
ortWasm.wasmPaths = {
  mjs: new URL('ort/ort-wasm-simd-threaded.asyncify.mjs', base).href,
  wasm: new URL('ort/ort-wasm-simd-threaded.asyncify.wasm', base).href,
};
env.localModelPath = new URL('models/', base).pathname;
// The load's thread count goes to ORT before its first session, and only then (see wasm-threads.ts).
const wasmThreads = new WasmThreads(ortWasm);
// Every model file transformers.js fetches goes through here, so a load that fails offline can say so.
const fetchWatch = new FetchWatch({
  fetch: (...args) => fetch(...args),
  online: () => navigator.onLine !== false,
  stored: async (url) => typeof caches !== 'undefined' && (await caches.match(url)) !== undefined,
  base: self.location.href,
});
// The load's model file is split as it arrives (streamed-weights.ts); every other fetch passes through.
env.fetch = streamingFetch(fetchWatch.fetch);

// Counts the GPU buffers ORT creates and destroys. ORT pools buffers, so a steady workload stops
// creating new ones; a request that leaks its GPU outputs keeps creating them. Tests read this.
const stats: WorkerStats = { gpuBuffersCreated: 0, gpuBuffersDestroyed: 0, largestLogitsBytes: 0, gpuBufferBytes: 0, peakGpuBufferBytes: 0 };
if (typeof GPUDevice !== 'undefined') {
  const create = GPUDevice.prototype.createBuffer;
  GPUDevice.prototype.createBuffer = function (this: GPUDevice, descriptor: GPUBufferDescriptor) {
    stats.gpuBuffersCreated++;
    const buffer = create.call(this, descriptor);
    stats.gpuBufferBytes += descriptor.size;
    stats.peakGpuBufferBytes = Math.max(stats.peakGpuBufferBytes, stats.gpuBufferBytes);
    const destroy = buffer.destroy.bind(buffer);
    let alive = true;
    buffer.destroy = () => {
      stats.gpuBuffersDestroyed++;
      if (alive) stats.gpuBufferBytes -= descriptor.size;
      alive = false;
      destroy();
    };
    return buffer;
  };
}

// ORT's threaded wasm build creates its Memory in JS (new WebAssembly.Memory), so this subclass sees
// it. A wasm Memory only grows: its size now is its peak so far. The memory bench reads it via stats.
const wasmMemories: WebAssembly.Memory[] = [];
countWasmWith(() => wasmMemories.reduce((sum, m) => sum + m.buffer.byteLength, 0));
WebAssembly.Memory = class extends WebAssembly.Memory {
  constructor(descriptor: WebAssembly.MemoryDescriptor) {
    super(descriptor);
    wasmMemories.push(this);
  }
};

// ORT's wasm module starts its thread pool (numThreads − 1 workers, named em-pthread) when it
// initializes; counting them here checks the thread count the worker reports against what ORT did.
let wasmThreadWorkers = 0;
if (typeof Worker !== 'undefined') {
  (self as unknown as { Worker: typeof Worker }).Worker = class extends Worker {
    constructor(url: string | URL, options?: WorkerOptions) {
      super(url, options);
      if (options?.name === 'em-pthread') wasmThreadWorkers++;
    }
  };
}

// A test's memory fault (LoadParams.memoryFault), armed by each load.
const memoryFaults = new MemoryFaults();

let loaded: Loaded | null = null;
/** Whether forward passes go to stats.generateForwards: only during a generate. */
let recordingForwards = false;

/**
 * Notes the largest logits tensor each forward pass of `model` returns (scoring's and generate's
 * alike, since generate calls `this.forward`), so tests can see the memory bound hold.
 */
function watchLogits(model: PreTrainedModel): void {
  const forward = model.forward.bind(model);
  model.forward = async (inputs: Record<string, unknown>) => {
    // Read before the pass: generate updates the cache it passes in place.
    const past = (inputs.past_key_values as { get_seq_length?: () => number } | null | undefined)?.get_seq_length?.() ?? 0;
    const outputs = (await forward(inputs)) as Record<string, Tensor>;
    const logits = outputs.logits;
    if (logits) {
      const bytes = logits.dims.reduce((a, b) => a * b, 1) * (logits.type === 'float16' ? 2 : 4);
      stats.largestLogitsBytes = Math.max(stats.largestLogitsBytes, bytes);
    }
    // A few numbers per pass of the latest generate (scoring passes are not kept).
    const ids = inputs.input_ids;
    if (recordingForwards && stats.generateForwards && ids instanceof Tensor) stats.generateForwards.push({ tokens: ids.dims.at(-1) ?? 0, past, logitsRows: logits?.dims.at(-2) ?? 0 });
    return outputs;
  };
}

function reply(message: WorkerReply, transfer: Transferable[] = []): void {
  self.postMessage(message, transfer);
}

/**
 * A score's last logits row moves to the page instead of being copied (600 kB for Qwen's vocabulary),
 * when it has its buffer to itself; the worker keeps no use for it.
 */
function transferOf(result: WireResult<RequestKind>): Transferable[] {
  // A score's last row, and nextTokenRow's whole row (the temperature dial's), travel without a copy.
  const row = 'lastRow' in result ? result.lastRow : 'score' in result ? result.score.lastRow : 'logits' in result && result.logits instanceof Float32Array ? result.logits : null;
  return row && row.byteOffset === 0 && row.byteLength === row.buffer.byteLength && row.buffer instanceof ArrayBuffer ? [row.buffer] : [];
}

// ---- load -----------------------------------------------------------------------------------

async function unload(): Promise<boolean> {
  if (!loaded) return false;
  const old = loaded;
  loaded = null;
  dropAttentionPassage();
  await disposePrefixes(old);
  await old.answerCueCache?.state.cache.dispose();
  await old.model.dispose();
  return true;
}

/** Progress of a streamed model file, as transformers.js reports a download's (at most every 1 %). */
function streamProgress(id: number, file: string): (loaded: number, total: number) => void {
  let last = -1;
  return (loaded, total) => {
    const progress = total > 0 ? (loaded / total) * 100 : 0;
    // Without a length, a report every 16 MiB.
    const step = total > 0 ? Math.floor(progress) : Math.floor(loaded / 2 ** 24);
    if (step === last && loaded < total) return;
    last = step;
    reply({ id, kind: 'progress', progress: { file, status: 'progress', loaded, total, progress } });
  };
}

async function load(id: number, params: LoadParams): Promise<LoadResult> {
  // A failed load must not stop the next one (see session-guard.ts).
  installLogitsRewrite();
  guardSessionCreation();
  await unload();
  memoryFaults.arm(params.memoryFault);
  const started = performance.now();
  markStage('load-start');
  fetchWatch.reset();
  wasmThreads.apply(params.wasmThreads);
  const backendInfo = await chooseBackend(params, (navigator as Navigator & { gpu?: GPU }).gpu, {
    wasmThreads: wasmThreads.used(),
    crossOriginIsolated: self.crossOriginIsolated,
  });
  const context: LoadContext = { source: params.source, dtype: params.dtype, backend: backendInfo.backend };
  const source = params.source;
  const onSite = source.kind === 'site';
  env.allowLocalModels = onSite;
  env.allowRemoteModels = !onSite;
  // The site's own folders are always fresh; hub files are kept in Cache Storage for offline visits.
  env.useBrowserCache = !onSite;
  if (source.kind === 'hub' && source.host) env.remoteHost = source.host.endsWith('/') ? source.host : `${source.host}/`;
  else env.remoteHost = 'https://huggingface.co/';
  const modelId = onSite ? source.name : source.id;
  const revision = source.kind === 'hub' ? source.revision || 'main' : 'main';
  const folderUrl = onSite
    ? new URL(`${env.localModelPath}${modelId}/`, self.location.origin).href
    : `${env.remoteHost}${modelId}/resolve/${encodeURIComponent(revision)}/`;
  // A streamed model file's progress is the worker's own (streamProgress, with the file's length);
  // transformers.js only sees the graph, of no announced length.
  let streamedFile: string | null = null;
  const progress_callback = (p: { status: string; file?: string; loaded?: number; total?: number; progress?: number }) => {
    if (!p.file || !['initiate', 'download', 'progress', 'done'].includes(p.status)) return;
    if (p.status === 'progress' && p.file === streamedFile) return;
    const progress: LoadProgress = {
      file: p.file,
      status: p.status as LoadProgress['status'],
      loaded: p.loaded,
      total: p.total,
      progress: p.progress,
    };
    reply({ id, kind: 'progress', progress });
  };
  try {
    // config.json first: a missing model then fails on a file that must exist, with a clear 404,
    // rather than deep inside the tokenizer loader.
    const config = await AutoConfig.from_pretrained(modelId, { revision });
    const tokenizer = await AutoTokenizer.from_pretrained(modelId, { revision, progress_callback });
    // External data the config does not declare is found here and named to transformers.js, which
    // would otherwise never fetch it. Keyed by file, so only this dtype's file is affected.
    const onnxFile = modelFileFor(params.dtype).slice('onnx/'.length);
    const lookup = {
      // Hub files are kept in Cache Storage, so a model loaded before is found offline too.
      cached: onSite ? undefined : async (url: string) => (typeof caches === 'undefined' ? undefined : (await caches.open(env.cacheKey)).match(url)),
      fetch: fetchWatch.fetch,
    };
    const externalData = await findExternalData(folderUrl, onnxFile, config as unknown as Record<string, unknown>, lookup, backendInfo.backend);
    context.externalFiles = externalData?.files;
    await memoryFaults.at('load');
    // The model file streams into the worker (streamed-weights.ts) unless the load asks for the
    // whole file (the bench's and a test's "before"); a hub file found in Cache Storage streams too.
    const streaming = params.externalWeights !== false;
    const progressOf = streamProgress(id, `onnx/${onnxFile}`);
    streamedFile = streaming ? `onnx/${onnxFile}` : null;
    streamNext(streaming ? { url: `${folderUrl}onnx/${onnxFile}`, onProgress: progressOf, ...(onSite || typeof caches === 'undefined' ? {} : { cache: () => caches.open(env.cacheKey) }) } : null);
    env.useCustomCache = streaming && !onSite && typeof caches !== 'undefined';
    env.customCache = env.useCustomCache ? streamingCache(() => caches.open(env.cacheKey)) : null;
    const open = () => {
      wasmThreads.fix();
      return AutoModelForCausalLM.from_pretrained(modelId, {
        config,
        revision,
        dtype: params.dtype,
        device: backendInfo.backend,
        progress_callback,
        session_options: ortSessionOptions(params.ortMemoryOptions),
        ...(externalData?.how === 'detected' ? { use_external_data_format: { [onnxFile]: externalData.files.length } } : {}),
      });
    };
    // A graph without num_logits_to_keep is rewritten to keep the last row (logits-rewrite-hook.ts),
    // then checked against the author's math on a short prompt; a failed check loads the original.
    // Asked for, the statistics outputs go on the graph the session gets (stats-rewrite.ts), checked
    // in turn against the same graph's whole rows; a failed check loads the graph without them.
    const rewriteOn = params.logitsRewrite !== false;
    const keepRequest = rewriteOn ? (params.logitsRewriteFault === 'previous-row' ? { fault: params.logitsRewriteFault } : {}) : null;
    const statisticsRequest = params.statistics ? (params.statisticsFault ? { fault: params.statisticsFault } : {}) : null;
    // The logit lens (lens-rewrite.ts) goes on a load that asks for it (the Reading page's lens view),
    // behind its gate: the session serves every other request as a plain load does (lens-gate.ts).
    const lens = params.lens ? (params.lensFault ? { lensFault: params.lensFault } : {}) : null;
    // The attention tap (attention-rewrite.ts) goes on the same loads, behind a gate of its own.
    const attention = params.lens ? (params.attentionFault ? { fault: params.attentionFault } : {}) : null;
    // Every load goes through the hook, rewrites or none: it also leaves the weights in the file
    // transformers.js read, mounted as external data (external-weights.ts), instead of copies.
    const openWith = (keep: typeof keepRequest, statistics: typeof statisticsRequest) => withLogitsRewrite(open, { keep, statistics, lens, attention, externalWeights: params.externalWeights, headBlocks: params.headBlocks, prepacking: params.ortMemoryOptions?.prepacking });
    let opened = await openWith(keepRequest, statisticsRequest);
    let model = opened.value;
    const sessionOf = (m: PreTrainedModel) => (m as unknown as { sessions: Record<string, { inputNames: string[]; outputNames: string[]; run: (...args: unknown[]) => Promise<unknown> }> }).sessions.model;
    let logitsPath = logitsPathOf(opened.outcome, sessionOf(model)?.inputNames ?? []);
    if (opened.outcome?.kind === 'rewritten') {
      const check = await checkRewrittenLogits(model, tokenizer, params.dtype);
      if (check.passed) logitsPath = { kind: 'rewritten', check: { tokens: check.tokens, maxAbsDiff: check.maxAbsDiff } };
      else {
        // Once: the author's graph, as it is, prefilled in chunks; the rewritten session goes first.
        await model.dispose();
        opened = await openWith(null, statisticsRequest);
        model = opened.value;
        logitsPath = { kind: 'chunked', refusal: notice('model.logits-check-failed', { tokens: check.tokens, maxAbsDiff: check.maxAbsDiff, tolerance: checkTolerance(params.dtype) }), check: { tokens: check.tokens, maxAbsDiff: check.maxAbsDiff } };
      }
    }
    let statisticsPath: StatisticsPath | undefined;
    if (statisticsRequest) {
      const added = opened.statistics?.kind === 'added';
      const declaresKeep = (sessionOf(model)?.inputNames ?? []).includes('num_logits_to_keep');
      const check = added ? await checkStatistics(model, tokenizer, params.dtype, declaresKeep) : null;
      if (check?.passed) statisticsPath = { kind: 'graph', check: { tokens: check.tokens, maxAbsDiff: check.maxAbsDiff } };
      else if (check) {
        // The graph as it was before the statistics went on; its one-row rewrite (if any) passed its own check.
        await model.dispose();
        model = (await openWith(logitsPath.kind === 'rewritten' ? keepRequest : null, null)).value;
        statisticsPath = { kind: 'worker', refusal: notice('model.statistics-check-failed', { tokens: check.tokens, maxAbsDiff: check.maxAbsDiff, tolerance: statisticsTolerance(params.dtype) }), check: { tokens: check.tokens, maxAbsDiff: check.maxAbsDiff } };
      } else {
        const outcome = opened.statistics;
        statisticsPath = { kind: 'worker', refusal: outcome?.kind === 'session-refused' ? notice('model.statistics-session-refused', { detail: outcome.detail }) : notice('model.statistics-unrecognised', { detail: outcome ? statisticsRefusalDetail(outcome) : '' }) };
      }
    }
    const session = sessionOf(model);
    if (statisticsPath?.kind === 'graph' && session) installFetchControl(session);
    const lensPath = lens ? await lensPathAfterLoad(opened.lens, model, tokenizer, params.dtype, (session?.inputNames ?? []).includes('num_logits_to_keep')) : undefined;
    const attentionPath = attention ? await attentionPathAfterLoad(opened.attention, model, tokenizer) : undefined;
    const { model_type, vocab_size } = model.config as unknown as { model_type: string; vocab_size: number };
    const info: LoadResult = {
      // What ORT read at its init (it writes its default, or 1 without SharedArrayBuffer, back into the flag).
      backendInfo: { ...backendInfo, wasmThreads: wasmThreads.used() },
      wasmThreadsAsked: params.wasmThreads ?? 'auto',
      modelType: model_type,
      vocabSize: vocab_size,
      inputNames: session?.inputNames ?? [],
      loadMs: performance.now() - started,
      transformersVersion: env.version,
      ortVersion: String(env.backends.onnx.versions?.web ?? ''),
      context: modelContextOf(model.config as unknown as Record<string, unknown>),
      externalData,
      logitsPath,
      ...(opened.outcome?.kind === 'rewritten' ? { rewriteMs: opened.outcome.ms } : {}),
      weights: opened.weights,
      headBlocks: opened.headBlocks,
      ...(statisticsPath ? { statisticsPath } : {}),
      ...(lensPath ? { lensPath } : {}),
      ...(attentionPath ? { attentionPath } : {}),
    };
    if (source.kind === 'hub') {
      info.resolvedRevision = await resolveHubRevision(source, env.remoteHost, {
        cached: async (url) => (typeof caches === 'undefined' ? undefined : (await caches.open(env.cacheKey)).match(url)),
        fetch: (...args) => fetch(...args),
      });
    }
    const maxLogitsBytes = params.maxLogitsBytes ?? 64 * 1024 * 1024;
    const maxLogitsRows = prefillRowsFor(params.dtype, maxLogitsBytes, vocab_size);
    info.prefillRows = info.inputNames.includes('num_logits_to_keep') ? null : maxLogitsRows;
    // Read after the load, so a hub model's file is in Cache Storage and never downloaded twice.
    info.modelCheck = await checkLoadedModel({
      tokenizer, config: config as unknown as Record<string, unknown>, folderUrl, onnxFile, onSite, cacheName: env.cacheKey, dtype: params.dtype,
      backendInfo: info.backendInfo, inputNames: info.inputNames, externalData: externalData ?? null, prefillRows: info.prefillRows, positions: info.context?.tokens ?? null, logitsPath, ...(statisticsPath ? { statisticsPath } : {}),
    });
    stats.largestLogitsBytes = 0;
    stats.peakGpuBufferBytes = stats.gpuBufferBytes;
    watchLogits(model);
    // See GQA_WEBGPU_PASS_ROWS: a whole prompt in one GroupQueryAttention pass is wrong on WebGPU.
    const maxPassRows = backendInfo.backend === 'webgpu' && info.modelCheck.attention === 'GroupQueryAttention' ? GQA_WEBGPU_PASS_ROWS : null;
    if (maxPassRows !== null && info.prefillRows === null) info.prefillRows = maxPassRows;
    // The kept 5-shot prefixes fit this device beside the weights (keptPrefixBudget).
    const keptPrefixBytes = keptPrefixBudget((self.navigator as { deviceMemory?: number }).deviceMemory, info.modelCheck.memory?.weightsBytes ?? null);
    info.keptPrefixBytes = keptPrefixBytes;
    loaded = { keptPrefixBytes, model, tokenizer, context, info, prefixCache: null, answerCueCache: null, mergeChecks: new Map(), recentEncodings: new Map(), maxLogitsRows, maxPassRows };
    markStage('load-done');
    streamNext(null);
    return info;
  } catch (error) {
    streamNext(null);
    const unreachable = await fetchWatch.unreachable(folderUrl);
    throw new RequestError(classifyLoadError(error, unreachable ? { ...context, unreachable } : context));
  }
}

function requireModel(): Loaded {
  if (!loaded) throw new RequestError(modelError('no-model', 'model.no-model', []));
  return loaded;
}

// ---- generate -------------------------------------------------------------------------------

const cancelled = new Set<number>();

/** Stops generation once the request has been cancelled; read between two tokens. */
class CancelCriterion extends StoppingCriteria {
  constructor(private readonly requestId: number) {
    super();
  }
  override _call(inputIds: number[][]): boolean[] {
    return inputIds.map(() => cancelled.has(this.requestId));
  }
}

/** Sends each new token, with the text it adds, to the page as soon as it exists. */
class TokenStreamer extends BaseStreamer {
  readonly ids: number[] = [];
  private text = '';
  private seenPrompt = false;
  constructor(
    private readonly tokenizer: PreTrainedTokenizer,
    private readonly requestId: number,
  ) {
    super();
  }
  override put(value: bigint[][]): void {
    if (!this.seenPrompt) {
      this.seenPrompt = true; // the first call carries the prompt
      return;
    }
    for (const id of value[0]) {
      this.ids.push(Number(id));
      // Decoding the whole output each time keeps multi-token characters whole.
      const text = this.tokenizer.decode(this.ids, { skip_special_tokens: true });
      const delta = text.startsWith(this.text) ? text.slice(this.text.length) : text;
      this.text = text;
      reply({ id: this.requestId, kind: 'token', tokenId: Number(id), text: delta });
    }
  }
  override end(): void {}
}

/** Generates, recording its forward passes (WorkerStats.generateForwards: tests see each decode step use the KV cache). */
async function generate(id: number, params: GenerateParams): Promise<GenerateResult> {
  stats.generateForwards = [];
  recordingForwards = true;
  try {
    return await generateTokens(id, params);
  } finally {
    recordingForwards = false;
  }
}

async function generateTokens(id: number, params: GenerateParams): Promise<GenerateResult> {
  const m = requireModel();
  const started = performance.now();
  const promptText = params.chatTemplate ? applyChatTemplate(m.tokenizer, params.prompt) : params.prompt;
  const inputIds = encode(m.tokenizer, promptText, true);
  if (inputIds.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  // Past the model's positions the graph fails deep inside; say so instead, naming the item when there is one.
  const positions = m.info.context?.tokens;
  if (positions !== undefined && inputIds.length >= positions) {
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: params.itemId ?? '—', tokens: inputIds.length, limit: positions }]));
  }
  // A generation may not run past the model's last position either: it stops there (as 'max-tokens').
  const maxNewTokens = Math.min(Math.max(1, Math.floor(params.maxNewTokens)), positions === undefined ? Infinity : positions - inputIds.length);
  // Greedy unless asked: results must repeat. Sampling is seeded, so it repeats too.
  const sampling = params.sampling;
  if (sampling) random.seed(sampling.seed);
  const streamer = new TokenStreamer(m.tokenizer, id);
  const stopping = new StoppingCriteriaList();
  stopping.push(new CancelCriterion(id));
  // Every option that picks the token is given, so generation_config.json's sampling defaults and
  // repetition_penalty never reach a greedy run.
  const decoding = decodingOptions(sampling);
  // A graph that returns logits for every position would make one [1, prompt, vocab] block of a
  // long prompt; all but the last token go through the chunked prefill instead, and generate gets
  // the cache, computes the last token alone and decodes one row per step.
  const chunked = (!m.info.inputNames.includes('num_logits_to_keep') && inputIds.length > 1) || (m.maxPassRows !== null && inputIds.length > m.maxPassRows);
  const cache = chunked ? (await prefill(m, inputIds.slice(0, -1), null, 0)).cache : null;
  let sequences: Tensor;
  try {
    sequences = (await m.model.generate({
      input_ids: idsTensor(inputIds),
      attention_mask: onesTensor(inputIds.length),
      ...(cache ? { past_key_values: cache } : {}),
      max_new_tokens: maxNewTokens,
      ...decoding,
      streamer,
      stopping_criteria: stopping,
    } as unknown as Parameters<PreTrainedModel['generate']>[0])) as Tensor;
  } finally {
    // generate updates the cache it is given in place and leaves it alive for its owner: us.
    await cache?.dispose();
  }
  const all = Array.from(sequences.data as BigInt64Array, Number);
  const tokenIds = all.slice(inputIds.length);
  const eos = ([] as number[]).concat((m.model.generation_config as { eos_token_id?: number | number[] } | null)?.eos_token_id ?? []);
  const stoppedBy: GenerateResult['stoppedBy'] = cancelled.has(id)
    ? 'cancelled'
    : tokenIds.length > 0 && eos.includes(tokenIds[tokenIds.length - 1])
      ? 'eos'
      : 'max-tokens';
  return {
    inputIds,
    promptText,
    tokenIds,
    text: m.tokenizer.decode(tokenIds, { skip_special_tokens: true }),
    stoppedBy,
    ms: performance.now() - started,
    decoding,
  };
}

// ---- dispatch -------------------------------------------------------------------------------

const handlers: { [K in RequestKind]: (id: number, params: RequestMap[K]['params']) => Promise<WireResult<K>> } = {
  load: (id, params) => load(id, params),
  score: (_id, params) => score(requireModel(), params),
  scoreItem: (_id, params) => scoreItem(requireModel(), params),
  scoreClozeItem: (_id, params) => scoreClozeItem(requireModel(), params),
  textStatistics: (_id, params) => textStatistics(requireModel(), params),
  readPassage: (_id, params) => readPassage(requireModel(), params),
  nextTokenRow: (_id, params) => nextTokenRow(requireModel(), params),
  logitLens: (_id, params) => logitLensOf(requireModel(), params),
  attentionRead: (_id, params) => attentionRead(requireModel(), params),
  attentionAt: (_id, params) => attentionAt(requireModel(), params),
  sampleSteps: (id, params) => sampleContinuation(requireModel(), params, (step, index) => reply({ id, kind: 'sampledStep', index, step }), () => cancelled.has(id)),
  generate: (id, params) => generate(id, params),
  generateItem: async (id, params) => {
    const built = buildItemPrompt(requireModel(), params);
    refuseOverLimit(requireModel(), params, built);
    const generation = await generate(id, { prompt: built.prompt, maxNewTokens: params.maxNewTokens, chatTemplate: params.chatTemplate });
    return {
      prompt: built.prompt,
      prefix: built.prefix,
      shotsUsed: built.shotsUsed,
      exemplarIds: built.exemplarIds,
      droppedExemplarIds: built.droppedExemplarIds,
      overLimit: built.overLimit,
      generation,
    };
  },
  unload: async () => ({ unloaded: await unload() }),
  stats: async () => ({ ...stats, ...(stats.generateForwards ? { generateForwards: [...stats.generateForwards] } : {}), wasmMemoryBytes: wasmMemories.reduce((sum, m) => sum + m.buffer.byteLength, 0), memoryMarks: memoryMarks(), readAhead: { ...readAhead.counts }, wasmThreadWorkers }),
};

const queue: WorkerRequest[] = [];
let running = false;
/** The next item of a run, scored while the page stores the last one (see read-ahead.ts). */
const readAhead = new ReadAhead();

async function drain(): Promise<void> {
  if (running) return;
  running = true;
  while (queue.length > 0) {
    const request = queue.shift()!;
    // Every request uses up the guess; only a scoreItem asked exactly as guessed gets its answer.
    const guessed = readAhead.take(request.kind === 'scoreItem' ? request.params : null);
    if (cancelled.has(request.id)) {
      cancelled.delete(request.id);
      reply({ id: request.id, kind: 'error', error: modelError('cancelled', 'model.cancelled', []) });
      continue;
    }
    try {
      await memoryFaults.at('request', request.kind);
      const handler = handlers[request.kind] as (id: number, params: unknown) => Promise<WireResult<RequestKind>>;
      let result: WireResult<RequestKind>;
      if (guessed) {
        const outcome = await guessed;
        if (!outcome.ok) throw outcome.error;
        result = outcome.result;
      } else result = await handler(request.id, request.params);
      // A generation cancelled mid-way returns what it produced; anything else cancelled returns nothing.
      if (cancelled.has(request.id) && request.kind !== 'generate' && request.kind !== 'sampleSteps') {
        reply({ id: request.id, kind: 'error', error: modelError('cancelled', 'model.cancelled', []) });
      } else {
        reply({ id: request.id, kind: 'result', result }, transferOf(result));
      }
    } catch (error) {
      // A JianguError (a protocol's refusal of one item's data) keeps its own notice.
      const info =
        error instanceof RequestError
          ? error.info
          : error instanceof JianguError
            ? { code: 'bad-request' as const, notice: error.notice, message: error.message }
            : classifyRunError(error, loaded?.context);
      reply({ id: request.id, kind: 'error', error: info });
    } finally {
      cancelled.delete(request.id);
    }
    // Answered: when nothing else waits, start on the item the page will most likely ask next.
    const next = request.kind === 'scoreItem' ? request.params.next : undefined;
    if (next && queue.length === 0 && loaded) await readAhead.start(next, (params) => scoreItem(requireModel(), params));
  }
  running = false;
}

self.addEventListener('message', (event: MessageEvent<WorkerRequest | CancelMessage>) => {
  const message = event.data;
  if (message.kind === 'cancel') {
    cancelled.add(message.id);
    return;
  }
  queue.push(message);
  void drain();
});
