// SHA-256 through Web Crypto (the browser's and Node's), as lowercase hex.
import { JianguError } from '../core/notices/index.ts';

export async function sha256Hex(bytes: Uint8Array): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', bytes as Uint8Array<ArrayBuffer>);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** A downloaded file is not the pinned one (a mirror's copy differs, or the download was altered). */
export class HashMismatchError extends JianguError {
  constructor(
    readonly file: string,
    readonly expected: string,
    readonly actual: string,
  ) {
    super({ code: 'data.hash-mismatch', params: { file, expected, actual } });
    this.name = 'HashMismatchError';
  }
}

/** Throws HashMismatchError unless `bytes` hash to `expected` (when a hash is pinned); returns the hash. */
export async function checkSha256(file: string, bytes: Uint8Array, expected: string | null): Promise<string> {
  const actual = await sha256Hex(bytes);
  if (expected !== null && actual !== expected.toLowerCase()) throw new HashMismatchError(file, expected, actual);
  return actual;
}
