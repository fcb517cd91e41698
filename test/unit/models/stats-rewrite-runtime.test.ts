/**
 * Two facts about onnxruntime that shaped rewriteForStatistics, pinned in both runtimes Jiangu
 * meets (onnxruntime-node here, onnxruntime-web's WASM build, the site's):
 * - An "overridable initializer" (a graph input that has an initializer of its name, ONNX IR ≥ 4)
 *   is optional: it is left out of inputNames, so transformers.js would neither see nor require it,
 *   and a run without it uses the initializer. But it cannot be fed from JavaScript either:
 *   onnxruntime-node drops the feed without a word, onnxruntime-web refuses it. So the rewrite adds
 *   no input and takes its targets from input_ids.
 * - GatherElements whose indices have fewer rows than its data reads the data's leading rows (the
 *   output has the indices' shape, nothing is broadcast), and takes an empty index tensor: the
 *   rewrite's [batch, rows − 1, 1] indices against [batch, rows, vocab] log-probabilities.
 */
import { describe, expect, it } from 'vitest';
import { attr, GraphBuilder } from '../../../scripts/fixtures/graph-builder.ts';
import { DataType, encodeModel, type GraphProto } from '../../../scripts/fixtures/onnx-proto.ts';
import { openSessionFrom, tensorFor, type Kernels } from '../fixtures/ort-helpers.ts';

const model = (graph: GraphProto): Uint8Array => encodeModel({ irVersion: 8, opsetImports: [{ domain: '', version: 17 }], producerName: 'test', producerVersion: '1', graph }).toBytes();

/** y = x + t, where t is a graph input with an initializer [5]. */
function overridable(): Uint8Array {
  const g = new GraphBuilder();
  const x = g.input('x', DataType.FLOAT, ['n']);
  g.inputs.push({ name: 't', elemType: DataType.FLOAT, shape: ['m'] });
  g.initializers.push({ name: 't', dataType: DataType.FLOAT, dims: [1], rawData: new Uint8Array(Float32Array.of(5).buffer) });
  g.opNamed('Add', [x, 't'], 'y', { name: 'add' });
  g.output('y', DataType.FLOAT, ['n']);
  return model(g.build('overridable'));
}

/** y = GatherElements(data [1, rows, 4], indices, axis 2). */
function gather(): Uint8Array {
  const g = new GraphBuilder();
  const data = g.input('data', DataType.FLOAT, [1, 'rows', 4]);
  const indices = g.input('indices', DataType.INT64, ['a', 'b', 'c']);
  g.opNamed('GatherElements', [data, indices], 'y', { name: 'gather', attributes: [attr.int('axis', 2)] });
  g.output('y', DataType.FLOAT, ['a', 'b', 'c']);
  return model(g.build('gather'));
}

describe('onnxruntime facts the statistics rewrite relies on', () => {
  for (const kernels of ['native', 'wasm'] as const satisfies readonly Kernels[]) {
    it(`${kernels === 'native' ? 'onnxruntime-node' : 'onnxruntime-web (WASM)'}: an overridable initializer is optional, and cannot be fed`, async () => {
      const session = await openSessionFrom(overridable(), kernels);
      const Tensor = tensorFor(session);
      expect(session.inputNames).toEqual(['x']);
      const x = new Tensor('float32', Float32Array.of(1, 2, 3), [3]);
      expect(Array.from((await session.run({ x })).y.data as Float32Array)).toEqual([6, 7, 8]);
      const fed = { x, t: new Tensor('float32', Float32Array.of(100), [1]) };
      if (kernels === 'native') {
        // The feed is dropped: the initializer's 5 is used, not the 100 given.
        expect(Array.from((await session.run(fed)).y.data as Float32Array)).toEqual([6, 7, 8]);
      } else {
        await expect(session.run(fed)).rejects.toThrow("invalid input 't'");
      }
    });

    it(`${kernels === 'native' ? 'onnxruntime-node' : 'onnxruntime-web (WASM)'}: GatherElements with fewer index rows reads the leading rows; empty indices give an empty result`, async () => {
      const session = await openSessionFrom(gather(), kernels);
      const Tensor = tensorFor(session);
      const data = new Tensor('float32', Float32Array.from({ length: 12 }, (_, i) => i), [1, 3, 4]);
      const run = async (dims: number[], values: number[]) => (await session.run({ data, indices: new Tensor('int64', BigInt64Array.from(values, BigInt), dims) })).y;
      const one = await run([1, 1, 1], [2]);
      expect(one.dims).toEqual([1, 1, 1]);
      expect(Array.from(one.data as Float32Array)).toEqual([2]);
      const two = await run([1, 2, 1], [3, 0]);
      expect(Array.from(two.data as Float32Array)).toEqual([3, 4]);
      const none = await run([1, 0, 1], []);
      expect(none.dims).toEqual([1, 0, 1]);
    });
  }
});
