// A generation run made here (C3Bench-shaped fixture, greedy, on the fixture model) written out as the
// harness's CLI writes a run of Jiangu's exported generate_until tasks (results_<date>.json with
// configs.<task>.metadata.jiangu, and one samples_<task>_<date>.jsonl per task: resps [[text]],
// arguments.gen_args_0 {arg_0: the prompt, arg_1: the export's generation kwargs}) imports through the
// Evaluate page's picker with the same outputs, the page shows the same scores, and Compare pairs them.
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import type { GenerationItem } from '../../src/lib/core/benchmarks/types.ts';
import { scoreGenerationRun } from '../../src/lib/core/metrics/index.ts';
import { generationTemplateHash } from '../../src/lib/core/protocols/generation.ts';
import { pythonJsonIndent2 } from '../../src/lib/core/formats/lm-eval/import/lm-eval-docs.ts';
import type { GenItemResult, GenRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredItems, readStoredRun } from './runs.ts';

const DATE = '2026-02-03T04-05-06.070809';
const MAX_NEW = 8;
const sha = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
type Json = Record<string, any>;


/** The CLI's files for the run's outputs, as lm_eval writes a run of the exported tasks. */
async function harnessFiles(run: GenRunRecord, results: GenItemResult[], items: GenerationItem[]) {
  const kwargs = { until: [], do_sample: false, temperature: 0, max_gen_toks: run.config.maxNewTokens };
  const exportHash = await generationTemplateHash();
  const samples = new Map<string, Json[]>();
  const configs: Json = {};
  for (const task of run.config.tasks) {
    const name = `jiangu_c3bench_0shot_${task}`;
    samples.set(
      name,
      results
        .filter((r) => r.task === task)
        .map((r, docId) => {
          const item = items.find((i) => i.id === r.itemId)!;
          // The export's genDocFor; the labels are the classification prompt's (not compared on import).
          const doc = { jiangu_id: item.id, task: item.task, generation_task: item.generationTask, prompt_key: item.generationTask, labels: [], input: item.input, references: item.references };
          return {
            doc_id: docId,
            doc,
            target: item.references[0],
            arguments: { gen_args_0: { arg_0: r.prompt, arg_1: kwargs } },
            resps: [[r.output]],
            filtered_resps: [r.output],
            filter: 'none',
            metrics: ['exact_match'],
            doc_hash: sha(pythonJsonIndent2(doc)!),
            prompt_hash: sha(r.prompt),
            target_hash: sha(item.references[0]),
            exact_match: r.output === item.references[0] ? 1.0 : 0.0,
          };
        }),
    );
    configs[name] = {
      task: name,
      dataset_path: 'json',
      test_split: 'test',
      output_type: 'generate_until',
      generation_kwargs: kwargs,
      num_fewshot: 0,
      metadata: {
        version: 1,
        jiangu: { format: 1, app: run.config.appVersion, dataset: 'c3bench', task, shots: 0, taskShots: 0, protocol: 'c3bench', templateHash: exportHash, maxNewTokens: run.config.maxNewTokens, decoding: 'greedy', dataFiles: {} },
      },
    };
  }
  const names = [...samples.keys()];
  const root: Json = {
    results: Object.fromEntries(names.map((n) => [n, { alias: n, 'exact_match,none': 0 }])),
    configs,
    versions: Object.fromEntries(names.map((n) => [n, 1])),
    'n-shot': Object.fromEntries(names.map((n) => [n, 0])),
    'n-samples': Object.fromEntries([...samples].map(([n, s]) => [n, { original: s.length, effective: s.length }])),
    task_hashes: Object.fromEntries([...samples].map(([n, s]) => [n, sha(s.map((x) => x.doc_hash + x.prompt_hash + x.target_hash).join(''))])),
    config: { model: 'hf', model_args: 'pretrained=Qwen/Qwen3-0.6B,dtype=float32', model_dtype: 'torch.float32', model_revision: 'main', model_sha: '', limit: null },
    date: 1770091506.07,
    lm_eval_version: '0.4.9',
    model_name: 'Qwen/Qwen3-0.6B',
    chat_template: null,
  };
  return [
    { name: `results_${DATE}.json`, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(root, null, 2)) },
    ...[...samples].map(([n, s]) => ({ name: `samples_${n}_${DATE}.jsonl`, mimeType: 'application/jsonl', buffer: Buffer.from(s.map((x) => JSON.stringify(x) + '\n').join('')) })),
  ];
}

describe('lm-evaluation-harness generation files of a run made here', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('import with the same outputs and scores, and Compare pairs every item', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-kind').selectOption('c3bench');
    await page.getByTestId('file-input').setInputFiles(join(projectRoot, 'test', 'fixtures', 'c3bench', 'flat.json'));
    await page.getByTestId('c3-import').click();
    await page.locator('[data-testid=dataset-c3bench][data-stored=yes]').waitFor();

    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-kind').selectOption('generation');
    await page.getByTestId('eval-dataset').selectOption('c3bench');
    await page.getByTestId('eval-max-tokens').fill(String(MAX_NEW));
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/run\//);
    const ownId = decodeURIComponent(page.url().split('#/run/')[1]);
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
    const own = await readStoredRun<GenRunRecord, GenItemResult>(page, ownId);
    const items = await readStoredItems<GenerationItem>(page, 'c3bench', own.results.map((r) => r.itemId));

    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-input').setInputFiles(await harnessFiles(own.run, own.results, items));
    await Promise.race([
      page.waitForURL(/#\/run\//),
      page.getByTestId('import-run-error').waitFor().then(async () => {
        throw new Error(`refused: ${await page.getByTestId('import-run-error').textContent()}`);
      }),
    ]);
    const importedId = decodeURIComponent(page.url().split('#/run/')[1]);
    const back = await readStoredRun<GenRunRecord, GenItemResult>(page, importedId);
    expect(back.run.origin?.kind).toBe('lm-eval');
    expect(back.run.config).toMatchObject({ kind: 'generation', protocolId: 'c3bench', templateHash: own.run.config.templateHash, maxNewTokens: MAX_NEW, decoding: { kind: 'greedy' } });
    const pairs = (r: { results: GenItemResult[] }) => r.results.map((x) => [x.itemId, x.output, x.references]).sort((a, b) => String(a[0]).localeCompare(String(b[0])));
    expect(pairs(back)).toEqual(pairs(own));

    // The imported run's page shows Jiangu's scores of those outputs, the browser run's scores.
    await page.getByTestId('gen-scores').waitFor();
    const scores = scoreGenerationRun('c3bench', own.results);
    expect(scores.tasks.length).toBe(5);
    for (const task of scores.tasks) expect(await page.getByTestId(`gen-score-${task.task}`).textContent(), task.task).toBe(task.score.toFixed(2));

    await page.goto(`${session.url}/#/compare/${ownId},${importedId}`);
    await page.getByTestId('compare-table').waitFor();
    expect(await page.getByTestId('compare-prompt-note').count()).toBe(0);
    const diffs = await page.locator('[data-testid^=compare-diff-][data-testid$="-1"]').evaluateAll((els) => els.map((el) => [el.getAttribute('data-testid'), el.getAttribute('data-pairing'), el.getAttribute('data-points')]));
    expect(diffs.length).toBeGreaterThan(0);
    for (const [id, pairing, points] of diffs) {
      expect(pairing, id!).toBe('paired');
      expect(Number(points), id!).toBe(0);
    }
  });
});
