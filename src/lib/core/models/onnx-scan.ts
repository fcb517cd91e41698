// What an ONNX file says about itself, read from a stream of chunks without holding its weights.
// An ONNX file is one protobuf ModelProto (onnx/onnx.proto); the weights are length-delimited
// fields (TensorProto.raw_data) that are skipped by length, never copied, so a 2 GB single-file
// model is read in the memory of its largest small field. Every field is handled wherever it
// occurs: protobuf writers put a graph's nodes (1) before its initializers (5) and inputs (11),
// but nothing here relies on that order.

import { ChunkReader } from './chunk-reader.ts';

/** One graph input or output. `dims` holds fixed sizes and symbolic names ('batch_size'); '?' when unnamed. */
export interface OnnxValue {
  name: string;
  /** The element type as onnxruntime-web names it (float32, float16, int64, …), or `type <n>`. */
  elemType: string;
  dims: (number | string)[];
}

export interface OnnxOpCount {
  /** '' for the default ONNX domain. */
  domain: string;
  opType: string;
  count: number;
}

export interface OnnxScan {
  irVersion: number | null;
  producer: string;
  producerVersion: string;
  opsets: { domain: string; version: number }[];
  inputs: OnnxValue[];
  outputs: OnnxValue[];
  /** The main graph's nodes by op (subgraphs of If/Loop are not counted), sorted by domain then op. */
  ops: OnnxOpCount[];
  initializers: number;
  /** Bytes of weights inside the file (raw_data). */
  inlineBytes: number;
  /** Files beside the model that hold weights (data_location EXTERNAL), with the bytes each must have. */
  externalData: { location: string; bytes: number }[];
  /** The file's length as read. */
  fileBytes: number;
}

/** TensorProto.DataType, named as onnxruntime-web's Tensor.type names them. */
const ELEMENT_TYPES: Record<number, string> = {
  1: 'float32', 2: 'uint8', 3: 'int8', 4: 'uint16', 5: 'int16', 6: 'int32', 7: 'int64', 8: 'string',
  9: 'bool', 10: 'float16', 11: 'float64', 12: 'uint32', 13: 'uint64', 14: 'complex64', 15: 'complex128',
  16: 'bfloat16', 17: 'float8e4m3fn', 18: 'float8e4m3fnuz', 19: 'float8e5m2', 20: 'float8e5m2fnuz',
  21: 'uint4', 22: 'int4', 23: 'float4e2m1',
};

export function elementTypeName(code: number): string {
  return ELEMENT_TYPES[code] ?? `type ${code}`;
}

/** Names and keys longer than this are skipped rather than read: no real name is this long. */
const MAX_STRING = 64 * 1024;

const WIRE_VARINT = 0;
const WIRE_FIXED64 = 1;
const WIRE_LEN = 2;
const WIRE_FIXED32 = 5;

/** Where the stream is not a ModelProto (a truncated download, an HTML error page, another format). */
export class OnnxScanError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
  }
}

/** Skips a field's value of any wire type. */
async function skipValue(r: ChunkReader, wire: number): Promise<void> {
  if (wire === WIRE_VARINT) await r.varint();
  else if (wire === WIRE_FIXED64) await r.skip(8);
  else if (wire === WIRE_LEN) await r.skip(await r.varint());
  else if (wire === WIRE_FIXED32) await r.skip(4);
  else throw new OnnxScanError(`wire type ${wire} is not used by ONNX`, r.pos);
}

/**
 * Reads the fields of a message ending at byte `end` (Infinity: the stream's end). `visit` reads the
 * value of a field it wants and returns true; any other field is skipped by its length.
 */
async function fields(r: ChunkReader, end: number, visit: (field: number, wire: number) => Promise<boolean>): Promise<void> {
  while (end === Infinity ? !(await r.atEnd()) : r.pos < end) {
    const key = await r.varint();
    const field = Math.floor(key / 8);
    const wire = key % 8;
    if (field === 0) throw new OnnxScanError('field number 0: this is not an ONNX file', r.pos);
    if (!(await visit(field, wire))) await skipValue(r, wire);
  }
  if (r.pos > end) throw new OnnxScanError('a field runs past the end of its message', r.pos);
}

/** The end offset of a length-delimited sub-message whose key was just read. */
async function messageEnd(r: ChunkReader): Promise<number> {
  const length = await r.varint();
  return r.pos + length;
}

interface ScanState {
  scan: OnnxScan;
  ops: Map<string, OnnxOpCount>;
  external: Map<string, number>;
}

async function readValueInfo(r: ChunkReader, end: number): Promise<OnnxValue> {
  const value: OnnxValue = { name: '', elemType: 'unknown', dims: [] };
  await fields(r, end, async (field, wire) => {
    if (field === 1 && wire === WIRE_LEN) value.name = await r.string(MAX_STRING);
    else if (field === 2 && wire === WIRE_LEN) {
      // TypeProto → tensor_type (1) → elem_type (1), shape (2) → dim (1) → dim_value (1) | dim_param (2)
      await fields(r, await messageEnd(r), async (typeField, typeWire) => {
        if (typeField !== 1 || typeWire !== WIRE_LEN) return false;
        await fields(r, await messageEnd(r), async (tensorField, tensorWire) => {
          if (tensorField === 1 && tensorWire === WIRE_VARINT) value.elemType = elementTypeName(await r.varint());
          else if (tensorField === 2 && tensorWire === WIRE_LEN) {
            await fields(r, await messageEnd(r), async (shapeField, shapeWire) => {
              if (shapeField !== 1 || shapeWire !== WIRE_LEN) return false;
              let dim: number | string = '?';
              await fields(r, await messageEnd(r), async (dimField, dimWire) => {
                if (dimField === 1 && dimWire === WIRE_VARINT) dim = await r.varint();
                else if (dimField === 2 && dimWire === WIRE_LEN) dim = (await r.string(MAX_STRING)) || '?';
                else return false;
                return true;
              });
              value.dims.push(dim);
              return true;
            });
          } else return false;
          return true;
        });
        return true;
      });
    } else return false;
    return true;
  });
  return value;
}

async function readNode(r: ChunkReader, end: number, state: ScanState): Promise<void> {
  let opType = '';
  let domain = '';
  // Attributes (5) are skipped whole: a Constant's tensor can be large, and no fact here needs them.
  await fields(r, end, async (field, wire) => {
    if (field === 4 && wire === WIRE_LEN) opType = await r.string(MAX_STRING);
    else if (field === 7 && wire === WIRE_LEN) domain = await r.string(MAX_STRING);
    else return false;
    return true;
  });
  // 'ai.onnx' is the default domain's other spelling.
  if (domain === 'ai.onnx') domain = '';
  const key = `${domain}\u0000${opType}`;
  const known = state.ops.get(key);
  if (known) known.count++;
  else state.ops.set(key, { domain, opType, count: 1 });
}

async function readInitializer(r: ChunkReader, end: number, state: ScanState): Promise<void> {
  let location: string | null = null;
  let offset = 0;
  let length = 0;
  await fields(r, end, async (field, wire) => {
    if (field === 9 && wire === WIRE_LEN) {
      // raw_data: the weights themselves, skipped by length.
      const n = await r.varint();
      await r.skip(n);
      state.scan.inlineBytes += n;
    } else if (field === 13 && wire === WIRE_LEN) {
      let key = '';
      let value = '';
      await fields(r, await messageEnd(r), async (entryField, entryWire) => {
        if (entryField === 1 && entryWire === WIRE_LEN) key = await r.string(MAX_STRING);
        else if (entryField === 2 && entryWire === WIRE_LEN) value = await r.string(MAX_STRING);
        else return false;
        return true;
      });
      if (key === 'location') location = value;
      else if (key === 'offset') offset = Number(value) || 0;
      else if (key === 'length') length = Number(value) || 0;
    } else return false;
    return true;
  });
  state.scan.initializers++;
  if (location !== null) state.external.set(location, Math.max(state.external.get(location) ?? 0, offset + length));
}

async function readGraph(r: ChunkReader, end: number, state: ScanState): Promise<void> {
  await fields(r, end, async (field, wire) => {
    if (wire !== WIRE_LEN) return false;
    if (field === 1) await readNode(r, await messageEnd(r), state);
    else if (field === 5) await readInitializer(r, await messageEnd(r), state);
    else if (field === 11) state.scan.inputs.push(await readValueInfo(r, await messageEnd(r)));
    else if (field === 12) state.scan.outputs.push(await readValueInfo(r, await messageEnd(r)));
    else return false;
    return true;
  });
}

/**
 * Scans an ONNX ModelProto given as a stream of chunks of any sizes. Throws OnnxScanError when the
 * bytes are not a well-formed protobuf message (the file is cut short, or is not ONNX).
 */
export async function scanOnnx(chunks: AsyncIterable<Uint8Array> | Iterable<Uint8Array>): Promise<OnnxScan> {
  const iterator = Symbol.asyncIterator in chunks ? chunks[Symbol.asyncIterator]() : toAsync(chunks[Symbol.iterator]());
  const r = new ChunkReader(iterator, (message, offset) => new OnnxScanError(message, offset));
  const scan: OnnxScan = {
    irVersion: null,
    producer: '',
    producerVersion: '',
    opsets: [],
    inputs: [],
    outputs: [],
    ops: [],
    initializers: 0,
    inlineBytes: 0,
    externalData: [],
    fileBytes: 0,
  };
  const state: ScanState = { scan, ops: new Map(), external: new Map() };
  let sawGraph = false;
  try {
    await fields(r, Infinity, async (field, wire) => {
      if (field === 1 && wire === WIRE_VARINT) scan.irVersion = await r.varint();
      else if (field === 2 && wire === WIRE_LEN) scan.producer = await r.string(MAX_STRING);
      else if (field === 3 && wire === WIRE_LEN) scan.producerVersion = await r.string(MAX_STRING);
      else if (field === 7 && wire === WIRE_LEN) {
        await readGraph(r, await messageEnd(r), state);
        sawGraph = true;
      } else if (field === 8 && wire === WIRE_LEN) {
        const opset = { domain: '', version: 0 };
        await fields(r, await messageEnd(r), async (opField, opWire) => {
          if (opField === 1 && opWire === WIRE_LEN) opset.domain = await r.string(MAX_STRING);
          else if (opField === 2 && opWire === WIRE_VARINT) opset.version = await r.varint();
          else return false;
          return true;
        });
        scan.opsets.push(opset);
      } else return false;
      return true;
    });
  } finally {
    await iterator.return?.();
  }
  if (!sawGraph) throw new OnnxScanError('no graph found: this is not an ONNX model', r.pos);
  scan.fileBytes = r.pos;
  scan.ops = [...state.ops.values()].sort((a, b) => (a.domain === b.domain ? cmp(a.opType, b.opType) : cmp(a.domain, b.domain)));
  scan.externalData = [...state.external].map(([location, bytes]) => ({ location, bytes })).sort((a, b) => cmp(a.location, b.location));
  return scan;
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

async function* toAsyncGen(it: Iterator<Uint8Array>): AsyncGenerator<Uint8Array> {
  for (let next = it.next(); !next.done; next = it.next()) yield next.value;
}
function toAsync(it: Iterator<Uint8Array>): AsyncIterator<Uint8Array> {
  return toAsyncGen(it);
}
