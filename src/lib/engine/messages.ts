// The typed protocol between the page and workers/model.worker.ts. Every request kind has a params
// and a result type; the worker answers each request id with exactly one `result` or `error` reply,
// possibly preceded by `progress` (load) or `token` (generate) events for the same id.

/** Where the model actually runs. */
export type Backend = 'webgpu' | 'wasm';
/** What the user asked for: `auto` is WebGPU when the browser gives an adapter, else WASM. */
export type BackendChoice = 'auto' | Backend;
/** transformers.js dtypes we offer; each maps to an `onnx/model{suffix}.onnx` file. */
export type Dtype = 'fp32' | 'fp16' | 'q8' | 'q4' | 'q4f16';
export const DTYPES: readonly Dtype[] = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'];

/** A model on the Hugging Face hub (or a mirror with the hub's layout), or a folder the site serves under /models/. */
export type ModelSource =
  | { kind: 'hub'; id: string; revision?: string; host?: string }
  | { kind: 'site'; name: string };

export interface LoadParams {
  source: ModelSource;
  dtype: Dtype;
  backend: BackendChoice;
}

export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
  shaderF16: boolean;
}

/** The backend a loaded model really uses, and why, for the run record and the page. */
export interface BackendInfo {
  backend: Backend;
  /** Set when WebGPU is used. */
  adapter?: AdapterSummary;
  /** ORT's wasm thread count (also used for WASM parts of a WebGPU session). */
  wasmThreads: number;
  crossOriginIsolated: boolean;
  /** Why `auto` fell back to WASM, when it did. */
  fallbackReason?: string;
}

export interface LoadResult {
  backendInfo: BackendInfo;
  modelType: string;
  vocabSize: number;
  /** Names of the ONNX graph inputs, e.g. to know whether `num_logits_to_keep` is declared. */
  inputNames: string[];
  loadMs: number;
  transformersVersion: string;
  ortVersion: string;
}

export interface ScoreParams {
  /** The whole prompt; the candidates are scored as the next token after it. */
  prompt: string;
  /** Candidate continuations, e.g. ["A", "B", "C", "D"]; each should be a single token. */
  candidates: string[];
  /**
   * A leading part of `prompt` whose KV cache the worker computes once and reuses while the prefix
   * stays the same (few-shot exemplars). Ignored, and reported, when its tokens are not a prefix
   * of the prompt's tokens.
   */
  prefix?: string;
}

export interface CandidateScore {
  text: string;
  /** The token id scored for this candidate (its first token). */
  tokenId: number;
  /** How many tokens the candidate encodes to on its own; 1 is what the method expects. */
  tokenCount: number;
  /** log P(token | prompt) under the full vocabulary. */
  logProb: number;
}

export interface ScoreResult {
  inputIds: number[];
  candidates: CandidateScore[];
  /** Tokens taken from the prefix cache instead of being recomputed (0 when none). */
  reusedPrefixTokens: number;
  /** Number of logits values copied out of the model for this request. */
  logitsCopied: number;
  forwardMs: number;
}

export interface GenerateParams {
  prompt: string;
  maxNewTokens: number;
}

export interface GenerateResult {
  inputIds: number[];
  tokenIds: number[];
  text: string;
  stoppedBy: 'eos' | 'max-tokens' | 'cancelled';
  ms: number;
}

/** Counters that let a test see leaks: GPU buffers ORT asked the device for over the worker's life. */
export interface WorkerStats {
  gpuBuffersCreated: number;
  gpuBuffersDestroyed: number;
}

export interface RequestMap {
  load: { params: LoadParams; result: LoadResult };
  score: { params: ScoreParams; result: ScoreResult };
  generate: { params: GenerateParams; result: GenerateResult };
  unload: { params: Record<string, never>; result: { unloaded: boolean } };
  stats: { params: Record<string, never>; result: WorkerStats };
}
export type RequestKind = keyof RequestMap;

export type WorkerRequest = {
  [K in RequestKind]: { id: number; kind: K; params: RequestMap[K]['params'] };
}[RequestKind];

/** Cancels request `id`: a running generation stops at the next token; a queued request is dropped. */
export interface CancelMessage {
  id: number;
  kind: 'cancel';
}

export interface LoadProgress {
  file: string;
  status: 'initiate' | 'download' | 'progress' | 'done' | 'ready';
  loaded?: number;
  total?: number;
  /** 0–100 for this file, when known. */
  progress?: number;
}

/** Stable codes the page can act on; messages are for people. */
export type ModelErrorCode =
  | 'model-not-found'
  | 'invalid-model'
  | 'webgpu-unavailable'
  | 'unsupported-dtype'
  | 'out-of-memory'
  | 'network'
  | 'no-model'
  | 'cancelled'
  | 'bad-request'
  | 'internal';

export interface ModelErrorInfo {
  code: ModelErrorCode;
  /** One sentence saying what happened and what to do. */
  message: string;
  /** The underlying error text, for a bug report. */
  detail?: string;
}

export type WorkerReply =
  | { id: number; kind: 'result'; result: RequestMap[RequestKind]['result'] }
  | { id: number; kind: 'error'; error: ModelErrorInfo }
  | { id: number; kind: 'progress'; progress: LoadProgress }
  | { id: number; kind: 'token'; tokenId: number; text: string };
