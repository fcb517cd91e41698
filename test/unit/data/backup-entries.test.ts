// A backup's entries, each read alone by its own kind's reader (issue 46, item 1): an entry that is
// not an object, of another format or version, refuses itself and not the backup; unknown fields
// (a `__proto__` key, a long string) are dropped and named, never stored; the sample check a run file
// gets fires on a backup entry too (a forged seed, an edited order); an id the backup holds twice is
// said as repeated; a backup over the entry limit is refused in words a reader counts by.
import { beforeEach, describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { BACKUP_MAX_ENTRIES } from '../../../src/lib/core/formats/backup/backup.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import { unreadableNotice } from '../../../src/lib/core/record/stored-check.ts';
import type { McRunRecord } from '../../../src/lib/core/record/run.ts';
import { exportBackup, importBackup } from '../../../src/lib/data/backup.ts';
import { checkRunSample } from '../../../src/lib/data/run-sample-check.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import type { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { createRun, saveResult } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb } from '../store/helpers.ts';
import { ITEMS, RECORD, runWith } from '../record/sampled-run.ts';

type Entry = { format: unknown; formatVersion: unknown; run: Record<string, unknown>; results: Record<string, unknown>[] };
type Backup = { format: string; formatVersion: number; exportedAt: string; runs: unknown[]; memorizationRuns: unknown[] };

const asFile = (text: string, name = 'backup.json') => new File([text], name, { type: 'application/json' });
const said = (r: { id: string; problem: Parameters<typeof unreadableNotice>[1] }, language: 'en' | 'zh' = 'en') => renderNotice(unreadableNotice(r.id, r.problem), language);

/** A backup of the runs given, as exportBackup writes it (from a store holding them). */
async function backupOf(runs: readonly { run: McRunRecord; results: ReturnType<typeof makeMcRun>['results'] }[]): Promise<Backup> {
  const from = await freshDb();
  for (const { run, results } of runs) {
    await createRun(from, run);
    for (const r of results) await saveResult(from, { ...r, runId: run.id });
  }
  const backup = JSON.parse(await exportBackup(from)) as Backup;
  from.close();
  return backup;
}

const withId = (id: string) => {
  const { run, results } = makeMcRun(id);
  return { run, results: results.map((r) => ({ ...r, runId: id })) };
};

let to: JianguDatabase;
beforeEach(async () => {
  to = await freshDb();
});

describe('a backup entry read alone', () => {
  it('an entry that is null, of another format or of another version refuses itself, naming its place; the others are restored', async () => {
    const backup = await backupOf([withId('first'), withId('second'), withId('third')]);
    const [first, second, third] = ['first', 'second', 'third'].map((id) => (backup.runs as Entry[]).find((e) => e.run.id === id)!);
    backup.runs = [first, null, { ...second, format: 'jiangu-memorization-run' }, { ...third, formatVersion: 2 }, 'text'];
    const report = await importBackup(to, asFile(JSON.stringify(backup)));
    expect(report.restored).toEqual(['first']);
    expect(report.refused.map((r) => r.id)).toEqual(['runs[1]', 'second', 'third', 'runs[4]']);
    const words = report.refused.map((r) => said(r));
    expect(words[0]).toBe('runs[1]: entry: expected an object, got null');
    expect(words[1]).toMatch(/^second: format: expected one of jiangu-run/);
    expect(words[2]).toMatch(/^third: formatVersion/);
    expect(said(report.refused[0], 'zh')).toMatch(/^runs\[1\]：/);
    expect((await to.getAll('runs')).map((r) => r.id)).toEqual(['first']);
  });

  it('drops fields no reader knows, names them in the report, and stores the record rebuilt without them', async () => {
    const backup = await backupOf([withId('plain'), withId('extra')]);
    const extra = (backup.runs as Entry[]).find((e) => e.run.id === 'extra')!;
    extra.run.notes = 'x'.repeat(1_000_000);
    (extra.run.config as Record<string, unknown>).future = { nested: true };
    extra.results[0].comment = 'hello';
    // `__proto__` as JSON text: JSON.parse makes it an own key, which a record built by spreading would carry.
    const text = JSON.stringify(backup).replace('"notes":', '"__proto__":{"polluted":true},"notes":');
    const report = await importBackup(to, asFile(text));
    expect(report.refused).toEqual([]);
    expect(report.restored.sort()).toEqual(['extra', 'plain']);
    expect(report.dropped).toEqual([{ id: 'extra', fields: expect.arrayContaining(['run.__proto__', 'run.notes', 'run.config.future', 'results[*].comment']) }]);
    const stored = (await to.get('runs', 'extra')) as unknown as Record<string, unknown>;
    expect(Object.keys(stored)).not.toContain('notes');
    expect(Object.hasOwn(stored, '__proto__')).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(Object.keys(stored.config as object)).not.toContain('future');
    const results = await to.getAllFromIndex('results', 'by-run', 'extra');
    expect(results.every((r) => !('comment' in r))).toBe(true);
    // What is known comes back as it was.
    const plain = await backupOf([withId('plain')]);
    expect(await to.get('runs', 'plain')).toEqual((plain.runs[0] as Entry).run);
  });

  it('refuses an entry larger than a run file may be, naming its place and size; the others are restored', async () => {
    const backup = await backupOf([withId('small'), withId('huge')]);
    const huge = (backup.runs as Entry[]).find((e) => e.run.id === 'huge')!;
    huge.run.notes = 'x'.repeat(65 * 2 ** 20);
    const report = await importBackup(to, asFile(JSON.stringify(backup)));
    expect(report.restored).toEqual(['small']);
    expect(report.refused.map((r) => r.problem.code)).toEqual(['import.backup-entry-too-large']);
    expect(said(report.refused[0])).toMatch(/^huge: runs\[\d\]: this run is 65\.0 MiB as a run file; the most a run file may be is 64 MiB/);
  });

  it('refuses a sampled run whose seed or order was edited, as a run file is, when the benchmark is stored here', async () => {
    await saveDataset(to, RECORD, ITEMS);
    const drawn = runWith(4_000_000_001);
    const forgedSeed = { ...drawn, id: 'seed', config: { ...drawn.config, sampling: { ...drawn.config.sampling!, seed: 4_000_000_002 } } };
    const ids = drawn.config.itemIds;
    const reordered = { ...drawn, id: 'order', config: { ...drawn.config, itemIds: [ids[1], ids[0], ...ids.slice(2)] } };
    const entries = [drawn, forgedSeed, reordered].map((run) => ({ ...(JSON.parse(runJson(run, [])) as Entry), summary: undefined }));
    const backup: Backup = { format: 'jiangu-backup', formatVersion: 1, exportedAt: new Date().toISOString(), runs: entries, memorizationRuns: [] };
    const report = await importBackup(to, asFile(JSON.stringify(backup)));
    expect(report.restored).toEqual([drawn.id]);
    expect(report.refused.map((r) => [r.id, r.problem.code])).toEqual([
      ['seed', 'import.sample-not-drawn'],
      ['order', 'import.sample-not-drawn'],
    ]);
    expect(said(report.refused[0], 'zh')).toMatch(/^seed：/);
    // The same runs as run files are refused with the same codes (the run file's door: parse, then the sample check).
    const asRunFile = async (run: McRunRecord) => checkRunSample(to, (await parseRunFile(runJson(run, []), `${run.id}.json`)).run).then(() => null, (e: RunImportError) => e.refusal.code);
    expect(await Promise.all([drawn, forgedSeed, reordered].map(asRunFile))).toEqual([null, 'import.sample-not-drawn', 'import.sample-not-drawn']);
  });

  it('says an id the backup holds twice as repeated, not as another run stored here', async () => {
    const backup = await backupOf([withId('twice')]);
    const entry = backup.runs[0] as Entry;
    backup.runs = [entry, { ...entry, results: entry.results.slice(1) }];
    const report = await importBackup(to, asFile(JSON.stringify(backup)));
    expect(report.restored).toEqual(['twice']);
    expect(report.repeated).toEqual(['twice']);
    expect(report.conflicting).toEqual([]);
    expect(await to.count('results')).toBe(entry.results.length);
  });

  it('refuses a backup over the entry limit, counting as a reader counts, storing nothing', async () => {
    const backup = await backupOf([withId('one')]);
    backup.runs = Array.from({ length: BACKUP_MAX_ENTRIES + 1 }, () => backup.runs[0]);
    const error = (await importBackup(to, asFile(JSON.stringify(backup), 'big.json')).catch((e: unknown) => e)) as Error & { notice: Parameters<typeof renderNotice>[0] };
    expect(error.message).toBe('big.json: runs: the backup holds 10,001 scoring runs; a backup may hold at most 10,000 of each kind. Nothing was stored.');
    expect(renderNotice(error.notice, 'zh')).toBe('big.json：runs：备份中有 10,001 次评测；每种最多 10,000 个。未存储任何内容。');
    expect(await to.count('runs')).toBe(0);
  });
});
