// A sampled run's lm-eval export (issue 36) runs, through the harness stand-in (test/fixtures/lm-eval/
// harness.py reads `--samples` as lm-evaluation-harness 4e7e0d4 does), on exactly the run's documents,
// and its results and samples import back as the same sample: the same RunSampling, the same items in
// the same order. Run without --samples it imports as every item; with --limit (other docs) it imports
// as the items it has, saying so. A circular export's --samples names every rotation of each item.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { MultipleChoiceItem, OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { exportLmEval, LM_EVAL_SAMPLES_FILE } from '../../../src/lib/core/formats/lm-eval/export/folder.ts';
import { readLmEvalFiles } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { newRunSampling, sampleRun, type RunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';
import type { GenRunRecord, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { writeExportFolder } from '../export/export-folder.ts';
import { HARNESS_FILES, WENMIND_ITEMS } from '../export/harness-items.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness.py', import.meta.url).pathname;
const NOW = '2026-12-01T00:00:00.000Z';
const TASKS = ['通假字', '古文断句'];
const N = 13;
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

const ITEMS: MultipleChoiceItem[] = TASKS.flatMap((task) =>
  Array.from({ length: N }, (_, i) => ({
    kind: 'multiple-choice' as const,
    id: `${task}/test/${i}`,
    datasetId: 'aclue' as const,
    task,
    split: 'test' as const,
    order: i,
    source: { file: `data/test/${task}.csv`, line: i + 2 },
    question: `虚构题（${task}${i}）：下列哪一项正确？`,
    options: ['甲', '乙', '丙', '丁'].map((o) => `${o}${i}`),
    answer: LETTERS[i % 4],
  })),
);

/** A run made here: its sample drawn by `seed` from the tasks' items, in the order it asks them. */
function sampledRun(draw: RunSampling['draw'], seed: number, limitPerTask: number): { sampling: RunSampling; itemIds: string[] } {
  const population = TASKS.map((task) => ({ task, itemIds: ITEMS.filter((i) => i.task === task).map((i) => i.id) }));
  const sampling = newRunSampling(draw, seed, Object.fromEntries(TASKS.map((t) => [t, N])));
  return { sampling, itemIds: sampleRun(population, limitPerTask, sampling).itemIds };
}

type Json = Record<string, any>;

async function run(run: { sampling: RunSampling; itemIds: string[] }, limitPerTask: number, args: (folder: string) => string[], circular = false) {
  const exported = await exportLmEval({ datasetId: 'aclue', items: ITEMS, files: HARNESS_FILES, shots: 0, appVersion: '0.1.0+test', circular, sample: { sampling: run.sampling, limitPerTask, itemIds: run.itemIds } });
  const dir = mkdtempSync(join(tmpdir(), 'jiangu-sampled-'));
  temp.push(dir);
  const folder = join(dir, 'export');
  const out = join(dir, 'out');
  writeExportFolder(exported.files, folder);
  const docs = exported.files.filter((f) => f.path.endsWith('.jsonl')).flatMap((f) => f.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json));
  const logliks = Object.fromEntries(docs.map((d, i) => [`${d.jiangu_id}#${d.jiangu_rotation ?? 0}`, (d.options as string[]).map((_, j) => (j === i % 4 ? -0.25 : -1.5 - j))]));
  writeFileSync(join(dir, 'logliks.json'), JSON.stringify(logliks));
  // Run from the export folder, as its README says: --samples names a file there.
  execFileSync('python3', [HARNESS, folder, out, '--logliks', join(dir, 'logliks.json'), ...args(folder)], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  const files = readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') }));
  const samples = files.filter((f) => f.name.startsWith('samples_')).flatMap((f) => f.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json));
  const imported = await readLmEvalFiles(files, NOW);
  expect(imported).toHaveLength(1);
  return { exported, samples, run: imported[0].run as McRunRecord, warnings: imported[0].run.warnings };
}

describe('a sampled run through the harness with --samples', () => {
  it('runs exactly the run\'s documents and imports back as the same sample, in the same order', async () => {
    const made = sampledRun('random', 4_012_345_678, 5);
    const h = await run(made, 5, () => ['--samples', LM_EVAL_SAMPLES_FILE]);
    // The folder holds every item; the samples file names the run's lines, ascending.
    const file = JSON.parse(h.exported.files.find((f) => f.path === LM_EVAL_SAMPLES_FILE)!.text) as Record<string, number[]>;
    for (const lines of Object.values(file)) expect(lines).toEqual([...lines].sort((a, b) => a - b));
    expect(h.exported.files.find((f) => f.path === 'README.md')!.text).toContain(`--samples ${LM_EVAL_SAMPLES_FILE}`);
    // The harness ran the run's items and nothing else, each doc_id its own line.
    expect(h.samples.map((s) => s.doc.jiangu_id).sort()).toEqual([...made.itemIds].sort());
    for (const s of h.samples) expect(s.doc_id).toBe(s.doc.jiangu_index);
    // Imported: the same sample, the same items in the same order.
    expect(h.run.config.sampling).toEqual(made.sampling);
    expect(h.run.config.limitPerTask).toBe(5);
    expect(h.run.config.itemIds).toEqual(made.itemIds);
    expect(h.warnings.map((w) => (typeof w === 'string' ? w : w.code))).not.toContain('import.lm-eval-other-sample');
  });

  it('a first-in-file-order sample, and a circular export (every rotation of each item named)', async () => {
    const first = sampledRun('first', 7, 4);
    const h = await run(first, 4, () => ['--samples', LM_EVAL_SAMPLES_FILE]);
    expect(h.run.config.sampling).toEqual(first.sampling);
    expect(h.run.config.itemIds).toEqual(first.itemIds);
    const made = sampledRun('random', 99, 3);
    const c = await run(made, 3, () => ['--samples', LM_EVAL_SAMPLES_FILE], true);
    expect(c.samples).toHaveLength(made.itemIds.length * 4);
    expect(c.run.config.circular).toBe(true);
    expect(c.run.config.sampling).toEqual(made.sampling);
    expect(c.run.config.itemIds).toEqual(made.itemIds);
  });

  it('without --samples: every item; with --limit: the items it has, not the sample, said so', async () => {
    const made = sampledRun('random', 5, 5);
    const whole = await run(made, 5, () => []);
    expect(whole.samples).toHaveLength(2 * N);
    expect(whole.run.config.limitPerTask).toBeNull();
    expect(whole.run.config.sampling?.seed).toBe(5);
    const limited = await run(made, 5, () => ['--limit', '5']);
    expect(limited.run.config.sampling).toBeUndefined();
    expect(limited.warnings.map((w) => (typeof w === 'string' ? w : w.code))).toContain('import.lm-eval-other-sample');
  });

  it('--samples and --limit together are refused, as the harness refuses them', async () => {
    const made = sampledRun('random', 5, 5);
    const error = await run(made, 5, () => ['--samples', LM_EVAL_SAMPLES_FILE, '--limit', '5']).then(
      () => null,
      (e: unknown) => e as Error & { stderr: string },
    );
    expect(error?.stderr).toMatch(/If --samples is not None, then --limit must be None/);
  });

  it('a generation run\'s sample (WenMind) comes back the same, outputs and all', async () => {
    const tasks = ['句读', '主题分类'];
    const population = tasks.map((task) => ({ task, itemIds: WENMIND_ITEMS.filter((i) => i.task === task).map((i) => i.id) }));
    const sampling = newRunSampling('random', 31, Object.fromEntries(population.map((p) => [p.task, p.itemIds.length])));
    const itemIds = sampleRun(population, 1, sampling).itemIds;
    const exported = await exportLmEval({ datasetId: 'wenmind', items: WENMIND_ITEMS, files: HARNESS_FILES, shots: 0, appVersion: '0.1.0+test', sample: { sampling, limitPerTask: 1, itemIds, tasks } });
    const dir = mkdtempSync(join(tmpdir(), 'jiangu-sampled-gen-'));
    temp.push(dir);
    const folder = join(dir, 'export');
    writeExportFolder(exported.files, folder);
    const outputs = Object.fromEntries(WENMIND_ITEMS.filter((i) => i.kind === 'generation').map((i) => [i.id, i.kind === 'generation' ? i.references[0] : '']));
    writeFileSync(join(dir, 'outputs.json'), JSON.stringify(outputs));
    execFileSync('python3', [HARNESS, folder, join(dir, 'out'), '--outputs', join(dir, 'outputs.json'), '--samples', LM_EVAL_SAMPLES_FILE], { cwd: folder, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const files = readdirSync(join(dir, 'out')).map((name) => ({ name, text: readFileSync(join(dir, 'out', name), 'utf8') }));
    const [imported] = await readLmEvalFiles(files, NOW);
    const run = imported.run as GenRunRecord;
    expect(run.config.kind).toBe('generation');
    expect(run.config.sampling).toEqual(sampling);
    expect(run.config.itemIds).toEqual(itemIds);
  });
});
