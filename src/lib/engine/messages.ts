// The typed protocol between the page and workers/model.worker.ts. Every request kind has a params
// and a result type; the worker answers each request id with exactly one `result` or `error` reply,
// possibly preceded by `progress` (load) or `token` (generate) events for the same id.

import type { BackendChoice, BackendInfo, Dtype, ModelSource, ResolvedRevision } from '../core/models/model-types.ts';
import type { MultipleChoiceItem } from '../core/benchmarks/types.ts';
import type { McProtocolId } from '../core/protocols/mc-protocols.ts';
import type { Notice } from '../core/notices/index.ts';
import type { ModelContext } from '../core/protocols/context-limit.ts';
import type { DecodingOptions } from '../core/protocols/decoding.ts';
import type { LensPath, LogitsPath, ModelCheck, StatisticsPath } from '../core/models/model-check.ts';
import type { LensFault } from '../core/models/lens-rewrite.ts';
import type { AttentionFault, AttentionPath } from '../core/models/attention-rewrite.ts';
import type { AttentionAtParams, AttentionAtResult, AttentionReadParams, AttentionReadResult } from './messages-attention.ts';
export type { AttentionAtParams, AttentionAtResult, AttentionReadParams, AttentionReadResult };
export type { AttentionLayout, AttentionPath } from './messages-attention.ts';
import type { WeightsOutcome } from '../core/models/external-weights.ts';
import type { StatsRewriteFault } from '../core/models/stats-rewrite.ts';
import type { WasmThreadsSetting } from '../core/models/wasm-threads.ts';
import type { PassagePiece, PassageReading } from '../core/reading/passage.ts';
import type { SampleStepsParams, SampleStepsResult, SampledTokenStep } from '../core/reading/sampling.ts';
export type { SampleStepsParams, SampleStepsResult, SampledTokenStep };

export * from '../core/models/model-types.ts';

export interface LoadParams {
  source: ModelSource;
  dtype: Dtype;
  backend: BackendChoice;
  /**
   * For graphs without a `num_logits_to_keep` input: the most logits bytes one forward pass may
   * produce; longer prompts are prefilled in chunks through the KV cache. Default 64 MiB.
   */
  maxLogitsBytes?: number;
  /**
   * Rewrite a graph without `num_logits_to_keep` at load so it computes the last logits row only
   * (checked on a short prompt before use). Default true; false keeps the chunked prefill (tests, bench).
   */
  logitsRewrite?: boolean;
  /**
   * Leave the weights in the downloaded file, mounted as the session's external data, instead of
   * handing ORT the whole file to copy (src/lib/core/models/external-weights.ts). Default true;
   * false is the bench's "before" and the tests' comparison.
   */
  externalWeights?: boolean;
  /**
   * Compute a dequantized tied head (the hub's q8 files) in blocks of the vocabulary instead of
   * expanding the whole embedding every forward (src/lib/core/models/head-blocks.ts). Default true;
   * false is the bench's "before".
   */
  headBlocks?: boolean;
  /**
   * onnxruntime-web session options that change where memory goes, for the memory bench's
   * comparisons (scripts/bench/memory-stages.ts); absent: the worker's defaults (ORT_MEMORY_OPTIONS).
   */
  ortMemoryOptions?: OrtMemoryOptions;
  /**
   * For tests only: makes the load-time rewrite slice the wrong row (`previous-row`: the row before
   * the last), so the load check must fail and the author's graph be loaded again (chunked prefill).
   * Never set by the site itself.
   */
  logitsRewriteFault?: 'previous-row';
  /**
   * Add Jiangu's per-position statistics outputs at load (stats-rewrite.ts), checked against whole
   * rows before use: for cloze and memorization runs, which score every position of a text. Default
   * false: every other use keeps the graph lean (the statistics cost about twelve passes over the
   * rows' logits on every forward).
   */
  statistics?: boolean;
  /** For tests only: a deliberately wrong statistics graph, which the load check must catch. */
  statisticsFault?: StatsRewriteFault;
  /**
   * Add the logit lens outputs at load (lens-rewrite.ts: every layer through the final norm and the
   * head, top 5), checked against the model's own logits before use. A load of its own for the
   * lens view: the outputs cost every pass, so no other load carries them.
   */
  lens?: boolean;
  /** For tests only: a deliberately wrong lens graph, which the load check must catch. */
  lensFault?: LensFault;
  /**
   * For tests only: a deliberately wrong attention tap, which the per-pass check must catch. The tap
   * itself (attention-rewrite.ts, behind its own gate) goes on every load with `lens: true`.
   */
  attentionFault?: AttentionFault;
  /** For tests only: the worker really runs out of memory at this point (workers/memory-fault.ts). Never set by the site itself. */
  memoryFault?: MemoryFault;
  /**
   * ORT's wasm thread count: a number asks for that many (the bench sets it), `auto` leaves ORT's own
   * rule (ortDefaultThreads). Absent: ModelClient.load fills in the user's setting of this device.
   * Either way the client brings it within what the browser allows, and ORT reads it once per worker,
   * at its first session (see workers/wasm-threads.ts), so the client starts a fresh worker when it changes.
   */
  wasmThreads?: WasmThreadsSetting;
}

/**
 * Where a test makes the worker run out of memory: during the load (after the tokenizer, where the
 * model's file is read), or in the model request after the first `after` ones (0: the first).
 * `uncaught`: the failure escapes every handler, as an allocation in a callback of ORT's would, so
 * the worker's 'error' event reports it and the request is never answered.
 */
export interface MemoryFault {
  stage: 'load' | 'request';
  after?: number;
  uncaught?: boolean;
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
  /** Hub models: the commit the files came from; absent for the site's own folders. */
  resolvedRevision?: ResolvedRevision;
  /** The positions the model's config.json states (its real context), null when it states none. */
  context: ModelContext | null;
  /** The ONNX file's external data files, null when its weights are inside it. */
  externalData?: ExternalDataInfo | null;
  /**
   * Rows per forward pass when the prompt is prefilled in chunks: from `maxLogitsBytes`, except for
   * dynamically quantized graphs (q8), where it is the fixed Q8_PREFILL_ROWS so scores do not depend
   * on a memory setting; null when the graph keeps only the last logits row (one pass).
   */
  prefillRows?: number | null;
  /** Which graph gives the logits rows: the author's (native or chunked) or Jiangu's rewrite. */
  logitsPath?: LogitsPath;
  /** The rewrite's own time at load, when the graph was rewritten (for the bench). */
  rewriteMs?: number;
  /**
   * Where the session read the weights from: `external`, from the file as downloaded, mounted as
   * external data (src/lib/core/models/external-weights.ts: no copy of them in JS or in a
   * ModelProto); `inline`, from the graph's own bytes; `session-refused`, ORT refused the first and
   * the file as it came was loaded.
   */
  weights?: WeightsOutcome;
  /**
   * Blocks the head was computed in (src/lib/core/models/head-blocks.ts): the hub's q8 head in
   * blocks; 1 for a float tied head read as a Gemm on the embedding (no transposed copy); 0 when the
   * head was left as it came.
   */
  headBlocks?: number;
  /** Bytes the worker keeps earlier 5-shot prefixes' KV caches in, from this device's memory (workers/loaded-model.ts keptPrefixBudget). */
  keptPrefixBytes?: number;
  /** Set when the load asked for statistics: where they come from (see StatisticsPath). */
  statisticsPath?: StatisticsPath;
  /** Set when the load asked for the logit lens: whether it can be shown (see LensPath). */
  lensPath?: LensPath;
  /** Set when the load asked for the lens (and so the attention tap): whether attention can be shown (see AttentionPath). */
  attentionPath?: AttentionPath;
  /** What Jiangu found in the model and what a 5-shot CMMLU prompt needs on it (see model-check.ts). */
  modelCheck?: ModelCheck;
  /** The wasm threads the load asked for (a number, or `auto` for ORT's rule); backendInfo.wasmThreads is what ORT used. */
  wasmThreadsAsked?: WasmThreadsSetting;
}

/** External data of the loaded ONNX file: declared in config.json, or found on the host by the worker. */
export interface ExternalDataInfo {
  /** Paths in the model folder, e.g. ['onnx/model.onnx_data']. */
  files: string[];
  how: 'config' | 'detected';
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
  /** Wrap the prompt as the user turn of the model's chat template (with the generation prompt). */
  chatTemplate?: boolean;
}

export interface CandidateScore {
  text: string;
  /** The token id scored: the candidate's first token as it follows the prompt (see letterInContext). */
  tokenId: number;
  /** How many tokens the candidate becomes after the prompt; 1 is what the method expects. */
  tokenCount: number;
  /** The tokens the candidate becomes after the prompt (its first is `tokenId`). Absent from older workers. */
  tokenIdsInContext?: number[];
  /** What the candidate encodes to alone (e.g. `▁A`, which is not the token after `答案是：`). Absent from older workers. */
  aloneTokenIds?: number[];
  /** log P(token | prompt) under the full vocabulary. */
  logProb: number;
  /**
   * True when encoding prompt + candidate does not begin with the prompt's tokens: the tokenizer
   * merges the candidate into the prompt's end, so no next token is the candidate (its token alone is scored).
   */
  mergesWithPrompt: boolean;
}

export interface ScoreResult {
  inputIds: number[];
  candidates: CandidateScore[];
  /** Tokens taken from the prefix cache instead of being recomputed (0 when none). */
  reusedPrefixTokens: number;
  /** Number of logits values copied out of the model for this request. */
  logitsCopied: number;
  /** Forward passes the prompt's new tokens took (more than one when prefilled in chunks). */
  forwardPasses: number;
  /** The exact text tokenized (the prompt, or the prompt inside the chat template). */
  text: string;
  forwardMs: number;
}

/** Scores one multiple-choice item: the worker builds its prompt (it has the tokenizer for the context limit). */
export interface ScoreItemParams {
  protocolId: McProtocolId;
  item: MultipleChoiceItem;
  /** The task's dev items; the protocol takes the first `shots` in file order. */
  exemplars: MultipleChoiceItem[];
  shots: number;
  /**
   * The applied limit (RunRecord.contextLimit.tokens). A prompt still over it with no exemplars is
   * not run: the request fails with code `too-long` and notice `run.item-too-long`.
   */
  contextLimit: number;
  chatTemplate: boolean;
  reusePrefix: boolean;
  /**
   * The request that will most likely come next (a run's next item). When nothing else waits, the
   * worker scores it right after this one, while the page stores this result, and answers it at once
   * if it is asked exactly so (see workers/read-ahead.ts); anything else asked first drops it.
   */
  next?: Omit<ScoreItemParams, 'next'>;
}

export interface ScoreItemResult {
  prompt: string;
  prefix: string;
  shotsUsed: number;
  exemplarIds: string[];
  droppedExemplarIds: string[];
  overLimit: boolean;
  score: ScoreResult;
}

/** The paper's sampling (top-k 50, top-p 1), seeded so a run can be repeated. */
export interface SamplingParams {
  topK: number;
  topP: number;
  temperature?: number;
  seed: number;
}

export interface GenerateParams {
  prompt: string;
  /** The item generated for, to name it in a `too-long` error. */
  itemId?: string;
  maxNewTokens: number;
  /** Wrap the prompt as the user turn of the model's chat template. */
  chatTemplate?: boolean;
  /** Omitted: greedy decoding. */
  sampling?: SamplingParams;
}

export interface GenerateResult {
  inputIds: number[];
  /** The exact text tokenized (the prompt, or the prompt inside the chat template). */
  promptText: string;
  tokenIds: number[];
  text: string;
  stoppedBy: 'eos' | 'max-tokens' | 'cancelled';
  ms: number;
  /** The decoding options generate() was given, generation_config.json's overridden (see decodingOptions). */
  decoding?: DecodingOptions;
}

/** Counters that let a test see leaks: GPU buffers ORT asked the device for over the worker's life. */
export interface WorkerStats {
  gpuBuffersCreated: number;
  gpuBuffersDestroyed: number;
  /** Bytes of the largest logits tensor a forward pass returned since the model loaded (0 when none). */
  largestLogitsBytes: number;
  /** Bytes of the GPU buffers alive now, and the most alive at once since the model loaded. */
  gpuBufferBytes: number;
  peakGpuBufferBytes: number;
  /** Bytes of the wasm Memories created in the worker (ORT's): they only grow, so this is their peak so far. */
  wasmMemoryBytes?: number;
  /** Requests scored ahead (ScoreItemParams.next) since the worker started, and how many of them were then asked. */
  readAhead?: { started: number; used: number };
  /** Thread workers ORT's wasm module started in this worker (its pool: wasm threads − 1), counted apart from ORT's own report. */
  wasmThreadWorkers?: number;
  /**
   * Each forward pass of the latest generate request, in order (chunked prefill included): the tokens
   * it ran, the cache length it was given and the logits rows it returned. A decode step with the KV
   * cache runs one token on a past of everything before it.
   */
  generateForwards?: { tokens: number; past: number; logitsRows: number }[];
  /** The stages loads passed through, in order (workers/memory-marks.ts), for the memory bench. */
  memoryMarks?: MemoryMark[];
}

/** ORT's memory-related session options: weight prepacking, the CPU arena, memory patterns. */
export interface OrtMemoryOptions {
  prepacking?: boolean;
  cpuArena?: boolean;
  memPattern?: boolean;
}

/** A moment of a load: its stage, when (epoch ms), and the worker's wasm Memory bytes then. */
export interface MemoryMark {
  stage: string;
  at: number;
  wasmBytes: number;
}

/** Multiple choice by generation: the item's prompt built as for scoring, then a greedy answer. */
export interface GenerateItemParams extends ScoreItemParams {
  maxNewTokens: number;
}

export interface GenerateItemResult extends Omit<ScoreItemResult, 'score'> {
  generation: GenerateResult;
}

/**
 * Scores one multiple-choice item by its option texts (cloze): the worker builds the protocol's cloze
 * context (it has the tokenizer for the context limit), splits each option as lm-evaluation-harness
 * does (encode-pair.ts) and sums its tokens' full-vocabulary log-probabilities on the item's one
 * context state.
 */
export interface ScoreClozeItemParams extends Omit<ScoreItemParams, 'next'> {
  /** Also score each option after the protocol's answer cue alone (for domain-conditional PMI). */
  unconditional: boolean;
}

export interface ClozeOptionScore {
  /** The continuation as scored (the context's trailing whitespace in front of the option text). */
  continuation: string;
  /** The continuation's tokens (the whole's tokens after the context's own count). */
  tokenIds: number[];
  logLikelihood: number;
  isGreedy: boolean;
  /** Whether encoding context + continuation began with the context's own tokens. */
  contextIsPrefix: boolean;
  /** The same sum after the answer cue alone (absent unless asked). */
  unconditional?: number;
}

export interface ScoreClozeItemResult {
  /** The context as the protocol built it (before any chat template). */
  context: string;
  prefix: string;
  shotsUsed: number;
  exemplarIds: string[];
  droppedExemplarIds: string[];
  overLimit: boolean;
  /** The exact context text tokenized (inside the chat template when asked), its trailing whitespace moved. */
  text: string;
  contextIds: number[];
  options: ClozeOptionScore[];
  reusedPrefixTokens: number;
  logitsCopied: number;
  forwardPasses: number;
  forwardMs: number;
}

/**
 * Per-position statistics of a text (the memorization probes, issue 26): the text is encoded as the
 * model's tokenizer does (special tokens included), and every token after the first is scored where
 * the model predicted it.
 */
export interface TextStatisticsParams {
  text: string;
  /** Also μ and σ of log p at each position (Min-K%++); without, log p and the argmax only. */
  moments: boolean;
  /** Refused (run.item-too-long, naming `itemId`) when the text has more tokens than this (and no `window` is given). */
  contextLimit?: number;
  /**
   * A text longer than this many tokens is scored in windows of this size, each after the first
   * beginning half a window before the last one's end and scoring only the tokens after it (the
   * exchangeability reference's sliding windows: every token scored once, with at least half a
   * window before it).
   */
  window?: number;
  itemId?: string;
}

export interface TextStatisticsResult {
  /** The text's tokens; position j of each array below is ids[j + 1]. */
  ids: number[];
  logprob: Float64Array;
  argmax: Int32Array;
  mean?: Float64Array;
  std?: Float64Array;
  /** Which path computed them (the load's StatisticsPath kind; `worker` when the load asked for none). */
  path: 'graph' | 'worker';
  logitsCopied: number;
  forwardPasses: number;
  forwardMs: number;
}

/** A passage read token by token (the reading view and 断句, issue 37: workers/reading.ts). */
export interface ReadPassageParams {
  text: string;
  /** Tokens listed at each position (READING_TOP, at most 50). */
  top?: number;
  /** Also each row's punctuation mass (the vocabulary's punctuation tokens found once per model). */
  punctuation: boolean;
  /** Refused (run.item-too-long) past this many tokens. */
  contextLimit?: number;
  itemId?: string;
}

export interface ReadPassageResult {
  reading: PassageReading;
  /** The text of every id listed in a row's top tokens. */
  topTexts: Record<number, string>;
  /** How many tokens count as punctuation; null when not asked. */
  punctuationTokens: number | null;
  forwardPasses: number;
  ms: number;
}

/**
 * The next-token logits row after a text (the temperature dial, issue 45 §3: workers/next-row.ts),
 * computed as the view that showed the position computes it, so the dial's numbers are that view's:
 *  - `tokens` absent: the row after the text's first `after` tokens (all of them by default) as
 *    readPassage reads the text (the same passes): reading.rows[after − 1], e.g. the reading's
 *    "next?" after the whole passage, or what the model expected before token `after`;
 *  - `tokens` given (even []): the text as sampleSteps' prompt (pass SampleStepsResult.promptText
 *    when the chat template wrapped it), then these ids one pass each as sampleSteps runs them: with
 *    the continuation's first i tokens, the row step i drew from.
 */
export interface NextTokenRowParams {
  text: string;
  /** Token ids appended after the text's own (each in the vocabulary). */
  tokens?: number[];
  /** Without `tokens` only: the row after the text's first `after` tokens (1 ≤ after ≤ their count). */
  after?: number;
}

export interface NextTokenRowResult {
  /** The whole row, as the model gave it (float16 logits as float32); its buffer is transferred. */
  logits: Float32Array;
  vocab: number;
  /** The text of the 100 largest-logit ids (ties by the lower id), as the other views list tokens. */
  texts: Record<number, string>;
}

/** Every layer's top 5 next tokens at every position of a text (the logit lens, workers/lens.ts). */
export interface LogitLensParams {
  text: string;
  /** Refused (run.item-too-long) past this many tokens. */
  contextLimit?: number;
}

export interface LogitLensResult {
  /** The text's tokens as the model's tokenizer cuts them, and each token's own text. */
  ids: number[];
  pieces: PassagePiece[];
  layers: number;
  rows: number;
  k: number;
  /** Layer l, row r (the prediction after ids[0 … r]), rank j at ((l · rows) + r) · k + j. */
  topIds: Int32Array;
  topProbs: Float32Array;
  /** The text of every id listed. */
  texts: Record<number, string>;
  passes: number;
  forwardMs: number;
}

export interface RequestMap {
  load: { params: LoadParams; result: LoadResult };
  score: { params: ScoreParams; result: ScoreResult };
  scoreItem: { params: ScoreItemParams; result: ScoreItemResult };
  scoreClozeItem: { params: ScoreClozeItemParams; result: ScoreClozeItemResult };
  textStatistics: { params: TextStatisticsParams; result: TextStatisticsResult };
  readPassage: { params: ReadPassageParams; result: ReadPassageResult };
  sampleSteps: { params: SampleStepsParams; result: SampleStepsResult };
  nextTokenRow: { params: NextTokenRowParams; result: NextTokenRowResult };
  logitLens: { params: LogitLensParams; result: LogitLensResult };
  attentionRead: { params: AttentionReadParams; result: AttentionReadResult };
  attentionAt: { params: AttentionAtParams; result: AttentionAtResult };
  generateItem: { params: GenerateItemParams; result: GenerateItemResult };
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
  /** The prompt is longer than the context limit (one item; the next may fit). */
  | 'too-long'
  | 'internal';

export interface ModelErrorInfo {
  code: ModelErrorCode;
  /** What happened and what to do, as a code and parameters; the page words it in its language. */
  notice: Notice;
  /** The notice in English, for logs and tests. */
  message: string;
  /** The underlying error text, for a bug report. */
  detail?: string;
}

/**
 * A score as the worker sends it: the candidates without log-probabilities, and the last logits row
 * itself (its buffer transferred, not copied). ModelClient normalises it over the vocabulary on the
 * page's thread (scoreFromWire), while the worker goes on with the next prompt it was told of
 * (ScoreItemParams.next): the full-vocabulary log-softmax (1.6 ms for Qwen's 151,669 tokens on 2
 * cores) leaves the worker's path.
 */
export interface ScoreOnTheWire extends Omit<ScoreResult, 'candidates'> {
  candidates: Omit<CandidateScore, 'logProb'>[];
  lastRow: Float32Array;
}

export interface ScoreItemOnTheWire extends Omit<ScoreItemResult, 'score'> {
  score: ScoreOnTheWire;
}

/** What the worker replies for each request: the request's result, but for scores their wire form. */
export interface WireResults {
  score: ScoreOnTheWire;
  scoreItem: ScoreItemOnTheWire;
}
export type WireResult<K extends RequestKind> = K extends keyof WireResults ? WireResults[K] : RequestMap[K]['result'];

export type WorkerReply =
  | { id: number; kind: 'result'; result: WireResult<RequestKind> }
  | { id: number; kind: 'error'; error: ModelErrorInfo }
  | { id: number; kind: 'progress'; progress: LoadProgress }
  | { id: number; kind: 'token'; tokenId: number; text: string }
  | { id: number; kind: 'sampledStep'; index: number; step: SampledTokenStep };
