// A run's life in Chromium, on the fixture model: a run page shows (and exports) its own run only,
// even while another run is executing in the tab; an item too long for the model's real context is
// recorded as failed with its reason and the run goes on to the end.
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { allowScoreItems, gateScoreItems, readStoredRun, startFixtureRun, waitForStatus, storeSampleAndAclue } from './runs.ts';

const readRun = (page: Page, runId: string) => readStoredRun<McRunRecord, McItemResult>(page, runId);

/** Moves within the page (no reload, which would stop a run in progress). */
async function goHash(page: Page, hash: string): Promise<void> {
  await page.evaluate((h) => (location.hash = h), hash);
}

async function downloadText(download: Download): Promise<string> {
  const stream = await download.createReadStream();
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

async function exportJson(page: Page): Promise<{ run: McRunRecord; results: McItemResult[]; summary: Record<string, number | null> }> {
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
  return JSON.parse(await downloadText(download));
}

/** Waits until the shown run has stopped, one way or another, and returns its status. */
async function waitForEnd(page: Page): Promise<string> {
  const ended = page.locator('[data-testid=run][data-status=completed], [data-testid=run][data-status=failed], [data-testid=run][data-status=paused]');
  await ended.first().waitFor({ timeout: 180_000 });
  return (await ended.first().getAttribute('data-status')) ?? '';
}

/** An AncientBench-format file: two dev items, three ordinary test items, and one whose question is 2,400 tokens for the fixture tokenizer. */
function longItemCsv(): string {
  const rows = [
    'task,question,A,B,C,D,answer,split,id',
    'Radical,「江」的部首是？,氵,工,口,木,A,dev,d1',
    'Radical,「松」的部首是？,厶,木,公,八,B,dev,d2',
    'Radical,「河」的部首是？,丁,氵,可,口,B,test,t1',
    'Radical,「明」的部首是？,冂,二,日,月,C,test,t2',
    `Radical,${'「江」的部首是？'.repeat(300)},氵,工,口,木,A,test,too-long`,
    'Radical,「铁」的部首是？,失,人,大,钅,D,test,t3',
  ];
  return `${rows.join('\n')}\n`;
}

describe('the run lifecycle', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;

  it('gets the data: the AncientBench sample and ACLUE through the mirror', async () => {
    page = session.opened.page;
    await storeSampleAndAclue(page, session.url);
  });

  it('shows and exports a finished run alone while another run executes, which then still completes', async () => {
    const b = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, backend: 'wasm' });
    await waitForStatus(page, 'completed');
    const storedB = await readRun(page, b);
    expect(storedB.results).toHaveLength(30);

    // A: 500 items, held to the first ten until B's page has been opened, then to ten more: it runs
    // while B's page is looked at however fast the machine is (on a fast one its 500 could end first).
    await gateScoreItems(page, 10);
    const a = await startFixtureRun(page, { dataset: 'aclue', shots: 0, backend: 'wasm', tasks: ['古文单字多义'] });
    await expect.poll(async () => (await readRun(page, a)).results.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(2);

    await goHash(page, '#/evaluate');
    await page.locator(`[data-testid=run-list] a[href="#/run/${b}"]`).click();
    await page.locator('[data-testid=run][data-status=completed]').waitFor();
    const atOpen = (await readRun(page, a)).results.length;
    await allowScoreItems(page, atOpen + 10);
    // A goes on meanwhile; B's page must not take in any of it.
    await expect.poll(async () => (await readRun(page, a)).results.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(atOpen + 3);
    expect((await readRun(page, a)).results.length).toBeLessThan(500); // A still runs while B is checked
    expect(await page.getByTestId('results').locator('h3').textContent()).toContain('30 of 30 items');
    expect(await page.locator('[data-testid=inspector] li[data-item]').count()).toBe(30);
    expect(await page.getByTestId('run-progress').count()).toBe(0);
    expect(await page.getByTestId('cancel-run').count()).toBe(0);
    const exported = await exportJson(page);
    expect(exported.run.id).toBe(b);
    expect(exported.results).toHaveLength(30);
    expect(new Set(exported.results.map((r) => r.runId))).toEqual(new Set([b]));
    expect(exported.results.map((r) => r.itemId)).toEqual(storedB.run.config.itemIds);

    // A's own page still shows A running, and A completes with every item.
    await goHash(page, `#/run/${a}`);
    await page.getByTestId('cancel-run').waitFor();
    await page.locator('[data-testid=run-phase][data-phase=running]').waitFor();
    await allowScoreItems(page, Infinity);
    await waitForStatus(page, 'completed');
    const storedA = await readRun(page, a);
    expect(storedA.results.map((r) => r.itemId)).toEqual(storedA.run.config.itemIds);
    expect(await page.getByTestId('results').locator('h3').textContent()).toContain(`${storedA.results.length} of ${storedA.results.length} items`);
  });

  it('records an item too long for the model as failed, with its token count and the limit, and scores the rest', async () => {
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-kind').selectOption('ancientbench');
    await page.getByTestId('file-input').setInputFiles({ name: 'long-item.csv', mimeType: 'text/csv', buffer: Buffer.from(longItemCsv()) });
    // The sample stored before is replaced, once the page has asked.
    await page.getByTestId('replace-yes').click();
    await page.getByTestId('import-done').waitFor();

    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, backend: 'wasm' });
    expect(await waitForEnd(page)).toBe('completed');
    const { run, results } = await readRun(page, runId);
    // The fixture's config.json states 2048 positions, as its RoPE tables have.
    expect(run.contextLimit).toEqual({ tokens: 2048, from: 'config.max_position_embeddings', asked: 'default', modelPositions: 2048 });
    expect(results.map((r) => r.itemId)).toEqual(run.config.itemIds);
    const failed = results.filter((r) => r.failure);
    expect(failed).toHaveLength(1);
    const [long] = failed;
    expect(long.itemId).toMatch(/too-long/);
    expect(long.prediction).toBeNull();
    expect(long.correct).toBeNull();
    expect(long.failure).toMatchObject({ code: 'run.item-too-long', params: { itemId: long.itemId, limit: 2048 } });
    expect(Number(long.failure!.params.tokens)).toBeGreaterThan(2048);
    for (const r of results.filter((x) => !x.failure)) {
      expect(r.logProbs, r.itemId).toHaveLength(4);
      expect(r.correct, r.itemId).toBe(r.prediction === r.gold);
    }

    // The page: the limit and its source, the failed item counted apart and listed with its reason.
    const limit = page.getByTestId('run-context-limit');
    expect(await limit.getAttribute('data-tokens')).toBe('2048');
    expect(await limit.getAttribute('data-from')).toBe('config.max_position_embeddings');
    expect(await limit.textContent()).toContain('max_position_embeddings');
    expect(await page.getByTestId('failed-count').getAttribute('data-count')).toBe('1');
    expect(await page.locator('[data-task=Radical]').getAttribute('data-failed')).toBe('1');
    const scored = results.filter((r) => !r.failure);
    const accuracy = scored.filter((r) => r.correct).length / scored.length;
    expect(await page.getByTestId('acc-Radical').textContent()).toBe((100 * accuracy).toFixed(2));
    const reason = (await page.locator(`[data-testid=inspector] li[data-item="${long.itemId}"] [data-testid=item-failure]`).textContent()) ?? '';
    expect(reason).toContain('too long');
    expect(reason).toContain(String(long.failure!.params.tokens));
    expect(reason).toContain('2048');

    const exported = await exportJson(page);
    expect(exported.summary).toMatchObject({ failed: 1, items: 4, 'task:Radical': 100 * accuracy });
    expect(exported.run.contextLimit).toEqual(run.contextLimit);
  });
});
