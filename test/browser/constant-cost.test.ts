// A run's cost per item on the page does not grow with the results so far (issue 22). A run of a
// couple of thousand generated AncientBench items (no benchmark data) on jiangu-tiny, watched on its
// run page, with V8's precise coverage counting every block the page's main thread executes: the
// blocks run per item done in a late window of the run are about those in an early one. Before the
// fix the page redid work over every result for each new one (an array search through a Svelte
// proxy, the aggregate, the item list's filters), so the count per item grew with the run. A count,
// not a time: it does not depend on the machine's speed. V8 runs in its interpreter and baseline tiers
// only (--max-opt=0): code that V8's optimizing compilers take over (and inline) stops being counted
// whole — saveResult and scoreItemFromWire vanished from late windows' counts — and when that happens
// depends on timing, so under load a window could read 20% below another for the same work (a loaded
// clean-clone run: the Data page 1,298 early against 1,608 late). Unoptimized, every call is counted:
// 1.00 call per item in every window, the Data page's ratio 1.00–1.01 with three busy loops beside it.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { ancientBenchOfItems } from './big-ancientbench.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';
import { useBrowserSession } from './session.ts';

const ITEMS = 3_020;
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

/** Results the run has stored so far, read from IndexedDB (on any page: the run goes on in the background). */
const done = (page: Page, runId: string) =>
  page.evaluate(
    (id) =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('jiangu');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const db = open.result;
          const r = db.transaction('results').objectStore('results').index('by-run').count(id);
          r.onsuccess = () => (db.close(), resolve(r.result));
          r.onerror = () => reject(r.error);
        };
      }),
    runId,
  );

async function untilDone(page: Page, runId: string, n: number): Promise<void> {
  const until = Date.now() + 300_000;
  while ((await done(page, runId)) < n) {
    if (Date.now() > until) throw new Error(`the run did not reach ${n} results`);
    await page.waitForTimeout(25);
  }
}

/** Blocks per item done over WINDOW items from `from` on. */
async function blocksPerItem(page: Page, runId: string, cdp: CDPSession, origin: string, from: number): Promise<{ perItem: number; items: number }> {
  await untilDone(page, runId, from);
  await blocksSinceLastTake(cdp, origin);
  // The run goes on while the page moves: a window may start past `from`, and never runs past the end.
  const start = await done(page, runId);
  await untilDone(page, runId, Math.min(start + WINDOW, ITEMS - DEV));
  const blocks = await blocksSinceLastTake(cdp, origin);
  const items = (await done(page, runId)) - start;
  return { perItem: blocks / items, items };
}

describe('a long run on its run page', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data', chromiumArgs: ['--js-flags=--max-opt=0'] });

  it('costs the page about the same per item late in the run as early on, on its run page and off it', async () => {
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
    const runPage = page.url();
    const early = await blocksPerItem(page, runId, cdp, origin, 100);
    // Off the run page (the Data page), the run goes on: its cost per item there must not grow either.
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    const dataEarly = await blocksPerItem(page, runId, cdp, origin, 400);
    const dataLate = await blocksPerItem(page, runId, cdp, origin, 1_700);
    await page.goto(runPage);
    await page.getByTestId('run-progress').waitFor();
    const late = await blocksPerItem(page, runId, cdp, origin, 2_400);
    await cdp.send('Profiler.stopPreciseCoverage');
    console.log(`blocks executed on the page per item: run page ${early.perItem.toFixed(0)} early, ${late.perItem.toFixed(0)} late (ratio ${(late.perItem / early.perItem).toFixed(2)}); Data page ${dataEarly.perItem.toFixed(0)} early, ${dataLate.perItem.toFixed(0)} late (ratio ${(dataLate.perItem / dataEarly.perItem).toFixed(2)})`);
    for (const w of [early, dataEarly, dataLate, late]) expect(w.items).toBeGreaterThanOrEqual(WINDOW / 2);
    // The run gets about 12 times longer between the run page's windows: work per item over all
    // results would show here many times over; the same work per item gives a ratio near 1.
    expect(late.perItem / early.perItem).toBeLessThan(1.2);
    expect(dataLate.perItem / dataEarly.perItem).toBeLessThan(1.2);

    await waitForStatus(page, 'completed', 300_000);
    const stored = await readStoredRun(page, runId);
    expect(stored.results).toHaveLength(ITEMS - DEV);
    // The table's numbers are the whole run's once it ends (read from the store).
    expect(await page.getByTestId('results').textContent()).toContain(`${(ITEMS - DEV).toLocaleString('en')} of ${(ITEMS - DEV).toLocaleString('en')} items`);
    // Its export is built in the export worker, from the store, with every result.
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const file = JSON.parse(readFileSync((await download.path())!, 'utf8'));
    expect(file.results).toHaveLength(ITEMS - DEV);
    expect(workers.some((url) => /export\.worker/.test(url))).toBe(true);
  }, 600_000);
});
