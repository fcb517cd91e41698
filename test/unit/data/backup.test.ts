// The backup of every run (issue 34): exported from one browser's store and imported into another,
// every record comes back field by field (scoring runs of each kind and a memorization run); a
// second import reports them as already stored and duplicates nothing; an entry no page could show
// is refused with the field named; another run under a stored id is kept apart, not overwritten.
import { describe, expect, it } from 'vitest';
import { exportBackup, importBackup } from '../../../src/lib/data/backup.ts';
import { createRun, saveResult } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import { unreadableNotice } from '../../../src/lib/core/record/stored-check.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { madeProbeRun } from '../formats/memorization-fixture.ts';
import { freshDb } from '../store/helpers.ts';

async function everything(db: JianguDatabase) {
  return { runs: await db.getAll('runs'), results: await db.getAll('results'), probeRuns: await db.getAll('probeRuns'), probeResults: await db.getAll('probeResults') };
}

async function source(): Promise<JianguDatabase> {
  const { db } = await madeProbeRun();
  const mc = makeMcRun('letters');
  const gen = makeGenRun('generation');
  for (const { run, results } of [mc, gen, { ...mc, run: { ...mc.run, id: 'labelled', label: '基线 q8' }, results: mc.results.map((r) => ({ ...r, runId: 'labelled' })) }]) {
    await createRun(db, run);
    for (const r of results) await saveResult(db, r);
  }
  return db;
}

const asFile = (text: string, name = 'backup.json') => new File([text], name, { type: 'application/json' });

describe('the backup of every run', () => {
  it('restores every record field by field in another browser, and a second import duplicates nothing', async () => {
    const from = await source();
    const text = await exportBackup(from);
    const before = await everything(from);
    expect(before.runs).toHaveLength(3);
    expect(before.probeRuns).toHaveLength(1);

    const to = await freshDb();
    const report = await importBackup(to, asFile(text));
    expect(report.refused).toEqual([]);
    expect(report.restored.sort()).toEqual([...before.runs.map((r) => r.id), before.probeRuns[0].id].sort());
    const after = await everything(to);
    const byKey = <T,>(list: T[], key: (t: T) => string) => [...list].sort((a, b) => key(a).localeCompare(key(b)));
    expect(byKey(after.runs, (r) => r.id)).toEqual(byKey(before.runs, (r) => r.id));
    expect(byKey(after.results, (r) => `${r.runId} ${r.itemId}`)).toEqual(byKey(before.results, (r) => `${r.runId} ${r.itemId}`));
    expect(byKey(after.probeRuns, (r) => r.id)).toEqual(before.probeRuns);
    expect(byKey(after.probeResults, (r) => `${r.runId} ${r.itemId}`)).toEqual(byKey(before.probeResults, (r) => `${r.runId} ${r.itemId}`));

    const again = await importBackup(to, asFile(text));
    expect(again.restored).toEqual([]);
    expect(again.alreadyStored).toHaveLength(4);
    expect(await everything(to)).toEqual(after);
    from.close();
    to.close();
  });

  it('refuses an entry no page could show, naming the field, and keeps another run under a stored id', async () => {
    const from = await source();
    const backup = JSON.parse(await exportBackup(from));
    const letters = backup.runs.find((e: { run: { id: string } }) => e.run.id === 'letters');
    letters.results[1].probs = [1.2, 1.2, 1.2, 0];
    const generation = backup.runs.find((e: { run: { id: string } }) => e.run.id === 'generation');
    generation.run.config.maxNewTokens = 'many';
    const to = await freshDb();
    const other = makeMcRun('labelled');
    await createRun(to, { ...other.run, createdAt: '2026-01-01T00:00:00.000Z' });
    const report = await importBackup(to, asFile(JSON.stringify(backup)));
    expect(report.refused.map((r) => r.id).sort()).toEqual(['generation', 'letters']);
    const said = Object.fromEntries(report.refused.map((r) => [r.id, renderNotice(unreadableNotice(r.id, r.problem), 'en')]));
    expect(said.letters).toContain('results[1].probs');
    expect(said.generation).toContain('run.config.maxNewTokens');
    expect(report.conflicting).toEqual(['labelled']);
    expect((await to.get('runs', 'labelled'))!.createdAt).toBe('2026-01-01T00:00:00.000Z');
    expect(await to.count('results')).toBe(0);
    from.close();
    to.close();
  });

  it('refuses a file that is not a backup, storing nothing', async () => {
    const to = await freshDb();
    const error = await importBackup(to, asFile(JSON.stringify({ format: 'jiangu-run', formatVersion: 1 }), 'run.json')).catch((e: unknown) => e);
    expect((error as Error).message).toMatch(/^run\.json: format: expected one of jiangu-backup/);
    expect(await to.count('runs')).toBe(0);
    to.close();
  });
});
