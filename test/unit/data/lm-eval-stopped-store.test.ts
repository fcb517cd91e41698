// A stopped run's lm-eval export as the run page gets it (issue 44): the export worker reads the run
// and its results from the store by id (buildExport's `runId`), so the zip names only the items the
// run asked; run through the harness stand-in and imported with importRunFiles, the run stored is
// the same stopped run, having passed the checks against this browser's copy of the benchmark (the
// docs, and the sample drawn again). A forged plan the file alone cannot tell (two unasked items
// swapped) is refused there.
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { strFromU8, unzipSync } from 'fflate';
import { afterAll, afterEach, beforeEach, describe, expect, it } from 'vitest';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { LM_EVAL_SAMPLES_FILE } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import type { McRunRecord } from '../../../src/lib/core/record/run.ts';
import { buildExport } from '../../../src/lib/data/export-files.ts';
import { importRunFiles } from '../../../src/lib/data/import-runs.ts';
import { stoppedByRule } from '../../../src/lib/engine/stop-rule.ts';
import { saveDataset } from '../../../src/lib/store/datasets.ts';
import { createRun, getRun, loadResults, saveResult } from '../../../src/lib/store/runs.ts';
import type { JianguDatabase } from '../../../src/lib/store/schema.ts';
import { ITEMS, PLAN, RULE, logLiksOf, stoppedRun } from '../export/stopped-items.ts';
import { freshDb, makeRecord } from '../store/helpers.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness.py', import.meta.url).pathname;
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});
let db: JianguDatabase;
beforeEach(async () => {
  db = await freshDb();
});
afterEach(() => db.close());

/** The run page's export of a stored run, unzipped, run by the harness with the README's --samples; the harness's files as the page picks them. */
async function exportedAndRun(runId: string, edit: (path: string, text: string) => string = (_, text) => text): Promise<{ files: File[]; asked: number }> {
  const zip = await buildExport(db, { kind: 'lm-eval', datasetId: 'aclue', shots: 0, maxNewTokens: 256, circular: false, scoring: 'letter-logits', runId });
  if (zip.kind !== 'file') throw new Error('expected a zip');
  const dir = mkdtempSync(join(tmpdir(), 'jiangu-stopped-store-'));
  temp.push(dir);
  const folder = join(dir, 'export');
  for (const [path, bytes] of Object.entries(unzipSync(zip.bytes))) {
    const inner = path.slice(path.indexOf('/') + 1);
    mkdirSync(dirname(join(folder, inner)), { recursive: true });
    writeFileSync(join(folder, inner), edit(inner, strFromU8(bytes)));
  }
  writeFileSync(join(dir, 'logliks.json'), JSON.stringify(Object.fromEntries(PLAN.map((id) => [`${id}#0`, logLiksOf(id)]))));
  const out = join(dir, 'out');
  execFileSync('python3', [HARNESS, folder, out, '--logliks', join(dir, 'logliks.json'), '--samples', LM_EVAL_SAMPLES_FILE], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const names = readdirSync(out);
  const asked = names.filter((n) => n.startsWith('samples_')).reduce((sum, n) => sum + readFileSync(join(out, n), 'utf8').trimEnd().split('\n').length, 0);
  return { files: names.map((name) => new File([readFileSync(join(out, name))], name)), asked };
}

async function storeStopped(asked: number): Promise<McRunRecord> {
  await saveDataset(db, makeRecord('aclue', ITEMS), ITEMS);
  const { run, results } = stoppedRun(asked);
  await createRun(db, run);
  for (const r of results) await saveResult(db, r);
  return run;
}

describe('a stopped run exported from the store and imported back into it', () => {
  it('the worker exports the items the run asked; the harness run is stored as the same stopped run', async () => {
    const made = await storeStopped(15);
    const h = await exportedAndRun(made.id);
    expect(h.asked).toBe(15);
    const [id] = await importRunFiles(db, h.files, true);
    const stored = (await getRun(db, id)) as McRunRecord;
    const results = await loadResults(db, id);
    for (const key of ['itemIds', 'tasks', 'limitPerTask', 'sampling', 'stopRule'] as const) expect(stored.config[key], key).toEqual(made.config[key]);
    expect(stored.status).toBe('completed');
    expect(stoppedByRule(stored, results.length)).toEqual(RULE);
    expect(results.map((r) => r.itemId).sort()).toEqual(PLAN.slice(0, 15).sort());
  });

  it('refuses a plan whose unasked items were reordered, against this browser\'s copy: the seed does not draw it', async () => {
    const made = await storeStopped(15);
    let swapped = false;
    // Two unasked items of one task trade places: the file's own checks pass, the local draw does not.
    const h = await exportedAndRun(made.id, (path, text) => {
      if (swapped || !path.endsWith('.yaml') || !text.includes('unasked:')) return text;
      const m = /unasked:\n( +- "[^"]+")\n( +- "[^"]+")\n/.exec(text)!;
      swapped = true;
      return text.replace(m[0], `unasked:\n${m[2]}\n${m[1]}\n`);
    });
    expect(swapped).toBe(true);
    const error = await importRunFiles(db, h.files, true).then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(RunImportError);
    expect((error as RunImportError).refusal.code).toBe('import.sample-not-drawn');
  });
});
