// Next-token log-probabilities at the last position of a prompt, computing (and copying) as few
// logits as the graph allows: one row when it declares `num_logits_to_keep`, otherwise a prefill in
// chunks through the KV cache so no forward materialises more than `maxLogitsRows` rows (a size
// fixed for q8 graphs, see prefillRowsFor in loaded-model.ts).
import { DynamicCache, Tensor } from '@huggingface/transformers';
import type { ScoreItemOnTheWire, ScoreItemParams, ScoreOnTheWire, ScoreParams } from '../src/lib/engine/messages.ts';
import { hasPrefix } from '../src/lib/core/token-prefix.ts';
import { buildMcPrompt, getProtocol, letterInContext, type LetterInContext } from '../src/lib/core/protocols/index.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import { logitsRows } from './logits.ts';
import { applyChatTemplate, cacheBytes, encode, encodeRecent, idsTensor, KEPT_PREFIX_BYTES, onesTensor, RequestError, type Loaded, type PrefixCacheEntry } from './loaded-model.ts';

type ForwardOutputs = Record<string, Tensor>;

/** Disposes the GPU buffers among a forward pass's outputs that nothing keeps. */
export async function disposeOutputs(outputs: ForwardOutputs, keep: ReadonlySet<Tensor> = new Set()): Promise<void> {
  await Promise.all(
    Object.values(outputs)
      .filter((t) => t.location === 'gpu-buffer' && !keep.has(t))
      .map((t) => t.dispose()),
  );
}

/** One forward pass of `ids` on `past`; `keep` logits rows from the end when the graph takes a count (cloze keeps every row). */
export async function forward(m: Loaded, ids: number[], past: DynamicCache | null, pastLength: number, keep = 1): Promise<ForwardOutputs> {
  const inputs: Record<string, unknown> = {
    input_ids: idsTensor(ids),
    attention_mask: onesTensor(pastLength + ids.length),
  };
  if (past) inputs.past_key_values = past;
  if (m.info.inputNames.includes('num_logits_to_keep')) inputs.num_logits_to_keep = new Tensor('int64', [BigInt(keep)], []);
  return (await m.model.forward(inputs)) as ForwardOutputs;
}

export function cacheOf(outputs: ForwardOutputs): DynamicCache {
  const entries: Record<string, Tensor> = {};
  for (const [name, tensor] of Object.entries(outputs)) {
    if (name.startsWith('present')) entries[name.replace('present', 'past_key_values')] = tensor;
  }
  return new DynamicCache(entries);
}

interface Prefill {
  /** The cache after every token, owned by the caller (dispose it, or keep it as a prefix cache). */
  cache: DynamicCache;
  /** Logits of the last position. */
  lastRow: Float32Array;
  logitsCopied: number;
  passes: number;
}

/**
 * Runs `ids` on top of `past` (which stays untouched and owned by the caller), in chunks when the
 * graph would return logits for every position of a long input.
 */
export async function prefill(m: Loaded, ids: readonly number[], past: DynamicCache | null, pastLength: number): Promise<Prefill> {
  const keepsLast = m.info.inputNames.includes('num_logits_to_keep');
  const step = keepsLast ? Math.min(ids.length, m.maxPassRows ?? Infinity) : Math.max(1, m.maxLogitsRows);
  let cache = past;
  let length = pastLength;
  let copied = 0;
  let passes = 0;
  let lastRow = new Float32Array(0);
  for (let start = 0; start < ids.length; start += step) {
    const chunk = ids.slice(start, start + step);
    const outputs = await forward(m, chunk, cache, length);
    const logits = outputs.logits;
    const [, rows, vocab] = logits.dims as [number, number, number];
    copied += rows * vocab;
    passes++;
    // One float32 row is the tensor's own array (onnxruntime-web copies outputs out of the wasm
    // heap, so nothing reuses it): no 600 kB copy per item for Qwen's vocabulary. More rows, or
    // float16 logits (fp16, q4f16: Float16Array or raw half bits), are copied and converted.
    lastRow = rows === 1 && logits.type === 'float32' && logits.data.length === vocab ? (logits.data as Float32Array<ArrayBuffer>) : logitsRows(logits, (rows - 1) * vocab, rows * vocab);
    const next = cacheOf(outputs);
    await disposeOutputs(outputs, new Set(Object.values(next)));
    // An intermediate cache of ours is replaced by the next; the caller's `past` is never disposed.
    if (cache && cache !== past) await cache.dispose();
    cache = next;
    length += chunk.length;
  }
  return { cache: cache!, lastRow, logitsCopied: copied, passes };
}

const samePrefix = (entry: PrefixCacheEntry, ids: readonly number[]) => entry.ids.length === ids.length && hasPrefix(ids, entry.ids);

/**
 * Makes `entry` the current prefix, keeping the one it replaces among m.keptPrefixes (least
 * recently used dropped first) while they fit in `budget` bytes; one too large to keep is disposed.
 */
export async function keepPrefix(m: Pick<Loaded, 'prefixCache' | 'keptPrefixes' | 'keptPrefixBytes'>, entry: PrefixCacheEntry, budget = m.keptPrefixBytes ?? KEPT_PREFIX_BYTES): Promise<void> {
  const previous = m.prefixCache;
  m.prefixCache = entry;
  if (!previous || previous === entry) return;
  const kept = (m.keptPrefixes ??= []);
  previous.bytes ??= cacheBytes(previous.cache);
  kept.push(previous);
  let total = kept.reduce((n, e) => n + (e.bytes ?? 0), 0);
  while (kept.length > 0 && total > budget) {
    const dropped = kept.shift()!;
    total -= dropped.bytes ?? 0;
    await dropped.cache.dispose();
  }
}

/** Disposes every prefix cache the model holds (on unload). */
export async function disposePrefixes(m: Pick<Loaded, 'prefixCache' | 'keptPrefixes'>): Promise<void> {
  for (const entry of [m.prefixCache, ...(m.keptPrefixes ?? [])]) await entry?.cache.dispose();
  m.prefixCache = null;
  m.keptPrefixes = [];
}

/**
 * The KV cache for `prefixIds`, computed once while the same prefix keeps coming (or found among
 * the kept ones, when the run comes back to a task), with the logits and forward passes that
 * computing it cost (zero when it was cached).
 */
export async function prefixCacheFor(m: Loaded, prefixIds: readonly number[]): Promise<{ cache: DynamicCache; logitsCopied: number; passes: number }> {
  const cached = m.prefixCache;
  if (cached && samePrefix(cached, prefixIds)) return { cache: cached.cache, logitsCopied: 0, passes: 0 };
  const at = m.keptPrefixes?.findIndex((e) => samePrefix(e, prefixIds)) ?? -1;
  if (at >= 0) {
    const [found] = m.keptPrefixes!.splice(at, 1);
    await keepPrefix(m, found);
    return { cache: found.cache, logitsCopied: 0, passes: 0 };
  }
  const { cache, logitsCopied, passes } = await prefill(m, prefixIds, null, 0);
  await keepPrefix(m, { ids: prefixIds, cache });
  return { cache, logitsCopied, passes };
}

/**
 * The end of a prompt that decides how a letter written after it tokenizes: the text after the last
 * line break when that is at most 32 characters, else the last 32 characters. A line break ends
 * every pre-token of the byte-level BPE tokenizers (GPT-2, Qwen and Llama 3 split `\n` runs off and
 * never start a word with one), so what follows it alone decides the join; every item of a protocol
 * ends with the same answer line (`答案是：`), so the check runs once per run, not per item (the last
 * 32 characters hold the options, which differ).
 */
export function mergeCheckKey(text: string): string {
  const lineBreak = text.lastIndexOf('\n');
  // The break is kept in the key: a text's start (where a tokenizer may prepend `▁`) differs from it.
  return lineBreak >= 0 && text.length - lineBreak - 1 <= 32 ? text.slice(lineBreak) : text.slice(-32);
}

/** How `candidate` tokenizes written right after `text` (see letterInContext), cached by mergeCheckKey. */
function candidateInContext(m: Loaded, text: string, textIds: readonly number[], candidate: string): LetterInContext {
  const key = `${mergeCheckKey(text)}\u0000${candidate}`;
  const known = m.mergeChecks.get(key);
  if (known !== undefined) return known;
  const found = letterInContext((t, special) => encode(m.tokenizer, t, special), text, textIds, candidate);
  m.mergeChecks.set(key, found);
  return found;
}

export async function score(m: Loaded, params: ScoreParams): Promise<ScoreOnTheWire> {
  const started = performance.now();
  if (params.candidates.length === 0) throw new RequestError(modelError('bad-request', 'model.no-candidates', []));
  const text = params.chatTemplate ? applyChatTemplate(m.tokenizer, params.prompt) : params.prompt;
  const inputIds = encodeRecent(m, text, true);
  if (inputIds.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  const candidateTokens = params.candidates.map((c) => candidateInContext(m, text, inputIds, c));
  const bad = params.candidates.findIndex((_, i) => candidateTokens[i].tokenId === null);
  if (bad >= 0) throw new RequestError(modelError('bad-request', 'model.candidate-no-token', [{ candidate: params.candidates[bad] }]));

  let reused = 0;
  let past: DynamicCache | null = null;
  let prefixCost = { logitsCopied: 0, passes: 0 };
  const at = params.prefix ? text.indexOf(params.prefix) : -1;
  if (params.prefix && at >= 0) {
    // With a chat template the prefix sits after the template's opening; the cached part is all of that.
    const prefixIds = encodeRecent(m, text.slice(0, at + params.prefix.length), true);
    // Reuse only when the prompt's tokens really begin with the prefix's tokens and leave at least one.
    if (prefixIds.length < inputIds.length && hasPrefix(inputIds, prefixIds)) {
      const prefix = await prefixCacheFor(m, prefixIds);
      past = prefix.cache;
      prefixCost = prefix;
      reused = prefixIds.length;
    }
  }
  const run = await prefill(m, inputIds.slice(reused), past, reused);
  await run.cache.dispose();
  const vocab = run.lastRow.length;
  for (const t of candidateTokens) if (t.tokenId! >= vocab) throw new RangeError(`token id ${t.tokenId} is outside the vocabulary of ${vocab}`);
  // Normalised over the vocabulary by ModelClient (scoreFromWire), off this thread.
  return {
    inputIds: [...inputIds],
    candidates: params.candidates.map((candidate, i) => ({
      text: candidate,
      tokenId: candidateTokens[i].tokenId!,
      tokenCount: candidateTokens[i].tokenCount,
      mergesWithPrompt: candidateTokens[i].mergesWithPrompt,
      tokenIdsInContext: candidateTokens[i].idsInContext,
      aloneTokenIds: candidateTokens[i].aloneIds,
    })),
    reusedPrefixTokens: reused,
    // What this request computed, the prefix's pass included when it was not cached yet.
    logitsCopied: run.logitsCopied + prefixCost.logitsCopied,
    forwardPasses: run.passes + prefixCost.passes,
    text,
    forwardMs: performance.now() - started,
    lastRow: run.lastRow,
  };
}

export const countFor = (m: Loaded, chatTemplate: boolean) => (prompt: string) =>
  encodeRecent(m, chatTemplate ? applyChatTemplate(m.tokenizer, prompt) : prompt, true).length;

/** The item's prompt under its protocol, with the context limit counted by this model's tokenizer. */
export function buildItemPrompt(m: Loaded, params: ScoreItemParams) {
  return buildMcPrompt(getProtocol(params.protocolId), params.item, params.exemplars, params.shots, { countTokens: countFor(m, params.chatTemplate), contextLimit: params.contextLimit });
}

/**
 * A prompt over the limit even with no exemplars is not sent to the model: past its positions the
 * model fails deep inside (a RoPE Gather out of range), and cut short it would be another question.
 */
export function refuseOverLimit(m: Loaded, params: ScoreItemParams, built: { prompt: string; overLimit: boolean }): void {
  if (!built.overLimit) return;
  const tokens = countFor(m, params.chatTemplate)(built.prompt);
  throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: params.item.id, tokens, limit: params.contextLimit }]));
}

export async function scoreItem(m: Loaded, params: ScoreItemParams): Promise<ScoreItemOnTheWire> {
  const built = buildItemPrompt(m, params);
  refuseOverLimit(m, params, built);
  const result = await score(m, {
    prompt: built.prompt,
    candidates: built.letters,
    prefix: params.reusePrefix && built.prefix ? built.prefix : undefined,
    chatTemplate: params.chatTemplate,
  });
  return {
    prompt: built.prompt,
    prefix: built.prefix,
    shotsUsed: built.shotsUsed,
    exemplarIds: built.exemplarIds,
    droppedExemplarIds: built.droppedExemplarIds,
    overLimit: built.overLimit,
    score: result,
  };
}
