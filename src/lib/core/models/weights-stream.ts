// An ONNX file split as it streams in: the graph (every field but the weights) in one small buffer,
// and each large initializer's raw_data in a buffer of its own, at the file offset it came from.
// The graph is the one externalizeWeights (external-weights.ts) makes from the whole file, byte for
// byte: each moved tensor names `location`, its offset in the file and its length.
//
// Why separate buffers: the worker mounts them as the session's external data and lets each one
// go as soon as ORT has copied it (workers/streamed-weights.ts), so the file's bytes leave the JS
// heap while they enter ORT's, and the tab never holds the file twice. One contiguous buffer (what
// transformers.js reads a response into) can only be freed whole, after the session exists.

import { joinPieces, lenField, type Pieces } from './onnx-bytes.ts';
import { EXTERNAL_MIN_BYTES, EXTERNAL_WEIGHTS_LOCATION, externalReference } from './external-weights.ts';
import { ChunkReader } from './chunk-reader.ts';

/** One moved initializer's bytes and where they lie in the file. */
export interface WeightBlock {
  offset: number;
  data: Uint8Array;
}

export interface SplitModel {
  graph: Uint8Array;
  blocks: WeightBlock[];
  fileBytes: number;
  movedBytes: number;
}

/**
 * Bytes that are not an ONNX model. The message says "invalid model", as onnxruntime's own refusal
 * of such bytes does, so the load's error is the damaged-file one (model-errors.ts classifyLoadError).
 */
export class WeightsStreamError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`invalid model: ${message} (at byte ${offset})`);
  }
}

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;
const MODEL_GRAPH = 7;
const GRAPH_INITIALIZER = 5;
const TENSOR_RAW_DATA = 9;
const TENSOR_DATA_LOCATION = 14;
const DATA_LOCATION_EXTERNAL = 1;

interface Field {
  no: number;
  wire: number;
  /** The key's bytes as written. */
  key: Uint8Array;
}

async function readKey(c: ChunkReader): Promise<Field> {
  const start = c.pos;
  const { value, raw } = await c.varintRaw();
  const no = Math.floor(value / 8);
  if (no === 0) throw new WeightsStreamError('field number 0: this is not an ONNX file', start);
  return { no, wire: value % 8, key: raw };
}

/** A field's value as written (after its key): varint, fixed or length-delimited with its length. */
async function rawValue(c: ChunkReader, f: Field): Promise<Pieces> {
  if (f.wire === WIRE_VARINT) return [(await c.varintRaw()).raw];
  if (f.wire === WIRE_FIXED64) return [await c.bytes(8)];
  if (f.wire === WIRE_FIXED32) return [await c.bytes(4)];
  if (f.wire === WIRE_LEN) {
    const n = await c.varintRaw();
    return [n.raw, await c.bytes(n.value)];
  }
  throw new WeightsStreamError(`wire type ${f.wire} is not used by ONNX`, c.pos);
}

/** A TensorProto of `length` bytes: as it is, or with a large raw_data moved to its own block. */
async function readTensor(c: ChunkReader, length: number, location: string, minBytes: number, blocks: WeightBlock[]): Promise<{ pieces: Pieces; moved: number }> {
  const end = c.pos + length;
  const pieces: Pieces = [];
  let moved = 0;
  let external = false;
  let raw: { offset: number; length: number } | null = null;
  while (c.pos < end) {
    const f = await readKey(c);
    if (f.no === TENSOR_RAW_DATA && f.wire === WIRE_LEN) {
      const n = await c.varintRaw();
      if (n.value >= minBytes) {
        raw = { offset: c.pos, length: n.value };
        blocks.push({ offset: c.pos, data: await c.bytes(n.value) });
        moved = n.value;
        continue;
      }
      pieces.push(f.key, n.raw, await c.bytes(n.value));
      continue;
    }
    const value = await rawValue(c, f);
    if (f.no === TENSOR_DATA_LOCATION && f.wire === WIRE_VARINT && value[0][0] === DATA_LOCATION_EXTERNAL) external = true;
    pieces.push(f.key, ...value);
  }
  if (c.pos !== end) throw new WeightsStreamError('a tensor runs past its length', c.pos);
  if (raw && external) throw new WeightsStreamError('a tensor has both raw_data and external data', c.pos);
  if (raw) pieces.push(...externalReference(location, raw.offset, raw.length));
  return { pieces, moved };
}

/**
 * Splits the ONNX file arriving as `chunks`. The graph equals externalizeWeights(whole file,
 * location, minBytes)'s graph when that moves something; when nothing is large enough to move, the
 * graph is the file itself and `blocks` is empty. Throws WeightsStreamError on bytes that are not a
 * protobuf message.
 */
export async function splitOnnxStream(
  chunks: AsyncIterable<Uint8Array>,
  location = EXTERNAL_WEIGHTS_LOCATION,
  minBytes = EXTERNAL_MIN_BYTES,
  /** The chunks are this reader's alone (not shared with a tee's other branch): free each once read. */
  releaseChunks = false,
): Promise<SplitModel> {
  const iterator = chunks[Symbol.asyncIterator]();
  const c = new ChunkReader(iterator, (message, offset) => new WeightsStreamError(message, offset), releaseChunks);
  const blocks: WeightBlock[] = [];
  const top: Pieces = [];
  let movedBytes = 0;
  try {
    while (!(await c.atEnd())) {
      const f = await readKey(c);
      if (f.no !== MODEL_GRAPH || f.wire !== WIRE_LEN) {
        top.push(f.key, ...(await rawValue(c, f)));
        continue;
      }
      const graphLength = await c.varint();
      const graphEnd = c.pos + graphLength;
      const graph: Pieces = [];
      while (c.pos < graphEnd) {
        const g = await readKey(c);
        if (g.no === GRAPH_INITIALIZER && g.wire === WIRE_LEN) {
          const length = await c.varint();
          const tensor = await readTensor(c, length, location, minBytes, blocks);
          movedBytes += tensor.moved;
          graph.push(...lenField(GRAPH_INITIALIZER, tensor.pieces));
        } else graph.push(g.key, ...(await rawValue(c, g)));
      }
      if (c.pos !== graphEnd) throw new WeightsStreamError('the graph runs past its length', c.pos);
      top.push(...lenField(MODEL_GRAPH, graph));
    }
  } finally {
    await iterator.return?.();
  }
  return { graph: joinPieces(top), blocks, fileBytes: c.pos, movedBytes };
}
