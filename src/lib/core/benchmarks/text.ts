// Bytes to text for every adapter: the size limit, UTF-8 only (a file in GBK or Big5 would decode to
// mojibake that looks like data), a UTF-8 BOM accepted and dropped, empty files refused, and a file
// name that breaks the id rule refused (it is stored with the dataset and written into run files).
import { DataError } from './errors.ts';
import { checkName } from './names.ts';

/** One downloaded or imported file, as the adapters receive it. */
export interface RawFile {
  /** The original relative path (e.g. `data/test/通假字.csv`) or the imported file's name. */
  path: string;
  bytes: Uint8Array;
}

/**
 * The largest file an adapter accepts. The biggest known benchmark file (C3Bench) is a few MiB;
 * 64 MiB leaves room for a user's own file while keeping a mistaken multi-GB pick from freezing the tab.
 */
export const MAX_FILE_BYTES = 64 * 1024 * 1024;

/** Decodes a whole file as UTF-8, or throws a DataError naming the file (and the first bad byte). */
export function decodeUtf8(file: RawFile): string {
  checkName('file-name', file.path, { file: file.path });
  if (file.bytes.length > MAX_FILE_BYTES) {
    throw new DataError({ file: file.path }, 'data.file-too-large', { bytes: file.bytes.length, limit: MAX_FILE_BYTES });
  }
  let text: string;
  try {
    // ignoreBOM false (the default): a leading UTF-8 BOM is consumed, not returned as U+FEFF.
    text = new TextDecoder('utf-8', { fatal: true }).decode(file.bytes);
  } catch {
    const offset = firstInvalidUtf8Offset(file.bytes);
    throw new DataError({ file: file.path }, 'data.not-utf8', { offset });
  }
  if (text.trim() === '') throw new DataError({ file: file.path }, 'data.empty-file');
  return text;
}

/**
 * Byte offset of the first byte that breaks UTF-8 (bad lead byte, missing continuation, overlong form,
 * surrogate, or a sequence cut off by the end of the file). Only called once decoding has failed, to
 * say where: TextDecoder itself does not tell.
 */
export function firstInvalidUtf8Offset(bytes: Uint8Array): number {
  let i = 0;
  while (i < bytes.length) {
    const lead = bytes[i];
    let length: number;
    let min: number;
    if (lead < 0x80) {
      i += 1;
      continue;
    } else if (lead >= 0xc2 && lead <= 0xdf) {
      [length, min] = [2, 0x80];
    } else if (lead >= 0xe0 && lead <= 0xef) {
      [length, min] = [3, 0x800];
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      [length, min] = [4, 0x10000];
    } else {
      return i;
    }
    let codePoint = lead & (0xff >> (length + 1));
    for (let k = 1; k < length; k++) {
      const next = bytes[i + k];
      if (next === undefined || (next & 0xc0) !== 0x80) return i;
      codePoint = (codePoint << 6) | (next & 0x3f);
    }
    if (codePoint < min || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return i;
    i += length;
  }
  return bytes.length;
}
