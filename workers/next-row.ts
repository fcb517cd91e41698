// One next-token logits row, whole, for the temperature dial (issue 45 §3): the page redraws the
// distribution at every temperature from this row alone, so the dial moves with no pass per move.
//
// The row is computed the way the view it stands beside computed it, pass for pass: a row from a
// pass of another length, or from a pass that kept every row rather than one, may differ from the
// view's in the last bits wherever a backend's kernels depend on the pass's shape (on jiangu-tiny in
// onnxruntime-node the two agree bit for bit; nothing promises it on WebGPU), and then the dial's
// 47.5 % at temperature 1 would not be the view's 47.5 %. So:
//  - no `tokens`: readPassage's passes (workers/reading.ts: rowsPerPass rows a pass, every row kept),
//    whose row after `after` tokens is reading.rows[after − 1] (the last: the reading's "next?");
//  - `tokens`: sampleContinuation's passes (workers/sample-steps.ts: the prompt prefilled, then one
//    pass a token), whose row after i tokens is step i's.
import type { DynamicCache } from '@huggingface/transformers';
import { readRow } from '../src/lib/core/reading/row-reading.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import type { NextTokenRowParams, NextTokenRowResult } from '../src/lib/engine/messages.ts';
import { encode, RequestError, type Loaded } from './loaded-model.ts';
import { logitsRows } from './logits.ts';
import { tokenText } from './reading.ts';
import { cacheOf, disposeOutputs, forward, prefill } from './scoring.ts';
import { rowsPerPass } from './statistics.ts';

/** How many of the row's ids come with their text: the dial shows ten; a projector never more than this. */
export const ROW_TEXTS = 100;

/**
 * Row `at` of readPassage's passes over `ids` (the same chunks, every row kept, as it reads them),
 * stopping after the pass that holds it: that pass has the very shape readPassage gave it.
 */
async function readingRow(m: Loaded, ids: readonly number[], at: number): Promise<Float32Array> {
  const step = rowsPerPass(m);
  let cache: DynamicCache | null = null;
  let length = 0;
  for (let start = 0; start < ids.length; start += step) {
    const chunk = ids.slice(start, start + step);
    const outputs = await forward(m, chunk, cache, length, 0);
    const found = at < start + chunk.length;
    const next = found ? null : cacheOf(outputs);
    let row: Float32Array | null = null;
    try {
      if (found) {
        const logits = outputs.logits;
        const [, got, width] = logits.dims as [number, number, number];
        if (got !== chunk.length) throw new RangeError(`a pass of ${chunk.length} tokens returned ${got} rows of ${width}`);
        const i = at - start;
        row = logitsRows(logits, i * width, (i + 1) * width);
      }
    } finally {
      await disposeOutputs(outputs, new Set(next ? Object.values(next) : []));
      if (cache) await cache.dispose();
    }
    if (row) return row;
    cache = next;
    length += chunk.length;
  }
  throw new RangeError(`row ${at} of ${ids.length} tokens`);
}

/** The row after `promptIds` then `tokens`, as sampleContinuation computes it at step tokens.length. */
async function samplingRow(m: Loaded, promptIds: readonly number[], tokens: readonly number[]): Promise<Float32Array> {
  const first = await prefill(m, promptIds, null, 0);
  let cache = first.cache;
  let row: Float32Array = first.lastRow;
  let length = promptIds.length;
  const vocab = row.length;
  try {
    for (const token of tokens) {
      const outputs = await forward(m, [token], cache, length, 1);
      const next = cacheOf(outputs);
      try {
        const logits = outputs.logits;
        const width = logits.dims[logits.dims.length - 1];
        if (width !== vocab) throw new RangeError(`a step returned logits of width ${width}, not ${vocab}`);
        row = logitsRows(logits, logits.data.length - vocab, logits.data.length);
      } finally {
        await disposeOutputs(outputs, new Set(Object.values(next)));
        await cache.dispose();
        cache = next;
      }
      length++;
    }
  } finally {
    await cache.dispose();
  }
  return row;
}

/** The next-token row after `params.text` (and `params.tokens`); see NextTokenRowParams for which view's. */
export async function nextTokenRow(m: Loaded, params: NextTokenRowParams): Promise<NextTokenRowResult> {
  const textIds = encode(m.tokenizer, params.text, true);
  if (textIds.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  const tokens = params.tokens ?? [];
  const vocabSize = m.info.vocabSize;
  const bad = tokens.find((id) => !(Number.isInteger(id) && id >= 0 && id < vocabSize));
  // The page sends the ids a continuation drew; anything else is a caller's mistake, named.
  if (bad !== undefined) throw new RequestError(modelError('bad-request', 'model.failed', [{ detail: `token id ${bad} is outside the vocabulary of ${vocabSize}` }]));
  // Past its positions a model fails deep inside (a RoPE Gather out of range): refused, as sampleSteps refuses.
  const positions = m.info.context?.tokens;
  const count = textIds.length + tokens.length;
  if (positions !== undefined && count > positions) throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: '—', tokens: count, limit: positions }]));
  const after = params.after ?? textIds.length;
  if (params.after !== undefined && (params.tokens !== undefined || !Number.isInteger(after) || after < 1 || after > textIds.length)) {
    throw new RequestError(modelError('bad-request', 'model.failed', [{ detail: params.tokens !== undefined ? 'after and tokens cannot be asked together' : `after ${after} is not a count of the text's ${textIds.length} tokens` }]));
  }
  const computed = params.tokens === undefined ? await readingRow(m, textIds, after - 1) : await samplingRow(m, textIds, tokens);
  // Its own buffer, so the reply transfers exactly the row (a view's whole buffer would be cloned).
  const logits = computed.byteOffset === 0 && computed.byteLength === computed.buffer.byteLength ? computed : computed.slice();
  const texts: Record<number, string> = {};
  for (const id of readRow(logits, 0, logits.length, null, ROW_TEXTS, null).topIds) texts[id] = tokenText(m.tokenizer, id).text;
  return { logits, vocab: logits.length, texts };
}
