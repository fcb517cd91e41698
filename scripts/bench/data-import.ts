// `npm run bench` (second part): how long the page takes to download (from the local mirror of
// ../shared/data), check, adapt and store all of ACLUE and all of WenMind in IndexedDB, and to load
// one task's items back. A measurement, not a test.
import { openPage, withChromium } from '../browser.ts';
import { dataMirrorRoot } from '../site-routes.ts';

interface ImportTiming {
  dataset: string;
  fetchMs: number;
  storeMs: number;
  items: number;
  task: string;
  taskItems: number;
  loadTaskMs: number[];
}

const JOBS = [
  { id: 'aclue', task: '古文单字多义' },
  { id: 'wenmind', task: '单字多义' },
] as const;

async function main(): Promise<void> {
  if (!dataMirrorRoot()) throw new Error('No data mirror: ../shared/data (or JIANGU_DATA) is missing.');
  await withChromium({ webgpu: false }, async (siteUrl, browser) => {
    const { page, leaks } = await openPage(browser, `${siteUrl}/harness.html`);
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { polling: 100 });
    const rows: ImportTiming[] = [];
    for (const job of JOBS) {
      rows.push(
        await page.evaluate(
          async ({ id, task, mirror }) => {
            const { openJianguDb, fetchCatalogFiles, storeDataset, loadTaskItems } = window.jiangu.data;
            const db = await openJianguDb();
            const t0 = performance.now();
            const files = await fetchCatalogFiles(id, { mirror });
            const t1 = performance.now();
            const { record } = await storeDataset(db, id, files, { origin: 'catalog' });
            const t2 = performance.now();
            const loadTaskMs: number[] = [];
            let taskItems = 0;
            for (let i = 0; i < 5; i++) {
              const s = performance.now();
              taskItems = (await loadTaskItems(db, id, task)).length;
              loadTaskMs.push(performance.now() - s);
            }
            db.close();
            return { dataset: id, fetchMs: t1 - t0, storeMs: t2 - t1, items: record.itemCount, task, taskItems, loadTaskMs };
          },
          { id: job.id, task: job.task, mirror: `${siteUrl}/mirror` },
        ),
      );
    }
    if (leaks.length > 0) throw new Error(`requests left 127.0.0.1: ${leaks.join(', ')}`);
    const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    console.log('\n| dataset | items | download + sha256 (ms) | adapt + store (ms) | task loaded back | items | load (ms, first / median of 5) |');
    console.log('|---|---|---|---|---|---|---|');
    for (const r of rows) {
      console.log(
        `| ${r.dataset} | ${r.items.toLocaleString('en')} | ${r.fetchMs.toFixed(0)} | ${r.storeMs.toFixed(0)} | ${r.task} | ${r.taskItems} | ${r.loadTaskMs[0].toFixed(1)} / ${median(r.loadTaskMs).toFixed(1)} |`,
      );
    }
    console.log(`\nChromium ${browser.version()}, headless, files from the local mirror (no network time), into a fresh profile's IndexedDB.`);
  });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
