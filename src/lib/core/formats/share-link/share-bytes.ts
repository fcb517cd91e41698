// The byte side of a share link: base64url, deflate-raw through (De)CompressionStream, and the
// frame that holds a JSON header and the 2-bit packed letters. Every failure is a ShareLinkError.
import { ShareLinkError, shareLinkError } from './share-types.ts';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const LOOKUP = new Map([...ALPHABET].map((c, i) => [c, i]));

/** RFC 4648 §5 base64url, without padding. */
export function toBase64Url(bytes: Uint8Array): string {
  let out = '';
  for (let i = 0; i < bytes.length; i += 3) {
    const n = (bytes[i] << 16) | ((bytes[i + 1] ?? 0) << 8) | (bytes[i + 2] ?? 0);
    const chars = Math.min(4, bytes.length - i + 1);
    for (let k = 0; k < chars; k++) out += ALPHABET[(n >> (18 - 6 * k)) & 63];
  }
  return out;
}

/** Strict: only the base64url alphabet, no padding, no whitespace, no impossible length. */
export function fromBase64Url(text: string): Uint8Array {
  if (text.length % 4 === 1) throw shareLinkError('link.base64-length', { chars: text.length });
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let acc = 0;
  let bits = 0;
  let o = 0;
  for (let i = 0; i < text.length; i++) {
    const v = LOOKUP.get(text[i]);
    if (v === undefined) {
      throw shareLinkError('link.base64-char', { char: JSON.stringify(text[i]), at: i });
    }
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[o++] = (acc >> bits) & 0xff;
    }
  }
  return out;
}

async function pipe(stream: CompressionStream | DecompressionStream, input: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const writer = stream.writable.getWriter();
  // Their rejections surface through the reader; catching here keeps them from going unhandled.
  writer.write(new Uint8Array(input)).catch(() => undefined);
  writer.close().catch(() => undefined);
  const reader = stream.readable.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > maxBytes) {
      reader.cancel().catch(() => undefined);
      throw shareLinkError('link.inflates-too-big', { max: maxBytes });
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return out;
}

export function deflateRaw(bytes: Uint8Array): Promise<Uint8Array> {
  return pipe(new CompressionStream('deflate-raw'), bytes, Number.MAX_SAFE_INTEGER);
}

/** Inflates at most maxBytes; stops reading (a deflate bomb stays small) and throws beyond. */
export async function inflateRaw(bytes: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  try {
    return await pipe(new DecompressionStream('deflate-raw'), bytes, maxBytes);
  } catch (e) {
    if (e instanceof ShareLinkError) throw e;
    throw shareLinkError('link.bad-deflate');
  }
}

/** Four 2-bit codes a byte (0–3), the first in the high bits; the last byte is padded with zeros. */
export function pack2(codes: readonly number[]): Uint8Array {
  const out = new Uint8Array(Math.ceil(codes.length / 4));
  codes.forEach((code, i) => {
    out[i >> 2] |= (code & 3) << (6 - 2 * (i & 3));
  });
  return out;
}

export function unpack2(bytes: Uint8Array, count: number): number[] {
  const out = new Array<number>(count);
  for (let i = 0; i < count; i++) out[i] = (bytes[i >> 2] >> (6 - 2 * (i & 3))) & 3;
  return out;
}

/** The inflated layout: [version u8][header length u32 BE][header UTF-8 JSON][packed 2-bit planes]. */
export function frame(version: number, header: Uint8Array, packed: Uint8Array): Uint8Array {
  const out = new Uint8Array(5 + header.length + packed.length);
  out[0] = version;
  new DataView(out.buffer).setUint32(1, header.length);
  out.set(header, 5);
  out.set(packed, 5 + header.length);
  return out;
}

export function unframe(bytes: Uint8Array, maxHeaderBytes: number): { version: number; header: Uint8Array; packed: Uint8Array } {
  if (bytes.length < 5) throw shareLinkError('link.frame-too-short', { bytes: bytes.length });
  const version = bytes[0];
  const length = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(1);
  if (length > maxHeaderBytes) throw shareLinkError('link.header-too-big', { bytes: length, max: maxHeaderBytes });
  if (5 + length > bytes.length) throw shareLinkError('link.header-cut', { bytes: length, follow: bytes.length - 5 });
  return { version, header: bytes.subarray(5, 5 + length), packed: bytes.subarray(5 + length) };
}
