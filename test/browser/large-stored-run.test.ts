// A large stored run (issue 35) opens through the stored-run worker, in Chromium: its run page,
// classroom and comparison read and check it there (data-read-in="worker") and compute their
// bootstrap intervals there (data-computed-in="worker"), and every number drawn is the one the
// metric functions give in Node. A run of a few thousand results is past the worker's threshold; the
// paper-size timings are measured by scripts/bench/stored-run-tasks.ts, never asserted here.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { runJson } from '../../src/lib/core/formats/jiangu-run/export.ts';
import { compareContinuousRuns } from '../../src/lib/core/metrics/compare-continuous-runs.ts';
import { aggregateContinuous, continuousOf } from '../../src/lib/core/metrics/continuous.ts';
import { aggregateForDataset, mulberry32 } from '../../src/lib/core/metrics/index.ts';
import { WORKER_FROM_RESULTS } from '../../src/lib/data/stored-run-work.ts';
import { fabricatedMcRun } from '../../scripts/fixtures/fabricated-run.ts';
import { importAncientBenchOf } from './big-ancientbench.ts';
import { useBrowserSession } from './session.ts';

const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
const DEV = 50;
const TEST_ITEMS = WORKER_FROM_RESULTS + 500;

/** The stored AncientBench test items (id, task, answer), as the page's store holds them. */
async function storedItems(page: Page): Promise<[string, string, OptionLetter][]> {
  return (await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('jiangu');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('items').objectStore('items').index('by-dataset').getAll('ancientbench');
      get.onsuccess = () => { resolve(get.result.filter((i) => i.split === 'test').map((i) => [i.id, i.task, i.answer])); open.result.close(); };
      get.onerror = () => reject(get.error);
    };
  })`)) as [string, string, OptionLetter][];
}

async function madeRun(id: string, seed: number, items: [string, string, OptionLetter][]) {
  const random = mulberry32(seed);
  const tasks = [...new Set(items.map(([, task]) => task))];
  const made = await fabricatedMcRun({
    id,
    datasetId: 'ancientbench',
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    tasks,
    datasetFiles: [{ path: 'ancientbench.csv', sha256: 'a'.repeat(64) }],
    limitPerTask: null,
    items: items.map(([itemId, task, gold]) => ({ id: itemId, task, gold, logProbs: LETTERS.map(() => random() * 4 - 6) })),
  });
  return { ...made, tasks, text: runJson(made.run, made.results) };
}

async function importRun(page: Page, url: string, name: string, text: string): Promise<string> {
  await page.goto(`${url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  const before = page.url();
  await page.getByTestId('import-run-input').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForURL((u) => u.hash.startsWith('#/run/') && u.href !== before, { timeout: 60_000, waitUntil: 'commit' });
  return decodeURIComponent(page.url().split('#/run/')[1]);
}

describe('a large stored run', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('opens, teaches and compares through the stored-run worker, with the metric functions’ numbers', async () => {
    const { page } = session.opened;
    await importAncientBenchOf(page, TEST_ITEMS + DEV, DEV);
    const items = await storedItems(page);
    expect(items.length).toBe(TEST_ITEMS);
    const a = await madeRun('large-a', 1, items);
    const b = await madeRun('large-b', 2, items);

    // The run page: read in the worker, the accuracy and the continuous scores as in Node.
    const aId = await importRun(page, session.url, 'a.json', a.text);
    await page.locator('[data-testid=run][data-read-in=worker]').waitFor({ timeout: 60_000 });
    const accuracy = aggregateForDataset('ancientbench', a.results);
    expect(await page.getByTestId('acc-overall').textContent()).toBe((100 * accuracy.overall.accuracy!).toFixed(2));
    expect(await page.getByTestId('acc-pooled').textContent()).toBe((100 * accuracy.pooled.accuracy!).toFixed(2));
    const continuous = page.locator('[data-testid=continuous][data-computed-in=worker]');
    await continuous.waitFor({ timeout: 60_000 });
    const aItems = a.results.flatMap((r) => continuousOf(r) ?? []);
    const pGold = aggregateContinuous('ancientbench', aItems, 'pGold', a.tasks).overall.estimate!;
    const cell = page.getByTestId('cont-pGold-overall');
    expect(Number(await cell.getAttribute('data-value'))).toBe(pGold.estimate);
    expect(Number(await cell.getAttribute('data-low'))).toBe(pGold.low);
    expect(Number(await cell.getAttribute('data-high'))).toBe(pGold.high);
    const logPGold = aggregateContinuous('ancientbench', aItems, 'logPGold', a.tasks).overall.estimate!;
    expect(Number(await page.getByTestId('cont-logPGold-overall').getAttribute('data-value'))).toBe(logPGold.estimate);
    expect(await page.getByTestId('inspector-shown').getAttribute('data-of')).toBe(String(TEST_ITEMS));
    // Drawn a part per task, to the last: the robustness numbers and the charts.
    await page.locator('[data-testid=run][data-drawn=all]').waitFor({ timeout: 60_000 });
    await page.getByTestId('robustness').waitFor();
    await page.getByTestId('run-charts').waitFor();

    // The classroom: read in the worker, every question there.
    await page.getByTestId('classroom-link').click();
    await page.locator('[data-testid=classroom][data-read-in=worker]').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('classroom-position').textContent()).toBe(`1 / ${TEST_ITEMS.toLocaleString('en')}`);

    // The comparison: both read in the worker, the paired bootstrap computed there, as in Node.
    const bId = await importRun(page, session.url, 'b.json', b.text);
    await page.goto(`${session.url}/#/compare/${encodeURIComponent(aId)},${encodeURIComponent(bId)}`);
    await page.getByTestId('compare-table').waitFor({ timeout: 60_000 });
    await page.locator('[data-testid=compare-continuous][data-computed-in=worker]').waitFor({ timeout: 60_000 });
    expect((await page.getByTestId('compare').getAttribute('data-read-in'))?.split(' ').sort()).toEqual([`${aId}:worker`, `${bId}:worker`].sort());
    const bItems = b.results.flatMap((r) => continuousOf(r) ?? []);
    const expected = compareContinuousRuns('ancientbench', { scoring: 'letter-logits', items: aItems }, { scoring: 'letter-logits', items: bItems }, a.tasks);
    if (expected.kind !== 'compared') throw new Error('the two runs should compare');
    const difference = expected.metrics.find((m) => m.metric === 'pGold')!.difference.overall.estimate!;
    const shown = page.getByTestId('continuous-pGold-overall');
    expect(Number(await shown.getAttribute('data-value'))).toBe(difference.estimate);
    expect(Number(await shown.getAttribute('data-p'))).toBe(difference.pValue);
  }, 240_000);
});
