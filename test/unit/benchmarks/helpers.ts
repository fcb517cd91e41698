// Small helpers for the benchmark tests: synthetic files and catching the DataError a call throws.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { DataError } from '../../../src/lib/core/benchmarks/errors.ts';
import type { RawFile } from '../../../src/lib/core/benchmarks/text.ts';

export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');

/** A file of UTF-8 text (the test's own content, never benchmark data). */
export function textFile(path: string, text: string): RawFile {
  return { path, bytes: new TextEncoder().encode(text) };
}

/** A file of the repository (fixtures, samples) under a given name. */
export function repoFile(relativePath: string, name = relativePath.split('/').pop() ?? relativePath): RawFile {
  const bytes = readFileSync(resolve(REPO_ROOT, relativePath));
  return { path: name, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Runs `fn` and returns the DataError it throws; fails the test if it throws nothing or something else. */
export function catchDataError(fn: () => unknown): DataError {
  try {
    fn();
  } catch (error) {
    if (error instanceof DataError) return error;
    throw error;
  }
  throw new Error('expected a DataError, but the call succeeded');
}

/** sha256 of fields joined by U+001F: compares a parsed row with one read by another parser without copying the data. */
export function rowHash(fields: readonly string[]): string {
  return createHash('sha256').update(fields.join('\u001f'), 'utf8').digest('hex');
}
