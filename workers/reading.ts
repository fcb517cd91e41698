// A passage read by the model (the reading view and 断句, issue 37): every token's row, read pass by
// pass through the KV cache so no pass holds more than rowsPerPass rows of logits (the memory bound
// every statistics pass keeps), each row reduced here to readRow's few numbers before the next pass.
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { readRow, type RowReading } from '../src/lib/core/reading/row-reading.ts';
import { punctuationIds } from '../src/lib/core/reading/punctuation-tokens.ts';
import { bytesOfPiece, hexBytes } from '../src/lib/core/reading/byte-pieces.ts';
import type { PassagePiece, PassageReading } from '../src/lib/core/reading/passage.ts';
import { placeUnknown } from '../src/lib/core/reading/unknown-chars.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import type { ReadPassageParams, ReadPassageResult } from '../src/lib/engine/messages.ts';
import { encode, RequestError, type Loaded } from './loaded-model.ts';
import { logitsRows } from './logits.ts';
import { cacheOf, disposeOutputs, forward } from './scoring.ts';
import { rowsPerPass } from './statistics.ts';

/** The tokens listed at each position. */
export const READING_TOP = 10;

const punctuationByTokenizer = new WeakMap<PreTrainedTokenizer, number[]>();
const vocabStrings = new WeakMap<PreTrainedTokenizer, string[]>();

/** Every id's text decoded alone, once per tokenizer: the punctuation ids among them (punctuation-tokens.ts). */
function punctuationOf(tokenizer: PreTrainedTokenizer, vocab: number): number[] {
  let ids = punctuationByTokenizer.get(tokenizer);
  if (!ids) {
    const pieces: string[] = [];
    for (let id = 0; id < vocab; id++) pieces.push(tokenizer.decode([id], { skip_special_tokens: true }));
    punctuationByTokenizer.set(tokenizer, (ids = punctuationIds(pieces)));
  }
  return ids;
}

/** The vocabulary's own strings by id (a byte piece's name, e.g. <0xE6> or a byte-level BPE symbol). */
function vocabString(tokenizer: PreTrainedTokenizer, id: number): string {
  let strings = vocabStrings.get(tokenizer);
  if (!strings) {
    strings = [];
    for (const [token, tokenId] of tokenizer.get_vocab()) strings[tokenId] = token;
    vocabStrings.set(tokenizer, strings);
  }
  return strings[id] ?? `#${id}`;
}

/**
 * A token's own text as a class should see it: its decoded text; a byte piece as its bytes (E6 96);
 * a piece that decodes to nothing alone (SentencePiece's word-start ▁) as its vocabulary string.
 */
export function tokenText(tokenizer: PreTrainedTokenizer, id: number): { text: string; byte: boolean } {
  const alone = tokenizer.decode([id], { skip_special_tokens: false });
  if (alone.includes('\uFFFD')) {
    const bytes = bytesOfPiece(vocabString(tokenizer, id));
    return { text: bytes ? hexBytes(bytes) : vocabString(tokenizer, id), byte: true };
  }
  return { text: alone === '' ? vocabString(tokenizer, id) : alone, byte: false };
}

/**
 * How the tokenizer cut the passage: each token's text, and the characters complete after it. With
 * `passage`, the text the ids encode, an unknown token (<unk>, which decodes to nothing) gets back the
 * passage's characters it stands for (unknown-chars.ts), and `chars` are the passage's own.
 */
export function piecesOf(tokenizer: PreTrainedTokenizer, ids: readonly number[], passage?: string): { chars: string[]; pieces: PassagePiece[]; charEnds: number[] } {
  const special = new Set<number>(tokenizer.all_special_ids as number[]);
  const pieces: PassagePiece[] = [];
  const charEnds: number[] = [];
  let chars: string[] = [];
  for (let j = 0; j < ids.length; j++) {
    // Decoding the prefix, not the token alone: a byte-level piece becomes characters only with its
    // neighbours, and a SentencePiece word's leading space depends on what comes before it.
    const decoded = [...tokenizer.decode(ids.slice(0, j + 1), { skip_special_tokens: true })];
    // A character still waiting for its other bytes decodes as U+FFFD at the end: not complete yet.
    let complete = decoded.length;
    while (complete > 0 && decoded[complete - 1] === '\uFFFD') complete--;
    complete = Math.max(complete, charEnds[j - 1] ?? 0);
    const isSpecial = special.has(ids[j]);
    const { text, byte } = tokenText(tokenizer, ids[j]);
    pieces.push({ text, byte: byte && !isSpecial, special: isSpecial });
    charEnds.push(complete);
    chars = decoded.slice(0, complete);
  }
  const unk = (tokenizer as { unk_token_id?: number | null }).unk_token_id;
  const unknown = ids.map((id) => unk !== undefined && unk !== null && id === unk);
  if (passage === undefined || !unknown.includes(true)) return { chars, pieces, charEnds };
  const placed = placeUnknown([...passage], chars, charEnds, unknown);
  unknown.forEach((u, j) => {
    if (u) pieces[j] = { text: placed?.unknownText.get(j) || '?', byte: false, special: false, unknown: true };
  });
  return placed ? { chars: placed.chars, pieces, charEnds: placed.charEnds } : { chars, pieces, charEnds };
}

/** Reads `params.text`: its tokens (special ones as the tokenizer adds them) and the row after each. */
export async function readPassage(m: Loaded, params: ReadPassageParams): Promise<ReadPassageResult> {
  const started = performance.now();
  const ids = encode(m.tokenizer, params.text, true);
  if (ids.length === 0) throw new RequestError(modelError('bad-request', 'model.empty-prompt', []));
  if (params.contextLimit !== undefined && ids.length > params.contextLimit) {
    throw new RequestError(modelError('too-long', 'run.item-too-long', [{ itemId: params.itemId ?? '—', tokens: ids.length, limit: params.contextLimit }]));
  }
  const punctuation = params.punctuation ? punctuationOf(m.tokenizer, m.info.vocabSize) : null;
  const top = Math.max(1, Math.min(params.top ?? READING_TOP, 50));
  const rows: RowReading[] = [];
  const step = rowsPerPass(m);
  let cache = null;
  let length = 0;
  let passes = 0;
  for (let start = 0; start < ids.length; start += step) {
    const chunk = ids.slice(start, start + step);
    const outputs = await forward(m, chunk, cache, length, 0);
    const last = start + step >= ids.length;
    const next = last ? null : cacheOf(outputs);
    try {
      const logits = outputs.logits;
      const [, got, width] = logits.dims as [number, number, number];
      if (got !== chunk.length) throw new RangeError(`a pass of ${chunk.length} tokens returned ${got} rows of ${width}`);
      const data = logits.type === 'float32' ? (logits.data as Float32Array) : logitsRows(logits);
      for (let i = 0; i < got; i++) {
        const j = start + i;
        rows.push(readRow(data, i * width, width, j + 1 < ids.length ? ids[j + 1] : null, top, punctuation));
      }
      passes++;
    } finally {
      await disposeOutputs(outputs, new Set(next ? Object.values(next) : []));
      if (cache) await cache.dispose();
    }
    cache = next;
    length += chunk.length;
  }
  const { chars, pieces, charEnds } = piecesOf(m.tokenizer, ids, params.text);
  const reading: PassageReading = { chars, ids, pieces, charEnds, rows };
  const topTexts: Record<number, string> = {};
  for (const row of rows) for (const id of row.topIds) topTexts[id] ??= tokenText(m.tokenizer, id).text;
  return { reading, topTexts, punctuationTokens: punctuation?.length ?? null, forwardPasses: passes, ms: performance.now() - started };
}
