// What the multiple-choice throughput bench runs inside the harness page: the pipeline (the page's
// ModelClient, one scoreItem request after another) and the ceiling (a bare onnxruntime-web session
// in the page itself, fed the token ids the pipeline used, one forward per prompt keeping only the
// last logits row). Every time is taken in the page with performance.now().
//
// These functions are serialised by page.evaluate, so each must be self-contained: no imports used
// at run time, and no named inner function (`const f = () => …`): tsx compiles with keepNames,
// whose `__name` helper does not exist in the page.
import type * as Ort from 'onnxruntime-web';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { Backend, LoadResult } from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';

/** Where the page keeps its client and bare session between two page.evaluate calls. */
interface McBenchWindow {
  mcClient?: ModelClient;
  mcBare?: {
    ort: typeof Ort;
    session: Ort.InferenceSession;
    layers: number;
    kvHeads: number;
    headDim: number;
    cacheType?: 'float32' | 'float16';
  };
}

export interface PageReply<T> {
  wallMs: number;
  result?: T;
  error?: string;
}

// ---- the pipeline ------------------------------------------------------------------------------

export interface LoadArgs {
  model: string;
  dtype: 'fp32' | 'q8' | 'q4';
  backend: Backend;
  logitsRewrite?: boolean;
}

/** Creates the page's ModelClient (its worker) and loads the model. */
export const pageLoad = async (a: LoadArgs): Promise<PageReply<LoadResult>> => {
  const w = window as unknown as McBenchWindow;
  w.mcClient ??= new window.jiangu.ModelClient();
  const started = performance.now();
  try {
    const result = await w.mcClient.load({ source: { kind: 'site', name: a.model }, dtype: a.dtype, backend: a.backend, ...(a.logitsRewrite === undefined ? {} : { logitsRewrite: a.logitsRewrite }) });
    return { wallMs: performance.now() - started, result };
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    return { wallMs: performance.now() - started, error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ') };
  }
};

/** Stops the page's worker (and frees its model) once the configuration is measured. */
export const pageTerminate = async (): Promise<void> => {
  const w = window as unknown as McBenchWindow;
  w.mcClient?.terminate();
  w.mcClient = undefined;
};

export interface PipelineArgs {
  items: MultipleChoiceItem[];
  /** Dev items per task. */
  exemplars: Record<string, MultipleChoiceItem[]>;
  shots: number;
  reusePrefix: boolean;
  contextLimit: number;
  /** Items stop (after at least `minItems`) once the next would likely end past this. */
  budgetMs: number;
  minItems: number;
}

export interface PipelineItem {
  id: string;
  task: string;
  /** Page time of this scoreItem request. */
  ms: number;
  /** ScoreResult.forwardMs: the worker's time in score() (tokenising, forward, merge checks; the log-softmax is the page's, in ModelClient). */
  workerMs: number;
  inputIds: number[];
  reusedPrefixTokens: number;
  logitsCopied: number;
  forwardPasses: number;
  shotsUsed: number;
  overLimit: boolean;
}

export interface ModeRun<T> {
  /** Page time around the whole sequence of requests. */
  totalMs: number;
  items: T[];
  requested: number;
  budgetCut: boolean;
  error?: string;
}

/** Scores the items one after another, as a run does, and times the whole sequence. */
export const pagePipeline = async (a: PipelineArgs): Promise<ModeRun<PipelineItem>> => {
  const w = window as unknown as McBenchWindow;
  const client = w.mcClient;
  const items: PipelineItem[] = [];
  let budgetCut = false;
  let error: string | undefined;
  const started = performance.now();
  try {
    if (!client) throw new Error('no client: load first');
    for (let i = 0; i < a.items.length; i++) {
      const spent = performance.now() - started;
      if (i >= a.minItems && spent + spent / i > a.budgetMs) {
        budgetCut = true;
        break;
      }
      const item = a.items[i];
      const t0 = performance.now();
      const request = {
        protocolId: 'ancientbench' as const,
        item,
        exemplars: a.exemplars[item.task] ?? [],
        shots: a.shots,
        contextLimit: a.contextLimit,
        chatTemplate: false,
        reusePrefix: a.reusePrefix,
      };
      // As a run asks: naming the next item, which the worker scores while this answer travels; not
      // when the time budget will likely stop before it (a guess never asked would hold the worker
      // into the next mode's timing).
      const expectedAfter = i > 0 ? spent + spent / i : 0;
      const nextRuns = i + 1 < a.minItems || !(expectedAfter + expectedAfter / (i + 1) > a.budgetMs);
      const following = nextRuns ? a.items[i + 1] : undefined;
      const r = await client.scoreItem(following ? { ...request, next: { ...request, item: following, exemplars: a.exemplars[following.task] ?? [] } } : request);
      items.push({
        id: item.id,
        task: item.task,
        ms: performance.now() - t0,
        workerMs: r.score.forwardMs,
        inputIds: r.score.inputIds,
        reusedPrefixTokens: r.score.reusedPrefixTokens,
        logitsCopied: r.score.logitsCopied,
        forwardPasses: r.score.forwardPasses,
        shotsUsed: r.shotsUsed,
        overLimit: r.overLimit,
      });
    }
  } catch (e) {
    const err = e as { code?: string; message?: string; detail?: string };
    error = [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ');
  }
  return { totalMs: performance.now() - started, items, requested: a.items.length, budgetCut, error };
};

// ---- the bare session --------------------------------------------------------------------------

export interface BareSetupArgs {
  /** onnxruntime-web's ESM build, served to the page by the bench (the build the site's worker uses). */
  ortUrl: string;
  wasmMjs: string;
  wasmBinary: string;
  modelUrl: string;
  backend: Backend;
  numThreads: number;
  layers: number;
  kvHeads: number;
  headDim: number;
  /** A graph without num_logits_to_keep: give the session the worker's one-row rewrite of it (window.jiangu.models). */
  rewrite?: boolean;
  /** External data files beside the model (ORT fetches them itself): path in the graph → URL. */
  externalData?: { path: string; url: string }[];
  /** The KV cache's element type: float16 for fp16 and q4f16 files. */
  cacheType?: 'float32' | 'float16';
}

export interface BareSetup {
  ortVersion: string;
  fetchMs: number;
  createMs: number;
  inputNames: string[];
  outputNames: string[];
  crossOriginIsolated: boolean;
  numThreads: number;
}

/** Imports ORT into the page, fetches the model file and creates the session. */
export const pageBareSetup = async (a: BareSetupArgs): Promise<PageReply<BareSetup>> => {
  const w = window as unknown as McBenchWindow;
  const started = performance.now();
  try {
    const ort = (await import(/* @vite-ignore */ a.ortUrl)) as typeof Ort;
    ort.env.wasm.wasmPaths = { mjs: a.wasmMjs, wasm: a.wasmBinary };
    ort.env.wasm.numThreads = a.numThreads;
    ort.env.wasm.proxy = false;
    ort.env.webgpu.powerPreference = 'high-performance';
    const t0 = performance.now();
    let bytes: Uint8Array = new Uint8Array(await (await fetch(a.modelUrl)).arrayBuffer());
    if (a.rewrite) {
      const rewritten = window.jiangu.models.rewriteForLastLogits(bytes);
      if (rewritten.kind === 'unrecognised') throw new Error(`the one-row rewrite refused the graph: ${rewritten.refusal.detail}`);
      if (rewritten.kind === 'rewritten') bytes = rewritten.bytes;
    }
    const t1 = performance.now();
    const options: Ort.InferenceSession.SessionOptions = { executionProviders: [a.backend], logSeverityLevel: 3 };
    if (a.externalData) options.externalData = a.externalData.map((f) => ({ path: f.path, data: f.url }));
    if (a.backend === 'webgpu') {
      // As transformers.js does: the KV cache stays on the GPU; logits come back to the CPU.
      const where: Record<string, 'gpu-buffer'> = {};
      for (let i = 0; i < a.layers; i++) {
        where[`present.${i}.key`] = 'gpu-buffer';
        where[`present.${i}.value`] = 'gpu-buffer';
      }
      options.preferredOutputLocation = where;
    }
    const session = await ort.InferenceSession.create(bytes, options);
    const t2 = performance.now();
    w.mcBare = { ort, session, layers: a.layers, kvHeads: a.kvHeads, headDim: a.headDim, cacheType: a.cacheType };
    return {
      wallMs: performance.now() - started,
      result: {
        ortVersion: String(ort.env.versions?.web ?? ''),
        fetchMs: t1 - t0,
        createMs: t2 - t1,
        inputNames: [...session.inputNames],
        outputNames: [...session.outputNames],
        crossOriginIsolated: self.crossOriginIsolated,
        numThreads: Number(ort.env.wasm.numThreads ?? 1),
      },
    };
  } catch (e) {
    return { wallMs: performance.now() - started, error: e instanceof Error ? `${e.message}` : String(e) };
  }
};

export interface BarePrompt {
  id: string;
  ids: number[];
  /** Leading tokens shared with the other prompts of the task (the pipeline's reusedPrefixTokens); 0: none. */
  prefixLength: number;
}

export interface BareArgs {
  prompts: BarePrompt[];
  /** Run each distinct prefix once, keep its KV cache and run only the rest of each prompt on it. */
  reuse: boolean;
  budgetMs: number;
  minItems: number;
}

export interface BareItem {
  id: string;
  ms: number;
  promptTokens: number;
  /** Tokens run for this item (the suffix when the prefix was cached). */
  newTokens: number;
  /** Whether this item ran its prefix (reuse only: the first item of a prefix). */
  prefixRun: boolean;
  logitsCopied: number;
  forwardPasses: number;
}

/**
 * The ideal single forward per prompt: input_ids, attention_mask of ones, position_ids from the
 * past length, the past (empty, or the cached prefix's), num_logits_to_keep = 1; only `logits`
 * is fetched (and, for a prefix, only the `present.*` outputs).
 */
export const pageBare = async (a: BareArgs): Promise<ModeRun<BareItem>> => {
  const w = window as unknown as McBenchWindow;
  const items: BareItem[] = [];
  let budgetCut = false;
  let error: string | undefined;
  const started = performance.now();
  let cacheIds: number[] | null = null;
  let cache: Record<string, Ort.Tensor> | null = null;
  try {
    const bare = w.mcBare;
    if (!bare) throw new Error('no bare session: set it up first');
    const { ort, session, layers, kvHeads, headDim } = bare;
    const hasKeep = session.inputNames.includes('num_logits_to_keep');
    // GroupQueryAttention exports (Qwen3's) take no position_ids; float16 files keep a float16 cache.
    const hasPositions = session.inputNames.includes('position_ids');
    const half = bare.cacheType === 'float16';
    // (No named helper for the empty past: this function runs serialised in the page, see the header.)
    const emptyDims = [1, kvHeads, 0, headDim];
    const presentNames: string[] = [];
    for (let l = 0; l < layers; l++) presentNames.push(`present.${l}.key`, `present.${l}.value`);
    for (let i = 0; i < a.prompts.length; i++) {
      const spent = performance.now() - started;
      if (i >= a.minItems && spent + spent / i > a.budgetMs) {
        budgetCut = true;
        break;
      }
      const prompt = a.prompts[i];
      const t0 = performance.now();
      let passes = 0;
      let prefixRun = false;
      let past: Record<string, Ort.Tensor> | null = null;
      let pastLength = 0;
      if (a.reuse && prompt.prefixLength > 0 && prompt.prefixLength < prompt.ids.length) {
        const prefixIds = prompt.ids.slice(0, prompt.prefixLength);
        let same = cacheIds !== null && cacheIds.length === prefixIds.length;
        for (let k = 0; same && k < prefixIds.length; k++) same = cacheIds![k] === prefixIds[k];
        if (!same) {
          if (cache) for (const t of Object.values(cache)) if (t.location === 'gpu-buffer') t.dispose();
          cache = null;
          cacheIds = null;
          const n = prefixIds.length;
          const feeds: Record<string, Ort.Tensor> = {
            input_ids: new ort.Tensor('int64', BigInt64Array.from(prefixIds, BigInt), [1, n]),
            attention_mask: new ort.Tensor('int64', new BigInt64Array(n).fill(1n), [1, n]),
          };
          if (hasPositions) feeds.position_ids = new ort.Tensor('int64', BigInt64Array.from({ length: n }, (_, k) => BigInt(k)), [1, n]);
          for (let l = 0; l < layers; l++) {
            feeds[`past_key_values.${l}.key`] = (half ? new ort.Tensor('float16', new Uint16Array(0), emptyDims) : new ort.Tensor('float32', new Float32Array(0), emptyDims));
            feeds[`past_key_values.${l}.value`] = (half ? new ort.Tensor('float16', new Uint16Array(0), emptyDims) : new ort.Tensor('float32', new Float32Array(0), emptyDims));
          }
          if (hasKeep) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
          const out = await session.run(feeds, presentNames);
          passes++;
          cache = {};
          for (let l = 0; l < layers; l++) {
            cache[`past_key_values.${l}.key`] = out[`present.${l}.key`];
            cache[`past_key_values.${l}.value`] = out[`present.${l}.value`];
          }
          cacheIds = prefixIds;
          prefixRun = true;
        }
        past = cache;
        pastLength = prompt.prefixLength;
      }
      const ids = prompt.ids.slice(pastLength);
      const n = ids.length;
      const feeds: Record<string, Ort.Tensor> = {
        input_ids: new ort.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, n]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(pastLength + n).fill(1n), [1, pastLength + n]),
      };
      if (hasPositions) feeds.position_ids = new ort.Tensor('int64', BigInt64Array.from({ length: n }, (_, k) => BigInt(pastLength + k)), [1, n]);
      for (let l = 0; l < layers; l++) {
        feeds[`past_key_values.${l}.key`] = past ? past[`past_key_values.${l}.key`] : (half ? new ort.Tensor('float16', new Uint16Array(0), emptyDims) : new ort.Tensor('float32', new Float32Array(0), emptyDims));
        feeds[`past_key_values.${l}.value`] = past ? past[`past_key_values.${l}.value`] : (half ? new ort.Tensor('float16', new Uint16Array(0), emptyDims) : new ort.Tensor('float32', new Float32Array(0), emptyDims));
      }
      if (hasKeep) feeds.num_logits_to_keep = new ort.Tensor('int64', BigInt64Array.of(1n), []);
      const out = await session.run(feeds, ['logits']);
      passes++;
      const logits = out.logits;
      // Read the row, as a scorer must (on WebGPU the logits come back to the CPU already).
      const data = (logits.location === 'cpu' ? logits.data : await logits.getData(true)) as Float32Array | Uint16Array;
      if (logits.location === 'gpu-buffer') logits.dispose();
      items.push({
        id: prompt.id,
        ms: performance.now() - t0,
        promptTokens: prompt.ids.length,
        newTokens: prompt.ids.length - (prefixRun ? 0 : pastLength),
        prefixRun,
        logitsCopied: data.length,
        forwardPasses: passes,
      });
    }
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
  } finally {
    if (cache) for (const t of Object.values(cache)) if (t.location === 'gpu-buffer') t.dispose();
  }
  return { totalMs: performance.now() - started, items, requested: a.prompts.length, budgetCut, error };
};

/** Releases the bare session (and its GPU buffers) before the page closes. */
export const pageBareRelease = async (): Promise<void> => {
  const w = window as unknown as McBenchWindow;
  await w.mcBare?.session.release();
  w.mcBare = undefined;
};
