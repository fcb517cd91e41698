import { describe, expect, it } from 'vitest';
import { agreementWith, createReproduction, filesDifference } from '../../../src/lib/engine/reproduce.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { decodeShareLink, encodeShareLink, type SharedMcRun } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { freshDb, makeItems, makeRecord } from '../store/helpers.ts';

describe('agreementWith', () => {
  it('compares item by item in run order, leaving out items the link had no result for', () => {
    const run = { config: { itemIds: ['a', 'b', 'c', 'd'] } } as unknown as McRunRecord;
    const shared = { predictions: ['A', 'B', null, 'D'], unscored: [2] } as unknown as SharedMcRun;
    const results = [
      { itemId: 'a', prediction: 'A' },
      { itemId: 'b', prediction: 'C' },
      { itemId: 'c', prediction: 'A' },
      { itemId: 'd', prediction: 'D' },
    ] as McItemResult[];
    expect(agreementWith(shared, run, results)).toEqual({ compared: 3, same: 2, percentSame: (100 * 2) / 3, differentIds: ['b'] });
  });

  it('counts a generated answer with no letter as a prediction of its own (null equals null)', () => {
    const run = { config: { itemIds: ['a', 'b'] } } as unknown as McRunRecord;
    const shared = { predictions: [null, 'B'], unscored: [] } as unknown as SharedMcRun;
    const results = [{ itemId: 'a', prediction: null }, { itemId: 'b', prediction: 'B' }] as McItemResult[];
    expect(agreementWith(shared, run, results)).toEqual({ compared: 2, same: 2, percentSame: 100, differentIds: [] });
  });
});

describe('createReproduction', () => {
  it("loads the commit the sharer's hub files came from, and refuses other data", async () => {
    const db = await freshDb();
    const items = makeItems('aclue', [{ task: '通假字', dev: 5, test: 6 }]);
    await saveDataset(db, makeRecord('aclue', items), items);
    const model = { source: { kind: 'hub' as const, id: 'org/model', revision: 'main' }, dtype: 'fp32' as const, backend: 'wasm' as const };
    const original = await createMcRun(db, { model, datasetId: 'aclue', tasks: ['通假字'], shots: 0, limitPerTask: null, chatTemplate: false });
    const commit = 'e'.repeat(40);
    original.environment = {
      backendInfo: { backend: 'wasm', wasmThreads: 1, crossOriginIsolated: true },
      modelInputNames: [],
      transformersVersion: 't',
      ortVersion: 'o',
      userAgent: 'u',
      resolvedRevision: { commit, how: 'response-header' },
    };
    const shared = await decodeShareLink(await encodeShareLink(original, [], {}));
    if (shared.kind !== 'multiple-choice') throw new Error('expected a multiple-choice link');
    const again = await createReproduction(db, shared);
    expect(again.config.model.source).toEqual({ kind: 'hub', id: 'org/model', revision: commit });
    expect(again.config.itemIds).toEqual(original.config.itemIds);

    // Without a commit in the link, the revision is the one the sharer asked for.
    const { modelCommit: _, ...env } = shared.environment!;
    expect((await createReproduction(db, { ...shared, environment: env })).config.model.source).toEqual(model.source);

    // Other data files: refused, naming the file.
    const other = { ...shared, config: { ...shared.config, datasetFiles: [{ path: shared.config.datasetFiles[0].path, sha256: '0'.repeat(64) }] } };
    await expect(createReproduction(db, other)).rejects.toThrow(/is not the data the link was made on/);
    db.close();
  });

  it("keeps a link's model host only when asked to (the user agreed); otherwise the same model from the hub", async () => {
    const db = await freshDb();
    const items = makeItems('aclue', [{ task: '通假字', dev: 5, test: 6 }]);
    await saveDataset(db, makeRecord('aclue', items), items);
    const model = { source: { kind: 'hub' as const, id: 'org/model', revision: 'main', host: 'https://other.example/hf' }, dtype: 'fp32' as const, backend: 'wasm' as const };
    const original = await createMcRun(db, { model, datasetId: 'aclue', tasks: ['通假字'], shots: 0, limitPerTask: null, chatTemplate: false });
    const shared = await decodeShareLink(await encodeShareLink(original, [], {}));
    if (shared.kind !== 'multiple-choice') throw new Error('expected a multiple-choice link');
    expect((await createReproduction(db, shared, { modelHost: 'link' })).config.model.source).toEqual(model.source);
    expect((await createReproduction(db, shared, { modelHost: 'hub' })).config.model.source).toEqual({ kind: 'hub', id: 'org/model', revision: 'main' });
    db.close();
  });

  it('reproduces a cloze run as a cloze run: the cloze layout\'s version and template hash; a link asking for a circular cloze run is refused', async () => {
    const db = await freshDb();
    const items = makeItems('aclue', [{ task: '通假字', dev: 5, test: 6 }]);
    await saveDataset(db, makeRecord('aclue', items), items);
    const model = { source: { kind: 'site' as const, name: 'jiangu-tiny' }, dtype: 'fp32' as const, backend: 'wasm' as const };
    const original = await createMcRun(db, { model, datasetId: 'aclue', tasks: ['通假字'], shots: 1, limitPerTask: null, chatTemplate: false, scoring: 'cloze' });
    const letters = await createMcRun(db, { model, datasetId: 'aclue', tasks: ['通假字'], shots: 1, limitPerTask: null, chatTemplate: false });
    expect(original.config.templateHash).not.toBe(letters.config.templateHash);
    const shared = await decodeShareLink(await encodeShareLink(original, [], {}));
    if (shared.kind !== 'multiple-choice') throw new Error('expected a multiple-choice link');
    expect(shared.config.scoring).toBe('cloze');
    const again = await createReproduction(db, shared);
    expect(again.config).toMatchObject({ scoring: 'cloze', protocolVersion: original.config.protocolVersion, templateHash: original.config.templateHash, shots: 1 });
    // Circular (or PriDe) with option-text scoring is no run this site makes: the link's check refuses it (encoding runs the same check).
    await expect(encodeShareLink({ ...original, config: { ...original.config, circular: true } }, [], {})).rejects.toThrow(/config\.scoring.*"cloze"; expected "letter-logits"/);
    db.close();
  });

  it("says what is missing as a 'link.*' notice", async () => {
    const db = await freshDb();
    const items = makeItems('aclue', [{ task: '通假字', dev: 5, test: 6 }]);
    await saveDataset(db, makeRecord('aclue', items), items);
    const model = { source: { kind: 'site' as const, name: 'jiangu-tiny' }, dtype: 'fp32' as const, backend: 'wasm' as const };
    const original = await createMcRun(db, { model, datasetId: 'aclue', tasks: ['通假字'], shots: 0, limitPerTask: null, chatTemplate: false });
    const shared = await decodeShareLink(await encodeShareLink(original, [], {}));
    const empty = await freshDb();
    await expect(createReproduction(empty, shared)).rejects.toMatchObject({ notice: { code: 'link.data-missing', params: { dataset: 'aclue' } } });
    db.close();
    empty.close();
  });
});

describe('filesDifference', () => {
  const linked = [
    { path: 'a.csv', sha256: '1'.repeat(64) },
    { path: 'b.csv', sha256: '2'.repeat(64) },
  ];
  it('names the first file whose hash differs, then a list of another length, else null', () => {
    expect(filesDifference(linked, linked)).toBeNull();
    expect(filesDifference([linked[0], { path: 'b.csv', sha256: null }], linked)).toBe('b.csv differs');
    expect(filesDifference([...linked, { path: 'c.csv', sha256: '3'.repeat(64) }], linked)).toBe('the file lists differ');
    expect(filesDifference([linked[0]], linked)).toBe('b.csv differs');
  });
});
