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
import { estimateOfRun } from '../../src/lib/core/metrics/benchmark-estimate.ts';
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

  it('shows each run’s fixed-n interval (a), the one its run page shows, and says when a run has none', async () => {
    const { page } = session.opened;
    // The complete run again, as a random sample of larger tasks asked in a random order: it has (a).
    const complete = makeMcRun('run-complete');
    // Each task's items, or more where the run's limit per task took fewer than the task has (the stored check holds the sizes to the items).
    const limit = complete.run.config.limitPerTask ?? Infinity;
    const population = Object.fromEntries(
      complete.run.config.tasks.map((task) => {
        const asked = complete.results.filter((r) => r.task === task).length;
        return [task, asked < limit ? asked : asked + 10];
      }),
    );
    const sampled = {
      run: { ...complete.run, id: 'run-sampled', createdAt: '2026-01-04T03:04:05.000Z', config: { ...complete.run.config, sampling: { draw: 'random' as const, seed: 7, order: 'shuffled' as const, block: 4, population } } },
      results: complete.results.map((r) => ({ ...r, runId: 'run-sampled' })),
    };
    await page.goto(`${session.url}/#/compare`);
    await page.locator('[data-testid=compare-no-runs], [data-testid=compare-runs]').first().waitFor();
    await storeRuns(page, [complete, sampled]);
    // A hash change alone keeps the runs listed before: read them again.
    await page.goto(`${session.url}/#/compare/run-sampled,run-complete`);
    await page.reload();
    await page.getByTestId('compare-table').waitFor();
    expect(await page.getByTestId('compare-run-label-0').textContent()).toContain('seed 7');
    const rows = estimateOfRun(sampled.run.config, sampled.run.datasetId, sampled.results).measures[0].rows;
    const fixedOf = (key: string) => rows.find((r) => r.key === key)!.estimate.fixedN!;
    for (const [key, cell] of [[`task:古文单字多义`, '古文单字多义'], ['overall', 'overall']] as const) {
      const shown = page.getByTestId(`compare-fixed-${cell}-0`);
      await shown.waitFor();
      expect(Number(await shown.getAttribute('data-low')), key).toBeCloseTo(100 * fixedOf(key).low, 9);
      expect(Number(await shown.getAttribute('data-high')), key).toBeCloseTo(100 * fixedOf(key).high, 9);
    }
    // The group's too; pooled describes the items scored and has none.
    await page.locator('[data-testid^="compare-fixed-group:"][data-testid$="-0"]').first().waitFor();
    expect(await page.locator('[data-testid^="compare-fixed-pooled-"]').count()).toBe(0);
    // The run asked in file order has no random sample behind it: no interval, and it says so.
    expect(await page.getByTestId('compare-fixed-古文单字多义-1').count()).toBe(0);
    expect(await page.getByTestId('compare-no-fixed-古文单字多义-1').textContent()).toBe('no interval: not a random sample');
    expect(await page.getByTestId('compare-no-fixed-overall-1').textContent()).toBe('no interval: not a random sample');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('compare-no-fixed-overall-1').textContent()).toBe('无区间：非随机样本');
    await page.getByTestId('lang-en').click();
    // The charts' whiskers are the same (a).
    const bar = page.locator('[data-testid=compare-chart-bars] [data-testid=interval-bar][data-key="古文单字多义"]').first();
    expect(Number(await bar.getAttribute('data-low'))).toBeCloseTo(100 * fixedOf('task:古文单字多义').low, 9);
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
