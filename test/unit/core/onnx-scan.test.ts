/**
 * The streaming ONNX scanner against the generated fixture files and hand-built graphs, fed in chunks
 * of odd sizes: the facts must not depend on where the chunks split, nor on the order of the fields.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { elementTypeName, OnnxScanError, scanOnnx, type OnnxScan } from '../../../src/lib/core/models/onnx-scan.ts';
import { DEFAULT_OUT_ROOT, generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { GraphBuilder, attr } from '../../../scripts/fixtures/graph-builder.ts';
import { DataType, ProtoWriter, encodeModel, encodeNode, encodeTensor, encodeValueInfo } from '../../../scripts/fixtures/onnx-proto.ts';
import { STORIES260K_GGUF, generateStories260k } from '../../../scripts/fixtures/stories260k.ts';

const modelFile = (name: string, file = 'model.onnx') => readFileSync(join(DEFAULT_OUT_ROOT, name, 'onnx', file));

/** The bytes as a stream of `size`-byte chunks (the last one shorter). */
async function* inChunks(bytes: Uint8Array, size: number): AsyncGenerator<Uint8Array> {
  for (let at = 0; at < bytes.length; at += size) yield bytes.subarray(at, Math.min(bytes.length, at + size));
}

/** The scan of `bytes` whole, in 7-byte chunks and in 1-byte chunks: all three must agree. */
async function scanEveryWay(bytes: Uint8Array, oneByte = true): Promise<OnnxScan> {
  const whole = await scanOnnx([bytes]);
  expect(await scanOnnx(inChunks(bytes, 7))).toEqual(whole);
  expect(await scanOnnx(inChunks(bytes, 4093))).toEqual(whole);
  if (oneByte) expect(await scanOnnx(inChunks(bytes, 1))).toEqual(whole);
  return whole;
}

const names = (scan: OnnxScan) => scan.inputs.map((i) => i.name);
const opCount = (scan: OnnxScan, opType: string, domain = '') => scan.ops.find((o) => o.opType === opType && o.domain === domain)?.count ?? 0;

beforeAll(() => {
  generateFixtures({ models: ['jiangu-tiny', 'jiangu-tiny-nokeep', 'jiangu-tiny-external'] });
});

describe('the generated fixtures', () => {
  it('jiangu-tiny: keeps the last row (num_logits_to_keep), MatMul attention, float32 KV and logits, weights inside', async () => {
    const bytes = modelFile('jiangu-tiny');
    const scan = await scanEveryWay(bytes);
    expect(names(scan)).toEqual([
      'input_ids',
      'attention_mask',
      'position_ids',
      'past_key_values.0.key',
      'past_key_values.0.value',
      'past_key_values.1.key',
      'past_key_values.1.value',
      'num_logits_to_keep',
    ]);
    expect(scan.inputs[3]).toEqual({ name: 'past_key_values.0.key', elemType: 'float32', dims: ['batch_size', 2, 'past_sequence_length', 16] });
    expect(scan.inputs.find((i) => i.name === 'num_logits_to_keep')).toEqual({ name: 'num_logits_to_keep', elemType: 'int64', dims: [] });
    expect(scan.outputs[0]).toEqual({ name: 'logits', elemType: 'float32', dims: ['batch_size', 'logits_sequence_length', 749] });
    expect(scan.outputs.map((o) => o.name)).toContain('present.1.value');
    expect(opCount(scan, 'MatMul')).toBeGreaterThan(0);
    expect(opCount(scan, 'Softmax')).toBe(2);
    expect(opCount(scan, 'GroupQueryAttention', 'com.microsoft')).toBe(0);
    expect(scan.opsets).toEqual([{ domain: '', version: 17 }]);
    expect(scan.producer).toBe('jiangu-fixtures');
    expect(scan.externalData).toEqual([]);
    expect(scan.fileBytes).toBe(bytes.length);
    // Nearly all of the file is weights, and they were counted without being read.
    expect(scan.inlineBytes).toBeGreaterThan(0.9 * bytes.length);
  });

  it('jiangu-tiny-nokeep: the same graph without num_logits_to_keep', async () => {
    const scan = await scanEveryWay(modelFile('jiangu-tiny-nokeep'));
    expect(names(scan)).not.toContain('num_logits_to_keep');
    expect(names(scan)).toContain('past_key_values.1.value');
    expect(scan.outputs[0].dims).toEqual(['batch_size', 'sequence_length', 749]);
  });

  it('jiangu-tiny-external: the small .onnx names model.onnx_data and the bytes it must hold', async () => {
    const bytes = modelFile('jiangu-tiny-external');
    const scan = await scanEveryWay(bytes);
    const dataBytes = readFileSync(join(DEFAULT_OUT_ROOT, 'jiangu-tiny-external', 'onnx', 'model.onnx_data')).length;
    expect(scan.externalData).toEqual([{ location: 'model.onnx_data', bytes: dataBytes }]);
    expect(scan.inlineBytes).toBeLessThan(bytes.length);
  });

  it('q4: MatMulNBits in com.microsoft and its opset import', async () => {
    const scan = await scanEveryWay(modelFile('jiangu-tiny', 'model_q4.onnx'), false);
    expect(opCount(scan, 'MatMulNBits', 'com.microsoft')).toBeGreaterThan(0);
    expect(scan.opsets).toContainEqual({ domain: 'com.microsoft', version: 1 });
  });
});

// stories260k is converted from ../shared/models; without it the fixture (and this test) is absent.
const storiesPresent = existsSync(STORIES260K_GGUF) || (process.env.CI ?? '') !== '';
describe.skipIf(!storiesPresent)('stories260k', () => {
  it('five layers of 4 KV heads of 8, vocabulary 512, keeps the last row', async () => {
    generateStories260k();
    const scan = await scanEveryWay(readFileSync(join(DEFAULT_OUT_ROOT, 'stories260k', 'onnx', 'model.onnx')), false);
    expect(scan.inputs.filter((i) => /^past_key_values\.\d+\.key$/.test(i.name))).toHaveLength(5);
    expect(scan.inputs.find((i) => i.name === 'past_key_values.4.value')?.dims).toEqual(['batch_size', 4, 'past_sequence_length', 8]);
    expect(scan.outputs[0]).toMatchObject({ name: 'logits', dims: ['batch_size', 'logits_sequence_length', 512] });
    expect(names(scan)).toContain('num_logits_to_keep');
  });
});

/** A model-builder-style layer: GroupQueryAttention and SkipSimplifiedLayerNormalization, float16 KV. */
function gqaModel(): Uint8Array {
  const g = new GraphBuilder();
  const ids = g.input('input_ids', DataType.INT64, ['batch_size', 'sequence_length']);
  g.input('attention_mask', DataType.INT64, ['batch_size', 'total_sequence_length']);
  const pastK = g.input('past_key_values.0.key', 10 as never, ['batch_size', 8, 'past_sequence_length', 128]);
  const pastV = g.input('past_key_values.0.value', 10 as never, ['batch_size', 8, 'past_sequence_length', 128]);
  // A weight larger than the writer's zero-copy threshold, so the scanner skips a real chunk of bytes.
  const embed = g.initializer('model.embed_tokens.weight', DataType.FLOAT, [64, 64], new Float32Array(64 * 64).fill(0.5));
  const x = g.op('Gather', [embed, ids]);
  const [normed, , , skip] = g.node('SkipSimplifiedLayerNormalization', [x, x, g.constF32([1])], { domain: 'com.microsoft', outputs: 4, attributes: [attr.float('epsilon', 1e-6)] });
  const [attn, presentK, presentV] = g.node('GroupQueryAttention', [normed, normed, normed, pastK, pastV], {
    domain: 'com.microsoft',
    outputs: 3,
    attributes: [attr.int('num_heads', 16), attr.int('kv_num_heads', 8), attr.int('do_rotary', 1)],
  });
  g.opNamed('Add', [attn, skip], 'logits');
  g.opNamed('Identity', [presentK], 'present.0.key');
  g.opNamed('Identity', [presentV], 'present.0.value');
  g.output('logits', 10 as never, ['batch_size', 'sequence_length', 151936]);
  g.output('present.0.key', 10 as never, ['batch_size', 8, 'total_sequence_length', 128]);
  g.output('present.0.value', 10 as never, ['batch_size', 8, 'total_sequence_length', 128]);
  return encodeModel({
    irVersion: 8,
    producerName: 'onnxruntime-genai',
    producerVersion: '0.5',
    opsetImports: [{ domain: '', version: 21 }, { domain: 'com.microsoft', version: 1 }],
    graph: g.build('gqa'),
  }).toBytes();
}

describe('hand-built graphs', () => {
  it('a GroupQueryAttention graph: its ops by domain, float16 KV cache and logits, no num_logits_to_keep', async () => {
    const scan = await scanEveryWay(gqaModel());
    expect(opCount(scan, 'GroupQueryAttention', 'com.microsoft')).toBe(1);
    expect(opCount(scan, 'SkipSimplifiedLayerNormalization', 'com.microsoft')).toBe(1);
    expect(opCount(scan, 'Gather')).toBe(1);
    expect(scan.inputs.find((i) => i.name === 'past_key_values.0.key')).toEqual({ name: 'past_key_values.0.key', elemType: 'float16', dims: ['batch_size', 8, 'past_sequence_length', 128] });
    expect(scan.outputs[0]).toEqual({ name: 'logits', elemType: 'float16', dims: ['batch_size', 'sequence_length', 151936] });
    expect(names(scan)).not.toContain('num_logits_to_keep');
    expect(scan.producer).toBe('onnxruntime-genai');
    expect(scan.opsets).toEqual([{ domain: '', version: 21 }, { domain: 'com.microsoft', version: 1 }]);
    expect(scan.inlineBytes).toBe(64 * 64 * 4 + 4);
  });

  it('reads the fields in any order: opsets before the graph, inputs before initializers before nodes', async () => {
    const graph = new ProtoWriter();
    graph.messageField(12, encodeValueInfo({ name: 'logits', elemType: DataType.FLOAT, shape: ['b', 's', 10] }));
    graph.messageField(11, encodeValueInfo({ name: 'input_ids', elemType: DataType.INT64, shape: ['b', 's'] }));
    graph.messageField(5, encodeTensor({ name: 'w', dataType: DataType.FLOAT, dims: [2], external: { location: 'weights.bin', offset: 4096, length: 8 } }));
    graph.messageField(5, encodeTensor({ name: 'v', dataType: DataType.FLOAT, dims: [4], external: { location: 'weights.bin', offset: 0, length: 16 } }));
    graph.messageField(1, encodeNode({ name: 'n', opType: 'MatMul', inputs: ['input_ids', 'w'], outputs: ['logits'] }));
    graph.stringField(2, 'reordered');
    const model = new ProtoWriter();
    const opset = new ProtoWriter();
    opset.stringField(1, '');
    opset.int64Field(2, 17);
    model.messageField(8, opset);
    model.messageField(7, graph);
    model.int64Field(1, 9);
    const scan = await scanEveryWay(model.toBytes());
    expect(scan.irVersion).toBe(9);
    expect(scan.opsets).toEqual([{ domain: '', version: 17 }]);
    expect(names(scan)).toEqual(['input_ids']);
    expect(scan.ops).toEqual([{ domain: '', opType: 'MatMul', count: 1 }]);
    expect(scan.initializers).toBe(2);
    // The file must reach the furthest byte any tensor names.
    expect(scan.externalData).toEqual([{ location: 'weights.bin', bytes: 4104 }]);
  });

  it('skips a 2.5 GB weight streamed in 1 MiB chunks without holding it', async () => {
    const size = 2.5 * 1024 ** 3;
    const tensorHead = encodeTensor({ name: 'huge', dataType: DataType.FLOAT, dims: [size / 4] });
    tensorHead.tag(9, 2); // raw_data, its bytes streamed below
    tensorHead.varint(size);
    const tail = new ProtoWriter();
    tail.messageField(11, encodeValueInfo({ name: 'input_ids', elemType: DataType.INT64, shape: ['batch_size', 'sequence_length'] }));
    const graphHead = new ProtoWriter();
    graphHead.tag(5, 2);
    graphHead.varint(tensorHead.length + size);
    const modelHead = new ProtoWriter();
    modelHead.int64Field(1, 8);
    modelHead.tag(7, 2);
    modelHead.varint(graphHead.length + tensorHead.length + size + tail.length);
    const zeros = new Uint8Array(1024 * 1024); // one buffer, handed out again and again
    let handedOut = 0;
    async function* stream(): AsyncGenerator<Uint8Array> {
      yield modelHead.toBytes();
      yield graphHead.toBytes();
      yield tensorHead.toBytes();
      for (let left = size; left > 0; left -= zeros.length) {
        handedOut += zeros.length;
        yield zeros;
      }
      yield tail.toBytes();
    }
    const scan = await scanOnnx(stream());
    expect(handedOut).toBe(size);
    expect(scan.inlineBytes).toBe(size);
    expect(names(scan)).toEqual(['input_ids']);
    expect(scan.fileBytes).toBe(modelHead.length + graphHead.length + tensorHead.length + size + tail.length);
  });
});

describe('what is not an ONNX model', () => {
  it('a file cut short says where it ends', async () => {
    const bytes = modelFile('jiangu-tiny-nokeep');
    await expect(scanOnnx(inChunks(bytes.subarray(0, 5000), 333))).rejects.toThrow(OnnxScanError);
    await expect(scanOnnx([bytes.subarray(0, 5000)])).rejects.toThrow(/ends/);
  });

  it('an HTML error page is refused', async () => {
    await expect(scanOnnx([new TextEncoder().encode('<!doctype html><title>404</title>')])).rejects.toThrow(OnnxScanError);
  });

  it('names element types as onnxruntime-web does', () => {
    expect([1, 7, 10, 16, 22, 99].map(elementTypeName)).toEqual(['float32', 'int64', 'float16', 'bfloat16', 'int4', 'type 99']);
  });
});
