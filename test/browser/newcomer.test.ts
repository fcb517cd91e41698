// A newcomer's way through the Evaluate page in Chromium: a fresh profile is told where to start and
// that the preselected model has random weights; with data stored, each task shows its test-item
// count and the selection its total, which follows the per-task limit; a first run of a large
// benchmark starts with a small limit; after a run, the steps fold away and the same model's pace
// gives a time estimate. Screenshots in both languages at 1200 and 390 px in test-results/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { useBrowserSession } from './session.ts';
import { startFixtureRun, waitForStatus, storeSampleAndAclue } from './runs.ts';

const SCREENSHOTS = join(projectRoot, 'test-results', 'screenshots');

/** Each task's test-item count as the Data page stored it, read with the raw IndexedDB API. */
async function storedTestCounts(page: Page, datasetId: string): Promise<Record<string, number>> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('jiangu');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const record = await new Promise<{ tasks: Record<string, { test: number }> }>((resolve, reject) => {
      const request = db.transaction('datasets').objectStore('datasets').get(id);
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return Object.fromEntries(Object.entries(record.tasks).map(([key, c]) => [key, c.test]));
  }, datasetId);
}

async function shownCounts(page: Page): Promise<Record<string, number>> {
  const pairs = await page.getByTestId('task-count').evaluateAll((els) => els.map((el) => [el.getAttribute('data-task') ?? '', Number(el.getAttribute('data-count'))] as const));
  return Object.fromEntries(pairs);
}

const total = (page: Page) => page.getByTestId('eval-total').getAttribute('data-total').then(Number);

async function screenshots(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  for (const lang of ['en', 'zh'] as const) {
    await page.getByTestId(`lang-${lang}`).click();
    for (const width of [1200, 390]) {
      await page.setViewportSize({ width, height: 1000 });
      writeFileSync(join(SCREENSHOTS, `${name}-${lang}-${width}.png`), await page.screenshot({ fullPage: true }));
      const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
      expect(scrollWidth, `${name} (${lang}, ${width} px) is wider than the window`).toBeLessThanOrEqual(innerWidth);
    }
  }
  await page.setViewportSize({ width: 1200, height: 1000 });
  await page.getByTestId('lang-en').click();
}

describe('a newcomer on the Evaluate page', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it('tells a fresh profile where to start and that the site’s models have random weights, in both languages', async () => {
    const { page } = session.opened;
    const start = page.getByTestId('eval-start');
    await start.waitFor();
    expect(await start.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(true);
    expect(await start.locator('li[data-step]').evaluateAll((els) => els.map((el) => el.getAttribute('data-step')))).toEqual(['data', 'evaluate', 'compare']);
    expect(await start.locator('a[href="#/data"]').count()).toBe(1);
    expect(await start.locator('a[href="#/compare"]').count()).toBe(1);
    const note = page.getByTestId('eval-fixture-note');
    expect(await note.isVisible()).toBe(true);
    expect(await note.textContent()).toMatch(/jiangu-.*random weights/);
    await page.getByTestId('lang-zh').click();
    expect(await note.textContent()).toContain('随机权重');
    expect(await start.locator('summary').textContent()).toBe('如何开始');
    await page.getByTestId('lang-en').click();
    await screenshots(page, 'evaluate-fresh');
  });

  it('shows each task’s test-item count and the total, which follows the per-task limit, and warns beside the preselected test model', async () => {
    const { page } = session.opened;
    await storeSampleAndAclue(page, session.url);

    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    const counts = await storedTestCounts(page, 'ancientbench');
    expect(Object.keys(counts).length).toBeGreaterThan(1);
    expect(await shownCounts(page)).toEqual(counts);
    const all = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(await total(page)).toBe(all);
    expect(await page.getByTestId('eval-total').textContent()).toContain(`${Object.keys(counts).length} tasks selected: ${all} test items`);
    // No earlier run of this model here, so no pace to go by.
    expect(await page.getByTestId('eval-estimate').getAttribute('data-known')).toBe('no');
    expect(await page.getByTestId('eval-estimate').textContent()).toContain('unknown until the first items have run');

    await page.getByTestId('eval-limit').fill('2');
    const capped = Object.values(counts).reduce((a, c) => a + Math.min(c, 2), 0);
    expect(capped).toBeLessThan(all);
    expect(await total(page)).toBe(capped);
    await page.getByRole('button', { name: 'none' }).click();
    expect(await total(page)).toBe(0);
    expect(await page.getByTestId('eval-no-tasks').isVisible()).toBe(true);
    const [first, second] = Object.keys(counts);
    await page.locator(`input[type=checkbox][value="${first}"]`).check();
    await page.locator(`input[type=checkbox][value="${second}"]`).check();
    expect(await total(page)).toBe(Math.min(counts[first], 2) + Math.min(counts[second], 2));

    // The warning follows the picker: there for the site's random-weight model, gone for a hub model.
    const warning = page.getByTestId('eval-fixture-warning');
    await warning.waitFor();
    expect(await warning.textContent()).toMatch(/jiangu-tiny.*random/);
    await page.getByTestId('model-choice').selectOption('hub:onnx-community/Qwen2.5-0.5B-Instruct');
    await warning.waitFor({ state: 'detached' });
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await warning.waitFor();
  });

  it('starts a first run of a large benchmark with a small per-task limit, which the user can clear', async () => {
    const { page } = session.opened;
    // A new visit to the page: the limit typed above was for that visit. The Data page is waited for:
    // both gotos only change the hash, and a router that reads the hash once both have happened (a
    // loaded machine) would never leave Evaluate, keeping the 2 typed above.
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('aclue');
    const counts = await storedTestCounts(page, 'aclue');
    const all = Object.values(counts).reduce((a, b) => a + b, 0);
    expect(all).toBeGreaterThan(1000);
    expect(await page.getByTestId('eval-limit').inputValue()).toBe('20');
    expect(await page.getByTestId('eval-limit-note').isVisible()).toBe(true);
    expect(await total(page)).toBe(Object.values(counts).reduce((a, c) => a + Math.min(c, 20), 0));
    // Switching the question type keeps "Items per task" (Memorization emptied it and offered every item).
    await page.getByTestId('eval-kind').selectOption('memorization');
    expect(await page.getByTestId('eval-limit').inputValue()).toBe('20');
    await page.getByTestId('eval-kind').selectOption('multiple-choice');
    expect(await page.getByTestId('eval-limit').inputValue()).toBe('20');
    await page.getByTestId('eval-dataset').selectOption('aclue');
    await page.getByTestId('eval-limit').fill('');
    expect(await total(page)).toBe(all);
    expect(await page.getByTestId('eval-limit-note').count()).toBe(0);
  });

  it('after a run, folds the steps away and estimates the time from the same model’s pace', async () => {
    const { page } = session.opened;
    await startFixtureRun(page, { dataset: 'ancientbench', limit: 2, backend: 'wasm' });
    await waitForStatus(page, 'completed', 120_000);
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    const start = page.getByTestId('eval-start');
    expect(await start.getAttribute('data-compact')).toBe('yes');
    expect(await start.evaluate((el) => (el as HTMLDetailsElement).open)).toBe(false);
    // With runs stored, a large benchmark is no longer cut down unasked.
    await page.getByTestId('eval-dataset').selectOption('aclue');
    expect(await page.getByTestId('eval-limit').inputValue()).toBe('');
    await page.getByTestId('eval-dataset').selectOption('ancientbench');

    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    const estimate = page.locator('[data-testid=eval-estimate][data-known=yes]');
    await estimate.waitFor();
    expect(await estimate.textContent()).toMatch(/about \d+ (s|min|h) at [\d.]+ items\/s/);
    // Another backend has no pace here yet.
    await page.getByTestId('backend').selectOption('webgpu');
    await page.locator('[data-testid=eval-estimate][data-known=no]').waitFor();
    await page.getByTestId('backend').selectOption('wasm');
    await estimate.waitFor();
    await screenshots(page, 'evaluate-after-run');
  });
});
