// lm_eval's output for generation tasks Jiangu exported (generate_until, C3Bench protocol), read as one
// GenRunRecord: the fixture folder is written by test/fixtures/lm-eval/make_cli_fixtures.py
// (jiangu_c3bench) in the harness's own shapes and hashes, synthetic docs only.
import { readFileSync, readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GenerationItem } from '../../../src/lib/core/benchmarks/types.ts';
import { buildGenerationPrompt, generationTemplateHash } from '../../../src/lib/core/protocols/generation.ts';
import { scoreGenerationRun } from '../../../src/lib/core/metrics/generation-run.ts';
import { renderNotice, type Notice } from '../../../src/lib/core/notices/index.ts';
import { RunImportError } from '../../../src/lib/core/formats/import-validate.ts';
import { readLmEvalFiles, type HarnessFileText } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-files.ts';
import { checkSampleDocs } from '../../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import type { GenItemResult, GenRunRecord } from '../../../src/lib/core/record/run.ts';

const DIR = new URL('../../fixtures/lm-eval/cli-jiangu-c3bench/', import.meta.url);
const DATE = '2025-03-04T05-06-07.891011';
const RESULTS = `results_${DATE}.json`;
const NER = `samples_jiangu_c3bench_0shot_ner_${DATE}.jsonl`;
const CLASSIFICATION = `samples_jiangu_c3bench_0shot_classification_${DATE}.jsonl`;
const NOW = '2026-01-01T00:00:00.000Z';

function files(): HarnessFileText[] {
  return readdirSync(DIR)
    .sort()
    .map((name) => ({ name, text: readFileSync(new URL(name, DIR), 'utf8') }));
}

function edit(list: HarnessFileText[], name: string, change: (text: string) => string): HarnessFileText[] {
  expect(list.some((f) => f.name === name)).toBe(true);
  return list.map((f) => {
    if (f.name !== name) return f;
    const text = change(f.text);
    expect(text).not.toBe(f.text);
    return { ...f, text };
  });
}

/** Each line of a samples file, changed as an object. */
const editLines = (change: (line: Record<string, any>, i: number) => void) => (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .map((l, i) => {
      const o = JSON.parse(l);
      change(o, i);
      return JSON.stringify(o);
    })
    .join('\n') + '\n';

async function refused(list: HarnessFileText[]): Promise<RunImportError> {
  const error = await readLmEvalFiles(list, NOW).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(RunImportError);
  return error as RunImportError;
}

const codes = (warnings: readonly (string | Notice)[]) => warnings.map((w) => (typeof w === 'string' ? w : w.code));

/** The stored item a fixture doc stands for (what the C3Bench adapter would have stored). */
function itemOf(doc: Record<string, any>): GenerationItem {
  return { id: doc.jiangu_id, datasetId: 'c3bench', task: doc.task, split: 'test', kind: 'generation', generationTask: doc.generation_task, input: doc.input, references: doc.references } as GenerationItem;
}

const docsOf = (name: string): Record<string, any>[] =>
  readFileSync(new URL(name, DIR), 'utf8')
    .trimEnd()
    .split('\n')
    .map((l) => JSON.parse(l).doc);

describe('generation tasks Jiangu exported, as the harness wrote them', () => {
  it('import as one generation run with the harness outputs, Jiangu protocol and settings', async () => {
    const runs = await readLmEvalFiles(files(), NOW);
    expect(runs).toHaveLength(1);
    const run = runs[0].run as GenRunRecord;
    expect(run.config.kind).toBe('generation');
    expect(run.config.protocolId).toBe('c3bench');
    // The same hash a browser run without the chat template records, so Compare sees one protocol.
    expect(run.config.templateHash).toBe(await generationTemplateHash());
    expect(run.config.chatTemplate).toBe(false);
    expect(run.config.maxNewTokens).toBe(64);
    expect(run.config.decoding).toEqual({ kind: 'greedy' });
    expect(run.config.tasks).toEqual(['classification', 'ner']);
    expect(run.config.model.source).toEqual({ kind: 'hub', id: 'Qwen/Qwen2.5-7B-Instruct', revision: 'main' });
    expect(run.config.model.dtype).toBe('fp16');
    expect(codes(run.warnings)).toEqual(['import.lm-eval-gen-jiangu', 'import.lm-eval-bfloat16']);
    expect(run.origin?.kind).toBe('lm-eval');

    const results = runs[0].results as GenItemResult[];
    expect(results.map((r) => r.itemId)).toEqual(['0/classification', '1/classification', '0/ner', '1/ner']);
    expect(results.map((r) => r.output)).toEqual(['儒', '史', '张三、长安', '无']);
    expect(results.map((r) => r.references)).toEqual([['儒'], ['诗'], ['张三、李四、长安'], ['无']]);
    expect(run.config.itemIds).toEqual(results.map((r) => r.itemId));
    // The harness's context is Jiangu's prompt for the item, byte for byte.
    const docs = [...docsOf(CLASSIFICATION), ...docsOf(NER)];
    expect(results.map((r) => r.prompt)).toEqual(docs.map((d) => buildGenerationPrompt(itemOf(d))));
  });

  it('are scored by Jiangu’s own metrics', async () => {
    const [imported] = await readLmEvalFiles(files(), NOW);
    const scores = scoreGenerationRun('c3bench', imported.results as GenItemResult[]);
    const byTask = Object.fromEntries(scores.tasks.map((t) => [t.task, t]));
    expect(byTask.classification.metric).toBe('accuracy');
    expect(byTask.classification.score).toBeCloseTo(50, 9);
    expect(byTask.ner.metric).toBe('entity F1');
    // 张三、长安 against 张三、李四、长安 misses one entity: below 100, above 0.
    expect(byTask.ner.score).toBeGreaterThan(0);
    expect(byTask.ner.score).toBeLessThan(100);
  });

  it('keep a task without Jiangu metadata (a stock generation task) unknown, and say it was skipped', async () => {
    const list = edit(files(), RESULTS, (text) => {
      const root = JSON.parse(text);
      delete root.configs.jiangu_c3bench_0shot_ner.metadata.jiangu;
      return JSON.stringify(root, null, 2);
    });
    const [imported] = await readLmEvalFiles(list, NOW);
    expect((imported.run as GenRunRecord).config.tasks).toEqual(['classification']);
    const skipped = imported.run.warnings.find((w) => typeof w !== 'string' && w.code === 'import.lm-eval-tasks-skipped') as Notice;
    expect(skipped.params).toMatchObject({ skipped: ['jiangu_c3bench_0shot_ner'] });
  });

  it('refuse a sample generated with sampling or another token limit', async () => {
    for (const change of [(k: Record<string, any>) => (k.do_sample = true), (k: Record<string, any>) => (k.max_gen_toks = 256)]) {
      const e = await refused(edit(files(), NER, editLines((o, i) => i === 1 && change(o.arguments.gen_args_0.arg_1))));
      expect(e.refusal.code).toBe('import.lm-eval-gen-kwargs');
      expect(e.refusal.params).toMatchObject({ path: 'line 2: arguments.gen_args_0.arg_1', maxNewTokens: 64 });
      expect(e.fileName).toBe(NER);
    }
  });

  it('refuse a task exported with another C3Bench template', async () => {
    const list = edit(files(), RESULTS, (text) => text.replace(/9ab6d2b8f06d08f72170931502e02df21ce5b4f8feb5530a47d2d1b2614981bd/g, '0'.repeat(64)));
    const e = await refused(list);
    expect(e.refusal.code).toBe('import.lm-eval-gen-template');
  });

  it('refuse a sample that is not generate_until-shaped, naming the line', async () => {
    const e = await refused(edit(files(), NER, editLines((o, i) => i === 0 && (o.resps = [['-1.5', 'False'], ['-2.0', 'False']]))));
    expect(e.refusal.code).toBe('import.lm-eval-gen-sample');
    expect(e.refusal.params).toMatchObject({ path: 'line 1: resps' });
    expect(e.fileName).toBe(NER);
    expect(renderNotice({ code: e.refusal.code, params: { ...e.refusal.params, fileName: e.fileName } } as Notice, 'en')).toContain('line 1: resps');
  });

  it('check samples against the results file: a cut-short file and an edited doc', async () => {
    const cut = await refused(edit(files(), NER, (text) => text.split('\n').slice(0, 1).join('\n') + '\n'));
    expect(cut.refusal.code).toBe('import.lm-eval-truncated');
    const doc = await refused(edit(files(), NER, editLines((o, i) => i === 0 && (o.doc.input = '虚构实体文一：张三见王五于长安。'))));
    expect(doc.refusal.code).toBe('import.lm-eval-doc-changed');
  });

  it('check each doc against the stored item of its jiangu_id', async () => {
    const [imported] = await readLmEvalFiles(files(), NOW);
    const docs = [...docsOf(CLASSIFICATION), ...docsOf(NER)];
    const items = new Map(docs.map((d) => [d.jiangu_id as string, itemOf(d)]));
    expect(() => checkSampleDocs(imported, imported.docs, items)).not.toThrow();
    for (const [field, change] of [
      ['input', (item: GenerationItem) => ({ ...item, input: '另一段虚构文。' })],
      ['references', (item: GenerationItem) => ({ ...item, references: ['道'] })],
    ] as const) {
      const changed = new Map(items);
      changed.set('1/classification', change(items.get('1/classification')!));
      let error: unknown = null;
      try {
        checkSampleDocs(imported, imported.docs, changed);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(RunImportError);
      expect((error as RunImportError).refusal.params).toMatchObject({ itemId: '1/classification', field, path: 'line 2' });
      expect((error as RunImportError).fileName).toBe(CLASSIFICATION);
    }
  });
  it('beside multiple-choice tasks in one results file: one run of each kind', async () => {
    const mcDir = new URL('../cli-jiangu-aclue/', DIR);
    const mc = readdirSync(mcDir).map((name) => ({ name, text: readFileSync(new URL(name, mcDir), 'utf8') }));
    const gen = files();
    const a = JSON.parse(mc.find((f) => f.name === RESULTS)!.text);
    const b = JSON.parse(gen.find((f) => f.name === RESULTS)!.text);
    // One lm_eval call over both groups: its dicts hold every task.
    for (const key of ['results', 'configs', 'versions', 'n-shot', 'n-samples', 'task_hashes']) a[key] = { ...a[key], ...b[key] };
    const merged = [{ name: RESULTS, text: JSON.stringify(a, null, 2) }, ...mc.filter((f) => f.name !== RESULTS), ...gen.filter((f) => f.name !== RESULTS)];
    const runs = await readLmEvalFiles(merged, NOW);
    expect(runs.map((r) => [r.run.config.kind, r.run.datasetId, r.results.length])).toEqual([
      ['multiple-choice', 'aclue', 6],
      ['generation', 'c3bench', 4],
    ]);
  });
});
