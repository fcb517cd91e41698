// What the export and run-import workers do, in Node against fake-indexeddb: an export built from
// the store is the file the page used to build from the run it showed, and a run file goes in
// through importRunFiles as it did through the page (all or nothing, limits before reading).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runSummary } from '../../../src/lib/core/metrics/index.ts';
import { generationCsv, predictionsCsv, runJson, withBom } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { describeSample } from '../../../src/lib/core/protocols/sample-description.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import type { GenItemResult, McItemResult } from '../../../src/lib/core/record/run.ts';
import { encodeShareLink } from '../../../src/lib/core/formats/share-link/share-link.ts';
import { buildExport } from '../../../src/lib/data/export-files.ts';
import { importRunFiles } from '../../../src/lib/data/import-runs.ts';
import { createRun, listRuns, loadResults, saveResult } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { makeGenRun, makeMcRun } from '../../fixtures/run-records/build.ts';
import { freshDb } from '../store/helpers.ts';

let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

// ignoreBOM: keep the byte-order mark the CSVs start with (the decoder drops it by default).
const text = (bytes: Uint8Array) => new TextDecoder('utf-8', { ignoreBOM: true }).decode(bytes);

describe('buildExport (the export worker)', () => {
  it('builds the run file, the CSV and the share link from the store, as the page built them', async () => {
    const { run, results } = makeMcRun('run-mc');
    await createRun(db, run);
    for (const r of results) await saveResult(db, r);
    const stored = await loadResults(db, run.id);

    const json = await buildExport(db, { kind: 'run-json', runId: run.id });
    expect(json).toMatchObject({ kind: 'file', name: `jiangu-${run.datasetId}-run-mc.json`, type: 'application/json' });
    expect(text((json as { bytes: Uint8Array }).bytes)).toBe(runJson(run, stored));
    const csv = await buildExport(db, { kind: 'results-csv', runId: run.id });
    // The run's CSV says its sample on every row (issue 36).
    expect(text((csv as { bytes: Uint8Array }).bytes)).toBe(withBom(predictionsCsv(stored as McItemResult[], describeSample(run.config))));
    const link = await buildExport(db, { kind: 'share-link', runId: run.id });
    expect(link).toEqual({ kind: 'link', payload: await encodeShareLink(run, stored, runSummary(run, stored)) });
  });

  it('builds a generation run’s outputs CSV, and says a run that is not stored is not', async () => {
    const { run, results } = makeGenRun('run-gen');
    await createRun(db, run);
    for (const r of results) await saveResult(db, r);
    const csv = await buildExport(db, { kind: 'results-csv', runId: run.id });
    expect(csv).toMatchObject({ name: `jiangu-${run.datasetId}-run-gen-outputs.csv` });
    expect(text((csv as { bytes: Uint8Array }).bytes)).toBe(withBom(generationCsv((await loadResults(db, run.id)) as GenItemResult[], describeSample(run.config))));
    await expect(buildExport(db, { kind: 'run-json', runId: 'nope' })).rejects.toMatchObject({ notice: { code: 'run.not-stored' } });
  });
});

describe('importRunFiles (the run-import worker)', () => {
  it('stores a Jiangu run file and tells its steps', async () => {
    const { run, results } = makeMcRun('run-original');
    const steps: string[] = [];
    const ids = await importRunFiles(db, [new File([runJson(run, results)], 'exported.json')], false, (p) => steps.push(p.step));
    expect(ids).toHaveLength(1);
    expect(await loadResults(db, ids[0])).toHaveLength(results.length);
    expect(steps).toEqual(['reading', 'parsing', 'checking', 'storing']);
  });

  it('refuses a file over the limit from its size alone, before reading it, storing nothing', async () => {
    // A File whose bytes cannot be read: only its size may be looked at.
    const big = new File(['{}'], 'big.json');
    Object.defineProperty(big, 'size', { value: 65 * 1024 * 1024 });
    Object.defineProperty(big, 'arrayBuffer', { value: () => Promise.reject(new Error('read')) });
    const error = await importRunFiles(db, [big], false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).notice).toMatchObject({ code: 'import.file-too-large', params: { fileName: 'big.json', mib: '65.0' } });
    expect(await listRuns(db)).toEqual([]);
  });

  it('says a file the browser cannot read could not be read', async () => {
    const gone = new File(['{}'], 'gone.json');
    Object.defineProperty(gone, 'arrayBuffer', { value: () => Promise.reject(Object.assign(new Error('The requested file could not be read'), { name: 'NotReadableError' })) });
    const error = (await importRunFiles(db, [gone], false).catch((e: unknown) => e)) as RunImportError;
    expect(error.notice).toMatchObject({ code: 'import.unreadable', params: { fileName: 'gone.json', detail: 'NotReadableError: The requested file could not be read' } });
  });
});
