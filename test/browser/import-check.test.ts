// An imported run's answers against this browser's copy of the benchmark, in Chromium: a run file
// whose answer key is its own predictions (100% on paper) is flagged at the top of its page, scored
// with the local key everywhere (table, classroom), and a run imported before its benchmark was stored
// is checked once the benchmark is downloaded.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { adaptDataset } from '../../src/lib/core/benchmarks/adapters/index.ts';
import { getDataset } from '../../src/lib/core/benchmarks/catalog.ts';
import type { MultipleChoiceItem, OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { runJson } from '../../src/lib/core/formats/jiangu-run/export.ts';
import { mcSummary } from '../../src/lib/core/metrics/run-summary.ts';
import { fabricatedMcRun } from '../../scripts/fixtures/fabricated-run.ts';
import { openPage } from '../../scripts/browser.ts';
import { readCatalogFiles, SHARED_DATA } from '../unit/benchmarks/shared-data.ts';
import { useBrowserSession } from './session.ts';

const COUNT = 40;
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

/** A CMMLU 古汉语 run file whose gold letters were replaced by its predictions, and the truth about it. */
async function forgedRunFile() {
  const datasetId = 'cmmlu-ancient' as const;
  const items = adaptDataset(datasetId, readCatalogFiles(SHARED_DATA, datasetId))
    .items.filter((item): item is MultipleChoiceItem => item.kind === 'multiple-choice' && item.split === 'test')
    .slice(0, COUNT);
  const { run, results } = await fabricatedMcRun({
    id: 'forged',
    datasetId,
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    tasks: ['ancient_chinese'],
    datasetFiles: getDataset(datasetId).files.map((f) => ({ path: f.path, sha256: f.sha256! })),
    limitPerTask: COUNT,
    // The prediction cycles A–D: its letter gets the highest log-probability.
    items: items.map((item, index) => ({ id: item.id, task: item.task, gold: item.answer, logProbs: LETTERS.map((_, k) => (k === index % 4 ? -0.5 : -2)) })),
    createdAt: '2026-11-30T12:00:00.000Z',
  });
  const honest = mcSummary(datasetId, results);
  const forged = results.map((r) => ({ ...r, gold: r.prediction, correct: true }));
  const disagreeing = results.filter((r) => r.gold !== r.prediction).map((r) => ({ itemId: r.itemId, file: r.prediction!, local: r.gold! }));
  return { text: runJson(run, forged), honestOverall: honest.overall!, disagreeing, results };
}

async function importFile(page: Page, url: string, text: string): Promise<string> {
  await page.goto(`${url}/#/evaluate`);
  await page.getByTestId('import-run-input').setInputFiles({ name: 'forged.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForURL(/#\/run\//);
  return decodeURIComponent(page.url().split('#/run/')[1]);
}

async function downloadCmmlu(page: Page, url: string): Promise<void> {
  await page.goto(`${url}/#/data`);
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  await page.getByTestId('mirror').fill(`${url}/mirror`);
  await page.getByTestId('save-mirror').click();
  const card = page.getByTestId('dataset-cmmlu-ancient');
  await card.getByTestId('download').click();
  await page.locator('[data-testid=dataset-cmmlu-ancient][data-stored=yes]').waitFor({ timeout: 60_000 });
}

describe('imported answer keys', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('flags a run file whose answers are its predictions, and scores it with this browser’s key', async () => {
    const { page } = session.opened;
    const forged = await forgedRunFile();
    expect(forged.disagreeing.length).toBeGreaterThan(0);
    await downloadCmmlu(page, session.url);
    const runId = await importFile(page, session.url, forged.text);

    const banner = page.getByTestId('key-check');
    await banner.waitFor();
    expect(await banner.getAttribute('data-status')).toBe('disagrees');
    expect(Number(await banner.getAttribute('data-disagreements'))).toBe(forged.disagreeing.length);
    const first = forged.disagreeing[0];
    expect(await banner.locator(`li[data-item="${first.itemId}"]`).textContent()).toBe(`${first.itemId}: file ${first.file}, here ${first.local}`);
    expect(await banner.textContent()).toContain('the file’s own answers give 100.00');
    // The table is this browser's key, not the file's 100%.
    await page.getByTestId('results').waitFor();
    expect(await page.getByTestId('acc-overall').textContent()).toBe(forged.honestOverall.toFixed(2));

    // Classroom mode teaches this browser's answer, not the file's.
    await page.goto(`${session.url}/#/classroom/${runId}`);
    await page.getByTestId('classroom-question').waitFor();
    const at = forged.results.findIndex((r) => r.itemId === first.itemId);
    for (let i = 0; i < at; i++) await page.keyboard.press('ArrowRight');
    await page.keyboard.press('Space');
    const reveal = await page.getByTestId('classroom-reveal').textContent();
    expect(reveal).toContain(`Answer: ${first.local}`);
    expect(await page.locator('li.gold').getAttribute('data-letter')).toBe(first.local);
  });

  it('leaves 1,000 invented ids out of every number, and says beside the numbers that 10 items had 4 of 5 exemplars', async () => {
    const { page } = session.opened;
    const { results } = await forgedRunFile();
    const honest = JSON.parse((await forgedRunFile()).text) as { run: { config: { shots: number; itemIds: string[] } }; results: Record<string, unknown>[] };
    // The file's own results are honest here (gold as the benchmark's), 5-shot, ten of them with 4 exemplars.
    const real = results.map((r, i) => ({ ...r, shotsUsed: i < 10 ? 4 : 5 }));
    const invented = Array.from({ length: 1000 }, (_, k) => ({ ...real[0], itemId: `ancient_chinese/test/${5000 + k}`, index: real.length + k, correct: true, gold: real[0].prediction }));
    const all = [...real, ...invented];
    const run = { ...honest.run, config: { ...honest.run.config, shots: 5, itemIds: all.map((r) => r.itemId) } };
    const text = runJson(run as never, all as never);
    await downloadCmmlu(page, session.url);
    await importFile(page, session.url, text);
    const apart = page.getByTestId('key-check-set-apart');
    await apart.waitFor();
    expect(await apart.getAttribute('data-count')).toBe('1000');
    expect(await apart.textContent()).toContain('1,000 results of the file name items that this browser’s copy of CMMLU');
    expect(await apart.textContent()).toContain('ancient_chinese/test/5000');
    await page.getByTestId('results').waitFor();
    expect(await page.getByTestId('acc-overall').textContent()).toBe(mcSummary('cmmlu-ancient', results).overall!.toFixed(2));
    expect(await page.locator('tr:has([data-testid=acc-pooled]) td').first().textContent()).toBe(String(COUNT));
    const short = page.getByTestId('run-shots-short');
    expect(await short.textContent()).toMatch(/^5-shot; 10 items with 4 exemplars: context limit/);
    expect(await page.getByTestId('run-shots').textContent()).toBe(await short.textContent());
    await page.getByTestId('lang-zh').click();
    expect(await short.textContent()).toMatch(/^5 个示例；10 题只有 4 个示例：上下文上限/);
    expect(await apart.textContent()).toContain('文件中有 1,000 条结果对应的题目不在本浏览器的');
    await page.getByTestId('lang-en').click();
  });

  it('says a file could not be checked while the benchmark is not stored, and checks it once it is', async () => {
    const forged = await forgedRunFile();
    const fresh = await openPage(session.opened.context.browser()!, `${session.url}/#/evaluate`);
    try {
      const runId = await importFile(fresh.page, session.url, forged.text);
      const banner = fresh.page.getByTestId('key-check');
      await banner.waitFor();
      expect(await banner.getAttribute('data-status')).toBe('no-local-data');
      expect(await fresh.page.getByTestId('acc-overall').textContent()).toBe('100.00');

      await downloadCmmlu(fresh.page, session.url);
      await fresh.page.goto(`${session.url}/#/run/${runId}`);
      await fresh.page.locator('[data-testid=key-check][data-status=disagrees]').waitFor();
      expect(await fresh.page.getByTestId('acc-overall').textContent()).toBe(forged.honestOverall.toFixed(2));
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });
});
