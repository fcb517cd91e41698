// An imported run's answer key against this browser's copy of the benchmark: a file that writes its
// predictions into `gold` (100% on paper) is rescored with the local key, the disagreement is recorded
// with both answers, and a run imported before its data was stored is checked once the data is here.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Item, MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { runJson } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { parseRunFile } from '../../../src/lib/core/formats/import-record.ts';
import { checkAgainstLocalKey } from '../../../src/lib/core/record/key-check.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import type { GenItemResult, McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { importRun, loadResults, recheckImportedKey } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { MC_ITEMS, makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb, makeRecord } from './helpers.ts';

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

/** The benchmark as this browser holds it: the items of makeMcRun with their true answers. */
function localItems(answers: (OptionLetter | null)[] = MC_ITEMS.map((i) => i.gold)): MultipleChoiceItem[] {
  return MC_ITEMS.map((spec, index) => ({
    id: `${spec.task}/test/${spec.order}`,
    datasetId: 'aclue',
    task: spec.task,
    split: 'test',
    order: spec.order,
    source: { file: `data/test/${spec.task}.csv`, line: spec.order + 2 },
    kind: 'multiple-choice',
    question: `问${index}？`,
    options: ['甲', '乙', '丙', '丁'].slice(0, spec.logProbs.length),
    answer: answers[index],
  }));
}

async function storeLocal(items: Item[]) {
  const record = makeRecord('aclue', items);
  await saveDataset(db, { ...record, files: [{ path: 'data/test/通假字.csv', sha256: '12'.repeat(32), bytes: 10 }] }, items);
}

/** A run file whose gold letters are its own predictions: every item "right". */
async function forgedFile() {
  const { run, results } = makeMcRun('forged');
  const forged = results.map((r) => ({ ...r, gold: r.prediction, correct: true }));
  return parseRunFile(runJson(run, forged), 'forged.json');
}

describe('imported answer keys', () => {
  it('rescores a forged key with the local one and records every disagreement with both answers', async () => {
    await storeLocal(localItems());
    const file = await forgedFile();
    expect(runSummary(file.run, file.results).overall).toBe(100);
    const stored = await importRun(db, file);
    const check = stored.origin!.keyCheck!;
    expect(check.status).toBe('disagrees');
    expect(check.compared).toBe(5);
    expect(check.missing).toBe(0);
    expect(check.filesDiffer).toBe(false);
    expect(check.fileOverall).toBe(100);
    // The file's predictions against the true key (MC_ITEMS): argmax A, B, C, B, A vs gold A, C, C, B, D.
    expect(check.disagreements).toEqual([
      { itemId: '古文单字多义/test/1', file: 'B', local: 'C' },
      { itemId: '通假字/test/1', file: 'A', local: 'D' },
    ]);
    const results = (await loadResults(db, stored.id)) as McItemResult[];
    expect(results.map((r) => [r.gold, r.correct])).toEqual([
      ['A', true],
      ['C', false],
      ['C', true],
      ['B', true],
      ['D', false],
    ]);
    const summary = runSummary(stored, results);
    expect(summary['task:古文单字多义']).toBeCloseTo(200 / 3, 6);
    expect(summary['task:通假字']).toBe(50);
  });

  it('agrees with an honest file and leaves its results as they were', async () => {
    await storeLocal(localItems());
    const { run, results } = makeMcRun('honest');
    const stored = await importRun(db, await parseRunFile(runJson(run, results), 'honest.json'));
    expect(stored.origin!.keyCheck).toMatchObject({ status: 'agrees', compared: 5, disagreements: [] });
    expect((await loadResults(db, stored.id)).map((r) => ({ ...r, runId: 'x' }))).toEqual(results.map((r) => ({ ...r, runId: 'x' })));
  });

  it('says when the benchmark is not stored here, and checks once it is', async () => {
    const stored = await importRun(db, await forgedFile());
    expect(stored.origin!.keyCheck).toMatchObject({ status: 'no-local-data', compared: 0, missing: 5 });
    expect(((await loadResults(db, stored.id)) as McItemResult[]).every((r) => r.correct)).toBe(true);
    // Still nothing stored: nothing changes.
    expect((await recheckImportedKey(db, stored.id))!.origin!.keyCheck!.status).toBe('no-local-data');

    await storeLocal(localItems());
    const rechecked = await recheckImportedKey(db, stored.id);
    expect(rechecked!.origin!.keyCheck).toMatchObject({ status: 'disagrees', compared: 5 });
    expect(((await loadResults(db, stored.id)) as McItemResult[]).filter((r) => r.correct).length).toBe(3);
  });

  it('sets results of items missing from the local copy apart (out of every number) and names other data files', () => {
    const { run, results } = makeMcRun('partial');
    const items = localItems().slice(0, 3);
    const imported = { ...run, origin: { kind: 'jiangu-file' as const, fileName: 'f.json', importedAt: run.createdAt, originalRunId: run.id, storedSummary: null, summaryMismatches: [] } };
    const checked = checkAgainstLocalKey(imported, results, { items: new Map(items.map((i) => [i.id, i])), files: [{ path: 'data/other.csv', sha256: 'ff'.repeat(32) }] }, null);
    expect(checked.check).toMatchObject({ status: 'agrees', compared: 3, missing: 0, setApart: 2, setApartIds: [results[3].itemId, results[4].itemId], filesDiffer: true });
    expect(checked.results.map((r) => r.itemId)).toEqual(results.slice(0, 3).map((r) => r.itemId));
  });

  /** makeMcRun's file with `extra` more results in 古文单字多义, ids the benchmark never had (issue 23: 110,000 in a 500-item task). */
  async function inflatedFile(extra: number) {
    const { run, results } = makeMcRun('inflated');
    const template = results[0] as McItemResult;
    const more = Array.from({ length: extra }, (_, k): McItemResult => ({ ...template, itemId: `古文单字多义/test/${1000 + k}`, index: results.length + k }));
    const all = [...results, ...more];
    const inflated = { ...run, config: { ...run.config, itemIds: all.map((r) => r.itemId) } } as McRunRecord;
    return parseRunFile(runJson(inflated, all), 'inflated.json');
  }

  it('never lets a task\'s n exceed what the stored benchmark has: 2,000 invented ids are left out of every figure', async () => {
    await storeLocal(localItems());
    const file = await inflatedFile(2000);
    expect(file.results.length).toBe(2005);
    const stored = await importRun(db, file);
    expect(stored.origin!.keyCheck).toMatchObject({ status: 'agrees', compared: 5, setApart: 2000 });
    expect(stored.origin!.keyCheck!.setApartIds).toHaveLength(20);
    expect(stored.origin!.keyCheck!.setApartIds![0]).toBe('古文单字多义/test/1000');
    const kept = await loadResults(db, stored.id);
    expect(kept).toHaveLength(5);
    const summary = runSummary(stored, kept);
    expect(summary['task:古文单字多义']).toBeCloseTo(200 / 3, 6);
  });

  it('refuses a file none of whose results name a stored item, storing nothing', async () => {
    await storeLocal(localItems().slice(0, 1).map((i) => ({ ...i, id: 'other/test/0' })));
    await expect(importRun(db, await forgedFile())).rejects.toMatchObject({ refusal: { code: 'import.no-item-in-local-copy', params: { results: 5, first: '古文单字多义/test/0' } } });
    expect(await db.count('runs')).toBe(0);
    expect(await db.count('results')).toBe(0);
  });

  it('sets invented ids apart once the benchmark is stored, when the run was imported before it', async () => {
    const stored = await importRun(db, await inflatedFile(30));
    expect(await loadResults(db, stored.id)).toHaveLength(35);
    await storeLocal(localItems());
    const rechecked = await recheckImportedKey(db, stored.id);
    expect(rechecked!.origin!.keyCheck).toMatchObject({ status: 'agrees', compared: 5, setApart: 30 });
    expect(await loadResults(db, stored.id)).toHaveLength(5);
  });

  it('sets apart what a check of an older version left in, keeping what that check found about the file\'s key', async () => {
    await storeLocal(localItems());
    const stored = await importRun(db, await forgedFile());
    // As an older version stored it: the foreign results in the run, counted as "missing".
    const old = { ...stored.origin!.keyCheck!, missing: 1 } as Record<string, unknown>;
    delete old.setApart;
    delete old.setApartIds;
    const foreign = { ...((await loadResults(db, stored.id))[0] as McItemResult), itemId: '古文单字多义/test/999', index: 999 };
    await db.put('runs', { ...stored, origin: { ...stored.origin!, keyCheck: old } } as never);
    await db.put('results', foreign as never);
    const rechecked = await recheckImportedKey(db, stored.id);
    expect(rechecked!.origin!.keyCheck).toMatchObject({ status: 'disagrees', fileOverall: 100, setApart: 1, setApartIds: ['古文单字多义/test/999'] });
    expect(rechecked!.origin!.keyCheck!.disagreements).toHaveLength(2);
    expect((await loadResults(db, stored.id)).map((r) => r.itemId)).not.toContain('古文单字多义/test/999');
  });

  it('keeps an item that was never scored unscored under the local key', () => {
    const { run, results } = makeMcRun('unscored');
    const withUnscored = results.map((r, i) => (i === 0 ? { ...r, correct: null } : r)) as McItemResult[];
    const imported = { ...(run as McRunRecord), origin: { kind: 'jiangu-file' as const, fileName: 'f.json', importedAt: run.createdAt, originalRunId: run.id, storedSummary: null, summaryMismatches: [] } };
    const items = localItems(['B', 'C', 'C', 'B', 'D']);
    const checked = checkAgainstLocalKey(imported, withUnscored, { items: new Map(items.map((i) => [i.id, i])), files: [] }, null);
    expect((checked.results[0] as McItemResult).correct).toBeNull();
    expect(checked.check.disagreements[0]).toEqual({ itemId: '古文单字多义/test/0', file: 'A', local: 'B' });
  });

  it('checks a generation run\'s references the same way', () => {
    const { run, results } = makeGenRun('gen');
    const imported = { ...run, origin: { kind: 'jiangu-file' as const, fileName: 'g.json', importedAt: run.createdAt, originalRunId: run.id, storedSummary: null, summaryMismatches: [] } };
    const items: Item[] = results.map((r, i) => ({
      id: r.itemId, datasetId: 'c3bench', task: r.task, split: 'test', order: i, source: { file: 'C3_bench.json', line: i + 1 },
      kind: 'generation', generationTask: r.generationTask, input: '文', references: i === 1 ? ['史'] : [...r.references],
    })) as Item[];
    const checked = checkAgainstLocalKey(imported, results, { items: new Map(items.map((i) => [i.id, i])), files: run.config.datasetFiles }, null);
    expect(checked.check.status).toBe('disagrees');
    expect(checked.check.disagreements).toEqual([{ itemId: 'c3-fake-1', file: ['儒'], local: ['史'] }]);
    expect((checked.results[1] as GenItemResult).references).toEqual(['史']);
  });

  it('says when the same file was imported before with other results, on the new copy (the same results are refused as already stored)', async () => {
    const { run, results } = makeMcRun('twice');
    const first = await importRun(db, await parseRunFile(runJson(run, results), 'twice.json'));
    expect(first.warnings).toEqual(run.warnings);
    const second = await importRun(db, await parseRunFile(runJson(run, results.slice(0, 4)), 'twice.json'));
    expect(second.warnings.at(-1)).toMatchObject({ code: 'run.imported-before', params: { copies: 1, firstImportedAt: first.origin!.importedAt } });
    const third = await importRun(db, await parseRunFile(runJson(run, results.slice(0, 3)), 'twice.json'));
    expect(third.warnings.at(-1)).toMatchObject({ code: 'run.imported-before', params: { copies: 2 } });
    // Another file is not a copy.
    const other = await importRun(db, await parseRunFile(runJson({ ...run, createdAt: '2026-02-01T00:00:00.000Z' }, results), 'twice.json'));
    expect(other.warnings).toEqual(run.warnings);
  });
});
