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
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
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
