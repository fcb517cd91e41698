// The paper's full size, watched as a user would: a generated AncientBench file of 28,707 questions
// (no benchmark data) imported on the Data page, every test item run 0-shot with jiangu-tiny fp32 on
// WASM while the run page stays open, then the finished run opened, exported, shared and shown in
// classroom; its exported file imported while it is stored (read, checked, refused as a duplicate), the
// run deleted and the file imported again, and the imported run compared with a small second run.
// Reports items/s in the first, middle and last thousand items, what watching the run costs it (items/s
// with its page open ÷ with the Data page open, alternating in stretches: watch-cost.ts), the shown
// time left against the true one at 10, 25 and 50 %, the longest main-thread task during the run,
// the run's wall time against the model's own time, and each step's time afterwards. A measurement,
// not a test. Needs `npm run build` first (JIANGU_DIST names another build folder).
//   npx tsx scripts/bench/full-size.ts [items] [--stretch N] [--run-only]
// --run-only stops after the run (for iterating on the live page with fewer items).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { ancientBenchOfItems, PAPER_SIZE } from '../../test/browser/big-ancientbench.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from '../../test/browser/runs.ts';
import { launchChromium, openPage, startSite } from '../browser.ts';
import { measureWatchCost } from './watch-cost.ts';

const args = process.argv.slice(2);
const flag = (name: string) => {
  const i = args.indexOf(name);
  return i < 0 ? null : (args.splice(i, 2)[1] ?? '');
};
const runOnly = args.includes('--run-only');
if (runOnly) args.splice(args.indexOf('--run-only'), 1);
const stretchArg = flag('--stretch');
// --trace DIR: a Chromium performance trace of each step afterwards (DIR/<step>.json), to find what a long task is.
const traceDir = flag('--trace');
const items = Number(args[0] ?? PAPER_SIZE.items);
const dev = Math.min(PAPER_SIZE.dev, Math.floor(items / 100) * 10);
const path = join(mkdtempSync(join(tmpdir(), 'jiangu-full-size-')), 'ancientbench.csv');
writeFileSync(path, ancientBenchOfItems(items, dev));

interface BenchWindow {
  longTasks: { start: number; epoch: number; duration: number }[];
}

/** Records every long task. */
async function watch(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as BenchWindow;
    // One observer per document: a second would record every task twice.
    const first = w.longTasks === undefined;
    w.longTasks = [];
    if (first) new PerformanceObserver((list) => list.getEntries().forEach((e) => w.longTasks.push({ start: e.startTime, epoch: performance.timeOrigin + e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: false });
  });
}

/** The longest task (ms) and how many there were, since `since` (page clock), and before `until` (epoch ms) when given. */
async function longTasksSince(page: Page, since: number, until = Infinity): Promise<{ longest: number; count: number; at: string[] }> {
  const all = await page.evaluate((t) => (window as unknown as BenchWindow).longTasks.filter((x) => x.start >= t), since);
  const tasks = all.filter((x) => x.epoch < until);
  // When each came (s after `since`) and how long it took, so a long one can be placed in the run.
  const at = tasks.map((t) => `${((t.start - since) / 1000).toFixed(1)} s: ${Math.round(t.duration)} ms`);
  return { longest: Math.round(Math.max(0, ...tasks.map((t) => t.duration))), count: tasks.length, at };
}

const now = (page: Page): Promise<number> => page.evaluate(() => performance.now());

/** Where the bench is, on stderr: a bench that stops shows the step it stopped in. */
const step = (what: string) => process.stderr.write(`full-size: ${new Date().toISOString().slice(11, 19)} ${what}\n`);

/** Runs `step` and reports its wall time and the longest main-thread task it caused. */
async function timed(page: Page, step: () => Promise<unknown>, name = ''): Promise<{ ms: number; longestTaskMs: number }> {
  if (traceDir && name) await browser.startTracing(page, { path: join(traceDir, `${name}.json`) });
  const t0 = await now(page);
  const started = Date.now();
  await step();
  const ms = Date.now() - started;
  await page.waitForTimeout(300);
  if (traceDir && name) await browser.stopTracing();
  return { ms, longestTaskMs: (await longTasksSince(page, t0)).longest };
}

const site = await startSite();
// JIANGU_BENCH_CDP_PORT: a DevTools port, to look into the page from outside while the bench runs.
const cdpPort = process.env.JIANGU_BENCH_CDP_PORT;
const browser = await launchChromium(cdpPort ? { extraArgs: [`--remote-debugging-port=${cdpPort}`] } : {});
try {
  const { page } = await openPage(browser, `${site.url}/#/data`);
  // tsx compiles with keepNames: functions given to page.evaluate call its `__name` helper, which the page lacks.
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await page.evaluate('globalThis.__name = (f) => f');
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  step('importing the file');
  await watch(page);
  const importStartedAt = await now(page);
  const importStarted = Date.now();
  await page.getByTestId('import-kind').selectOption('ancientbench');
  await page.getByTestId('file-input').setInputFiles(path);
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 600_000 });
  const importMs = Date.now() - importStarted;
  const importLongest = (await longTasksSince(page, importStartedAt)).longest;

  step('starting the run');
  const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, allItems: true });
  await watch(page);
  const runStarted = await now(page);
  const total = items - dev;
  // Other 1, run 2, other 2, run 2, other 1 (in stretches) after the warm-up: symmetric, so a steady drift of pace cancels.
  const warmup = Math.min(200, Math.floor(total / 20));
  const stretch = stretchArg ? Number(stretchArg) : Math.floor((total - warmup) / 8);
  // Once the run's page says it completed and has settled, its long tasks are taken (the end of the run
  // drawn included) before the bench reads the results in the page itself, a task of its own.
  let atEnd: Awaited<ReturnType<typeof longTasksSince>> | null = null;
  const lastResultAt = async () => {
    await waitForStatus(page, 'completed', 600_000);
    await page.waitForTimeout(2000);
    atEnd = await longTasksSince(page, runStarted);
    return Math.max(...(await readStoredRun(page, runId)).results.map((r) => Date.parse(r.completedAt)));
  };
  const watched = await measureWatchCost(page, { runId, total, stretch, warmup }, lastResultAt);
  step('the watch ended; waiting for completed');
  await waitForStatus(page, 'completed', 600_000);
  const runWallMs = (await now(page)) - runStarted;
  const during = await longTasksSince(page, runStarted, watched.endedAt);
  const thousand = Math.min(1000, Math.floor(total / 3));
  const mid = Math.floor(total / 2);
  const pace = {
    first: watched.paceBetween(0, thousand),
    middle: watched.paceBetween(mid - thousand / 2, mid + thousand / 2),
    last: watched.paceBetween(total - thousand, total),
  };
  step('reading the stored run');
  const { results } = await readStoredRun(page, runId);
  const modelMs = results.reduce((sum, r) => sum + ('forwardMs' in r ? r.forwardMs : 0), 0);
  const runReport = {
    items,
    testItems: total,
    importMs,
    importLongestTaskMs: importLongest,
    run: {
      wallS: +(runWallMs / 1000).toFixed(1),
      modelS: +(modelMs / 1000).toFixed(1),
      wallOverModel: +(runWallMs / modelMs).toFixed(2),
      itemsPerSecond: { ...pace, lastOverFirst: pace.first && pace.last ? +(pace.last / pace.first).toFixed(2) : null },
      // Target (issue 35): watchedOverOther ≥ 0.9.
      watching: { stretch, runPage: watched.runPageItemsPerSecond, otherPage: watched.otherPageItemsPerSecond, watchedOverOther: watched.ratio, stretches: watched.stretches },
      // Target (issue 35): |error| ≤ 0.25 from 10 % on.
      eta: watched.eta,
      etaCurve: watched.etaCurve.filter((_, i, all) => i % Math.max(1, Math.floor(all.length / 20)) === 0),
      longestTaskMs: during.longest,
      longTasks: during.count,
      longTasksAt: during.at.slice(0, 40),
      // Once the last item is stored the page reads the run back and draws it whole: apart.
      longestTaskWithEndMs: atEnd!.longest,
      endTasksAt: atEnd!.at.slice(during.count, during.count + 10),
    },
  };
  if (runOnly) {
    console.log(JSON.stringify(runReport, null, 1));
    await browser.close();
    await site.close();
    process.exit(0);
  }

  step('afterwards: the Evaluate page');
  // Afterwards: open the finished run anew, export it, share it, compare it.
  await page.goto(`${site.url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  await watch(page);
  step('opening the run page');
  const open = await timed(page, async () => {
    await page.goto(`${site.url}/#/run/${encodeURIComponent(runId)}`);
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 600_000 });
    await page.getByTestId('results').waitFor({ timeout: 600_000 });
  }, 'open');
  const runFile = join(mkdtempSync(join(tmpdir(), 'jiangu-full-size-run-')), 'run.json');
  step('exporting the run file');
  const exportJson = await timed(page, async () => {
    const [download] = await Promise.all([page.waitForEvent('download', { timeout: 600_000 }), page.getByTestId('export-json').click()]);
    await download.saveAs(runFile);
  }, 'exportJson');
  step('exporting the CSV');
  const exportCsv = await timed(page, () => Promise.all([page.waitForEvent('download', { timeout: 600_000 }), page.getByTestId('export-csv').click()]), 'exportCsv');
  step('sharing');
  const share = await timed(page, async () => {
    await page.getByTestId('share').click();
    await page.getByTestId('share-url').waitFor({ timeout: 600_000 });
  }, 'share');
  step('classroom');
  const classroom = await timed(page, async () => {
    await page.getByTestId('classroom-link').click();
    await page.getByTestId('classroom-question').waitFor({ timeout: 600_000 });
  }, 'classroom');
  // A small second run of the same benchmark (100 items a task), for Compare below.
  step('a small second run');
  await page.goto(`${site.url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  const smallId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 100 });
  await waitForStatus(page, 'completed', 600_000);
  // The exported file imported while the run is still stored: read and checked whole, then refused
  // as already stored with the same results (nothing stored twice).
  await page.goto(`${site.url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  step('importing the run file while it is stored');
  const importStored = await timed(page, async () => {
    await page.getByTestId('import-run-input').setInputFiles(runFile);
    await page.getByTestId('import-run-already-stored').waitFor({ timeout: 600_000 });
  }, 'importStored');
  // Deleted from its page, then imported again: this time it is stored.
  await page.goto(`${site.url}/#/run/${encodeURIComponent(runId)}`);
  await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 600_000 });
  step('deleting the run');
  const deleteRun = await timed(page, async () => {
    await page.getByTestId('delete-run').click();
    await page.getByTestId('delete-run-yes').click();
    await page.waitForURL((url) => !url.hash.startsWith('#/run/'), { timeout: 600_000 });
    await page.getByTestId('run-list').waitFor({ timeout: 600_000 });
  }, 'deleteRun');
  step('importing the run file');
  const importRun = await timed(page, async () => {
    await page.getByTestId('import-run-input').setInputFiles(runFile);
    await page.waitForURL((url) => url.hash.startsWith('#/run/'), { timeout: 600_000 });
    await page.getByTestId('results').waitFor({ timeout: 600_000 });
  }, 'importRun');
  const importedId = decodeURIComponent(page.url().split('#/run/')[1]);
  step('comparing');
  const compare = await timed(page, async () => {
    await page.goto(`${site.url}/#/compare/${encodeURIComponent(importedId)},${encodeURIComponent(smallId)}`);
    await page.getByTestId('compare-table').waitFor({ timeout: 600_000 });
  }, 'compare');

  console.log(
    JSON.stringify(
      {
        ...runReport,
        open,
        exportJson,
        exportCsv,
        share,
        classroom,
        importStored,
        deleteRun,
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
