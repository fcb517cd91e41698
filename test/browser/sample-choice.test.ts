// "Which items of each task" on the Evaluate page (issue 36), in Chromium: a random sample by a seed
// shown, typed or re-rolled, kept through a reload, recorded with the run, and drawn and ordered in
// the page exactly as Node's run-sampling.ts draws them (the same seed and items give the same sample
// and order in any engine); or the first N in file order, to match `lm_eval --limit`; both languages.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { sampleRun, type TaskItems } from '../../src/lib/core/protocols/run-sampling.ts';
import { ANCIENTBENCH_TASKS } from '../../src/lib/core/benchmarks/catalog-tasks.ts';
import { useBrowserSession } from './session.ts';
import { importAncientBenchOf } from './big-ancientbench.ts';
import { readStoredRun, waitForStatus } from './runs.ts';

const PER_TASK = 20;
const DEV = 5;
const TASKS = [ANCIENTBENCH_TASKS[0].en, ANCIENTBENCH_TASKS[3].en];

/** The stored test items of each task in file order, read from the page's IndexedDB. */
async function population(page: Page): Promise<TaskItems[]> {
  const items = (await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('jiangu');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const request = open.result.transaction('items').objectStore('items').index('by-dataset').getAll('ancientbench');
      request.onsuccess = () => { open.result.close(); resolve(request.result.map((i) => ({ id: i.id, task: i.task, split: i.split, order: i.order, kind: i.kind }))); };
      request.onerror = () => reject(request.error);
    };
  })`)) as { id: string; task: string; split: string; order: number; kind: string }[];
  return TASKS.map((task) => ({ task, itemIds: items.filter((i) => i.task === task && i.split === 'test' && i.kind === 'multiple-choice').sort((a, b) => a.order - b.order).map((i) => i.id) }));
}

async function configure(page: Page, limit: number): Promise<void> {
  await page.getByTestId('eval-dataset').selectOption('ancientbench');
  await page.getByTestId('eval-limit').fill(String(limit));
  await page.getByRole('button', { name: 'none' }).click();
  for (const task of TASKS) await page.locator(`input[type=checkbox][value="${task}"]`).check();
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
}

async function start(page: Page): Promise<{ run: McRunRecord; results: McItemResult[] }> {
  await page.getByTestId('load').click();
  await page.waitForURL(/#\/run\//);
  const runId = decodeURIComponent(page.url().split('#/run/')[1]);
  await waitForStatus(page, 'completed');
  return readStoredRun<McRunRecord, McItemResult>(page, runId);
}

const shownSeed = async (page: Page) => Number(await page.getByTestId('eval-sample').getAttribute('data-seed'));

describe('the sample a run asks', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('draws a random sample by the seed shown, as Node draws it, and keeps the seed through a reload', async () => {
    const { page } = session.opened;
    await importAncientBenchOf(page, ANCIENTBENCH_TASKS.length * (PER_TASK + DEV), ANCIENTBENCH_TASKS.length * DEV);
    await page.goto(`${session.url}/#/evaluate`);
    await configure(page, 6);
    const sample = page.getByTestId('eval-sample');
    expect(await sample.getAttribute('data-draw')).toBe('random');
    const first = await shownSeed(page);
    expect(Number.isInteger(first) && first >= 0 && first <= 0xffffffff).toBe(true);
    expect(await page.getByTestId('eval-sample-seed').inputValue()).toBe(String(first));
    expect(await page.getByTestId('eval-total').textContent()).toContain(`a random 6 of each task, seed ${first}`);

    // Re-rolled: another seed, shown everywhere; a reload keeps it (the tab's choice).
    await page.getByTestId('eval-sample-reroll').click();
    const rolled = await shownSeed(page);
    expect(rolled).not.toBe(first);
    expect(await page.getByTestId('eval-sample-seed').inputValue()).toBe(String(rolled));
    await page.reload();
    await page.getByTestId('eval-sample').waitFor();
    expect(await shownSeed(page)).toBe(rolled);

    // A seed typed: refused while out of range (the run keeps the last good one), taken when whole.
    await configure(page, 6);
    await page.getByTestId('eval-sample-seed').fill('4294967296');
    await page.getByTestId('eval-sample-seed-bad').waitFor();
    expect(await shownSeed(page)).toBe(rolled);
    await page.getByTestId('eval-sample-seed').fill('20261205');
    await page.getByTestId('eval-sample-seed-bad').waitFor({ state: 'detached' });
    expect(await shownSeed(page)).toBe(20261205);

    const { run, results } = await start(page);
    expect(run.config.sampling).toEqual({ draw: 'random', seed: 20261205, order: 'shuffled', block: 4, growth: 2, maxBlock: 64, population: Object.fromEntries(TASKS.map((t) => [t, PER_TASK])) });
    // The page drew and ordered exactly what Node draws from the same items and seed.
    const expected = sampleRun(await population(page), 6, run.config.sampling);
    expect(run.config.itemIds).toEqual(expected.itemIds);
    expect(results.map((r) => r.itemId)).toEqual(expected.itemIds);
    // A random draw, not the first 6 of each file.
    const firsts = new Set((await population(page)).flatMap((t) => t.itemIds.slice(0, 6)));
    expect(run.config.itemIds.every((id) => firsts.has(id))).toBe(false);
  });

  it("asks the first N in file order when chosen, named as lm_eval --limit's, in both languages", async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await configure(page, 4);
    await page.getByTestId('eval-sample-first').check();
    expect(await page.getByTestId('eval-sample').getAttribute('data-draw')).toBe('first');
    expect(await page.getByTestId('eval-sample').textContent()).toContain('The first 4 in file order (as lm_eval --limit)');
    expect(await page.getByTestId('eval-total').textContent()).toContain('(the first 4 of each task;');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('eval-sample').textContent()).toContain('按文件顺序的前 4 题（同 lm_eval --limit）');
    expect(await page.getByTestId('eval-sample-note').textContent()).toContain('不是随机样本');
    await page.getByTestId('eval-sample-random').check();
    expect(await page.getByTestId('eval-sample').textContent()).toContain('随机抽取 4 题');
    await page.getByTestId('eval-sample-first').check();
    await page.getByTestId('lang-en').click();

    const { run } = await start(page);
    expect(run.config.sampling).toMatchObject({ draw: 'first', order: 'shuffled' });
    const tasks = await population(page);
    expect([...run.config.itemIds].sort()).toEqual(tasks.flatMap((t) => t.itemIds.slice(0, 4)).sort());
    expect(run.config.itemIds).toEqual(sampleRun(tasks, 4, run.config.sampling).itemIds);
    // Put back for any later test in this session.
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-sample-random').check();
  });
});
