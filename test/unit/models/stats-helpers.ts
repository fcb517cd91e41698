/**
 * What the statistics-rewrite tests share: a fixture's graph as Jiangu would load it for statistics
 * (rewriteForLastLogits where the graph lacks num_logits_to_keep, then rewriteForStatistics), one
 * forward pass with every output kept, and the comparison of a pass's statistics with rowStatistics
 * of logits rows (the graph's own, or the TypeScript reference's).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { rowStatistics } from '../../../src/lib/core/logprobs.ts';
import { rewriteForLastLogits } from '../../../src/lib/core/models/logits-rewrite.ts';
import { LENS_GATE } from '../../../src/lib/core/models/lens-rewrite.ts';
import { rewriteForStatistics, STATS_OUTPUTS, type StatsRewriteFault } from '../../../src/lib/core/models/stats-rewrite.ts';
import { ONNX_FILE, type FixtureDtype, type ModelSpec } from '../../../scripts/fixtures/specs.ts';
import { halfToFloat } from '../../../workers/logits.ts';
import { openSessionFrom, tensorFor, type Kernels, type ort } from '../fixtures/ort-helpers.ts';

export function fileBytes(dir: string, dtype: FixtureDtype): Uint8Array {
  return new Uint8Array(readFileSync(join(dir, 'onnx', ONNX_FILE[dtype])));
}

/** The graph with num_logits_to_keep (as the author wrote it, or after rewriteForLastLogits). */
export function keepGraph(dir: string, dtype: FixtureDtype): Uint8Array {
  const bytes = fileBytes(dir, dtype);
  const r = rewriteForLastLogits(bytes);
  if (r.kind === 'unrecognised') throw new Error(`logits rewrite refused: ${r.refusal.detail}`);
  return r.kind === 'rewritten' ? r.bytes : bytes;
}

/** keepGraph with the statistics added. */
export function statsGraph(dir: string, dtype: FixtureDtype, fault?: StatsRewriteFault): Uint8Array {
  const r = rewriteForStatistics(keepGraph(dir, dtype), fault ? { fault } : {});
  if (r.kind !== 'rewritten') throw new Error(`statistics rewrite refused: ${r.refusal.detail}`);
  return r.bytes;
}

/** q8 runs on onnxruntime-web's WASM kernels, whose integer sums are the same on every CPU (ort-helpers.ts). */
export const kernelsFor = (dtype: FixtureDtype): Kernels => (dtype === 'q8' ? 'wasm' : 'native');

export const openGraph = (bytes: Uint8Array, dtype: FixtureDtype): Promise<ort.InferenceSession> => openSessionFrom(bytes, kernelsFor(dtype));

export type Outputs = Record<string, ort.Tensor>;

/** One pass of `ids` (rows of equal length) after `past` (null: the empty cache, typed as the graph declares it). */
/** One forward pass; `lens`: the lens gate's value, on a graph that has the gate (lens-rewrite.ts LENS_GATE). */
export async function pass(session: ort.InferenceSession, spec: ModelSpec, ids: number[][], past: Outputs | null, pastLen: number, keep = 0, lens = true): Promise<Outputs> {
  const Tensor = tensorFor(session);
  const i64 = (rows: number[][]) => new Tensor('int64', BigInt64Array.from(rows.flat(), (v) => BigInt(v)), [rows.length, rows[0].length]);
  const feeds: Outputs = { input_ids: i64(ids), attention_mask: i64(ids.map((row) => new Array<number>(pastLen + row.length).fill(1))) };
  if (session.inputNames.includes('position_ids')) feeds.position_ids = i64(ids.map((row) => row.map((_, i) => pastLen + i)));
  if (session.inputNames.includes('num_logits_to_keep')) feeds.num_logits_to_keep = new Tensor('int64', BigInt64Array.of(BigInt(keep)), []);
  if (session.inputNames.includes(LENS_GATE)) feeds[LENS_GATE] = new Tensor('bool', [lens], []);
  for (const meta of session.inputMetadata) {
    if (!meta.name.startsWith('past_key_values.') || !meta.isTensor) continue;
    const dims = [ids.length, spec.numKvHeads, 0, spec.headDim];
    feeds[meta.name] = past?.[meta.name.replace('past_key_values.', 'present.')] ?? (meta.type === 'float16' ? new Tensor('float16', new Uint16Array(0), dims) : new Tensor('float32', new Float32Array(0), dims));
  }
  return session.run(feeds);
}

/** A float tensor's values as float32 (float16 bits converted). */
export function floats(t: ort.Tensor): Float32Array {
  return t.type === 'float16' ? Float32Array.from(t.data as Uint16Array, halfToFloat) : (t.data as Float32Array);
}

/** The logits' bytes, whatever their element type. */
export function bytesOf(t: ort.Tensor): Buffer {
  const d = t.data as Float32Array | Uint16Array;
  return Buffer.from(d.buffer, d.byteOffset, d.byteLength);
}

export interface StatsDiff {
  logprob: number;
  mean: number;
  std: number;
  /** jiangu_last_logprobs against each last row's log-softmax. */
  lastLogprobs: number;
  /** Rows whose argmax differs (a tie in the rows, where `tiesAllowed`, does not count). */
  argmax: number;
  rows: number;
}

export const worst = (d: StatsDiff): number => Math.max(d.logprob, d.mean, d.std, d.lastLogprobs);

/**
 * The statistics of a pass against rowStatistics of `rows` (batch × rows × vocab, float32 values):
 * rows[b][i] is scored at ids[b][i + 1] where that id is in the pass. `tiesAllowed`: an argmax that
 * differs only between values equal in `rows` (float16 rows ORT computed in float32) does not count.
 */
export function compareStats(out: Outputs, rows: Float32Array[][], ids: number[][], tiesAllowed = false): StatsDiff {
  const d: StatsDiff = { logprob: 0, mean: 0, std: 0, lastLogprobs: 0, argmax: 0, rows: 0 };
  const R = rows[0].length;
  const V = rows[0][0].length;
  const logprob = out[STATS_OUTPUTS.tokenLogprob];
  if (logprob.dims[0] !== rows.length || logprob.dims[1] !== R - 1) throw new Error(`token log-probs of dims [${logprob.dims.join(', ')}] for ${rows.length} × ${R} rows`);
  for (const name of [STATS_OUTPUTS.mean, STATS_OUTPUTS.std, STATS_OUTPUTS.argmax]) {
    if (out[name].dims.join() !== [rows.length, R].join()) throw new Error(`${name} has dims [${out[name].dims.join(', ')}]`);
  }
  const lp = logprob.data as Float32Array;
  const mean = out[STATS_OUTPUTS.mean].data as Float32Array;
  const std = out[STATS_OUTPUTS.std].data as Float32Array;
  const argmax = out[STATS_OUTPUTS.argmax].data as BigInt64Array;
  const last = out[STATS_OUTPUTS.lastLogprobs].data as Float32Array;
  const n = ids[0].length;
  const gap = (a: number, b: number) => (Number.isNaN(a) || Number.isNaN(b) ? Infinity : Math.abs(a - b));
  rows.forEach((batchRows, b) => {
    batchRows.forEach((row, i) => {
      const position = n - R + i;
      const target = position + 1 < n ? ids[b][position + 1] : 0;
      const s = rowStatistics(row, 0, V, target);
      if (i < R - 1) d.logprob = Math.max(d.logprob, gap(lp[b * (R - 1) + i], s.logprob));
      d.mean = Math.max(d.mean, gap(mean[b * R + i], s.mean));
      d.std = Math.max(d.std, gap(std[b * R + i], s.std));
      const got = Number(argmax[b * R + i]);
      if (got !== s.argmax && !(tiesAllowed && row[got] === row[s.argmax])) d.argmax++;
      d.rows++;
      if (i === R - 1) {
        const logZ = row[target] - s.logprob;
        for (let v = 0; v < V; v++) d.lastLogprobs = Math.max(d.lastLogprobs, gap(last[b * V + v], row[v] - logZ));
      }
    });
  });
  return d;
}

/** A [batch, rows, vocab] logits tensor as rows of float32 values. */
export function logitsRows(t: ort.Tensor): Float32Array[][] {
  const [B, R, V] = t.dims;
  const all = floats(t);
  return Array.from({ length: B }, (_, b) => Array.from({ length: R }, (_, i) => all.slice((b * R + i) * V, (b * R + i + 1) * V)));
}

/** The present.* outputs of a pass, the next pass's cache. */
export function cacheOf(out: Outputs): Outputs {
  return Object.fromEntries(Object.entries(out).filter(([n]) => n.startsWith('present.')));
}
