// A large stored run (issue 35) opens through the stored-run worker, in Chromium: its run page,
// classroom and comparison read and check it there (data-read-in="worker") and compute their
// bootstrap intervals there (data-computed-in="worker"), and every number drawn is the one the
// metric functions give in Node. A run of a few thousand results is past the worker's threshold; the
// paper-size timings are measured by scripts/bench/stored-run-tasks.ts, never asserted here.
import { describe, expect, it } from 'vitest';
import { compareContinuousRuns } from '../../src/lib/core/metrics/compare-continuous-runs.ts';
import { aggregateContinuous, continuousOf } from '../../src/lib/core/metrics/continuous.ts';
import { aggregateForDataset } from '../../src/lib/core/metrics/index.ts';
import { WORKER_FROM_RESULTS } from '../../src/lib/data/stored-run-work.ts';
import { importAncientBenchOf } from './big-ancientbench.ts';
import { importRun, madeRun, storedItems } from './large-runs.ts';
import { useBrowserSession } from './session.ts';

const DEV = 50;
const TEST_ITEMS = WORKER_FROM_RESULTS + 500;

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
    // An older record asked in file order is no sample: no fixed-n interval (a) beside its means (issue 44).
    expect(await cell.getAttribute('data-low')).toBe('');
    expect(await cell.getAttribute('data-high')).toBe('');
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
