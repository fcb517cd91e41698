// What the worker holds for a loaded model, and the small helpers every request uses.
import { DynamicCache, Tensor, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import type { LoadResult } from '../src/lib/engine/messages.ts';
import { modelError, type LoadContext } from '../src/lib/engine/model-errors.ts';
import { RequestError } from './request-error.ts';
import { CHAT_TEMPLATE_OPTIONS } from '../src/lib/core/protocols/chat-template.ts';
import type { LetterInContext } from '../src/lib/core/protocols/letter-tokens.ts';
import type { RowStats } from '../src/lib/core/logprobs.ts';

export interface Loaded {
  model: PreTrainedModel;
  tokenizer: PreTrainedTokenizer;
  context: LoadContext;
  info: LoadResult;
  /**
   * Rows one forward pass is given while prefilling a prompt when the graph cannot keep only the
   * last logits row: from the memory setting, or fixed for q8 (see prefillRowsFor).
   */
  maxLogitsRows: number;
  /**
   * Most prompt rows one pass may take even when the graph keeps only the last logits row; null for
   * no limit. Set for GroupQueryAttention graphs on WebGPU (GQA_WEBGPU_PASS_ROWS), else null.
   */
  maxPassRows: number | null;
  /** The KV cache of the last prefix scored, kept while the next prompts share it. */
  prefixCache: PrefixCacheEntry | null;
  /**
   * Earlier prefixes' caches kept too, least recently used first, at most keptPrefixBytes in all
   * (see keepPrefix): a run asked in the shuffled order (core/protocols/run-sampling.ts) returns to
   * each task after the others' blocks, and finds its exemplar prefix here. Absent: none kept.
   */
  keptPrefixes?: PrefixCacheEntry[];
  /** Bytes the kept prefixes may hold on this device (keptPrefixBudget); absent: KEPT_PREFIX_BYTES. */
  keptPrefixBytes?: number;
  /**
   * The state after a cloze protocol's answer cue alone (PMI's unconditional context), kept for the
   * run, with the scores of the continuations already scored after it by their token ids (an option
   * text repeats across items: 25% of ACLUE's options, 15% of CMMLU's).
   */
  answerCueCache: { text: string; state: { cache: DynamicCache; length: number; lastRow: Float32Array; lastStats: RowStats }; scores: Map<string, number> } | null;
  /** How a candidate tokenizes after a prompt (the merge check among it), by prompt ending and candidate. */
  mergeChecks: Map<string, LetterInContext>;
  /** The last few texts encoded for a request (see encodeRecent), newest last. */
  recentEncodings: Map<string, number[]>;
}

export { RequestError } from './request-error.ts';

/** A prefix's token ids and the KV cache after them, with the cache's size. */
export interface PrefixCacheEntry {
  ids: readonly number[];
  cache: DynamicCache;
  /** Bytes of the cache's tensors (on the CPU or the GPU). */
  bytes?: number;
}

/**
 * The most bytes of earlier prefixes' caches kept besides the current one. A run in the shuffled
 * order comes back to a task after every other task's block; with its prefix kept it pays no second
 * prefill (scripts/bench/sample-order.ts). 256 MiB holds every task's 5-shot prefix of the fixture
 * models and of Qwen2.5-0.5B (fp32 KV: 24 layers × 2 × 2 heads × 64 × 4 bytes = 24 KiB a token, about
 * 17 MiB for a 700-token prefix: all 15 ACLUE tasks) and one of Qwen3-0.6B's (224 KiB a token,
 * about 150 MiB); the order's doubling blocks keep the rest cheap (run-sampling.ts DEFAULT_BLOCK).
 * q8 runs reuse no prefix at all (McRunConfig.prefixReuse), so they keep nothing here.
 */
export const KEPT_PREFIX_BYTES = 256 * 1024 * 1024;
/** The least kept: one 5-shot prefix of Qwen2.5-0.5B (about 17 MiB) still comes back to its task. */
export const MIN_KEPT_PREFIX_BYTES = 16 * 1024 * 1024;

/**
 * The kept prefixes' budget on this device: a quarter of what the tab's half of the device's memory
 * leaves beside the weights, between MIN_KEPT_PREFIX_BYTES and KEPT_PREFIX_BYTES. A tab gets about
 * half of a device (the browser, the OS and other tabs the rest); the weights are held once
 * (external-weights.ts); the other three quarters stay free for activations, logits and the page.
 * Without a device figure (navigator.deviceMemory is Chromium's, rounded down to a power of two and
 * capped at 8 GiB), the fixed KEPT_PREFIX_BYTES. An 8 GB laptop keeps 256 MiB beside a 0.6B model;
 * a 2 GB Chromebook about 100 MiB; 1 GB 16 MiB.
 */
export function keptPrefixBudget(deviceMemoryGiB: number | undefined, weightsBytes: number | null): number {
  if (!deviceMemoryGiB || !Number.isFinite(deviceMemoryGiB) || deviceMemoryGiB <= 0) return KEPT_PREFIX_BYTES;
  const headroom = (deviceMemoryGiB * 2 ** 30) / 2 - (weightsBytes ?? 0);
  return Math.min(KEPT_PREFIX_BYTES, Math.max(MIN_KEPT_PREFIX_BYTES, Math.floor(headroom / 4)));
}

/** Bytes of a KV cache's tensors: float16 2 a value, everything else 4. */
export function cacheBytes(cache: DynamicCache): number {
  let bytes = 0;
  for (const tensor of Object.values(cache) as Tensor[]) bytes += tensor.dims.reduce((a, b) => a * b, 1) * (tensor.type === 'float16' ? 2 : 4);
  return bytes;
}

export function encode(tokenizer: PreTrainedTokenizer, text: string, addSpecialTokens: boolean): number[] {
  return tokenizer.encode(text, { add_special_tokens: addSpecialTokens });
}

/** Texts encodeRecent remembers: a prompt (counted, then scored) and its prefix, with room to spare. */
const RECENT_ENCODINGS = 4;

/**
 * encode() for the texts one request encodes more than once: the protocol counts the prompt's tokens
 * (twice when it checks the context limit), scoring encodes it again, and the next item of a task
 * encodes the same few-shot prefix. Each encode of a 5-shot prompt is about 0.5 ms of a 25 ms item
 * on 2 cores; this keeps the last RECENT_ENCODINGS results, so a prompt is encoded once and a prefix
 * once per task. Callers must not change the array they get.
 */
export function encodeRecent(m: Pick<Loaded, 'tokenizer' | 'recentEncodings'>, text: string, addSpecialTokens: boolean): readonly number[] {
  const key = `${addSpecialTokens ? 1 : 0}${text}`;
  const known = m.recentEncodings.get(key);
  if (known) {
    m.recentEncodings.delete(key);
    m.recentEncodings.set(key, known);
    return known;
  }
  const ids = encode(m.tokenizer, text, addSpecialTokens);
  m.recentEncodings.set(key, ids);
  while (m.recentEncodings.size > RECENT_ENCODINGS) m.recentEncodings.delete(m.recentEncodings.keys().next().value!);
  return ids;
}

/**
 * The prompt as the user turn of the model's chat template, ready for the assistant's answer, with
 * thinking off (CHAT_TEMPLATE_OPTIONS): a Qwen3 template would otherwise expect `<think>` next.
 */
export function applyChatTemplate(tokenizer: PreTrainedTokenizer, prompt: string): string {
  try {
    return tokenizer.apply_chat_template([{ role: 'user', content: prompt }], { tokenize: false, ...CHAT_TEMPLATE_OPTIONS }) as string;
  } catch (error) {
    throw new RequestError(modelError('bad-request', 'model.no-chat-template', [], String(error)));
  }
}

export function idsTensor(ids: number[]): Tensor {
  return new Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]);
}

export function onesTensor(length: number): Tensor {
  return new Tensor('int64', new BigInt64Array(length).fill(1n), [1, length]);
}

/**
 * Rows per prefill pass of a dynamically quantized (q8) graph, fixed whatever the memory setting.
 * DynamicQuantizeLinear picks one activation scale per pass over all the rows it gets, so the chunk
 * size changes q8 logits (by up to about 0.5 on a trained model); a fixed size makes a q8 score a
 * function of the model and the prompt alone. 32 rows bound one pass's logits at 32 × vocab × 4
 * bytes: 19 MiB for Qwen's 151,936 tokens, under the default 64 MiB. A single pass would be the
 * other way, but its logits grow with the prompt (580 MiB for 1,000 Qwen tokens).
 */
export const Q8_PREFILL_ROWS = 32;

/**
 * Rows per pass of a GroupQueryAttention graph on WebGPU. onnxruntime-web 1.31.0-dev's WebGPU
 * GroupQueryAttention gives wrong logits for a first pass of 32 tokens or more (measured on
 * SwiftShader with jiangu-tiny-gqa: 28 tokens agree with 1-row passes to 2e-6, 32 tokens differ by
 * about 1 in log-probability), while passes of a few rows on a longer cache agree. Chunked prefill
 * always hid it; a graph that keeps one row would run a whole prompt in one pass, so such graphs
 * still take their prompt 16 rows at a time (each pass returning its one row).
 */
export const GQA_WEBGPU_PASS_ROWS = 16;

/** The dtypes whose graphs quantize activations per forward pass (DynamicQuantizeLinear). */
const DYNAMICALLY_QUANTIZED = new Set(['q8', 'int8', 'uint8']);

/** Rows per prefill pass: fixed for q8, otherwise as many as `maxLogitsBytes` allows (at least 1). */
export function prefillRowsFor(dtype: string, maxLogitsBytes: number, vocabSize: number): number {
  if (DYNAMICALLY_QUANTIZED.has(dtype)) return Q8_PREFILL_ROWS;
  return Math.max(1, Math.floor(maxLogitsBytes / (4 * vocabSize)));
}
