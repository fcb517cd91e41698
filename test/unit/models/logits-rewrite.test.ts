/**
 * rewriteForLastLogits on the generated fixtures, run in onnxruntime-node: the rewritten -nokeep
 * and -gqa graphs, fed num_logits_to_keep = 1, give the last logits row of the graph as written
 * (bit for bit, q8 included: the slice is after DynamicQuantizeLinear) and, in fp32, the native
 * jiangu-tiny's within 1e-5; fed 0, every row; with a KV cache as on a first step.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { ONNX_FILE, TINY, type FixtureDtype } from '../../../scripts/fixtures/specs.ts';
import { KEPT_ROWS_DIM, rewriteForLastLogits } from '../../../src/lib/core/models/logits-rewrite.ts';
import { halfToFloat } from '../../../workers/logits.ts';
import { checkTolerance, logProbDiff } from '../../../workers/logits-path.ts';
import { keepTensor, maxAbsDiff, ort, TINY_DIR } from '../fixtures/ort-helpers.ts';

const FIXTURES = ['jiangu-tiny-nokeep', 'jiangu-tiny-gqa'] as const;
const DTYPES: readonly FixtureDtype[] = ['fp32', 'q8', 'q4', 'fp16', 'q4f16'];
const dirs: Record<string, string> = {};

beforeAll(() => {
  for (const g of generateFixtures({ models: ['jiangu-tiny', ...FIXTURES] })) dirs[g.name] = g.dir;
});

function onnxBytes(dir: string, dtype: FixtureDtype): Uint8Array {
  return new Uint8Array(readFileSync(join(dir, 'onnx', ONNX_FILE[dtype])));
}

function rewritten(dir: string, dtype: FixtureDtype, fault?: 'previous-row'): Uint8Array {
  const r = rewriteForLastLogits(onnxBytes(dir, dtype), fault ? { fault } : {});
  if (r.kind !== 'rewritten') throw new Error(`not rewritten: ${JSON.stringify(r)}`);
  return r.bytes;
}

const i64 = (rows: number[][]): ort.Tensor => new ort.Tensor('int64', BigInt64Array.from(rows.flat(), (v) => BigInt(v)), [rows.length, rows[0].length]);

type Cache = Record<string, ort.Tensor>;
interface Step {
  logits: ort.Tensor;
  /** The logits' bytes, whatever their element type (float16 ones compared as bits). */
  bytes: Buffer;
  cache: Cache;
}

/** One forward of `ids` after `past` (null: the first step's empty cache, typed as the graph declares it). */
async function step(session: ort.InferenceSession, prompt: number[] | number[][], past: Cache | null, pastLen: number, keep?: number): Promise<Step> {
  const rows = typeof prompt[0] === 'number' ? [prompt as number[]] : (prompt as number[][]);
  const feeds: Cache = { input_ids: i64(rows), attention_mask: i64(rows.map((ids) => new Array<number>(pastLen + ids.length).fill(1))) };
  if (session.inputNames.includes('position_ids')) feeds.position_ids = i64(rows.map((ids) => ids.map((_, i) => pastLen + i)));
  if (keep !== undefined) feeds.num_logits_to_keep = keepTensor(keep);
  for (const meta of session.inputMetadata) {
    if (!meta.name.startsWith('past_key_values.') || !meta.isTensor) continue;
    const dims = [rows.length, TINY.numKvHeads, 0, TINY.headDim];
    feeds[meta.name] = past?.[meta.name.replace('past_key_values.', 'present.')] ?? (meta.type === 'float16' ? new ort.Tensor('float16', new Uint16Array(0), dims) : new ort.Tensor('float32', new Float32Array(0), dims));
  }
  const out = await session.run(feeds);
  const logits = out.logits;
  const data = logits.data as Float32Array | Uint16Array;
  const cache: Cache = {};
  for (const name of session.outputNames) if (name.startsWith('present.')) cache[name] = out[name];
  return { logits, bytes: Buffer.from(data.buffer, data.byteOffset, data.byteLength), cache };
}

/** The last row's bytes of [1, seq, vocab] logits. */
function lastRow(s: Step): Buffer {
  const [, seq, vocab] = s.logits.dims;
  const width = s.bytes.length / (seq * vocab);
  return s.bytes.subarray((seq - 1) * vocab * width);
}

/** Row `at` (negative: from the end) of [1, seq, vocab] logits, as bytes. */
function rowBytes(s: Step, at: number): Buffer {
  const [, seq, vocab] = s.logits.dims;
  const width = s.bytes.length / (seq * vocab);
  const i = at < 0 ? seq + at : at;
  return s.bytes.subarray(i * vocab * width, (i + 1) * vocab * width);
}

/** Logits bytes as numbers (float16 bits converted). */
function values(row: Buffer, type: string): Float32Array {
  const copy = row.buffer.slice(row.byteOffset, row.byteOffset + row.byteLength);
  return type === 'float16' ? Float32Array.from(new Uint16Array(copy), halfToFloat) : new Float32Array(copy);
}

/** The last row as numbers (float16 bits converted). */
function lastValues(s: Step): Float32Array {
  const row = lastRow(s);
  if (s.logits.type !== 'float16') return new Float32Array(row.buffer.slice(row.byteOffset, row.byteOffset + row.byteLength));
  const bits = new Uint16Array(row.buffer.slice(row.byteOffset, row.byteOffset + row.byteLength));
  return Float32Array.from(bits, halfToFloat);
}

/** MatMulNBits' single-row kernel (see above). */
const SINGLE_ROW_KERNEL: readonly FixtureDtype[] = ['q4', 'q4f16'];
/** A float's rounding on logits of size ~8: float32 2.4e-6 seen, float16's step there is 7.8e-3. */
const ROUNDING: Partial<Record<FixtureDtype, number>> = { q4: 1e-5, q4f16: 1e-2 };

/** Asserts that a one-row result is the last row of a full one: bit for bit, or within rounding where the kernel differs. */
function expectLastRow(one: Step, full: Step, dtype: FixtureDtype): void {
  if (!SINGLE_ROW_KERNEL.includes(dtype)) {
    expect(one.bytes.equals(lastRow(full))).toBe(true);
    return;
  }
  expect(maxAbsDiff(lastValues(one), lastValues(full))).toBeLessThan(ROUNDING[dtype] ?? 0);
}

const PROMPT = [5, 17, 42, 99, 3, 250, 7, 311, 64, 12, 480, 33];
const NEXT = [21, 8, 700, 2];

describe('rewriteForLastLogits on the fixtures', () => {
  for (const name of FIXTURES) {
    for (const dtype of DTYPES) {
      it(`${name} ${dtype}: k = 1 gives the last row bit for bit, k = 0 every row, on a first step and after a cache`, async () => {
        const original = await ort.InferenceSession.create(onnxBytes(dirs[name], dtype));
        const session = await ort.InferenceSession.create(rewritten(dirs[name], dtype));
        expect(session.inputNames).toEqual([...original.inputNames, 'num_logits_to_keep']);
        expect(session.inputMetadata.at(-1)).toMatchObject({ isTensor: true, type: 'int64', shape: [] });
        expect(session.outputMetadata[0]).toMatchObject({ name: 'logits', shape: ['batch_size', KEPT_ROWS_DIM, 749] });

        const full = await step(original, PROMPT, null, 0);
        const one = await step(session, PROMPT, null, 0, 1);
        expect(one.logits.dims).toEqual([1, 1, 749]);
        expect(one.logits.type).toBe(full.logits.type);
        expectLastRow(one, full, dtype);
        const all = await step(session, PROMPT, null, 0, 0);
        expect(all.logits.dims).toEqual(full.logits.dims);
        expect(all.bytes.equals(full.bytes)).toBe(true);
        // The cache does not depend on k: the next step after the rewritten graph's cache.
        for (const [n, t] of Object.entries(full.cache)) expect(Buffer.from((one.cache[n].data as Float32Array).buffer).equals(Buffer.from((t.data as Float32Array).buffer)), n).toBe(true);
        const fullNext = await step(original, NEXT, full.cache, PROMPT.length);
        const oneNext = await step(session, NEXT, one.cache, PROMPT.length, 1);
        expect(oneNext.logits.dims).toEqual([1, 1, 749]);
        expectLastRow(oneNext, fullNext, dtype);
        if (name === 'jiangu-tiny-nokeep') {
          const native = await ort.InferenceSession.create(join(TINY_DIR, 'onnx', ONNX_FILE[dtype]));
          const nativeNext = await step(native, NEXT, (await step(native, PROMPT, null, 0, 1)).cache, PROMPT.length, 1);
          expect(oneNext.bytes.equals(nativeNext.bytes)).toBe(true);
        }
      });
    }
    it(`${name} fp32: k = 1 gives the native num_logits_to_keep graph's row within 1e-5`, async () => {
      const native = await ort.InferenceSession.create(join(TINY_DIR, 'onnx', ONNX_FILE.fp32));
      const session = await ort.InferenceSession.create(rewritten(dirs[name], 'fp32'));
      const want = await step(native, PROMPT, null, 0, 1);
      const got = await step(session, PROMPT, null, 0, 1);
      expect(got.logits.dims).toEqual(want.logits.dims);
      expect(maxAbsDiff(got.logits.data as Float32Array, want.logits.data as Float32Array)).toBeLessThan(1e-5);
      // A batch of two: one row per sequence, the batch axis untouched.
      const batch = [PROMPT, [...PROMPT].reverse()];
      const full = await step(await ort.InferenceSession.create(onnxBytes(dirs[name], 'fp32')), batch, null, 0);
      const kept = await step(session, batch, null, 0, 1);
      expect(kept.logits.dims).toEqual([2, 1, 749]);
      const f = full.logits.data as Float32Array;
      const rows = f.length / 2;
      expect(Array.from(kept.logits.data as Float32Array)).toEqual([...f.subarray(rows - 749, rows), ...f.subarray(2 * rows - 749)]);
    });
  }
});

// The test-only fault (LoadParams.logitsRewriteFault) that the browser test uses to reach the
// reload after a failed load check: it must give a graph whose k = 1 row is the wrong one, by a
// margin the check cannot miss whatever the dtype, while k = 0 still gives every row.
describe('rewriteForLastLogits with the previous-row fault', () => {
  const largestTolerance = Math.max(...DTYPES.map(checkTolerance));
  for (const dtype of DTYPES) {
    it(`jiangu-tiny-nokeep ${dtype}: k = 1 gives the second-to-last row, k = 0 every row, and the load check's comparison exceeds every dtype's tolerance`, async () => {
      const original = await ort.InferenceSession.create(onnxBytes(dirs['jiangu-tiny-nokeep'], dtype));
      const faulty = await ort.InferenceSession.create(rewritten(dirs['jiangu-tiny-nokeep'], dtype, 'previous-row'));
      expect(faulty.inputNames).toEqual([...original.inputNames, 'num_logits_to_keep']);
      const full = await step(original, PROMPT, null, 0);
      const one = await step(faulty, PROMPT, null, 0, 1);
      expect(one.logits.dims).toEqual([1, 1, 749]);
      const type = full.logits.type;
      const previous = values(rowBytes(full, -2), type);
      if (SINGLE_ROW_KERNEL.includes(dtype)) expect(maxAbsDiff(values(one.bytes, type), previous)).toBeLessThan(ROUNDING[dtype] ?? 0);
      else expect(one.bytes.equals(rowBytes(full, -2))).toBe(true);
      const all = await step(faulty, PROMPT, null, 0, 0);
      expect(all.bytes.equals(full.bytes)).toBe(true);
      // What checkRewrittenLogits compares: the full run's last row against the one kept row.
      const diff = logProbDiff(lastValues(full), values(one.bytes, type));
      expect(diff).toBeLessThan(Number.MAX_VALUE);
      expect(diff).toBeGreaterThan(largestTolerance);
      // The correct rewrite on the same prompt passes the same comparison.
      const right = await step(await ort.InferenceSession.create(rewritten(dirs['jiangu-tiny-nokeep'], dtype)), PROMPT, null, 0, 1);
      expect(logProbDiff(lastValues(full), values(right.bytes, type))).toBeLessThanOrEqual(checkTolerance(dtype));
    });
  }
});
