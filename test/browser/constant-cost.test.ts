// A run's cost per item on the page does not grow with the results so far (issue 22). A run of a
// couple of thousand generated AncientBench items (no benchmark data) on jiangu-tiny, watched on its
// run page, with V8's precise coverage counting every block the page's main thread executes: the
// blocks run per item done in a late window of the run are about those in an early one. Before the
// fix the page redid work over every result for each new one (an array search through a Svelte
// proxy, the aggregate, the item list's filters), so the count per item grew with the run. A count,
// not a time: it does not depend on the machine's speed.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ancientBenchOfItems } from './big-ancientbench.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';
import { useBrowserSession } from './session.ts';

const ITEMS = 1_520;
const DEV = 20;
const WINDOW = 200;

interface Coverage {
  result: { url: string; functions: { ranges: { count: number }[] }[] }[];
}

/** Blocks executed since the last take (takePreciseCoverage resets the counters), over the site's own scripts. */
async function blocksSinceLastTake(cdp: CDPSession, origin: string): Promise<number> {
  const { result } = (await cdp.send('Profiler.takePreciseCoverage')) as unknown as Coverage;
  let sum = 0;
  for (const script of result) {
    if (!script.url.startsWith(origin)) continue;
    for (const f of script.functions) for (const r of f.ranges) sum += r.count;
  }
  return sum;
}

const done = (page: Page) => page.evaluate(() => document.querySelector<HTMLProgressElement>('[data-testid=run-progress] .overall progress')?.value ?? 0);

async function untilDone(page: Page, n: number): Promise<void> {
  await page.waitForFunction((n) => (document.querySelector<HTMLProgressElement>('[data-testid=run-progress] .overall progress')?.value ?? 0) >= n, n, { timeout: 300_000, polling: 50 });
}

/** Blocks per item done over WINDOW items from `from` on. */
async function blocksPerItem(page: Page, cdp: CDPSession, origin: string, from: number): Promise<{ perItem: number; items: number }> {
  await untilDone(page, from);
  await blocksSinceLastTake(cdp, origin);
  const start = await done(page);
  await untilDone(page, start + WINDOW);
  const blocks = await blocksSinceLastTake(cdp, origin);
  const items = (await done(page)) - start;
  return { perItem: blocks / items, items };
}

describe('a long run on its run page', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('costs the page about the same per item late in the run as early on', async () => {
    const { page } = session.opened;
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    const path = join(mkdtempSync(join(tmpdir(), 'jiangu-long-run-')), 'ancientbench.csv');
    writeFileSync(path, ancientBenchOfItems(ITEMS, DEV));
    await page.getByTestId('import-kind').selectOption('ancientbench');
    await page.getByTestId('file-input').setInputFiles(path);
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 120_000 });

    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, allItems: true });
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.startPreciseCoverage', { callCount: true, detailed: true });
    const origin = new URL(session.url).origin;
    const early = await blocksPerItem(page, cdp, origin, 100);
    const late = await blocksPerItem(page, cdp, origin, ITEMS - DEV - WINDOW - 50);
    await cdp.send('Profiler.stopPreciseCoverage');
    console.log(`blocks executed on the page per item: ${early.perItem.toFixed(0)} at ~${100 + WINDOW / 2} items done, ${late.perItem.toFixed(0)} at ~${ITEMS - DEV - 50 - WINDOW / 2} (ratio ${(late.perItem / early.perItem).toFixed(2)})`);
    expect(early.items).toBeGreaterThanOrEqual(WINDOW);
    expect(late.items).toBeGreaterThanOrEqual(WINDOW);
    // The run gets about 9 times longer between the windows: work per item over all results would
    // show here many times over; the same work per item gives a ratio near 1.
    expect(late.perItem / early.perItem).toBeLessThan(1.25);

    await waitForStatus(page, 'completed', 300_000);
    const stored = await readStoredRun(page, runId);
    expect(stored.results).toHaveLength(ITEMS - DEV);
    // The table's numbers are the whole run's once it ends (read from the store).
    expect(await page.getByTestId('results').textContent()).toContain(`${(ITEMS - DEV).toLocaleString('en')} of ${(ITEMS - DEV).toLocaleString('en')} items`);
  }, 600_000);
});
