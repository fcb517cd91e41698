// What the run page's live whole-benchmark estimate (issue 36: ui/evaluate/estimate-view.ts) costs
// the run it watches: a run of jiangu-tiny on all of ACLUE (0-shot, WASM) is watched on its run page
// for a while, and the page's own count of the milliseconds its estimate took (results taken in and
// snapshots: data-spent-ms) is set against the time the run ran. The run's scheduler shares that
// thread, so this share is what watching the estimate can take from the run's pace. A measurement,
// not a test. `npx tsx scripts/bench/estimate-cost.ts [seconds] [letter|cloze]` after a build.
import { launchChromium, openPage, startSite } from '../browser.ts';
import { startFixtureRun, storeSampleAndAclue, waitForStatus } from '../../test/browser/runs.ts';

const seconds = Number(process.argv[2] ?? 60);
const scoring = process.argv[3] === 'cloze' ? 'cloze' : 'letter-logits';
const site = await startSite();
const browser = await launchChromium();
try {
  const { page } = await openPage(browser, `${site.url}/#/data`);
  await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
  await storeSampleAndAclue(page, site.url);
  await startFixtureRun(page, { dataset: 'aclue', shots: 0, allItems: true, scoring, backend: 'wasm' });
  const section = page.locator('[data-testid=benchmark-estimate][data-computed-in=live]');
  await section.waitFor({ timeout: 120_000 });
  page.on('console', (m) => m.type() === 'error' && process.stderr.write(`page: ${m.text()}\n`));
  page.on('pageerror', (e) => process.stderr.write(`page error: ${e.message}\n`));
  const read = async () => ({ t: Date.now(), scored: Number(await section.getAttribute('data-scored')), spent: Number(await section.getAttribute('data-spent-ms')) });
  const first = await read();
  const samples = [first];
  while (Date.now() - first.t < seconds * 1000) {
    await page.waitForTimeout(5000);
    samples.push(await read());
  }
  const last = samples[samples.length - 1];
  await page.getByTestId('cancel-run').click();
  await waitForStatus(page, 'paused');
  const wallMs = last.t - first.t;
  const report = {
    scoring,
    items: last.scored - first.scored,
    itemsPerSecond: +(((last.scored - first.scored) * 1000) / wallMs).toFixed(1),
    wallS: +(wallMs / 1000).toFixed(1),
    estimateMs: +(last.spent - first.spent).toFixed(1),
    shareOfWall: +((last.spent - first.spent) / wallMs).toFixed(4),
    curve: samples.map((s) => [s.scored, +s.spent.toFixed(1)]),
  };
  console.log(JSON.stringify(report, null, 2));
} finally {
  await browser.close();
  await site.close();
}
