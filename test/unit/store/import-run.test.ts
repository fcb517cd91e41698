// importRun: a new local id, the results rewritten to it, and all or nothing in one transaction.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError, parseRunFile, type ImportedRun } from '../../../src/lib/core/formats/import-record.ts';
import type { ItemResult, McItemResult } from '../../../src/lib/core/record/run.ts';
import { createRun, getRun, importRun, listRuns, loadResults, saveResult } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb } from './helpers.ts';

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
  // A run made here, which no import may touch.
  const { run, results } = makeGenRun('local-run');
  await createRun(db, run);
  for (const result of results) await saveResult(db, result);
});
afterEach(() => db.close());

async function everything() {
  return { runs: await db.getAll('runs'), results: await db.getAll('results') };
}

async function imported(): Promise<ImportedRun> {
  const { run, results } = makeMcRun('run-original-1');
  return parseRunFile(runJson(run, results), 'exported.json');
}

describe('importRun', () => {
  it('stores the run under a new id with every result, keeping the original id in the origin', async () => {
    const file = await imported();
    const stored = await importRun(db, file);
    expect(stored.id).not.toBe('run-original-1');
    expect(stored.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(stored.origin).toMatchObject({ kind: 'jiangu-file', fileName: 'exported.json', originalRunId: 'run-original-1', summaryMismatches: [] });
    expect(await getRun(db, stored.id)).toEqual(stored);
    expect(stored.config).toEqual(file.run.config);

    const results = (await loadResults(db, stored.id)) as McItemResult[];
    expect(results).toHaveLength(5);
    expect(results.every((r) => r.runId === stored.id)).toBe(true);
    expect(results.map((r) => r.itemId)).toEqual(file.run.config.itemIds);
    expect(results.map((r) => ({ ...r, runId: 'x' }))).toEqual(file.results.map((r) => ({ ...r, runId: 'x' })));
    // What it was handed is not changed.
    expect(file.results[0].runId).toBe('run-original-1');

    expect((await listRuns(db)).map((r) => r.id).sort()).toEqual(['local-run', stored.id].sort());
    expect(await loadResults(db, 'local-run')).toHaveLength(3);
  });

  it('refuses a second import of the same file, naming the stored copy (issue 34: "already stored")', async () => {
    const a = await importRun(db, await imported());
    const again = await importRun(db, await imported()).catch((e: unknown) => e);
    expect(again).toMatchObject({ notice: { code: 'run.already-stored', params: { runId: a.id } } });
    expect(await loadResults(db, a.id)).toHaveLength(5);
    expect(await db.count('results')).toBe(3 + 5);
  });

  it('stores nothing when a result cannot be stored part-way (DataCloneError)', async () => {
    const before = await everything();
    expect(before.runs).toHaveLength(1);
    const file = await imported();
    const bad = file.results.map((r, i) => (i === 3 ? ({ ...r, note: () => 'not cloneable' } as unknown as ItemResult) : r));
    const error = await importRun(db, { run: file.run, results: bad }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).message).toMatch(/^exported\.json: the result for item 通假字\/test\/0 could not be stored \(DataCloneError: .*\); nothing was stored\.$/);
    expect(await everything()).toEqual(before);
  });

  it('stores nothing when a write fails after it was queued (a key stored twice: ConstraintError)', async () => {
    const before = await everything();
    const file = await imported();
    const error = await importRun(db, { run: file.run, results: [...file.results, file.results[1]] }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).message).toMatch(/^exported\.json: the result for item 古文单字多义\/test\/1 could not be stored \(ConstraintError: .*\); nothing was stored\.$/);
    expect(await everything()).toEqual(before);
  });

  it('stores nothing when the run itself cannot be stored', async () => {
    const before = await everything();
    const file = await imported();
    const run = { ...file.run, check: { callback: () => 1 } } as unknown as ImportedRun['run'];
    const error = await importRun(db, { run, results: file.results }).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).message).toMatch(/^exported\.json: the run could not be stored \(DataCloneError: .*\); nothing was stored\.$/);
    expect(await everything()).toEqual(before);
  });
});
