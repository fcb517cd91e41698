// Jiangu's exports run the way lm-evaluation-harness 4e7e0d4 runs them (test/fixtures/lm-eval/harness.py:
// the task constructor's check on the first doc, --limit, --predict_only, results and samples files in
// the CLI's shapes, compared with what the real CLI wrote for the same folders), then imported (issue 21):
//  - AC-EVAL, whose test answers are not released, runs at 0 and 5 shots, reports no accuracy and
//    comes back as an unscored run whose predictions can be exported for submission;
//  - a results file with multiple-choice and generation tasks (WenMind) raises no summary mismatch;
//  - a circular export's per-task acc (the mean over every rotated doc) agrees with the same number
//    from the items, and its --limit (docs, not items) is kept as the harness's;
//  - samples files of Jiangu's tasks without their results file are refused, saying so.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Papa from 'papaparse';
import { afterAll, describe, expect, it } from 'vitest';
import { adaptDataset } from '../../../src/lib/core/benchmarks/adapters/index.ts';
import type { Item, MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { OPTION_LETTERS } from '../../../src/lib/core/protocols/multiple-choice.ts';
import { predictionsCsv } from '../../../src/lib/core/formats/jiangu-run/export.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { checkSampleDocs } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import { readLmEvalFiles, type HarnessRun } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { describeWithSharedData, readCatalogFiles } from '../benchmarks/shared-data.ts';
import { writeExportFolder } from '../export/export-folder.ts';
import { HARNESS_FILES, KEYLESS_ITEMS, ROTATED_ITEMS, WENMIND_ITEMS } from '../export/harness-items.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness.py', import.meta.url).pathname;
const NOW = '2026-12-01T00:00:00.000Z';
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, any>;
interface HarnessOutput {
  files: { name: string; text: string }[];
  results: Json;
  folder: string;
  out: string;
}

/** Log-likelihoods of a doc's letters from its id: a different letter preferred per item, so predictions vary. */
function logliksFor(docs: readonly Json[]): Record<string, number[]> {
  return Object.fromEntries(
    docs.map((d, i) => {
      const best = i % d.options.length;
      return [`${d.jiangu_id}#${d.jiangu_rotation ?? 0}`, (d.options as string[]).map((_, j) => (j === best ? -0.25 : -1.5 - j))];
    }),
  );
}

/** Exports `items`, edits the folder (`before`), runs the stand-in with `args`, and reads back what it wrote. */
async function runHarness(
  datasetId: Item['datasetId'],
  items: readonly Item[],
  shots: number,
  args: string[] = [],
  options: { circular?: boolean; before?: (folder: string) => void; logliks?: (docs: Json[]) => Record<string, number[]>; files?: typeof HARNESS_FILES } = {},
): Promise<HarnessOutput> {
  const exported = await exportLmEval({ datasetId, items, files: options.files ?? HARNESS_FILES, shots, appVersion: '0.1.0+test', circular: options.circular });
  const dir = mkdtempSync(join(tmpdir(), 'jiangu-harness-run-'));
  temp.push(dir);
  const folder = join(dir, 'export');
  const out = join(dir, 'out');
  writeExportFolder(exported.files, folder);
  options.before?.(folder);
  const docs = exported.files.filter((f) => f.path.endsWith('.jsonl')).flatMap((f) => f.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json));
  const mcDocs = docs.filter((d) => Array.isArray(d.options));
  writeFileSync(join(dir, 'logliks.json'), JSON.stringify((options.logliks ?? logliksFor)(mcDocs)));
  const outputs = Object.fromEntries(docs.filter((d) => Array.isArray(d.references)).map((d) => [d.jiangu_id, d.references[0]]));
  writeFileSync(join(dir, 'outputs.json'), JSON.stringify(outputs));
  execFileSync('python3', [HARNESS, folder, out, '--logliks', join(dir, 'logliks.json'), '--outputs', join(dir, 'outputs.json'), ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const files = readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') }));
  const results = JSON.parse(files.find((f) => f.name.startsWith('results_'))!.text) as Json;
  return { files, results, folder, out };
}

const mcRun = (run: HarnessRun) => ({ run: run.run as McRunRecord, results: run.results as McItemResult[] });
const refusalOf = async (files: { name: string; text: string }[]) => {
  const error = await readLmEvalFiles(files, NOW).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
};

/** What an unscored AC-EVAL import must be: every test item once, no gold, the prediction the log-likelihoods' argmax. */
function expectUnscored(runs: HarnessRun[], tests: readonly MultipleChoiceItem[], logliks: Record<string, number[]>) {
  expect(runs).toHaveLength(1);
  const { run, results } = mcRun(runs[0]);
  expect(run.datasetId).toBe('ac-eval');
  expect(results.map((r) => r.itemId).sort()).toEqual(tests.map((i) => i.id).sort());
  for (const r of results) {
    const lls = logliks[`${r.itemId}#0`];
    expect(r.gold).toBeNull();
    expect(r.correct).toBeNull();
    expect(r.logProbs).toEqual(lls);
    expect(r.prediction).toBe(OPTION_LETTERS[lls.indexOf(Math.max(...lls))]);
  }
  // The harness stated no accuracy: nothing to compare, no red box.
  expect(run.origin?.storedSummary).toBeNull();
  expect(run.origin?.summaryMismatches).toEqual([]);
  // The predictions export (what AC-EVAL's authors take): a letter per item, no gold.
  const rows = Papa.parse<Record<string, string>>(predictionsCsv(results), { header: true }).data;
  expect(rows.map((row) => [row.item_id, row.prediction, row.gold, row.correct])).toEqual(results.map((r) => [r.itemId, r.prediction, '', '']));
  return { run, results };
}

describe('the harness stand-in runs what the real task constructor runs', () => {
  it('stops before any request on an export whose target is -100 for an item without a key (as every harness since 2023)', async () => {
    const error = await runHarness('ac-eval', KEYLESS_ITEMS, 0, [], {
      // The doc_to_target of the export before issue 21.
      before: (folder) => writeFileSync(join(folder, 'utils.py'), readFileSync(join(folder, 'utils.py'), 'utf8').replace(/else ""\n/, 'else -100\n')),
    }).then(() => null, (e: unknown) => e as Error & { stderr: string });
    expect(error?.stderr).toMatch(/test_target = test_choice\[test_target\]\s+[~^\s]*IndexError: list index out of range/);
  });
});

describe('AC-EVAL (no released test answers) through the harness', () => {
  const tests = KEYLESS_ITEMS.filter((i) => i.split === 'test');
  for (const shots of [0, 5]) {
    for (const mode of ['--predict_only', '--log_samples'] as const) {
      it(`${shots}-shot with ${mode}: runs, states no accuracy, and imports unscored with its predictions`, async () => {
        let logliks: Record<string, number[]> = {};
        const h = await runHarness('ac-eval', KEYLESS_ITEMS, shots, mode === '--predict_only' ? ['--predict_only'] : [], {
          logliks: (docs) => (logliks = logliksFor(docs)),
        });
        // What the harness wrote: no metric for any task (bypass), so n-samples' effective is 0.
        for (const [name, entry] of Object.entries(h.results.results as Json)) expect(Object.keys(entry).filter((k) => k.includes(',')), name).toEqual([]);
        for (const count of Object.values(h.results['n-samples'] as Json)) expect(count).toEqual({ original: 3, effective: 0 });
        const samples = h.files.filter((f) => f.name.startsWith('samples_')).flatMap((f) => f.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json));
        expect(samples.every((s) => s.target === '' && s.metrics.length === 0 && s.doc.answer === null)).toBe(true);
        if (shots === 5) expect(samples.some((s) => s.doc.exemplars.length === 5)).toBe(true);

        const { run } = expectUnscored(await readLmEvalFiles(h.files, NOW), tests, logliks);
        expect(run.config.shots).toBe(shots);
        // What ran the model: the harness's backend and device, not one of this site's.
        expect(run.origin?.harnessBackend).toEqual({ model: 'hf', device: 'cuda:0' });
      });
    }
  }

  it('with --limit, reads the docs the harness took, and refuses a samples file cut short', async () => {
    const h = await runHarness('ac-eval', KEYLESS_ITEMS, 0, ['--predict_only', '--limit', '2']);
    const runs = await readLmEvalFiles(h.files, NOW);
    expect(mcRun(runs[0]).results).toHaveLength(4);
    expect(runs[0].run.config.limitPerTask).toBe(2);
    // effective is 0 for a task without a metric: the count is its docs cut to the limit.
    const cut = h.files.map((f) => (f.name.includes('historical_facts') ? { ...f, text: f.text.split('\n')[0] + '\n' } : f));
    const refusal = await refusalOf(cut);
    expect(refusal.refusal).toMatchObject({ code: 'import.lm-eval-truncated', params: { samples: 1, expected: 2 } });
  });
});

describeWithSharedData('AC-EVAL from the shared data through the harness', (root) => {
  for (const shots of [0, 5]) {
    it(`${shots}-shot: every test item, unscored, its doc the stored item`, async () => {
      const files = readCatalogFiles(root, 'ac-eval');
      const items = adaptDataset('ac-eval', files).items;
      let logliks: Record<string, number[]> = {};
      const h = await runHarness('ac-eval', items, shots, ['--predict_only'], { files: files.map((f) => ({ path: f.path, sha256: 'd'.repeat(64), bytes: f.bytes.length })), logliks: (docs) => (logliks = logliksFor(docs)) });
      const tests = items.filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice' && i.split === 'test');
      expect(tests.length).toBeGreaterThan(3000);
      const runs = await readLmEvalFiles(h.files, NOW);
      expectUnscored(runs, tests, logliks);
      expect(() => checkSampleDocs(runs[0], runs[0].docs, new Map(items.map((i) => [i.id, i])))).not.toThrow();
    }, 300_000);
  }
});

describe('a results file with multiple-choice and generation tasks (WenMind)', () => {
  it('gives two runs, and the multiple-choice one no mismatch for the generation tasks beside it', async () => {
    const h = await runHarness('wenmind', WENMIND_ITEMS, 0);
    // As the real CLI writes it: one results file, the generation tasks with exact_match, no acc.
    expect(h.results.results['jiangu_wenmind_0shot_punctuation']).toMatchObject({ 'exact_match,none': 1 });
    expect(h.results.results['jiangu_wenmind_0shot_punctuation']).not.toHaveProperty('acc,none');
    const runs = await readLmEvalFiles(h.files, NOW);
    expect(runs.map((r) => r.run.config.kind).sort()).toEqual(['generation', 'multiple-choice']);
    const mc = runs.find((r) => r.run.config.kind === 'multiple-choice')!;
    expect(Object.keys(mc.run.origin!.storedSummary!).sort()).toEqual(['task:虚词', 'task:通假字']);
    expect(mc.run.origin!.summaryMismatches).toEqual([]);
    // Both ran on the harness's backend (the results file's config.model and device), not one of this site's.
    for (const r of runs) expect(r.run.origin?.harnessBackend).toEqual({ model: 'hf', device: 'cuda:0' });
  });
});

describe('a circular export run with --limit 8 (a doc per item and rotation)', () => {
  /** The model always prefers A: each item (gold B, C or D) is right under exactly one rotation. */
  const preferA = (docs: Json[]) => Object.fromEntries(docs.map((d) => [`${d.jiangu_id}#${d.jiangu_rotation ?? 0}`, d.options.map((_: unknown, j: number) => -0.5 - j)]));

  it("compares the harness's acc with the mean over every rotated doc, and keeps its limit in docs", async () => {
    const h = await runHarness('aclue', ROTATED_ITEMS, 0, ['--limit', '8'], { circular: true, logliks: preferA });
    const name = 'jiangu_aclue_0shot_circular_homographic_character_resolution';
    expect(h.results.results[name]['acc,none']).toBe(0.25);
    expect(h.results.config.limit).toBe(8);
    const { run, results } = mcRun((await readLmEvalFiles(h.files, NOW))[0]);
    // 8 docs of each task are its first two items, under all four rotations.
    expect(run.config.circular).toBe(true);
    expect(results).toHaveLength(4);
    expect(results.every((r) => r.correct === false && r.rotations?.filter((x) => x.correct).length === 1)).toBe(true);
    expect(run.origin!.storedSummary).toEqual({ 'rotations:通假字': 25, 'rotations:古文断句': 25 });
    expect(run.origin!.summaryMismatches).toEqual([]);
    // The limit counted docs, not items: not "at most 8 items each".
    expect(run.config.limitPerTask).toBeNull();
    expect(run.origin!.harnessLimit).toBe(8);
  });

  it('still shows a results file whose acc was edited', async () => {
    const h = await runHarness('aclue', ROTATED_ITEMS, 0, ['--limit', '8'], { circular: true, logliks: preferA });
    const edited = h.files.map((f) => {
      if (!f.name.startsWith('results_')) return f;
      const root = JSON.parse(f.text) as Json;
      root.results['jiangu_aclue_0shot_circular_sentence_segmentation']['acc,none'] = 0.5;
      return { ...f, text: JSON.stringify(root, null, 2) };
    });
    const { run } = mcRun((await readLmEvalFiles(edited, NOW))[0]);
    expect(run.origin!.summaryMismatches).toEqual([{ key: 'rotations:古文断句', stored: 50, recomputed: 25 }]);
  });
});

describe("samples files of Jiangu's tasks chosen without their results file", () => {
  it('are refused, naming the results file they need', async () => {
    const h = await runHarness('aclue', ROTATED_ITEMS, 0, ['--limit', '8'], { circular: true });
    const samples = h.files.filter((f) => f.name.startsWith('samples_'));
    const date = /_(\d{4}-[\dT.-]+)\.jsonl$/.exec(samples[0].name)![1];
    const refusal = await refusalOf(samples);
    expect(refusal.refusal.code).toBe('import.lm-eval-jiangu-without-results');
    expect(refusal.refusal.params).toMatchObject({ tasks: samples.map((f) => f.name.replace(/^samples_/, '').replace(`_${date}.jsonl`, '')), more: 0, expected: [`results_${date}.json`] });
    expect(refusal.message).toMatch(/without their results file/);
    // With it, the same files import.
    expect(await readLmEvalFiles(h.files, NOW)).toHaveLength(1);
  });
});
