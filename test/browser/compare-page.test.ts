// The Compare page on two stored runs of the same ACLUE items, one of them left "running" by a
// closed tab with part of its items: the run list says it is interrupted and how many of its items
// have results; a task the runs share only partly reads on the common items, with what each has
// beyond them; the Overall says which tasks each run's covers; a bad link's error is under the link
// box. The runs are written straight into IndexedDB (no model needed): made-up records from
// test/fixtures/run-records.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/site-routes.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { makeMcRun } from '../fixtures/run-records/build.ts';
import { useBrowserSession } from './session.ts';

/** Writes runs and their results with the raw IndexedDB API, as the site's store would have. */
async function storeRuns(page: import('playwright-core').Page, runs: { run: McRunRecord; results: McItemResult[] }[]): Promise<void> {
  await page.evaluate(async (all) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('jiangu');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const tx = db.transaction(['runs', 'results'], 'readwrite');
    for (const { run, results } of all) {
      tx.objectStore('runs').put(run);
      for (const result of results) tx.objectStore('results').put(result);
    }
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, runs);
}

describe('Compare: interrupted and partial runs, common items, the link box', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/compare' });

  it('lists an interrupted run as interrupted with its items done, and compares on the common items', async () => {
    const { page } = session.opened;
    // The page has opened (and so created) the database once it has listed no runs.
    await page.getByTestId('compare-no-runs').waitFor();
    const complete = makeMcRun('run-complete');
    // The same five items planned; the tab closed after items 0, 1 (古文单字多义) and 3 (通假字).
    const left = makeMcRun('run-left');
    const partial: { run: McRunRecord; results: McItemResult[] } = {
      run: { ...left.run, status: 'running', createdAt: '2026-01-03T03:04:05.000Z', updatedAt: '2026-01-03T03:05:05.000Z' },
      results: [left.results[0], left.results[1], left.results[3]],
    };
    await storeRuns(page, [complete, partial]);
    await page.reload();
    await page.getByTestId('compare-runs').waitFor();

    const rowOf = (id: string) => page.locator(`[data-testid=compare-runs] tr[data-run="${id}"]`);
    expect(await rowOf('run-left').getByTestId('compare-run-status').getAttribute('data-status')).toBe('interrupted');
    expect(await rowOf('run-left').getByTestId('compare-run-status').textContent()).toBe('interrupted');
    expect(await rowOf('run-complete').getByTestId('compare-run-status').getAttribute('data-status')).toBe('completed');
    const items = rowOf('run-left').getByTestId('compare-run-items');
    expect([await items.getAttribute('data-done'), await items.getAttribute('data-planned')]).toEqual(['3', '5']);
    expect((await items.textContent())?.trim()).toBe('3 of 5');
    expect((await rowOf('run-complete').getByTestId('compare-run-items').textContent())?.trim()).toBe('5');

    await page.getByTestId('compare-pick-run-complete').check();
    await page.getByTestId('compare-pick-run-left').check();
    await page.getByTestId('compare-table').waitFor();
    // 通假字: the complete run has items 3 and 4, the partial one item 3: one common item, one only in #1.
    const task = page.getByTestId('compare-diff-通假字-1');
    expect(await task.getAttribute('data-pairing')).toBe('partly-paired');
    expect(await task.getAttribute('data-method')).toBe('newcombe-paired');
    expect(await page.getByTestId('compare-common-通假字-1').textContent()).toMatch(/^on 1 common item: /);
    expect(await page.getByTestId('compare-beyond-通假字-1').textContent()).toBe('+1 only in #1');
    // The same item, the same prediction: no difference on it, and McNemar has nothing to test.
    expect(Number(await task.getAttribute('data-points'))).toBe(0);
    expect(await page.getByTestId('compare-mcnemar-通假字-1').getAttribute('data-p-raw')).toBe('1');
    // Task p-values are Holm-adjusted, and the column head says over how many tasks.
    expect(await page.getByTestId('compare-p-head-1').textContent()).toContain('Holm, 2 tasks');
    // Overall: both runs over the same two tasks; the difference is on the three common items.
    const overall = page.getByTestId('compare-diff-overall-1');
    expect(await overall.getAttribute('data-method')).toBe('paired-bootstrap');
    expect(await page.getByTestId('compare-common-overall-1').textContent()).toMatch(/^on 3 common items, over 2 tasks: /);
    expect(await page.getByTestId('compare-mcnemar-overall-1').getAttribute('data-p-method')).toBe('paired-bootstrap');
    const screenshots = join(projectRoot, 'test-results', 'screenshots');
    mkdirSync(screenshots, { recursive: true });
    writeFileSync(join(screenshots, 'compare-partly-paired.png'), await page.getByTestId('compare-result').screenshot());
  });

  it('says why a link was not added right under the link box', async () => {
    const { page } = session.opened;
    await page.getByTestId('compare-link-input').fill('not a share link');
    await page.getByTestId('compare-link-add').click();
    const error = page.getByTestId('compare-link-error');
    await error.waitFor();
    const next = await page.locator('form.link').evaluate((form) => form.nextElementSibling?.getAttribute('data-testid') ?? null);
    expect(next).toBe('compare-link-error');
    expect(await page.getByTestId('compare-error').count()).toBe(0);
  });
});
