// A protobuf walker and splicer over bytes already in memory, for editing an ONNX graph without
// decoding its weights. Reading a message gives each field's byte range; a field's value is only
// decoded when asked for (a name, an int), so a TensorProto's raw_data is passed over by its length.
// Writing builds a list of pieces (views into the input plus small new buffers) whose total length
// is known before anything is copied, so the output is allocated and filled once.
// Wire types and field numbers are onnx/onnx.proto's, as onnx-scan.ts reads them from a stream.

export const WIRE_VARINT = 0;
export const WIRE_FIXED64 = 1;
export const WIRE_LEN = 2;
export const WIRE_FIXED32 = 5;

/** Bytes that are not a well-formed protobuf message where one was expected. */
export class ProtoBytesError extends Error {
  constructor(
    message: string,
    readonly offset: number,
  ) {
    super(`${message} (at byte ${offset})`);
  }
}

/** One field of a message: `start`–`end` spans tag and value; `valueStart`–`valueEnd` the payload of a length-delimited field. */
export interface ProtoField {
  no: number;
  wire: number;
  start: number;
  end: number;
  valueStart: number;
  valueEnd: number;
  /** The value of a varint field (exact up to 2^53); 0 for other wire types. */
  varint: number;
}

function readVarint(buf: Uint8Array, pos: number, end: number): { value: number; next: number } {
  let value = 0;
  let scale = 1;
  for (let i = 0; i < 10; i++) {
    if (pos >= end) throw new ProtoBytesError('the message ends inside a varint', pos);
    const b = buf[pos++];
    value += (b & 0x7f) * scale;
    if (b < 0x80) return { value, next: pos };
    scale *= 128;
  }
  throw new ProtoBytesError('a varint is longer than 10 bytes', pos);
}

/** Every field of the message in `buf[start, end)`, in order. Throws ProtoBytesError on bad bytes. */
export function readFields(buf: Uint8Array, start = 0, end = buf.length): ProtoField[] {
  const fields: ProtoField[] = [];
  let pos = start;
  while (pos < end) {
    const fieldStart = pos;
    const key = readVarint(buf, pos, end);
    pos = key.next;
    const no = Math.floor(key.value / 8);
    const wire = key.value % 8;
    if (no === 0) throw new ProtoBytesError('field number 0', fieldStart);
    let valueStart = pos;
    let valueEnd = pos;
    let varint = 0;
    if (wire === WIRE_VARINT) {
      const v = readVarint(buf, pos, end);
      varint = v.value;
      pos = valueEnd = v.next;
    } else if (wire === WIRE_LEN) {
      const n = readVarint(buf, pos, end);
      valueStart = n.next;
      valueEnd = valueStart + n.value;
      if (valueEnd > end) throw new ProtoBytesError(`a field of ${n.value} bytes runs past the end of its message`, fieldStart);
      pos = valueEnd;
    } else if (wire === WIRE_FIXED64 || wire === WIRE_FIXED32) {
      pos += wire === WIRE_FIXED64 ? 8 : 4;
      if (pos > end) throw new ProtoBytesError('the message ends inside a fixed-width field', fieldStart);
      valueEnd = pos;
    } else {
      throw new ProtoBytesError(`unknown wire type ${wire}`, fieldStart);
    }
    fields.push({ no, wire, start: fieldStart, end: pos, valueStart, valueEnd, varint });
  }
  return fields;
}

const decoder = new TextDecoder('utf-8', { fatal: true });

/** A length-delimited field's value as UTF-8 text. */
export function fieldString(buf: Uint8Array, f: ProtoField): string {
  if (f.wire !== WIRE_LEN) throw new ProtoBytesError(`field ${f.no} is not a string`, f.start);
  try {
    return decoder.decode(buf.subarray(f.valueStart, f.valueEnd));
  } catch {
    throw new ProtoBytesError(`field ${f.no} is not UTF-8 text`, f.start);
  }
}

/** The sub-message of a length-delimited field, as fields. */
export function subFields(buf: Uint8Array, f: ProtoField): ProtoField[] {
  if (f.wire !== WIRE_LEN) throw new ProtoBytesError(`field ${f.no} is not a message`, f.start);
  return readFields(buf, f.valueStart, f.valueEnd);
}

// ---- writing

/** Output under construction: views and small buffers, concatenated only at the end. */
export type Pieces = Uint8Array[];

export function piecesLength(pieces: Pieces): number {
  let n = 0;
  for (const p of pieces) n += p.length;
  return n;
}

/** The one copy: every piece into a new buffer of the total length. */
export function joinPieces(pieces: Pieces): Uint8Array {
  const out = new Uint8Array(piecesLength(pieces));
  let at = 0;
  for (const p of pieces) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

export function encodeVarint(value: number | bigint): Uint8Array {
  // Negative int64 values are written as their 64-bit two's complement (10 bytes), as protobuf does.
  let v = BigInt.asUintN(64, BigInt(value));
  const bytes: number[] = [];
  while (v >= 0x80n) {
    bytes.push(Number(v & 0x7fn) | 0x80);
    v >>= 7n;
  }
  bytes.push(Number(v));
  return Uint8Array.from(bytes);
}

function tag(no: number, wire: number): Uint8Array {
  return encodeVarint(no * 8 + wire);
}

/** A length-delimited field around `body` (a sub-message's pieces, or bytes). */
export function lenField(no: number, body: Pieces): Pieces {
  return [tag(no, WIRE_LEN), encodeVarint(piecesLength(body)), ...body];
}

export function stringField(no: number, text: string): Pieces {
  return lenField(no, [new TextEncoder().encode(text)]);
}

export function varintField(no: number, value: number | bigint): Pieces {
  return [tag(no, WIRE_VARINT), encodeVarint(value)];
}
