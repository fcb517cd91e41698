// The streamed file's mount (workers/streamed-weights.ts MountedWeights) as onnxruntime-web's
// external-data callback uses it: `byteLength`, then `subarray(offset, offset + length)` for each
// tensor, copying before the next call. Each block is released on the next call, except the ones
// the graph optimizer may read twice (foldedInputOffsets: a tied head's Transpose of the
// embedding), which stay until releaseAll.
import { describe, expect, it } from 'vitest';
import { buildFixtureModel } from '../../../scripts/fixtures/model-for.ts';
import { encodeModel } from '../../../scripts/fixtures/onnx-proto.ts';
import { REAL_QWEN25 } from '../../../scripts/fixtures/real-specs.ts';
import { createModel } from '../../../scripts/fixtures/weights.ts';
import { externalizeWeights, EXTERNAL_WEIGHTS_LOCATION, foldedInputOffsets } from '../../../src/lib/core/models/external-weights.ts';
import { MountedWeights } from '../../../workers/streamed-weights.ts';
import { blockDequantizedHead } from '../../../src/lib/core/models/head-blocks.ts';
import { rewriteForLens } from '../../../src/lib/core/models/lens-rewrite.ts';
import { rewriteForLastLogits } from '../../../src/lib/core/models/logits-rewrite.ts';
import { fieldString, readFields, subFields } from '../../../src/lib/core/models/onnx-bytes.ts';

const block = (offset: number, length: number, fill: number) => ({ offset, data: new Uint8Array(length).fill(fill) });

describe('MountedWeights', () => {
  it('serves each block once at its offset, releasing it at the next read; kept blocks serve again until releaseAll', () => {
    const mount = new MountedWeights([block(10, 4, 1), block(20, 8, 2), block(40, 2, 3)], 64);
    expect(mount).toBeInstanceOf(Uint8Array);
    expect(mount.byteLength).toBe(64);
    expect([mount.moved, mount.movedBytes]).toEqual([3, 14]);
    mount.keepUntilCreated([20]);
    const first = mount.subarray(10, 14);
    expect([...first]).toEqual([1, 1, 1, 1]);
    expect([...mount.subarray(20, 28)]).toEqual(Array(8).fill(2));
    // Read once and gone.
    expect(() => mount.subarray(10, 14)).toThrow(/no weights at bytes 10–14/);
    // Kept: read again (the optimizer's read, then the session's).
    expect([...mount.subarray(20, 28)]).toEqual(Array(8).fill(2));
    expect(() => mount.subarray(20, 24)).toThrow(/no weights/);
    expect(mount.started).toBe(true);
    mount.releaseAll();
    expect(mount.counts).toEqual({ given: 3, unread: 2 });
    expect(() => mount.subarray(20, 28)).toThrow(/no weights/);
  });

  it.runIf(typeof (ArrayBuffer.prototype as { transfer?: unknown }).transfer === 'function')('frees a released block’s bytes at once (its buffer detached)', () => {
    const b = block(0, 16, 7);
    const mount = new MountedWeights([b, block(16, 16, 8)], 32);
    mount.subarray(0, 16);
    mount.subarray(16, 32);
    expect((b.data.buffer as ArrayBuffer & { detached: boolean }).detached).toBe(true);
  });
});

describe('foldedInputOffsets', () => {
  it('names the tied embedding a Transpose of constants reads (Qwen2.5’s q4 head), and nothing a graph input reaches', () => {
    const spec = { ...REAL_QWEN25, numLayers: 1, vocabSize: 256, maxPositionEmbeddings: 32 };
    const file = encodeModel(buildFixtureModel(createModel(spec, 256), 'q4')).toBytes();
    const external = externalizeWeights(file)!;
    const offsets = foldedInputOffsets(external.graph, EXTERNAL_WEIGHTS_LOCATION);
    // The embedding's offset, from its own reference in the graph.
    const graph = readFields(external.graph).find((f) => f.no === 7)!;
    const offsetOf = new Map<string, number>();
    for (const f of subFields(external.graph, graph).filter((g) => g.no === 5)) {
      const fields = subFields(external.graph, f);
      const name = fieldString(external.graph, fields.find((t) => t.no === 8)!);
      for (const e of fields.filter((t) => t.no === 13)) {
        const [k, v] = subFields(external.graph, e);
        if (fieldString(external.graph, k) === 'offset') offsetOf.set(name, Number(fieldString(external.graph, v)));
      }
    }
    expect([...offsets]).toEqual([offsetOf.get('model.embed_tokens.weight')]);
    // The layers' MatMulNBits weights are read only by nodes that take an activation: not kept.
    expect(offsetOf.size).toBeGreaterThan(4);
  });

  it('names the embedding a lens branch folds (its tied head cloned as it came: a Transpose in the branch), not one it reads through blocks', () => {
    const spec = { ...REAL_QWEN25, numLayers: 1, vocabSize: 256, maxPositionEmbeddings: 32 };
    const file = encodeModel(buildFixtureModel(createModel(spec, 256), 'q8')).toBytes();
    const keep = rewriteForLastLogits(file);
    if (keep.kind !== 'rewritten') throw new Error('not rewritten');
    const embeddingKept = (tiedHead: boolean) => {
      const lens = rewriteForLens(keep.bytes, { tiedHead });
      if (lens.kind !== 'rewritten') throw new Error(lens.refusal.detail);
      const external = externalizeWeights(blockDequantizedHead(lens.bytes)!.bytes)!;
      return foldedInputOffsets(external.graph, EXTERNAL_WEIGHTS_LOCATION).has(offsetsByName(external.graph).get('model.embed_tokens.weight_quantized')!);
    };
    // The branch's DequantizeLinear(Transpose(embedding)): onnxruntime folds the Transpose at load.
    expect(embeddingKept(false)).toBe(true);
    // The branch's heads in blocks (the worker's way) read it only through input-dependent Slices, as the main head does.
    expect(embeddingKept(true)).toBe(false);
    const plain = externalizeWeights(blockDequantizedHead(keep.bytes)!.bytes)!;
    const embedding = offsetsByName(plain.graph).get('model.embed_tokens.weight_quantized')!;
    expect(foldedInputOffsets(plain.graph, EXTERNAL_WEIGHTS_LOCATION).has(embedding)).toBe(false);
    // A WebGPU session's transformers read the table the Gather shares with the head (logit-lens.test.ts streams it there).
    expect(foldedInputOffsets(plain.graph, EXTERNAL_WEIGHTS_LOCATION, { gathered: true }).has(embedding)).toBe(true);
  });
});

/** Each externalized initializer's offset, from its own reference in the graph. */
function offsetsByName(model: Uint8Array): Map<string, number> {
  const graph = readFields(model).find((f) => f.no === 7)!;
  const out = new Map<string, number>();
  for (const f of subFields(model, graph).filter((g) => g.no === 5)) {
    const fields = subFields(model, f);
    const name = fieldString(model, fields.find((t) => t.no === 8)!);
    for (const e of fields.filter((t) => t.no === 13)) {
      const [k, v] = subFields(model, e);
      if (fieldString(model, k) === 'offset') out.set(name, Number(fieldString(model, v)));
    }
  }
  return out;
}
