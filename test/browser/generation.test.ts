// Generation runs end to end in Chromium: a C3Bench-shaped file and WenMind's NER task (through the
// mirror) with the C3Bench protocol on the fixture model; every stored output equals a greedy
// generation by the reference forward, the page's scores equal the metrics computed here in Node on
// those outputs, and a reload mid-run resumes.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { decodeFixture, encodeFixture, greedyGenerate, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { projectRoot } from '../../scripts/site-routes.ts';
import type { GenItemResult, GenRunRecord } from '../../src/lib/core/record/run.ts';
import { countUnextracted, extractChoice, postprocessOutput, scoreGenerationRun } from '../../src/lib/core/metrics/index.ts';
import type { McItemResult } from '../../src/lib/core/record/run.ts';
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { useBrowserSession } from './session.ts';
import { gateScoreItems, readStoredRun } from './runs.ts';
import { generationTemplateHash } from '../../src/lib/core/protocols/generation.ts';

const readRun = (page: Page, runId: string) => readStoredRun<GenRunRecord, GenItemResult>(page, runId);

const EOS = 2;

/** Every output is the reference's greedy continuation of the stored prompt. */
function checkOutputs({ run, results }: { run: GenRunRecord; results: GenItemResult[] }): void {
  const reference = loadReferenceModel('jiangu-tiny', 'fp32');
  expect(results.map((r) => r.itemId)).toEqual(run.config.itemIds);
  for (const r of results) {
    const ids = encodeFixture(r.prompt);
    expect(r.tokenCount, r.itemId).toBe(ids.length);
    const want = greedyGenerate(reference, ids, run.config.maxNewTokens, EOS);
    expect(r.outputTokenIds, r.itemId).toEqual(want);
    expect(r.output).toBe(decodeFixture(want, { skipSpecialTokens: true }));
  }
}

async function startGeneration(
  page: Page,
  options: { dataset: string; tasks?: string[]; limit?: number; maxNewTokens: number; seed?: number; chatTemplate?: boolean },
): Promise<string> {
  await page.goto(page.url().replace(/#.*$/, '') + '#/evaluate');
  await page.getByTestId('eval-kind').selectOption('generation');
  await page.getByTestId('eval-dataset').selectOption(options.dataset);
  if (options.limit) await page.getByTestId('eval-limit').fill(String(options.limit));
  await page.getByTestId('eval-max-tokens').fill(String(options.maxNewTokens));
  if (options.seed !== undefined) {
    await page.getByTestId('eval-sampling').check();
    await page.getByTestId('eval-seed').fill(String(options.seed));
  }
  if (options.chatTemplate) await page.getByTestId('eval-chat').check();
  if (options.tasks) {
    await page.getByRole('button', { name: 'none' }).click();
    for (const task of options.tasks) await page.locator(`input[type=checkbox][value="${task}"]`).check();
  }
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('load').click();
  await page.waitForURL(/#\/run\//);
  return decodeURIComponent(page.url().split('#/run/')[1]);
}

/** The page's task scores equal the metrics module run here, in Node, on the stored outputs. */
async function checkScores(page: Page, stored: { run: GenRunRecord; results: GenItemResult[] }): Promise<void> {
  await page.getByTestId('gen-scores').waitFor();
  const scores = scoreGenerationRun(stored.run.datasetId, stored.results);
  expect(scores.tasks.length).toBeGreaterThan(0);
  for (const task of scores.tasks) {
    expect(await page.getByTestId(`gen-score-${task.task}`).textContent(), task.task).toBe(task.score.toFixed(2));
  }
  if (scores.overall !== null) expect(await page.getByTestId('gen-score-overall').textContent()).toBe(scores.overall.toFixed(2));
}

describe('generation runs', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;

  it('runs a C3Bench-shaped file: outputs equal the reference greedy, scores equal Node', async () => {
    page = session.opened.page;
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-kind').selectOption('c3bench');
    await page.getByTestId('file-input').setInputFiles(join(projectRoot, 'test', 'fixtures', 'c3bench', 'flat.json'));
    await page.getByTestId('c3-import').click();
    await page.locator('[data-testid=dataset-c3bench][data-stored=yes]').waitFor();

    const runId = await startGeneration(page, { dataset: 'c3bench', maxNewTokens: 8 });
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
    const stored = await readRun(page, runId);
    expect(stored.run.config).toMatchObject({ kind: 'generation', protocolId: 'c3bench', decoding: { kind: 'greedy' }, maxNewTokens: 8 });
    expect(new Set(stored.results.map((r) => r.generationTask))).toEqual(new Set(['classification', 'retrieval', 'ner', 'punctuation', 'translation']));
    checkOutputs(stored);
    await checkScores(page, stored);

    // The radar (C3Bench's Figure 1): this run's five scores, beside the paper's best and weakest rows, dashed.
    const scores = scoreGenerationRun(stored.run.datasetId, stored.results);
    const vertices = await page.locator('[data-testid=chart-radar] [data-testid=radar-vertex]').evaluateAll((els) =>
      els.map((el) => ({ series: el.getAttribute('data-series'), key: el.getAttribute('data-key'), value: el.getAttribute('data-value') })),
    );
    const ours = vertices.filter((v) => v.series === 'This run');
    expect(ours.map((v) => [v.key, Number(v.value)])).toEqual(scores.tasks.map((t) => [t.task, t.score]));
    expect(vertices.filter((v) => v.series === 'paper: Spark-v3').map((v) => Number(v.value))).toEqual([51.61, 21.83, 53.81, 85.38, 34.58]);
    expect(await page.locator('[data-testid=published-rows] [data-testid=published-row]').count()).toBe(16);

    // The per-item view: a punctuation item shows its marks against the reference, an NER item its entity sets.
    const punct = stored.results.find((r) => r.generationTask === 'punctuation')!;
    await page.locator(`[data-testid=gen-items] li[data-item="${punct.itemId}"] button`).click();
    const view = page.getByTestId('punct-view');
    await view.waitFor();
    // Every character of the input is there, in order, with the reference's marks where the output has none.
    const viewText = (await view.textContent())!.replace(/\s+/g, '');
    const chars = [...punct.references[0]].filter((c) => /\p{Script=Han}/u.test(c)).join('');
    expect([...viewText].filter((c) => /\p{Script=Han}/u.test(c)).join('')).toBe(chars);
    expect(await view.locator('.gap.missing').count()).toBeGreaterThan(0);
    expect(await page.getByTestId('gen-answer').textContent()).toBe(postprocessOutput(punct.output, 'punctuation'));
  });

  it('samples with a seed reproducibly, and wraps prompts in the chat template when asked', async () => {
    const outputs: string[][] = [];
    for (let i = 0; i < 2; i++) {
      const runId = await startGeneration(page, { dataset: 'c3bench', tasks: ['translation'], maxNewTokens: 8, seed: 7 });
      await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
      const stored = await readRun(page, runId);
      expect(stored.run.config.decoding).toEqual({ kind: 'sample', topK: 50, topP: 1, seed: 7 });
      outputs.push(stored.results.map((r) => r.output));
    }
    expect(outputs[1]).toEqual(outputs[0]);

    // A link to the sampled run reproduces it: the same seed gives the same outputs, one hash over all.
    await page.getByTestId('share').click();
    const link = await page.getByTestId('share-url').inputValue();
    await page.goto(link);
    await page.reload();
    await page.getByTestId('reproduce').click();
    const agreement = page.getByTestId('reproduce-outputs');
    await agreement.waitFor({ timeout: 120_000 });
    expect(await agreement.getAttribute('data-identical')).toBe('true');
    expect(await page.getByTestId('reproduce-score-diff').textContent()).toMatch(/difference (0\.00|—) points/);
    // …and it did sample: the outputs are not all the greedy ones.
    const greedy = (await readRun(page, (await startGeneration(page, { dataset: 'c3bench', tasks: ['translation'], maxNewTokens: 8 }).then(async (id) => {
      await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
      return id;
    })))).results.map((r) => r.output);
    expect(outputs[0]).not.toEqual(greedy);

    const chatId = await startGeneration(page, { dataset: 'c3bench', tasks: ['ner'], maxNewTokens: 6, chatTemplate: true });
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
    const chat = await readRun(page, chatId);
    expect(chat.run.config.chatTemplate).toBe(true);
    // Thinking off is recorded and hashed with the template; the decoding the worker used is recorded.
    expect(chat.run.config.thinking).toBe('off');
    expect(chat.run.config.templateHash).toBe(await generationTemplateHash(undefined, { chatTemplate: true }));
    expect(chat.run.decodingOptions).toMatchObject({ do_sample: false, num_beams: 1, repetition_penalty: 1 });
    const reference = loadReferenceModel('jiangu-tiny', 'fp32');
    for (const r of chat.results) {
      // The fixture's template: 用户：{prompt}\n助手：
      const ids = encodeFixture(`用户：${r.prompt}\n助手：`);
      expect(r.tokenCount).toBe(ids.length);
      expect(r.outputTokenIds).toEqual(greedyGenerate(reference, ids, 6, EOS));
    }
  });

  it("runs WenMind's NER task through the mirror, and resumes after a reload", async () => {
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('dataset-wenmind').getByTestId('download').click();
    await page.locator('[data-testid=dataset-wenmind][data-stored=yes]').waitFor({ timeout: 60_000 });

    // The run is held after its third item, so the reload comes mid-run however fast the machine is
    // (a run left free finished its 12 items between the poll and the reload under load).
    await gateScoreItems(page, 3, 'generate');
    const runId = await startGeneration(page, { dataset: 'wenmind', tasks: ['命名实体识别'], limit: 12, maxNewTokens: 24 });
    await expect.poll(async () => (await readRun(page, runId)).results.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(1);
    await page.reload();
    await page.locator('[data-testid=run]').waitFor();
    expect((await readRun(page, runId)).results.length).toBeLessThan(4);
    await page.getByTestId('resume-run').click();
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
    const stored = await readRun(page, runId);
    expect(stored.results.every((r) => r.generationTask === 'ner')).toBe(true);
    expect(stored.run.warnings).toContainEqual({ code: 'run.wenmind-judge', params: {} });
    expect(await page.getByTestId('run-warning').first().textContent()).toContain('C3Bench-style metrics');
    checkOutputs(stored);
    await checkScores(page, stored);

    // The outputs as CSV, with a UTF-8 BOM so Excel reads the Chinese.
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    const bytes = Buffer.concat(chunks);
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = Papa.parse<Record<string, string>>(bytes.toString('utf8').slice(1), { header: true, skipEmptyLines: true }).data;
    expect(rows.map((r) => r.item_id)).toEqual(stored.run.config.itemIds);
    stored.results.forEach((r, i) => expect(rows[i]).toMatchObject({ task: r.task, output: r.output, stopped_by: r.stoppedBy, failed: '' }));
  });

  it('answers multiple choice by generation: the letter is extracted from a greedy answer, or counted as none', async () => {
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-scoring').selectOption('generate-extract');
    await page.getByTestId('eval-max-tokens').fill('6');
    await page.getByTestId('eval-limit').fill('1');
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/run\//);
    const runId = decodeURIComponent(page.url().split('#/run/')[1]);
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
    const { results } = (await readRun(page, runId)) as unknown as { results: McItemResult[] };
    expect(results).toHaveLength(10);
    const reference = loadReferenceModel('jiangu-tiny', 'fp32');
    const samplePath = join(projectRoot, 'public', 'samples', 'ancientbench-sample.csv');
    const { items } = adaptDataset('ancientbench', [{ path: 'ancientbench-sample.csv', bytes: readFileSync(samplePath) }]);
    for (const r of results) {
      const answer = decodeFixture(greedyGenerate(reference, encodeFixture(r.prompt), 6, EOS), { skipSpecialTokens: true });
      expect(r.generated?.output, r.itemId).toBe(answer);
      const item = items.find((i) => i.id === r.itemId);
      expect(item?.kind).toBe('multiple-choice');
      expect(r.prediction).toBe(extractChoice(answer, r.letters, item?.kind === 'multiple-choice' ? item.options : []));
      expect(r.correct).toBe(r.prediction !== null && r.prediction === r.gold);
      expect(r.logProbs).toEqual([]);
    }
    const none = countUnextracted(results);
    expect(await page.getByTestId('unextracted').textContent()).toContain(`${none} generated ${none === 1 ? 'answer' : 'answers'} named no letter`);
  });
});