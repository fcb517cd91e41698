// Every pinned sha256 and byte size in the catalog must equal the shared copy of the upstream file.
import { createHash } from 'node:crypto';
import { expect, it } from 'vitest';
import { DATASETS } from '../../../src/lib/core/benchmarks/catalog.ts';
import { describeWithSharedData, readShared } from './shared-data.ts';

describeWithSharedData('pinned files', (root) => {
  const pinned = DATASETS.flatMap((dataset) => dataset.files.filter((file) => file.sha256 !== null).map((file) => ({ id: dataset.id, ...file })));

  it('pins 59 files: ACLUE 30, CMMLU 2, AC-EVAL 26, WenMind 1', () => {
    expect(pinned.length).toBe(59);
  });

  it.each(pinned)('$id $path', ({ id, path, sha256, bytes }) => {
    const file = readShared(root, id, path);
    expect(file.bytes.length).toBe(bytes);
    expect(createHash('sha256').update(file.bytes).digest('hex')).toBe(sha256);
  });
});
