// Reproducing a circular or PriDe run asks the same options: circular as shared, PriDe with the
// same share and seed, hence the same estimation set (the link carries the configuration).
import { describe, expect, it } from 'vitest';
import { createReproduction } from '../../../src/lib/engine/reproduce.ts';
import { createMcRun } from '../../../src/lib/engine/run-setup.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { decodeShareLink, encodeShareLink, type SharedMcRun } from '../../../src/lib/core/formats/share-link/share-link.ts';
import type { McRunRecord } from '../../../src/lib/core/record/run.ts';
import { freshDb, makeItems, makeRecord } from '../store/helpers.ts';

/** The link a run makes, through the share-link codec itself (its config carries PriDe's ids as count and hash). */
async function linkOf(run: McRunRecord): Promise<SharedMcRun> {
  const shared = await decodeShareLink(await encodeShareLink(run, [], {}));
  if (shared.kind !== 'multiple-choice') throw new Error('not a multiple-choice link');
  return shared;
}

describe('createReproduction of a circular or PriDe run', () => {
  it('asks the same rotations, with the same seed and estimation set', async () => {
    const db = await freshDb();
    const items = makeItems('aclue', [{ task: '通假字', dev: 5, test: 30 }]);
    await saveDataset(db, makeRecord('aclue', items), items);
    const model = { source: { kind: 'site' as const, name: 'jiangu-tiny' }, dtype: 'fp32' as const, backend: 'wasm' as const };
    const base = { model, datasetId: 'aclue' as const, tasks: ['通假字'], shots: 0, limitPerTask: null, chatTemplate: false };

    const circular = await createMcRun(db, { ...base, circular: true });
    const again = await createReproduction(db, await linkOf(circular));
    expect(again.config.circular).toBe(true);
    expect(again.config.pride).toEqual(circular.config.pride);

    const pride = await createMcRun(db, { ...base, pride: { share: 0.1 } });
    const reproduced = await createReproduction(db, await linkOf(pride));
    expect(reproduced.config.circular).toBeUndefined();
    expect(reproduced.config.pride).toEqual(pride.config.pride);
    expect(reproduced.config.pride!.estimationItemIds).toHaveLength(Math.round(0.1 * pride.config.itemIds.length));

    const plain = await createReproduction(db, await linkOf(await createMcRun(db, base)));
    expect(plain.config.circular).toBeUndefined();
    expect(plain.config.pride).toBeUndefined();
    db.close();
  });
});
