// A run's sample (issue 36) wherever the run goes: the run file and the share link carry its sampling
// and stop rule and read them back equal; records from before (no sampling) still read and rebuild as
// the first limitPerTask in file order; a forged sample is refused: sizes that do not give the items
// (the file, the link), a seed that draws other items from the stored benchmark (the file's import
// check, the link's rebuild), each with its own notice code.
import 'fake-indexeddb/auto';
import { beforeEach, describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { decodeShareLink, encodeShareLink, type SharedMcRun } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../../src/lib/core/formats/share-link/share-bytes.ts';
import { noticeOf } from '../../../src/lib/core/notices/index.ts';
import type { RunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';
import { checkRunSample } from '../../../src/lib/data/run-sample-check.ts';
import { sharedItemIds } from '../../../src/lib/engine/shared-items.ts';
import { createReproduction } from '../../../src/lib/engine/reproduce.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { freshDb } from '../store/helpers.ts';
import { ITEMS, N, RECORD, TASKS, runWith } from './sampled-run.ts';

const codeOf = async (p: Promise<unknown>) => noticeOf(await p.then(() => null, (e: unknown) => e)).code;

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
  await saveDataset(db, RECORD, ITEMS);
});

describe('the run file carries the sample', () => {
  it('reads back the sampling and stop rule, and the import check passes the seed that drew the items', async () => {
    const run = runWith(4_000_000_001);
    const read = await parseRunFile(runJson(run, []), 'run.json');
    expect(read.run.config.sampling).toEqual(run.config.sampling);
    expect(read.run.config.stopRule).toEqual(run.config.stopRule);
    expect(read.run.config.itemIds).toEqual(run.config.itemIds);
    await expect(checkRunSample(db, read.run)).resolves.toBeUndefined();
  });

  it('reads a file from before samples were recorded, as the first items in file order', async () => {
    const read = await parseRunFile(runJson(runWith(null), []), 'old.json');
    expect(read.run.config.sampling).toBeUndefined();
    expect(read.run.config.itemIds).toEqual(['古文单字多义/test/0', '古文单字多义/test/1', '古文单字多义/test/2', '通假字/test/0', '通假字/test/1', '通假字/test/2']);
    await expect(checkRunSample(db, read.run)).resolves.toBeUndefined();
  });

  it('refuses a forged seed (other items drawn here) and sizes that do not give the items', async () => {
    const run = runWith(4_000_000_001);
    const forged = { ...run, config: { ...run.config, sampling: { ...run.config.sampling!, seed: 4_000_000_002 } } };
    const read = await parseRunFile(runJson(forged, []), 'forged.json');
    expect(await codeOf(checkRunSample(db, read.run))).toBe('import.sample-not-drawn');
    const sizes = { ...run, config: { ...run.config, sampling: { ...run.config.sampling!, population: { [TASKS[0]]: 2, [TASKS[1]]: N } } } };
    expect(await codeOf(parseRunFile(runJson(sizes, []), 'sizes.json'))).toBe('import.sample-size');
    const other = { ...run, config: { ...run.config, sampling: { ...run.config.sampling!, population: { [TASKS[0]]: N, [TASKS[1]]: N + 1 } } } };
    expect(await codeOf(checkRunSample(db, (await parseRunFile(runJson(other, []), 'other.json')).run))).toBe('import.sample-population');
  });
});

describe('the share link carries the sample', () => {
  it('decodes the sampling and stop rule, and rebuilds the same items in the same order from the stored tasks', async () => {
    const run = runWith(123_456);
    const shared = (await decodeShareLink(await encodeShareLink(run, [], {}))) as SharedMcRun;
    expect(shared.config.sampling).toEqual(run.config.sampling);
    expect(shared.config.stopRule).toEqual(run.config.stopRule);
    expect(await sharedItemIds(db, shared)).toEqual(run.config.itemIds);
  });

  it('an old link (no sampling) still opens and rebuilds the first items, task by task', async () => {
    const run = runWith(null);
    const shared = await decodeShareLink(await encodeShareLink(run, [], {}));
    expect(shared.config.sampling).toBeUndefined();
    expect(await sharedItemIds(db, shared)).toEqual(run.config.itemIds);
  });

  it('refuses a link whose seed draws other items here, and one whose sizes do not give its items', async () => {
    const run = runWith(123_456);
    // The sharer's items, but another seed written beside them.
    const forged = { ...run, config: { ...run.config, sampling: { ...run.config.sampling!, seed: 654_321 } } };
    const shared = await decodeShareLink(await encodeShareLink(forged, [], {}));
    expect(await codeOf(sharedItemIds(db, shared))).toBe('link.other-sample');
    // Sizes edited in the header: refused when the link is read, naming the field.
    const payload = await encodeShareLink(run, [], {});
    const parts = unframe(await inflateRaw(fromBase64Url(payload), 1 << 22), 1 << 20);
    const header = JSON.parse(new TextDecoder().decode(parts.header)) as { config: { sampling: RunSampling } };
    header.config.sampling.population[TASKS[0]] = 2;
    const edited = toBase64Url(await deflateRaw(frame(parts.version, new TextEncoder().encode(JSON.stringify(header)), parts.packed.slice())));
    const error = await decodeShareLink(edited).then(() => null, (e: unknown) => e);
    expect(noticeOf(error).code).toBe('link.field-invalid');
    expect((noticeOf(error).params as { path: string }).path).toBe('config.sampling.population');
  });

  it('reproduces as a run of the same sample in the same order, and an old link as its first items, task by task', async () => {
    for (const run of [runWith(123_456), runWith(null)]) {
      const shared = (await decodeShareLink(await encodeShareLink(run, [], {}))) as SharedMcRun;
      const reproduced = await createReproduction(db, shared);
      expect(reproduced.config.itemIds).toEqual(run.config.itemIds);
      if (run.config.sampling) expect(reproduced.config.sampling).toEqual(run.config.sampling);
    }
  });
});
