// A run: everything needed to repeat it (the configuration, pinned before it starts) and what it
// produced, item by item. Stored in IndexedDB by the engine; exported and shared by later issues.
import type { DatasetId, GenerationTask, OptionLetter } from '../benchmarks/types.ts';
import type { McProtocolId } from '../protocols/mc-protocols.ts';
import type { BackendChoice, BackendInfo, Dtype, ModelSource, ResolvedRevision } from '../models/model-types.ts';
import type { Notice } from '../notices/index.ts';
import type { ThinkingMode } from '../protocols/chat-template.ts';
import type { DecodingOptions } from '../protocols/decoding.ts';
import type { LogitsPath, ModelCheck, StatisticsPath } from '../models/model-check.ts';
import type { RunSampling, StopRule } from '../protocols/run-sampling.ts';

/**
 * A warning or error as stored: a Notice (code and parameters, worded by the page), or a plain
 * English sentence in records written before notices existed. Read it with `sayStored`.
 */
export type StoredNotice = Notice | string;

/**
 * The context limit a run's prompts were held to, recorded when its model is loaded: the smaller of
 * the model's own positions (from its config.json) and a limit the user asked for. `from` says which
 * one it is: `user`, `config.<key>` (e.g. `config.max_position_embeddings`), or `default` (2048, the
 * CMMLU and ACLUE codes' max_length, when the model's config states none and the user asked none).
 */
export interface RunContextLimit {
  tokens: number;
  from: 'user' | 'default' | `config.${string}`;
  /** Whether the user set `config.contextLimit` (`user`) or it is the default (`default`). */
  asked: 'user' | 'default';
  /** The model's positions as its config states them; null when it states none (or before loading). */
  modelPositions: number | null;
}

export type RunStatus = 'created' | 'running' | 'paused' | 'completed' | 'failed' | 'cancelled';

export interface RunModel {
  source: ModelSource;
  dtype: Dtype;
  /** What the run was asked to run on; for a run imported from lm-evaluation-harness see RunOrigin.harnessBackend. */
  backend: BackendChoice;
}

/** How a multiple-choice run scores an item (McRunConfig.scoring). */
export type McScoring = 'letter-logits' | 'generate-extract' | 'cloze';

/** Fixed when the run is created; a resumed run uses exactly this. */
export interface McRunConfig {
  kind: 'multiple-choice';
  model: RunModel;
  protocolId: McProtocolId;
  protocolVersion: number;
  templateHash: string;
  /**
   * `letter-logits`: the letters' next-token log-probabilities (the papers' method).
   * `generate-extract`: greedy generation, then the letter extracted from the text (for chat
   * models, as AC-EVAL's and OpenCompass's gen mode); an answer with no extractable letter is wrong.
   * `cloze`: each option's text scored as the continuation of the question (the protocol's cloze
   * layout, McItemResult.cloze); protocolVersion and templateHash are then the cloze layout's.
   */
  scoring: McScoring;
  /** generate-extract only: the most tokens an answer may have. */
  maxNewTokens?: number;
  shots: number;
  /** The context limit asked for (the user's, or 2048 by default); what was applied is `RunRecord.contextLimit`. */
  contextLimit: number;
  chatTemplate: boolean;
  /** Set with the chat template: rendered with enable_thinking=false (absent in older records). */
  thinking?: ThinkingMode;
  /**
   * Whether the instruction-and-exemplars prefix's KV cache is computed once per task. Off for
   * dynamically quantized weights (q8): their activation scale depends on how a prompt is split,
   * so reuse would change the numbers.
   */
  prefixReuse: boolean;
  datasetId: DatasetId;
  datasetFiles: { path: string; sha256: string }[];
  tasks: string[];
  /** At most this many test items per task (the first ones, in file order); null for all. */
  limitPerTask: number | null;
  /** The items in the order they are run. */
  itemIds: string[];
  /** How itemIds were drawn and ordered (core/protocols/run-sampling.ts); absent in older records: the first limitPerTask in file order, task by task. */
  sampling?: RunSampling;
  /** Absent: the run asks every item in itemIds. */
  stopRule?: StopRule;
  appVersion: string;
  /**
   * Circular evaluation: every item is also asked under each cyclic rotation of its options
   * (core/protocols/rotation.ts), stored in McItemResult.rotations. Absent or false: rotation 0 only.
   */
  circular?: boolean;
  /** PriDe debiasing (see PrideConfig); absent: none. Always set on a circular run (it costs nothing there). */
  pride?: PrideConfig;
}

/**
 * PriDe (Zheng et al., ICLR 2024): the estimation items are asked under every cyclic rotation, the
 * model's prior over option positions is estimated from them, and every other item's prediction is
 * debiased with it (core/metrics/pride.ts). Letter-logits runs only.
 */
export interface PrideConfig {
  /** The share of the run's items drawn (DEFAULT_ESTIMATION_SHARE, 5%). */
  share: number;
  /** The mulberry32 seed of the draw (core/protocols/estimation-set.ts). */
  seed: number;
  /** The drawn items, in config.itemIds order: asked under every rotation. */
  estimationItemIds: string[];
}

/** What the run actually ran on, recorded when its model is loaded (again on each resume). */
export interface RunEnvironment {
  backendInfo: BackendInfo;
  modelInputNames: string[];
  transformersVersion: string;
  ortVersion: string;
  userAgent: string;
  /** Hub models: the commit the files came from (a revision like `main` moves). */
  resolvedRevision?: ResolvedRevision;
  /**
   * Prompt rows per prefill pass on a graph without num_logits_to_keep (null when the graph keeps
   * only the last row: one pass). q8 logits depend on it, so q8 runs use a fixed size (32); absent
   * in older records.
   */
  prefillRows?: number | null;
  /** Which graph scored the run: native num_logits_to_keep, Jiangu's checked rewrite, or chunked (and why); absent in older records. */
  logitsPath?: LogitsPath;
  /** Cloze runs: where the per-position log-probabilities came from (Jiangu's checked statistics graph, or whole rows in the worker, and why). */
  statisticsPath?: StatisticsPath;
}

/** The WebGPU-versus-WASM check made before a WebGPU run. */
export interface BackendCheck {
  itemIds: string[];
  tolerance: number;
  /** Letters: the largest difference of a letter's log-probability; cloze: of an option's summed log-probability ÷ its tokens. */
  maxLogProbDiff: number;
  mismatchedPredictions: string[];
  passed: boolean;
  /** Set when the user chose to go on with WebGPU after a failed check. */
  overridden?: boolean;
}

export interface LetterToken {
  letter: string;
  /** The token scored: the letter's first token after the answer cue, in context. */
  tokenId: number;
  /** The letter is one token after the answer cue. */
  singleToken: boolean;
  /** What the letter encodes to alone (`▁A` with a `▁`-prepending tokenizer); absent in older records. */
  aloneTokenIds?: number[];
}

/** How a generation run decodes: greedy (the default, reproducible) or the paper's seeded sampling. */
export type Decoding = { kind: 'greedy' } | { kind: 'sample'; topK: number; topP: number; seed: number };

/** Fixed when a generation run is created (C3Bench and WenMind's matching tasks). */
export interface GenRunConfig {
  kind: 'generation';
  model: RunModel;
  protocolId: 'c3bench';
  protocolVersion: number;
  templateHash: string;
  chatTemplate: boolean;
  /** Set with the chat template: rendered with enable_thinking=false (absent in older records). */
  thinking?: ThinkingMode;
  maxNewTokens: number;
  decoding: Decoding;
  datasetId: DatasetId;
  datasetFiles: { path: string; sha256: string }[];
  tasks: string[];
  limitPerTask: number | null;
  itemIds: string[];
  /** As McRunConfig.sampling. */
  sampling?: RunSampling;
  /** Absent: the run asks every item in itemIds. */
  stopRule?: StopRule;
  appVersion: string;
}

/** Where an imported run came from: a file, not a run made in this browser. Such a run is never resumed. */
export interface RunOrigin {
  kind: 'jiangu-file' | 'lm-eval';
  fileName: string;
  importedAt: string;
  /** The id the run had where it was made. */
  originalRunId: string | null;
  /** The summary as the file states it (percent, keys as runSummary's), null when the file has none. */
  storedSummary: Record<string, number | null> | null;
  /** Keys whose stored value differs from the value recomputed from the file's items by more than 0.005 points (or is missing/extra). */
  summaryMismatches: { key: string; stored: number | null; recomputed: number | null }[];
  /** lm-eval only: the harness task names and versions as written in the file. */
  harnessTasks?: { name: string; version: string | number | null }[];
  /**
   * lm-eval only: what ran the model, as the results file says (`config.model`, the harness's
   * `--model`: hf, vllm…, and `config.device`). No backend of this site did: views name this instead
   * of `config.model.backend` (which an imported record fills with 'wasm', its type having no "none").
   */
  harnessBackend?: { model: string; device: string | null };
  /**
   * lm-eval only: the harness's `--limit` as its results file states it: the first N docs of each
   * task, or that share of them below 1. It counts docs, not items: in a circular export a doc is one
   * rotation of an item, so `config.limitPerTask` (items) is null there and the page says this instead.
   */
  harnessLimit?: number;
  /** The file's answer key against this browser's copy of the benchmark (absent on imports of older versions). */
  keyCheck?: KeyCheck;
}

interface RunRecordBase {
  id: string;
  createdAt: string;
  updatedAt: string;
  datasetId: DatasetId;
  status: RunStatus;
  environment?: RunEnvironment;
  /** Absent in records from before context limits were recorded (they used `config.contextLimit`). */
  contextLimit?: RunContextLimit;
  warnings: StoredNotice[];
  error?: StoredNotice;
  /** Set on a run imported from a file (see RunOrigin); absent on runs made here. */
  origin?: RunOrigin;
  /** The generate() options the worker used (recorded at the first generation; absent before any, and in older records). */
  decodingOptions?: DecodingOptions;
  /** What Jiangu found in the run's model when it was loaded (absent in older records). */
  modelCheck?: ModelCheck;
  /** The user's own short name for the run (see McRunRecord.label). */
  label?: string;
}

export interface GenRunRecord extends RunRecordBase {
  config: GenRunConfig;
}

/** One generated output, written as soon as it is complete; its metrics are computed when shown. */
export interface GenItemResult {
  runId: string;
  itemId: string;
  task: string;
  generationTask: GenerationTask;
  index: number;
  prompt: string;
  promptHash: string;
  tokenCount: number;
  output: string;
  outputTokenIds: number[];
  stoppedBy: 'eos' | 'max-tokens' | 'cancelled';
  references: string[];
  ms: number;
  completedAt: string;
  /** Set when the item could not be run (see McItemResult.failure); output is then empty and not scored. */
  failure?: Notice;
}

export type RunRecord = McRunRecord | GenRunRecord;
export type ItemResult = McItemResult | GenItemResult;

export interface McRunRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  datasetId: DatasetId;
  status: RunStatus;
  config: McRunConfig;
  environment?: RunEnvironment;
  check?: BackendCheck;
  letterTokens?: LetterToken[];
  /** Absent in records from before context limits were recorded (they used `config.contextLimit`). */
  contextLimit?: RunContextLimit;
  /** Things a reader of the result should know (a letter that is not one token, …). */
  warnings: StoredNotice[];
  error?: StoredNotice;
  /** Set on a run imported from a file (see RunOrigin); absent on runs made here. */
  origin?: RunOrigin;
  /** The generate() options the worker used (recorded at the first generation; absent before any, and in older records). */
  decodingOptions?: DecodingOptions;
  /** What Jiangu found in the run's model when it was loaded (absent in older records). */
  modelCheck?: ModelCheck;
  /** The user's own short name for the run (RUN_LABEL_MAX characters at most); absent when none was given. */
  label?: string;
}

/** The longest label a user may give a run, in characters: a list row's worth. */
export const RUN_LABEL_MAX = 80;

/** One item's outcome, written as soon as it is scored. */
export interface McItemResult {
  runId: string;
  itemId: string;
  task: string;
  /** Position in config.itemIds. */
  index: number;
  prompt: string;
  promptHash: string;
  tokenCount: number;
  shotsUsed: number;
  exemplarIds: string[];
  letters: OptionLetter[];
  /** letter-logits: the letters' token ids, log-probabilities and softmax; empty for generate-extract and cloze. */
  tokenIds: number[];
  /** log P(letter | prompt) under the full vocabulary; cloze: each option text's summed log-probability (cloze.logLikelihoods). */
  logProbs: number[];
  /** Softmax over the letters only; cloze: over the options' summed log-probabilities. */
  probs: number[];
  /** Cloze runs: every option's numbers; `prediction` is then the `acc` rule's (largest sum). */
  cloze?: ClozeScores;
  /** null when a generated answer named no letter (counted wrong, and counted apart). */
  prediction: OptionLetter | null;
  /** generate-extract: the generated answer and which extraction rule decided. */
  generated?: { output: string; rule: string | null; ambiguous: boolean };
  gold: OptionLetter | null;
  /** null when the item has no answer key (AC-EVAL test). */
  correct: boolean | null;
  reusedPrefixTokens: number;
  forwardMs: number;
  completedAt: string;
  /**
   * The item's other cyclic rotations (1 … n − 1, in order) in a circular run and for a PriDe
   * estimation item; absent otherwise. This result itself is rotation 0 (the benchmark's order), so
   * every plain metric of a circular run is the plain run's. Each rotation is appended (and the
   * result written again) the moment it is scored, so a reload resumes from the rotation in flight;
   * the item is complete when it has rotationCount(options) − 1 of them.
   */
  rotations?: McRotationResult[];
  /**
   * Set when the item could not be run: its prompt is over the context limit even with no exemplars
   * (`run.item-too-long`), or the model threw on it (a `model.*` notice). Such a result has
   * prediction null, correct null, empty letters' numbers, and is counted apart as failed: never
   * scored wrong, never counted as unscored. Absent in records from before failures were recorded.
   */
  failure?: Notice;
}

/**
 * What a cloze run keeps per item, one entry per option in the item's order (see ClozeLayout). The
 * prediction rules (core/metrics/cloze-rules.ts) are computed from these, never stored.
 */
export interface ClozeScores {
  /** Σ log p(token | everything before it) over the option text's tokens, full-vocabulary log-softmax. */
  logLikelihoods: number[];
  /** Tokens of each continuation (the harness's split, encode-pair.ts); absent on harness imports (its samples do not say). */
  tokenCounts?: number[];
  /** Characters as Python's len() counts them (the harness's completion_len for acc_norm). */
  charCounts: number[];
  /** UTF-8 bytes (acc_bytes, bits per byte). */
  byteCounts: number[];
  /** Every token of the continuation was the argmax at its position (the harness's is_greedy). */
  isGreedy: boolean[];
  /** The same sums after the answer cue alone (domain-conditional PMI); absent where not computed (harness imports). */
  unconditional?: number[];
  /**
   * The context's tokens, and whether the whole's tokens began with them (false: the tokenizer merged
   * across the boundary); absent on harness imports, whose samples say neither.
   */
  contextTokens?: number;
  contextIsPrefix?: boolean[];
}

/**
 * One item asked under rotation `rotation` (≥ 1): its options shifted (see rotateItem), the letters,
 * prediction and gold are positions in that rotated order. `correct` says whether the prediction is
 * the moved gold; originalLetter() maps a letter back to the benchmark's order.
 */
export interface McRotationResult
  extends Pick<McItemResult, 'promptHash' | 'tokenCount' | 'letters' | 'tokenIds' | 'logProbs' | 'probs' | 'prediction' | 'generated' | 'gold' | 'correct' | 'reusedPrefixTokens' | 'forwardMs' | 'completedAt' | 'failure'> {
  /** 1 … n − 1 (see rotateItem). A failed rotation (too long, or the model threw) is not scored; its item is left out of circular metrics. */
  rotation: number;
}

/** Whether a result is an item that could not be run. */
export function isFailed(result: { failure?: Notice }): boolean {
  return result.failure !== undefined;
}

// The answer-key check an imported run carries in its origin (made by key-check.ts).
/** One item whose answer in the file is not the local one. */
export interface KeyDisagreement {
  itemId: string;
  /** The file's gold letter (multiple choice) or references (generation). */
  file: OptionLetter | null | string[];
  /** This browser's. */
  local: OptionLetter | null | string[];
}

/** The outcome of comparing an imported run's answer key with this browser's copy of the benchmark. */
export interface KeyCheck {
  checkedAt: string;
  /**
   * `agrees`: every item found here has the same answer; `disagrees`: some differ (the results are
   * rescored with the local key); `no-local-data`: the benchmark is not stored here, the file's key
   * is shown as it is, unchecked.
   */
  status: 'agrees' | 'disagrees' | 'no-local-data';
  /** Whether the file names other data files (sha256) than the stored copy's. */
  filesDiffer: boolean;
  /** Results whose item is stored here and was compared. */
  compared: number;
  /**
   * Results that could not be compared: with no local copy, every result (left as the file has
   * them, unchecked); with one, always 0 (such results are set apart instead).
   */
  missing: number;
  /** Results whose item is not in the local copy, left out of the stored run and of every number (absent in checks of older versions). */
  setApart?: number;
  /** The first SET_APART_IDS_KEPT of their item ids, in file order. */
  setApartIds?: string[];
  /** Every disagreeing item, in run order, with both answers. */
  disagreements: KeyDisagreement[];
  /** The overall score as the file's own key gives it, before rescoring (percent; null if none). */
  fileOverall: number | null;
}
