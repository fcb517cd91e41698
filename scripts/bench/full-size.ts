// The paper's full size, watched as a user would: a generated AncientBench file of 28,707 questions
// (no benchmark data) imported on the Data page, every test item run 0-shot with jiangu-tiny fp32 on
// WASM while the run page stays open, then the finished run opened, exported, shared and compared.
// Reports items/s in the first, middle and last thousand items, the longest main-thread task during
// the run, the run's wall time against the model's own time, and each step's time afterwards. A
// measurement, not a test. Needs `npm run build` first.
//   npx tsx scripts/bench/full-size.ts [items]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ancientBenchOfItems, PAPER_SIZE } from '../../test/browser/big-ancientbench.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from '../../test/browser/runs.ts';
import { launchChromium, openPage, startSite } from '../browser.ts';

const items = Number(process.argv[2] ?? PAPER_SIZE.items);
const dev = Math.min(PAPER_SIZE.dev, Math.floor(items / 100) * 10);
const path = join(mkdtempSync(join(tmpdir(), 'jiangu-full-size-')), 'ancientbench.csv');
writeFileSync(path, ancientBenchOfItems(items, dev));

interface BenchWindow {
  longTasks: { start: number; duration: number }[];
  progressSamples: [number, number][];
}

/** Records every long task, and (every 100 ms) the run page's items-done count with the page's clock. */
async function watch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    w.longTasks = [];
    w.progressSamples = [];
    new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: false });
    setInterval(() => {
      const bar = document.querySelector<HTMLProgressElement>('[data-testid=run-progress] .overall progress');
      if (bar) w.progressSamples.push([performance.now(), bar.value]);
    }, 100);
  });
}

/** The longest task (ms) and how many there were, since `since` (page clock). */
async function longTasksSince(page: Page, since: number): Promise<{ longest: number; count: number; at: string[] }> {
  const tasks = await page.evaluate((t) => (window as unknown as BenchWindow).longTasks.filter((x) => x.start >= t), since);
  // When each came (s after `since`) and how long it took, so a long one can be placed in the run.
  const at = tasks.map((t) => `${((t.start - since) / 1000).toFixed(1)} s: ${Math.round(t.duration)} ms`);
  return { longest: Math.round(Math.max(0, ...tasks.map((t) => t.duration))), count: tasks.length, at };
}

const now = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** Items per second over the samples between `from` and `to` items done. */
function paceBetween(samples: [number, number][], from: number, to: number): number | null {
  const a = samples.find(([, done]) => done >= from);
  // The bar goes when the run ends: the last thousand ends at the last sample.
  const b = samples.find(([, done]) => done >= to) ?? samples.at(-1);
  if (!a || !b || b[0] === a[0]) return null;
  return +(((b[1] - a[1]) * 1000) / (b[0] - a[0])).toFixed(1);
}

/** Runs `step` and reports its wall time and the longest main-thread task it caused. */
async function timed(page: Page, step: () => Promise<unknown>): Promise<{ ms: number; longestTaskMs: number }> {
  const t0 = await now(page);
  const started = Date.now();
  await step();
  const ms = Date.now() - started;
  await page.waitForTimeout(300);
  return { ms, longestTaskMs: (await longTasksSince(page, t0)).longest };
}

const site = await startSite();
const browser = await launchChromium();
try {
  const { page } = await openPage(browser, `${site.url}/#/data`);
  // tsx compiles with keepNames: functions given to page.evaluate call its `__name` helper, which the page lacks.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.evaluate('globalThis.__name = (f) => f');
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  const importStarted = Date.now();
  await page.getByTestId('import-kind').selectOption('ancientbench');
  await page.getByTestId('file-input').setInputFiles(path);
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 600_000 });
  const importMs = Date.now() - importStarted;

  const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, allItems: true });
  await watch(page);
  const runStarted = await now(page);
  await waitForStatus(page, 'completed', 4 * 3600_000);
  const runWallMs = (await now(page)) - runStarted;
  const during = await longTasksSince(page, runStarted);
  const samples = await page.evaluate(() => (window as unknown as BenchWindow).progressSamples);
  const total = items - dev;
  const thousand = Math.min(1000, Math.floor(total / 3));
  const mid = Math.floor(total / 2);
  const pace = {
    first: paceBetween(samples, 0, thousand),
    middle: paceBetween(samples, mid - thousand / 2, mid + thousand / 2),
    last: paceBetween(samples, total - thousand, total),
  };
  const { results } = await readStoredRun(page, runId);
  const modelMs = results.reduce((sum, r) => sum + ('forwardMs' in r ? r.forwardMs : 0), 0);

  // Afterwards: open the finished run anew, export it, share it, compare it.
  await page.goto(`${site.url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  await watch(page);
  const open = await timed(page, async () => {
    await page.goto(`${site.url}/#/run/${encodeURIComponent(runId)}`);
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 600_000 });
    await page.getByTestId('results').waitFor({ timeout: 600_000 });
  });
  const runFile = join(mkdtempSync(join(tmpdir(), 'jiangu-full-size-run-')), 'run.json');
  const exportJson = await timed(page, async () => {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), page.getByTestId('export-json').click()]);
    await download.saveAs(runFile);
  });
  const exportCsv = await timed(page, () => Promise.all([page.waitForEvent('download', { timeout: 600_000 }), page.getByTestId('export-csv').click()]));
  const share = await timed(page, async () => {
    await page.getByTestId('share').click();
    await page.getByTestId('share-url').waitFor({ timeout: 600_000 });
  });
  const classroom = await timed(page, async () => {
    await page.getByTestId('classroom-link').click();
    await page.getByTestId('classroom-question').waitFor({ timeout: 600_000 });
  });
  // The exported file imported again (a second run of the same items), then the two compared.
  await page.goto(`${site.url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  const importRun = await timed(page, async () => {
    await page.getByTestId('import-run-input').setInputFiles(runFile);
    await page.waitForURL((url) => url.hash.startsWith('#/run/') && !url.hash.includes(encodeURIComponent(runId)), { timeout: 600_000 });
    await page.getByTestId('results').waitFor({ timeout: 600_000 });
  });
  const importedId = decodeURIComponent(page.url().split('#/run/')[1]);
  const compare = await timed(page, async () => {
    await page.goto(`${site.url}/#/compare/${encodeURIComponent(runId)},${encodeURIComponent(importedId)}`);
    await page.getByTestId('compare-table').waitFor({ timeout: 600_000 });
  });

  console.log(
    JSON.stringify(
      {
        items,
        testItems: total,
        importMs,
        run: {
          wallS: +(runWallMs / 1000).toFixed(1),
          modelS: +(modelMs / 1000).toFixed(1),
          wallOverModel: +(runWallMs / modelMs).toFixed(2),
          itemsPerSecond: { ...pace, lastOverFirst: pace.first && pace.last ? +(pace.last / pace.first).toFixed(2) : null },
          longestTaskMs: during.longest,
          longTasks: during.count,
          longTasksAt: during.at,
        },
        open,
        exportJson,
        exportCsv,
        share,
        classroom,
        importRun,
        compare,
      },
      null,
      1,
    ),
  );
} finally {
  await browser.close();
  await site.close();
}
