/**
 * externalizeWeights on the generated fixtures: every moved initializer's reference (location,
 * offset, length) names exactly its raw_data bytes in the original file, small ones stay inline,
 * and onnxruntime-web's WASM kernels (what the site runs), given the small graph with the original
 * file mounted as its external data, return the same logits as the whole file, bit for bit, in
 * fp32, q8 and q4. A model whose weights are already external (jiangu-tiny-external) moves nothing.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import * as ortWeb from 'onnxruntime-web';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { ONNX_FILE, TINY, type FixtureDtype } from '../../../scripts/fixtures/specs.ts';
import { EXTERNAL_MIN_BYTES, EXTERNAL_WEIGHTS_LOCATION, externalizeWeights, externalLocations } from '../../../src/lib/core/models/external-weights.ts';
import { fieldString, readFields, subFields } from '../../../src/lib/core/models/onnx-bytes.ts';
import { splitOnnxStream, WeightsStreamError } from '../../../src/lib/core/models/weights-stream.ts';

const dirs: Record<string, string> = {};
beforeAll(() => {
  for (const g of generateFixtures({ models: ['jiangu-tiny', 'jiangu-tiny-external'] })) dirs[g.name] = g.dir;
});

const bytesOf = (model: string, dtype: FixtureDtype) => new Uint8Array(readFileSync(join(dirs[model], 'onnx', ONNX_FILE[dtype])));

/** Each initializer of the main graph: its name, inline raw_data (as a view) or its external reference. */
function initializers(buf: Uint8Array): { name: string; raw?: Uint8Array; external?: Record<string, string> }[] {
  const graph = readFields(buf).find((f) => f.no === 7)!;
  return subFields(buf, graph)
    .filter((f) => f.no === 5)
    .map((f) => {
      const fields = subFields(buf, f);
      const name = fieldString(buf, fields.find((t) => t.no === 8)!);
      const raw = fields.find((t) => t.no === 9);
      const entries = fields.filter((t) => t.no === 13);
      const external = entries.length ? Object.fromEntries(entries.map((e) => subFields(buf, e)).map(([k, v]) => [fieldString(buf, k), fieldString(buf, v)])) : undefined;
      return { name, ...(raw ? { raw: buf.subarray(raw.valueStart, raw.valueEnd) } : {}), ...(external ? { external } : {}) };
    });
}

async function lastLogits(bytes: Uint8Array, externalData?: { path: string; data: Uint8Array }[]): Promise<Float32Array> {
  ortWeb.env.wasm.numThreads = 1;
  const session = await ortWeb.InferenceSession.create(bytes, { executionProviders: ['wasm'], ...(externalData ? { externalData } : {}) });
  const ids = [5, 9, 14, 3];
  const feeds: Record<string, ortWeb.Tensor> = {
    input_ids: new ortWeb.Tensor('int64', BigInt64Array.from(ids, BigInt), [1, ids.length]),
    attention_mask: new ortWeb.Tensor('int64', BigInt64Array.from(ids, () => 1n), [1, ids.length]),
  };
  for (let l = 0; l < TINY.numLayers; l++)
    for (const kv of ['key', 'value']) feeds[`past_key_values.${l}.${kv}`] = new ortWeb.Tensor('float32', new Float32Array(0), [1, TINY.numKvHeads, 0, TINY.headDim]);
  if (session.inputNames.includes('position_ids')) feeds.position_ids = new ortWeb.Tensor('int64', BigInt64Array.from(ids, (_, i) => BigInt(i)), [1, ids.length]);
  if (session.inputNames.includes('num_logits_to_keep')) feeds.num_logits_to_keep = new ortWeb.Tensor('int64', BigInt64Array.of(0n), []);
  const out = await session.run(feeds);
  await session.release();
  return out.logits.data as Float32Array;
}

describe('externalizeWeights', () => {
  it.each(['fp32', 'q8', 'q4'] as const)('%s: each reference names its own bytes, small tensors stay inline, and ORT gives the same logits bit for bit', async (dtype) => {
    const file = bytesOf('jiangu-tiny', dtype);
    const result = externalizeWeights(file);
    if (!result) throw new Error('nothing moved');
    expect(result.graph.length).toBeLessThan(file.length / 10);
    expect(externalLocations(result.graph)).toEqual(new Set([EXTERNAL_WEIGHTS_LOCATION]));
    const before = new Map(initializers(file).map((i) => [i.name, i]));
    const after = initializers(result.graph);
    expect(after.map((i) => i.name)).toEqual([...before.keys()]);
    let movedBytes = 0;
    for (const init of after) {
      const raw = before.get(init.name)!.raw!;
      if (raw.length < EXTERNAL_MIN_BYTES) {
        expect(init.external).toBeUndefined();
        expect(init.raw).toEqual(raw);
        continue;
      }
      expect(init.raw).toBeUndefined();
      expect(init.external?.location).toBe(EXTERNAL_WEIGHTS_LOCATION);
      const offset = Number(init.external!.offset);
      const length = Number(init.external!.length);
      expect(file.subarray(offset, offset + length)).toEqual(raw);
      movedBytes += length;
    }
    expect(result.movedBytes).toBe(movedBytes);
    expect(result.moved).toBeGreaterThan(0);

    const whole = await lastLogits(file);
    const external = await lastLogits(result.graph, [{ path: EXTERNAL_WEIGHTS_LOCATION, data: file }]);
    expect(Buffer.from(external.buffer, external.byteOffset, external.byteLength).equals(Buffer.from(whole.buffer, whole.byteOffset, whole.byteLength))).toBe(true);
  });

  it('moves nothing from a graph whose weights are already in its .onnx_data file', () => {
    expect(externalizeWeights(bytesOf('jiangu-tiny-external', 'fp32'))).toBeNull();
  });
});

describe('splitOnnxStream', () => {
  /** The file in chunks of uneven sizes (a varint or a field header split across two chunks too). */
  async function* chunked(file: Uint8Array, seed: number): AsyncGenerator<Uint8Array> {
    let at = 0;
    let s = seed;
    while (at < file.length) {
      s = (s * 1103515245 + 12345) % 2 ** 31;
      const n = 1 + (s % 7919);
      yield file.slice(at, at + n);
      at += n;
    }
  }

  it.each(['fp32', 'q8', 'q4'] as const)('%s: streamed in uneven chunks, the same graph as externalizeWeights, each block the file’s bytes at its offset', async (dtype) => {
    const file = bytesOf('jiangu-tiny', dtype);
    const whole = externalizeWeights(file)!;
    const split = await splitOnnxStream(chunked(file, 7));
    expect(Buffer.from(split.graph).equals(Buffer.from(whole.graph))).toBe(true);
    expect(split.fileBytes).toBe(file.length);
    expect(split.movedBytes).toBe(whole.movedBytes);
    expect(split.blocks).toHaveLength(whole.moved);
    for (const b of split.blocks) expect(Buffer.from(b.data).equals(Buffer.from(file.subarray(b.offset, b.offset + b.data.length)))).toBe(true);
  });

  it('a file with nothing to move comes back whole; a cut file is refused with where it ended', async () => {
    const external = bytesOf('jiangu-tiny-external', 'fp32');
    const split = await splitOnnxStream(chunked(external, 3));
    expect(split.blocks).toEqual([]);
    expect(Buffer.from(split.graph).equals(Buffer.from(external))).toBe(true);
    const file = bytesOf('jiangu-tiny', 'q8');
    await expect(splitOnnxStream(chunked(file.subarray(0, file.length - 100), 5))).rejects.toThrow(WeightsStreamError);
    // Worded as onnxruntime's refusal, so the load says the file is damaged.
    await expect(splitOnnxStream(chunked(file.subarray(0, file.length - 100), 5))).rejects.toThrow(/^invalid model: /);
  });
});
