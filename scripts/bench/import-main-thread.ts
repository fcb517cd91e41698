// Measures how long the page's main thread is blocked while the Data page imports a generated
// ~50 MB AncientBench file: every 'longtask' (over 50 ms) from a PerformanceObserver, from the file
// pick until the dataset is stored. A measurement, not a test. Needs `npm run build` first.
//   npx tsx scripts/bench/import-main-thread.ts [megabytes]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { bigAncientBenchCsv } from '../../test/browser/big-ancientbench.ts';
import { launchChromium, openPage, startSite } from '../browser.ts';

const megabytes = Number(process.argv[2] ?? 50);
const { csv, rows } = bigAncientBenchCsv(megabytes * 1e6);
const path = join(mkdtempSync(join(tmpdir(), 'jiangu-measure-')), 'big.csv');
writeFileSync(path, csv);

const site = await startSite();
const browser = await launchChromium();
try {
  const { page } = await openPage(browser, `${site.url}/#/data`);
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  await page.evaluate(() => {
    const tasks: number[] = [];
    (window as unknown as { longTasks: number[] }).longTasks = tasks;
    new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration))).observe({ type: 'longtask', buffered: false });
  });
  const started = Date.now();
  await page.getByTestId('import-kind').selectOption('ancientbench');
  await page.getByTestId('file-input').setInputFiles(path);
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 600_000 });
  const wall = Date.now() - started;
  // Let the observer deliver the last entries.
  await page.waitForTimeout(500);
  const tasks = await page.evaluate(() => (window as unknown as { longTasks: number[] }).longTasks);
  const longest = tasks.length ? Math.max(...tasks) : 0;
  const total = tasks.reduce((sum, d) => sum + d, 0);
  console.log(
    JSON.stringify({ megabytes: +(csv.length / 1e6).toFixed(1), rows, wallMs: wall, longTasks: tasks.length, longestMs: Math.round(longest), totalBlockedMs: Math.round(total) }),
  );
} finally {
  await browser.close();
  await site.close();
}
