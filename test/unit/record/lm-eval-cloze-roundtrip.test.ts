// Export → harness → import, cloze (issue 25): Jiangu's cloze export of synthetic ACLUE items (4-, 3-
// and 2-option, cloze-items.ts) is run by python3 as lm-evaluation-harness 4e7e0d4 runs multiple-choice
// tasks (test/fixtures/lm-eval/harness.py: a request per option text, process_results' acc, acc_norm and
// acc_bytes), with made-up per-option log-likelihoods and is_greedy flags, and written back as the CLI
// writes results_*.json and samples. The import must give a cloze run whose per-option numbers are the
// inputs, whose rules predict what the hand-worked table says (ties to the first option, characters as
// code points), and refuse a sample whose stated acc, acc_norm or acc_bytes its numbers do not give.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Item, MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { checkSampleDocs } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import { readLmEvalFiles } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { clozePrediction, resultsUnderRule } from '../../../src/lib/core/metrics/cloze-rules.ts';
import type { Notice } from '../../../src/lib/core/notices/index.ts';
import { buildClozePrompt } from '../../../src/lib/core/protocols/build-cloze.ts';
import { protocolForDataset } from '../../../src/lib/core/protocols/mc-protocols.ts';
import { OPTION_LETTERS } from '../../../src/lib/core/protocols/multiple-choice.ts';
import { clozeTemplateHash, sha256Hex } from '../../../src/lib/core/protocols/template-hash.ts';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { CLOZE_CASES, CLOZE_ITEMS, CLOZE_RESPONSES, exportCloze } from '../export/cloze-items.ts';
import { writeExportFolder } from '../export/export-folder.ts';

const HARNESS = new URL('../../fixtures/lm-eval/harness.py', import.meta.url).pathname;
const NOW = '2026-12-01T00:00:00.000Z';
const temp: string[] = [];
afterAll(() => {
  for (const dir of temp) rmSync(dir, { recursive: true, force: true });
});

type Json = Record<string, any>;
type Files = { name: string; text: string }[];
const protocol = protocolForDataset('aclue');
const dev = (task: string) => CLOZE_ITEMS.filter((i) => i.split === 'dev' && i.task === task);
const stored = new Map<string, Item>(CLOZE_ITEMS.map((i) => [i.id, i]));

/** Runs the stand-in over the export of `scoring`; `edit` changes what it wrote. */
async function harness(scoring: 'cloze' | 'letter-logits' = 'cloze', edit?: (out: string) => void): Promise<Files> {
  const exported = await exportCloze(scoring);
  const dir = mkdtempSync(join(tmpdir(), 'jiangu-cloze-roundtrip-'));
  temp.push(dir);
  const folder = join(dir, 'export');
  const out = join(dir, 'out');
  writeExportFolder(exported.files, folder);
  writeFileSync(join(dir, 'logliks.json'), JSON.stringify(CLOZE_RESPONSES));
  execFileSync('python3', [HARNESS, folder, out, '--logliks', join(dir, 'logliks.json')], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  edit?.(out);
  return readdirSync(out).map((name) => ({ name, text: readFileSync(join(out, name), 'utf8') }));
}

/** Edits line `line` (0-based) of the samples file whose name holds `task`. */
const editSample = (task: string, line: number, change: (sample: Json) => void) => (out: string) => {
  const name = readdirSync(out).find((n) => n.startsWith('samples_') && n.includes(task))!;
  const lines = readFileSync(join(out, name), 'utf8').split('\n');
  const sample = JSON.parse(lines[line]) as Json;
  change(sample);
  lines[line] = JSON.stringify(sample);
  writeFileSync(join(out, name), lines.join('\n'));
};

async function refusalOf(files: Files): Promise<RunImportError> {
  const error = await readLmEvalFiles(files, NOW).then(() => null, (e: unknown) => e);
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

describe('cloze tasks: export, the harness, import', () => {
  it("give a cloze run whose per-option numbers are the inputs and whose rules predict the hand-worked table", async () => {
    const files = await harness();
    const results = JSON.parse(files.find((f) => f.name.startsWith('results_'))!.text) as Json;
    // What the harness stated: per task the mean of each rule, per group the mean over tasks.
    const byTask = (task: string) => CLOZE_CASES.filter((c) => c.item.task === task);
    const right = (cases: typeof CLOZE_CASES, rule: 'acc' | 'accNorm' | 'accBytes') => mean(cases.map((c) => (c[rule] === c.item.answer ? 1 : 0)));
    const taskNames = { 通假字: 'jiangu_aclue_1shot_cloze_homographic_character_resolution', 古文断句: 'jiangu_aclue_1shot_cloze_sentence_segmentation' } as const;
    for (const [task, name] of Object.entries(taskNames)) {
      expect(results.results[name]).toMatchObject({ 'acc,none': right(byTask(task), 'acc'), 'acc_norm,none': right(byTask(task), 'accNorm'), 'acc_bytes,none': right(byTask(task), 'accBytes') });
    }
    // 通假字: acc 0/3, acc_norm 1/3 (item 2), acc_bytes 1/3 (item 0); 古文断句: acc 1/2, acc_norm 2/2, acc_bytes 1/2.
    expect(results.results.jiangu_aclue_1shot_cloze).toMatchObject({ 'acc,none': 0.25, 'acc_norm,none': (1 / 3 + 1) / 2, 'acc_bytes,none': (1 / 3 + 0.5) / 2 });
    expect(results.results.jiangu_aclue_1shot_cloze.sample_count).toEqual({ 'acc,none': 5, 'acc_norm,none': 5, 'acc_bytes,none': 5 });
    const samples = files.filter((f) => f.name.startsWith('samples_')).flatMap((f) => f.text.trimEnd().split('\n').map((l) => JSON.parse(l) as Json));
    expect(samples[0]).toMatchObject({ metrics: ['acc', 'acc_norm', 'acc_bytes'], filtered_resps: [['-2', 'True'], ['-3', 'False'], ['-4.5', 'False'], ['-2.5', 'False']] });

    const runs = await readLmEvalFiles(files, NOW);
    expect(runs).toHaveLength(1);
    const run = runs[0].run as McRunRecord;
    const imported = runs[0].results as McItemResult[];
    expect(run.config).toMatchObject({ scoring: 'cloze', protocolId: 'aclue', protocolVersion: protocol.cloze.version, templateHash: await clozeTemplateHash(protocol), shots: 1 });
    expect(run.config.circular).toBeUndefined();
    expect(run.warnings.map((w) => (typeof w === 'string' ? w : w.code))).toContain('import.lm-eval-jiangu-cloze');
    expect(run.origin!.summaryMismatches).toEqual([]);
    expect(imported.map((r) => r.itemId)).toEqual(CLOZE_CASES.map((c) => c.item.id));
    for (const c of CLOZE_CASES) {
      const r = imported.find((x) => x.itemId === c.item.id)!;
      const built = buildClozePrompt(protocol, c.item, dev(c.item.task), 1);
      expect(r.prompt).toBe(built.context);
      expect(r.promptHash).toBe(await sha256Hex(built.context));
      expect(r.cloze!.logLikelihoods).toEqual(c.responses.map(([ll]) => ll));
      expect(r.logProbs).toEqual(c.responses.map(([ll]) => ll));
      expect(r.cloze!.isGreedy).toEqual(c.responses.map(([, g]) => g));
      expect(r.letters).toEqual(OPTION_LETTERS.slice(0, c.item.options.length));
      expect(r.prediction).toBe(c.acc);
      expect(r.correct).toBe(c.acc === c.item.answer);
      expect(OPTION_LETTERS[clozePrediction(r.cloze!, 'acc_norm')!]).toBe(c.accNorm);
      expect(OPTION_LETTERS[clozePrediction(r.cloze!, 'acc_bytes')!]).toBe(c.accBytes);
      // The harness writes no token counts, no context split and no answer-cue-only sums.
      expect(r.cloze!.tokenCounts).toBeUndefined();
      expect(r.cloze!.contextTokens).toBeUndefined();
      expect(r.cloze!.unconditional).toBeUndefined();
    }
    // Code points, not UTF-16 units: 𠀀 is one character (four bytes).
    expect(imported[2].cloze).toMatchObject({ charCounts: [1, 2], byteCounts: [4, 6] });
    expect(clozePrediction(imported[2].cloze!, 'pmi')).toBeNull();
    expect(resultsUnderRule(imported, 'pmi')).toBeNull();
    expect(resultsUnderRule(imported, 'acc_norm')!.map((r) => r.prediction)).toEqual(CLOZE_CASES.map((c) => c.accNorm));
    expect(() => checkSampleDocs(runs[0], runs[0].docs, stored)).not.toThrow();
  }, 60_000);

  it('refuses a sample whose acc was flipped, naming the samples file, the line and the item', async () => {
    const files = await harness('cloze', editSample('homographic', 0, (s) => (s.acc = 1.0)));
    const error = await refusalOf(files);
    expect(error.refusal).toMatchObject({ code: 'import.lm-eval-cloze-disagrees', params: { path: 'line 1', itemId: CLOZE_CASES[0].item.id, metric: 'acc', stated: 1, recomputed: 0, prediction: 'A', gold: 'B' } });
    expect(error.fileName).toMatch(/^samples_jiangu_aclue_1shot_cloze_homographic_character_resolution_.*\.jsonl$/);
    expect(error.message).toContain(`line 1: item "${CLOZE_CASES[0].item.id}" has acc 1, but its per-option log-likelihoods give 0`);
  }, 60_000);

  it('refuses a sample whose log-likelihood was changed so that acc_norm no longer holds', async () => {
    // 古文断句 item 0: C's −2.2 → −1.9 makes acc_norm pick C (−0.95 > −1); acc (A) and acc_bytes (C) still hold.
    const files = await harness(
      'cloze',
      editSample('segmentation', 0, (s) => {
        s.filtered_resps[2] = ['-1.9', 'False'];
        s.resps[2] = [['-1.9', 'False']];
      }),
    );
    const error = await refusalOf(files);
    expect(error.refusal).toMatchObject({ code: 'import.lm-eval-cloze-disagrees', params: { path: 'line 1', itemId: CLOZE_CASES[3].item.id, metric: 'acc_norm', stated: 1, recomputed: 0, prediction: 'C', gold: 'B' } });
  }, 60_000);

  it("refuses a continuation that is not the doc's option text, and a response without is_greedy", async () => {
    const moved = await refusalOf(await harness('cloze', editSample('homographic', 1, (s) => (s.arguments.gen_args_1.arg_1 = '下下下'))));
    expect(moved.refusal).toMatchObject({ code: 'import.field-wrong', params: { path: 'line 2: arguments.gen_args_1.arg_1', expected: 'same-as', value: '中中', sameAs: 'doc.options[1]' } });
    const bare = await refusalOf(await harness('cloze', editSample('homographic', 2, (s) => (s.filtered_resps = s.filtered_resps.map((r: string[]) => r[0])))));
    expect(bare.refusal).toMatchObject({ code: 'import.field-wrong', params: { path: 'line 3: filtered_resps[0]', expected: 'loglik-greedy' } });
  }, 60_000);

  it('reads a letter and a cloze export of one benchmark in one results file as two runs', async () => {
    const [letters, cloze] = [await harness('letter-logits'), await harness('cloze')];
    const root = (files: Files) => JSON.parse(files.find((f) => f.name.startsWith('results_'))!.text) as Json;
    const merged = root(letters);
    const other = root(cloze);
    for (const key of ['results', 'configs', 'versions', 'n-shot', 'higher_is_better', 'n-samples', 'task_hashes', 'group_subtasks']) merged[key] = { ...merged[key], ...other[key] };
    const files = [
      { name: letters.find((f) => f.name.startsWith('results_'))!.name, text: JSON.stringify(merged, null, 2) },
      ...[...letters, ...cloze].filter((f) => f.name.startsWith('samples_')),
    ];
    const runs = await readLmEvalFiles(files, NOW);
    expect(runs.map((r) => (r.run as McRunRecord).config.scoring).sort()).toEqual(['cloze', 'letter-logits']);
    const letterRun = runs.find((r) => (r.run as McRunRecord).config.scoring === 'letter-logits')!;
    expect((letterRun.results as McItemResult[]).every((r) => r.cloze === undefined)).toBe(true);
    for (const r of runs) expect(r.run.origin!.summaryMismatches).toEqual([]);
  }, 60_000);

  it('refuses metadata that says cloze with a circular export or without the layout version', async () => {
    const files = await harness('cloze', (out) => {
      const name = readdirSync(out).find((n) => n.startsWith('results_'))!;
      const root = JSON.parse(readFileSync(join(out, name), 'utf8')) as Json;
      delete root.configs.jiangu_aclue_1shot_cloze_sentence_segmentation.metadata.jiangu.clozeVersion;
      writeFileSync(join(out, name), JSON.stringify(root, null, 2));
    });
    const error = await refusalOf(files);
    expect(error.refusal).toMatchObject({ code: 'import.lm-eval-jiangu-metadata', params: { path: 'configs.jiangu_aclue_1shot_cloze_sentence_segmentation.metadata.jiangu.clozeVersion' } });
  }, 60_000);
});

describe('the items of the cloze round trip', () => {
  it('cover 2-, 3- and 4-option items and ties under acc_norm and acc_bytes', () => {
    const tests = CLOZE_ITEMS.filter((i): i is MultipleChoiceItem => i.split === 'test');
    expect(new Set(tests.map((i) => i.options.length))).toEqual(new Set([2, 3, 4]));
    // Every letter of the table is what the rules give on the item's own counts (an independent reading of the same table).
    for (const c of CLOZE_CASES) {
      const lls = c.responses.map(([ll]) => ll);
      const chars = c.item.options.map((o) => [...o].length);
      const bytes = c.item.options.map((o) => new TextEncoder().encode(o).length);
      const first = (values: number[]) => OPTION_LETTERS[values.indexOf(Math.max(...values))];
      expect([first(lls), first(lls.map((ll, i) => ll / chars[i])), first(lls.map((ll, i) => ll / bytes[i]))]).toEqual([c.acc, c.accNorm, c.accBytes]);
    }
  });
});
