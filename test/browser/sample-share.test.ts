// A sampled run's share link in Chromium (issue 36): a jiangu-tiny run of a random sample by a typed
// seed says its sample on its page; its link, opened in a fresh context (no data, no runs), says the
// same sample, rebuilds the same items in the same order from the data stored there, and reproduces
// as a run of the same sample (same seed, same items, same order) whose letters all agree.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from '../../scripts/browser.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';

const SEED = 3_141_592_653;
const TASKS = ['Radical', 'Homophone', 'Cloze', 'Translation'];
const PER_TASK = 2;

/** Every run stored in the page's IndexedDB. */
async function storedRuns(page: Page): Promise<McRunRecord[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('jiangu');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const runs = await new Promise<unknown[]>((resolve, reject) => {
      const request = db.transaction('runs').objectStore('runs').getAll();
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    db.close();
    return runs;
  }) as Promise<McRunRecord[]>;
}

async function shownRows(page: Page) {
  return page.getByTestId('shared-item').evaluateAll((els) => els.map((el) => ({ itemId: el.getAttribute('data-item'), prediction: el.getAttribute('data-prediction') })));
}

describe('a sampled run\'s share link', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('says its sample, rebuilds the same items in the same order, and reproduces the same sample', async () => {
    const { page } = session.opened;
    await storeSample(page);
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', tasks: TASKS, limit: PER_TASK, sampleSeed: SEED });
    await waitForStatus(page, 'completed', 120_000);
    const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(run.config.sampling).toMatchObject({ draw: 'random', seed: SEED, order: 'shuffled' });
    const sizes = TASKS.map((task) => run.config.sampling!.population[task]);
    expect(run.config.itemIds).toHaveLength(sizes.reduce((n, size) => n + Math.min(PER_TASK, size), 0));
    // The sample is smaller than some task (else it would be every item, not a sample).
    expect(sizes.some((size) => size > PER_TASK)).toBe(true);
    const sample = await page.getByTestId('run-sample').textContent();
    expect(sample).toMatch(new RegExp(`^a random sample of ${PER_TASK} (of \\d+ items per task|items per task, ${run.config.itemIds.length} of \\d+ in all) \\(seed ${SEED}\\)$`));

    await page.getByTestId('share').click();
    const url = await page.getByTestId('share-url').inputValue();
    const fresh = await openPage(session.opened.context.browser()!, url);
    try {
      await fresh.page.getByTestId('shared').waitFor();
      expect(await fresh.page.getByTestId('shared-sample').textContent()).toBe(sample);
      // The data, as a user stores it before reproducing (AncientBench has no public files to fetch).
      await fresh.page.goto(url.replace(/#.*$/, '#/data'));
      await storeSample(fresh.page);
      await fresh.page.goto(url);
      await fresh.page.getByTestId('shared').waitFor();

      // The questions: the link's items rebuilt from the seed, in the sharer's order, each with its letter.
      await fresh.page.getByTestId('shared-show-items').click();
      await fresh.page.getByTestId('shared-items').waitFor();
      expect((await shownRows(fresh.page)).map((r) => [r.itemId, r.prediction])).toEqual(results.map((r) => [r.itemId, r.prediction]));

      // Reproduce: a run of the same sample in the same order, every letter the same.
      await fresh.page.getByTestId('reproduce').click();
      const agreement = fresh.page.getByTestId('reproduce-agreement');
      await Promise.race([
        agreement.waitFor({ timeout: 120_000 }),
        fresh.page.getByTestId('reproduce-error').waitFor({ timeout: 120_000 }).then(async () => {
          throw new Error(`reproduction failed: ${await fresh.page.getByTestId('reproduce-error').textContent()}`);
        }),
      ]);
      expect(await agreement.textContent()).toContain(`${results.length} of ${results.length} items agree (100.00%)`);
      const [reproduced] = await storedRuns(fresh.page);
      expect(reproduced.config.sampling).toEqual(run.config.sampling);
      expect(reproduced.config.itemIds).toEqual(run.config.itemIds);
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });
});
