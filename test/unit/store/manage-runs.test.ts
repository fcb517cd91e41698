// Runs a user can manage (issue 34): stored records checked on read (a damaged one named, the rest
// listed), deleting several at once, the user's label, and an import of a run already stored.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile, RunImportError } from '../../../src/lib/core/formats/import-record.ts';
import { noticeOf, renderNotice } from '../../../src/lib/core/notices/index.ts';
import { createRun, deleteRuns, importRun, loadResults, rawRecordJson, readRunChecked, saveResult, setRunLabel } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import type { RunRecord } from '../../../src/lib/core/record/run.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb } from './helpers.ts';
import { listIndexedRuns } from '../../../src/lib/store/run-index.ts';

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

async function store(run: RunRecord, results: readonly object[]) {
  await createRun(db, run);
  for (const r of results) await saveResult(db, r as never);
}

describe('reading stored runs, checked', () => {
  it('lists every readable run and names a damaged record with the field that is wrong, without losing it', async () => {
    const mc = makeMcRun('good-mc');
    const gen = makeGenRun('good-gen');
    await store(mc.run, mc.results);
    await store(gen.run, gen.results);
    // Written as a bug or a hand might: a config whose itemIds is not a list, and a record with no date at all.
    await db.put('runs', { ...makeMcRun('bad-type').run, config: { ...mc.run.config, itemIds: 'not a list' } } as never);
    const { createdAt: _c, ...noDate } = makeMcRun('no-date').run;
    await db.put('runs', noDate as never);

    // As the lists read them: from the run index, found short by its check after the first listing
    // (these two were written behind its back), built again, and listed again (as the pages do).
    expect(await (await listIndexedRuns(db)).checked).toBe(false);
    const { runs, unreadable } = await listIndexedRuns(db);
    expect(runs.map((r) => r.id).sort()).toEqual(['good-gen', 'good-mc']);
    expect(unreadable.map((u) => u.id).sort()).toEqual(['bad-type', 'no-date']);
    const badType = unreadable.find((u) => u.id === 'bad-type')!;
    expect(renderNotice(badType.problem, 'en')).toMatch(/^bad-type: .*run\.config\.itemIds/);
    expect(renderNotice(badType.problem, 'zh')).toMatch(/^bad-type：.*run\.config\.itemIds/);
    expect(badType.createdAt).toBe(mc.run.createdAt);
    expect(renderNotice(unreadable.find((u) => u.id === 'no-date')!.problem, 'en')).toContain('run.createdAt');
    // Nothing was removed by reading.
    expect(await db.count('runs')).toBe(4);
  });

  it('checks a run with its results: a result whose probabilities sum to 3.6, or one missing fields, names the result', async () => {
    const mc = makeMcRun('probs');
    await store(mc.run, mc.results);
    const good = await readRunChecked(db, 'probs');
    expect(good && 'run' in good ? good.results.map((r) => r.itemId) : null).toEqual(mc.run.config.itemIds);

    await db.put('results', { ...mc.results[2], probs: [1.2, 1.2, 1.2, 0] } as never);
    const bad = await readRunChecked(db, 'probs');
    expect(bad && 'unreadable' in bad ? renderNotice(bad.unreadable.problem, 'en') : null).toMatch(/results\[2\]\.probs/);

    const { prompt: _p, ...missing } = mc.results[2];
    await db.put('results', missing as never);
    const gone = await readRunChecked(db, 'probs');
    expect(gone && 'unreadable' in gone ? renderNotice(gone.unreadable.problem, 'en') : null).toMatch(/results\[2\]\.prompt/);
    expect(await readRunChecked(db, 'never-stored')).toBeNull();
  });

  it('exports a damaged record exactly as stored', async () => {
    const mc = makeMcRun('raw');
    await store({ ...mc.run, config: { ...mc.run.config, shots: 'five' } } as never, mc.results);
    const raw = JSON.parse(await rawRecordJson(db, 'runs', 'raw'));
    expect(raw).toMatchObject({ format: 'jiangu-stored-record', store: 'runs', id: 'raw' });
    expect(raw.record.config.shots).toBe('five');
    expect(raw.results).toHaveLength(mc.results.length);
  });
});

describe('deleting runs', () => {
  it('deletes the chosen runs with all their results and leaves the others whole', async () => {
    for (const id of ['a', 'b', 'c']) {
      const { run, results } = makeMcRun(id);
      await store(run, results.map((r) => ({ ...r, runId: id })));
    }
    await deleteRuns(db, ['a', 'c']);
    expect((await db.getAll('runs')).map((r) => r.id)).toEqual(['b']);
    expect(await db.count('results')).toBe(5);
    expect((await loadResults(db, 'b')).every((r) => r.runId === 'b')).toBe(true);
  });
});

describe('a run label', () => {
  it('is stored trimmed, cleared by empty text, and refused when too long or holding an invisible character', async () => {
    const { run, results } = makeMcRun('labelled');
    await store(run, results);
    expect((await setRunLabel(db, 'labelled', '  fp32 baseline  ')).label).toBe('fp32 baseline');
    expect((await db.get('runs', 'labelled'))!.label).toBe('fp32 baseline');
    const long = await setRunLabel(db, 'labelled', 'x'.repeat(81)).catch((e: unknown) => e);
    expect(noticeOf(long)).toMatchObject({ code: 'run.label-too-long', params: { max: 80, length: 81 } });
    const hidden = await setRunLabel(db, 'labelled', 'a\u202eb').catch((e: unknown) => e);
    expect(noticeOf(hidden).code).toBe('run.label-control-character');
    expect((await db.get('runs', 'labelled'))!.label).toBe('fp32 baseline');
    expect('label' in (await setRunLabel(db, 'labelled', '   '))).toBe(false);
  });

  it('travels in the run file and is range-checked there as raw text', async () => {
    const { run, results } = makeMcRun('file-label');
    const read = await parseRunFile(runJson({ ...run, label: '古文 q8' }, results), 'l.json');
    expect(read.run.label).toBe('古文 q8');
    const refused = await parseRunFile(runJson({ ...run, label: 'y'.repeat(81) }, results), 'l.json').catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RunImportError);
    expect((refused as RunImportError).message).toContain('run.label');
  });
});

describe('importing a run already stored', () => {
  it('refuses a second import of the same run with the same results, naming the stored copy', async () => {
    const { run, results } = makeMcRun('dup');
    const text = runJson(run, results);
    const first = await importRun(db, await parseRunFile(text, 'a.json'));
    // Another file name for the same run changes nothing.
    const again = await importRun(db, await parseRunFile(text, 'copy of a.json')).catch((e: unknown) => e);
    expect(noticeOf(again)).toMatchObject({ code: 'run.already-stored', params: { runId: first.id, fileName: 'copy of a.json' } });
    expect(await db.count('runs')).toBe(1);
    expect(await db.count('results')).toBe(results.length);
  });

  it('knows a run made here from its own exported file', async () => {
    const { run, results } = makeGenRun('made-here');
    await store(run, results);
    const again = await importRun(db, await parseRunFile(runJson(run, results), 'made-here.json')).catch((e: unknown) => e);
    expect(noticeOf(again)).toMatchObject({ code: 'run.already-stored', params: { runId: 'made-here' } });
  });

  it('stores the same run with other results as a copy (not already stored)', async () => {
    const { run, results } = makeMcRun('partial');
    await importRun(db, await parseRunFile(runJson(run, results), 'p.json'));
    const fewer = await importRun(db, await parseRunFile(runJson(run, results.slice(0, 4)), 'p.json'));
    expect(await loadResults(db, fewer.id)).toHaveLength(4);
    expect(await db.count('runs')).toBe(2);
  });

  it('stores the same results under other settings as a copy, never pointing at a run with other settings', async () => {
    const { run, results } = makeMcRun('settings');
    await importRun(db, await parseRunFile(runJson(run, results), 's.json'));
    const other = { ...run, config: { ...run.config, model: { ...run.config.model, backend: 'webgpu' as const } } };
    const copy = await importRun(db, await parseRunFile(runJson(other, results), 's.json'));
    expect(copy.config.model.backend).toBe('webgpu');
    expect(copy.warnings).toContainEqual(expect.objectContaining({ code: 'run.imported-before' }));
    expect(await db.count('runs')).toBe(2);
  });
});
