// Tests that read the public benchmark copies in <repo>/../shared/data (never copied into the project:
// the data is CC BY-NC-SA). Locally they are skipped when the folder is missing; in CI (CI set) they
// fail, saying the data is missing, so a broken checkout cannot pass silently.
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, it } from 'vitest';
import { getDataset } from '../../../src/lib/core/benchmarks/catalog.ts';
import type { RawFile } from '../../../src/lib/core/benchmarks/text.ts';
import type { DatasetId } from '../../../src/lib/core/benchmarks/types.ts';

/** This file is <repo>/test/unit/benchmarks/shared-data.ts. */
const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../../..');
export const SHARED_DATA = resolve(REPO_ROOT, '../shared/data');

/** The shared data folder, or null when this checkout has none beside it. */
export function sharedData(): string | null {
  return existsSync(SHARED_DATA) ? SHARED_DATA : null;
}

/** describe() whose tests need the shared data; `body` gets its path and must only read it inside tests or hooks. */
export function describeWithSharedData(name: string, body: (root: string) => void): void {
  const root = sharedData();
  if (root) {
    describe(name, () => body(root));
  } else if (process.env.CI) {
    describe(name, () => {
      it('has the shared benchmark data', () => {
        throw new Error(`shared benchmark data is missing: expected ${SHARED_DATA} (the ../shared checkout beside the repository)`);
      });
    });
  } else {
    describe.skip(`${name} (no shared data at ${SHARED_DATA})`, () => {
      it('needs the shared data', () => {});
    });
  }
}

/** One file of a dataset's shared copy, under its original path. */
export function readShared(root: string, id: DatasetId, path: string): RawFile {
  const bytes = readFileSync(join(root, getDataset(id).mirrorFolder, path));
  return { path, bytes: new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) };
}

/** Every catalog file of a dataset, read from the shared copy. */
export function readCatalogFiles(root: string, id: DatasetId): RawFile[] {
  return getDataset(id).files.map((file) => readShared(root, id, file.path));
}
