// Share links in Chromium: a fixture run's link opens in a fresh browser context (no data, no runs)
// with the same numbers, and malformed links are refused with a message while the page keeps working.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from '../../scripts/browser.ts';
import { useBrowserSession } from './session.ts';

async function readNumbers(page: Page, prefix: string, tasks: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const task of tasks) out[task] = await page.getByTestId(`${prefix}-${task}`).textContent();
  return out;
}

describe('share links', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('opens a shared fixture run in a fresh context with the same table', async () => {
    const { page } = session.opened;
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/run\//);
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 120_000 });
    const tasks = ['Radical', 'Cloze', 'Translation'];
    const own = await readNumbers(page, 'acc', [...tasks, 'overall', 'pooled']);

    await page.getByTestId('share').click();
    const url = await page.getByTestId('share-url').inputValue();
    expect(url).toContain('#/shared/');
    expect(Number((await page.getByTestId('share-length').textContent())!.replace(/[^\d]/g, ''))).toBe(url.length);

    const fresh = await openPage(session.opened.context.browser()!, url);
    try {
      await fresh.page.getByTestId('shared').waitFor();
      expect(await fresh.page.locator('.badge').textContent()).toContain('not yet reproduced');
      const shared = await readNumbers(fresh.page, 'shared-task', tasks);
      for (const task of tasks) expect(shared[task], task).toBe(own[task]);
      expect(await fresh.page.getByTestId('shared-overall').textContent()).toBe(own.overall);
      expect(await fresh.page.getByTestId('shared-pooled').textContent()).toBe(own.pooled);
      expect(await fresh.page.getByTestId('shared-predictions').textContent()).toContain('30 predicted letters');
      // The fresh context has no data and no runs: everything came from the link.
      const stores = await fresh.page.evaluate(() => indexedDB.databases().then((dbs) => dbs.length));
      expect(stores).toBe(0);

      // Reproducing needs the same data here; with it, the same model and configuration agree on every item.
      await fresh.page.getByTestId('reproduce').click();
      expect(await fresh.page.getByTestId('reproduce-error').textContent()).toContain('download or import it on the Data page first');
      await fresh.page.goto(url.replace(/#.*$/, '#/data'));
      await fresh.page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
      await fresh.page.getByTestId('import-sample').click();
      await fresh.page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
      await fresh.page.goto(url);
      await fresh.page.getByTestId('reproduce').click();
      const agreement = fresh.page.getByTestId('reproduce-agreement');
      await Promise.race([
        agreement.waitFor({ timeout: 120_000 }),
        fresh.page.getByTestId('reproduce-error').waitFor({ timeout: 120_000 }).then(async () => {
          throw new Error(`reproduction failed: ${await fresh.page.getByTestId('reproduce-error').textContent()}`);
        }),
      ]);
      expect(await agreement.textContent()).toContain('30 of 30 items agree (100.00%)');
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('steps a class through the run by keyboard in classroom mode, keeping score against the model', async () => {
    const { page } = session.opened;
    const runUrl = page.url();
    const runId = decodeURIComponent(runUrl.split('#/run/')[1]);
    const results = await page.evaluate(async (id) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const request = indexedDB.open('jiangu');
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      const rows = await new Promise<{ index: number; prediction: string; gold: string; probs: number[] }[]>((resolve, reject) => {
        const request = db.transaction('results').objectStore('results').index('by-run').getAll(id);
        request.onsuccess = () => resolve(request.result);
        request.onerror = () => reject(request.error);
      });
      db.close();
      return rows.sort((a, b) => a.index - b.index);
    }, runId);
    await page.getByTestId('classroom-link').click();
    await page.getByTestId('classroom').waitFor();
    expect(await page.getByTestId('classroom-position').textContent()).toBe(`1 / ${results.length}`);
    expect(await page.getByTestId('classroom-reveal').count()).toBe(0); // nothing shown before the reveal

    // Three questions: the class answers A, B, C; each is revealed, then → moves on.
    const guesses = ['A', 'B', 'C'];
    for (const [k, guess] of guesses.entries()) {
      await page.keyboard.press(guess);
      await page.keyboard.press('Space');
      const reveal = await page.getByTestId('classroom-reveal').textContent();
      expect(reveal).toContain(`Model: ${results[k].prediction}`);
      expect(reveal).toContain(`Answer: ${results[k].gold}`);
      expect(reveal).toContain(`Class: ${guess}`);
      expect(await page.locator(`li[data-letter=${results[k].gold}]`).getAttribute('class')).toContain('gold');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByTestId('classroom-position').textContent()).toBe(`${k + 2} / ${results.length}`);
    }
    const classRight = guesses.filter((g, k) => g === results[k].gold).length;
    const modelRight = guesses.filter((_, k) => results[k].prediction === results[k].gold).length;
    expect(await page.getByTestId('classroom-score').textContent()).toBe(`Class ${classRight} · Model ${modelRight} of 3`);
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('classroom-position').textContent()).toBe(`3 / ${results.length}`);
    await page.keyboard.press('Escape');
    await page.waitForURL(/#\/run\//);
  });

  it('refuses malformed links with a message, and the page keeps working', async () => {
    const { page } = session.opened;
    for (const payload of ['!!!not-base64!!!', 'AAAA', 'q1YqLU4tUrJSMlTSUUpJLElUsgIA']) {
      await page.goto(`${session.url}/#/shared/${payload}`);
      await page.reload();
      const error = page.getByTestId('shared-error');
      await error.waitFor();
      expect(await error.textContent()).toMatch(/^This link cannot be opened: .+/);
    }
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  });
});
