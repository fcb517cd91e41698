// A run its precision rule stopped part-way (issue 44) exports what it asked: jiangu_samples.json
// names the first items of its order that it asked (a failed one included), not its whole plan, and
// each task's metadata says where it stopped and keeps the plan. Through the harness stand-in
// (test/fixtures/lm-eval/harness.py, which reads --samples as lm-evaluation-harness 4e7e0d4 does)
// the harness asks exactly those items, and the import gives back the same stopped run: the planned
// itemIds, sample, limit and rule, completed, with results for those items alone. Docs of the plan
// other than that prefix, and a stop the plan does not reach, are refused. A run that was not stopped
// exports byte for byte as before.
import { createHash } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { exportLmEval, LM_EVAL_SAMPLES_FILE, type ExportedFile, type LmEvalSample } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { runExportSample } from '../../../src/lib/core/formats/lm-eval/export/run-sample.ts';
import { readLmEvalFiles } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { stoppedByRule } from '../../../src/lib/engine/stop-rule.ts';
import { writeExportFolder } from '../export/export-folder.ts';
import { HARNESS_FILES } from '../export/harness-items.ts';
import { ITEMS, LIMIT, PLAN, RULE, SAMPLING, TASKS, byId, logLiksOf, stoppedRun } from '../export/stopped-items.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness.py', import.meta.url).pathname;
const NOW = '2026-12-01T00:00:00.000Z';
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, any>;
const exportOf = (sample: LmEvalSample, shots = 0) => exportLmEval({ datasetId: 'aclue', items: ITEMS, files: HARNESS_FILES, shots, appVersion: '0.1.0+test', sample });
const fileText = (files: readonly ExportedFile[], path: string) => files.find((f) => f.path === path)!.text;

/**
 * The export through the harness stand-in and back. `edit` changes the folder's files before the
 * harness reads them; `samples`, the --samples file it is given (the export's own by default).
 */
async function throughHarness(files: readonly ExportedFile[], options: { edit?: (f: ExportedFile) => string; samples?: Record<string, number[]> } = {}) {
  const dir = mkdtempSync(join(tmpdir(), 'jiangu-stopped-'));
  temp.push(dir);
  const folder = join(dir, 'export');
  const out = join(dir, 'out');
  writeExportFolder(files.map((f) => ({ path: f.path, text: options.edit ? options.edit(f) : f.text })), folder);
  writeFileSync(join(dir, 'logliks.json'), JSON.stringify(Object.fromEntries(PLAN.map((id) => [`${id}#0`, logLiksOf(id)]))));
  const samplesArg = options.samples ? join(dir, 'edited-samples.json') : LM_EVAL_SAMPLES_FILE;
  if (options.samples) writeFileSync(samplesArg, JSON.stringify(options.samples));
  execFileSync('python3', [HARNESS, folder, out, '--logliks', join(dir, 'logliks.json'), '--samples', samplesArg], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const outFiles = readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') }));
  const asked = outFiles.filter((f) => f.name.startsWith('samples_')).flatMap((f) => f.text.trimEnd().split('\n').map((l) => (JSON.parse(l) as Json).doc.jiangu_id as string));
  return { asked, read: () => readLmEvalFiles(outFiles, NOW) };
}

/** The refusal an import must give: its code and parameters. */
async function refusalOf(read: () => Promise<unknown>): Promise<{ code: string; params: Json }> {
  const error = await read().then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return (error as RunImportError).refusal as { code: string; params: Json };
}

describe('a run its precision rule stopped, through the harness and back', () => {
  it('asks the harness only the items the run asked, and imports as the same stopped run', async () => {
    const made = stoppedRun(15);
    expect(stoppedByRule(made.run, made.results.length)).toEqual(RULE);
    const sample = runExportSample(made.run, made.results)!;
    expect(sample.stop).toEqual({ asked: 15, rule: RULE });
    const exported = await exportOf(sample);
    // jiangu_samples.json names the asked prefix's lines only: 15 docs, not the plan's 36.
    const samplesFile = JSON.parse(fileText(exported.files, LM_EVAL_SAMPLES_FILE)) as Record<string, number[]>;
    expect(Object.values(samplesFile).flat()).toHaveLength(15);
    const readme = fileText(exported.files, 'README.md');
    expect(readme).toContain('stopped by its precision rule');
    expect(readme).toContain('after the first 15 of these 36 items');
    const h = await throughHarness(exported.files);
    expect(h.asked).toHaveLength(15);
    expect([...h.asked].sort()).toEqual(PLAN.slice(0, 15).sort());

    const [imported] = await h.read();
    const run = imported.run as McRunRecord;
    const results = imported.results as McItemResult[];
    expect(run.status).toBe('completed');
    for (const key of ['itemIds', 'tasks', 'limitPerTask', 'sampling', 'stopRule'] as const) expect(run.config[key], key).toEqual(made.run.config[key]);
    expect(stoppedByRule(run, results.length)).toEqual(RULE);
    expect(run.warnings.map((w) => (typeof w === 'string' ? w : w.code))).not.toContain('import.lm-eval-other-sample');
    // Results for exactly the items asked, in the run's order; the failed one is the harness's answer now.
    expect(results.map((r) => [r.itemId, r.index])).toEqual(made.results.map((r) => [r.itemId, r.index]));
    for (const [i, r] of results.entries()) {
      const original = made.results[i];
      if (original.failure) continue;
      expect({ logProbs: r.logProbs, prediction: r.prediction, gold: r.gold, correct: r.correct }).toEqual({ logProbs: original.logProbs, prediction: original.prediction, gold: original.gold, correct: original.correct });
    }
    expect(results[2].prediction).not.toBeNull();
    // The imported run exports exactly as the run it came from.
    const again = await exportOf(runExportSample(run, results)!);
    expect(again.files).toEqual(exported.files);
  });

  it('a run stopped before one task had its turn: that task is not exported, and its plan comes back from the metadata', async () => {
    // The first round asks 4 items of each task in turn: after 6, the third task has none.
    const made = stoppedRun(6, null);
    expect(new Set(made.results.map((r) => r.task)).has(TASKS[2])).toBe(false);
    const exported = await exportOf(runExportSample(made.run, made.results)!);
    expect(exported.tasks.map((t) => t.task)).toEqual(TASKS.slice(0, 2));
    const h = await throughHarness(exported.files);
    expect([...h.asked].sort()).toEqual(PLAN.slice(0, 6).sort());
    const [imported] = await h.read();
    for (const key of ['itemIds', 'tasks', 'sampling', 'stopRule'] as const) expect(imported.run.config[key], key).toEqual(made.run.config[key]);
    expect(imported.results.map((r) => r.itemId)).toEqual(PLAN.slice(0, 6));
  });

  it('refuses docs of the plan other than the items the run asked, each with a notice saying which', async () => {
    const exported = await exportOf(runExportSample(stoppedRun(15).run, stoppedRun(15).results)!);
    const own = JSON.parse(fileText(exported.files, LM_EVAL_SAMPLES_FILE)) as Record<string, number[]>;
    // Each task's JSONL line of an item is its place among the task's items (0-shot, not circular).
    const lineOf = (id: string) => Number(id.split('/').pop());
    const taskName = (id: string) => exported.tasks.find((t) => t.task === byId.get(id)!.task)!.name;
    const withItem = (samples: Record<string, number[]>, id: string) => ({ ...samples, [taskName(id)]: [...samples[taskName(id)], lineOf(id)].sort((a, b) => a - b) });
    const without = (samples: Record<string, number[]>, id: string) => ({ ...samples, [taskName(id)]: samples[taskName(id)].filter((l) => l !== lineOf(id)) });

    // One more item of the plan than the run asked: the 16th in its order.
    const more = await refusalOf((await throughHarness(exported.files, { samples: withItem(own, PLAN[15]) })).read);
    expect(more).toEqual({ code: 'import.lm-eval-stop-not-prefix', params: expect.objectContaining({ asked: 15, found: 16, task: byId.get(PLAN[15])!.task, index: lineOf(PLAN[15]), position: 16, ran: true }) });
    // An asked item swapped for a later one of the plan: the same count, other items.
    const swapped = await refusalOf((await throughHarness(exported.files, { samples: withItem(without(own, PLAN[4]), PLAN[20]) })).read);
    expect(swapped.code).toBe('import.lm-eval-stop-not-prefix');
    expect(swapped.params).toMatchObject({ found: 15, position: 5, ran: false });
    // The whole plan (the samples file of the run as if it had not stopped).
    const plan = PLAN.slice(15).reduce(withItem, own);
    const whole = await refusalOf((await throughHarness(exported.files, { samples: plan })).read);
    expect(whole.params).toMatchObject({ found: 36, position: 16, ran: true });
  });

  it('some of its tasks alone (the group edited to one task): not the stopped run, the items they are, said so', async () => {
    const exported = await exportOf(runExportSample(stoppedRun(15).run, stoppedRun(15).results)!);
    const [kept, ...dropped] = exported.tasks.map((t) => t.name);
    const own = JSON.parse(fileText(exported.files, LM_EVAL_SAMPLES_FILE)) as Record<string, number[]>;
    const files = exported.files
      .filter((f) => !dropped.some((name) => f.path.startsWith(`${name}.`)))
      .map((f) => (f.path === `${exported.group}.yaml` ? { ...f, text: f.text.replace(new RegExp(dropped.map((name) => `\\n *- "${name}"`).join('|'), 'g'), '') } : f));
    const h = await throughHarness(files, { samples: { [kept]: own[kept] } });
    const [imported] = await h.read();
    expect(imported.run.config.stopRule).toBeUndefined();
    expect(imported.run.config.tasks).toEqual([exported.tasks[0].task]);
    expect(imported.run.warnings.map((w) => (typeof w === 'string' ? w : w.code))).toContain('import.lm-eval-other-sample');
  });

  it('refuses edited stop metadata: a stop beyond the plan, unasked items miscounted or reused, tasks that disagree', async () => {
    const exported = await exportOf(runExportSample(stoppedRun(15).run, stoppedRun(15).results)!);
    const yaml = (f: ExportedFile) => f.path.endsWith('.yaml') && f.text.includes('stop:');
    const beyond = await refusalOf((await throughHarness(exported.files, { edit: (f) => (yaml(f) ? f.text.replace('asked: 15', 'asked: 40') : f.text) })).read);
    expect(beyond).toEqual({ code: 'import.lm-eval-stop-beyond-plan', params: expect.objectContaining({ asked: 40, planned: 36 }) });

    // One task's list of unasked items loses an entry.
    const first = exported.files.find(yaml)!;
    const dropped = PLAN.slice(15).find((id) => first.text.includes(`"${id}"`))!;
    const short = await refusalOf((await throughHarness(exported.files, { edit: (f) => (f === first ? f.text.replace(new RegExp(`\\n *- "${dropped}"`), '') : f.text) })).read);
    const left = PLAN.slice(15).filter((id) => byId.get(id)!.task === byId.get(dropped)!.task).length;
    expect(short).toEqual({ code: 'import.lm-eval-stop-unasked', params: expect.objectContaining({ task: byId.get(dropped)!.task, expected: left, found: left - 1 }) });

    // An unasked entry names an item the run asked.
    const askedId = PLAN.slice(0, 15).find((id) => byId.get(id)!.task === byId.get(dropped)!.task)!;
    const twice = await refusalOf((await throughHarness(exported.files, { edit: (f) => (f === first ? f.text.replace(`"${dropped}"`, `"${askedId}"`) : f.text) })).read);
    expect(twice).toEqual({ code: 'import.duplicate', params: expect.objectContaining({ value: askedId }) });

    // One task says another rule than the others.
    const other = await refusalOf((await throughHarness(exported.files, { edit: (f) => (f === first ? f.text.replace('halfWidth: 0.05', 'halfWidth: 0.1') : f.text) })).read);
    expect(other.code).toBe('import.lm-eval-jiangu-metadata');
    expect(other.params.path).toMatch(/metadata\.jiangu\.sampling\.stop$/);
  });
});

describe('a run that was not stopped by its rule exports as before', () => {
  const sha = (files: readonly ExportedFile[]) => createHash('sha256').update(JSON.stringify(files)).digest('hex');
  // The sampled export of this plan, written by the export before issue 44 (0- and 1-shot).
  const BEFORE = ['0d55f8c9648faf71555a64e820e6dc027a98e784ac97c2f0ec40388e81107aea', '73b138dc15d97a2d1bf57005e389624b7072413505240598286632bf32fd38c9'];

  it('byte for byte: the sampled export, a run that asked its last item, a paused run', async () => {
    const plain: LmEvalSample = { sampling: SAMPLING, limitPerTask: LIMIT, itemIds: PLAN, tasks: TASKS };
    for (const shots of [0, 1]) expect(sha((await exportOf(plain, shots)).files)).toBe(BEFORE[shots]);
    // Its rule never met: every item asked.
    const finished = stoppedRun(PLAN.length, null);
    expect(runExportSample(finished.run, finished.results)!.stop).toBeUndefined();
    expect(sha((await exportOf(runExportSample(finished.run, finished.results)!)).files)).toBe(BEFORE[0]);
    // Paused by the user, not stopped by its rule: the harness gets the whole plan, as before.
    const paused = stoppedRun(15);
    paused.run.status = 'paused';
    expect(sha((await exportOf(runExportSample(paused.run, paused.results)!)).files)).toBe(BEFORE[0]);
  });
});
