// One session per model across the site's views (issue 43): the Playground's model runs an Evaluate
// run and a memorization probe in its own worker, with no second load, and answers them exactly as a
// worker of their own would; a view asking for another model gets a worker of its own, and nobody's
// model is replaced under them. A session loaded again with the statistics outputs (a cloze run or a
// probe joining a plain session) serves letters, readings and generations bit for bit as the plain one.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { McItemResult } from '../../src/lib/core/record/run.ts';
import { MODEL_LOAD_MS, harnessReady, useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';
import { servedBothWays } from './served-both-ways.ts';

const TEXT = '学而时习之不亦说乎有朋自远方来不亦乐乎';

describe('one session, plain and with the statistics outputs', () => {
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady });

  for (const [backend, dtype] of [['wasm', 'fp32'], ['wasm', 'q8'], ['wasm', 'q4f16'], ['webgpu', 'q4']] as const) {
    it(`jiangu-tiny ${dtype} on ${backend}: the session loaded with statistics scores, reads and generates bit for bit as the plain load`, async () => {
      const model = loadReferenceModel('jiangu-tiny', 'fp32');
      const { plain, withExtra } = await servedBothWays(session.opened.page, backend, dtype, model.vocabSize, TEXT, 'statistics');
      expect(plain.statisticsPath).toBeNull();
      expect(withExtra.statisticsPath).toBe('graph');
      expect(withExtra.letters).toEqual(plain.letters);
      expect(withExtra.reading).toEqual(plain.reading);
      expect(withExtra.generated).toEqual(plain.generated);
      expect(plain.letters.flat().every(Number.isFinite)).toBe(true);
    });
  }
});

/** Counts the page's `load` requests to its model workers from now on (the page keeps the count while it is not reloaded). */
async function countLoads(page: Page): Promise<void> {
  await page.evaluate(() => {
    const post = Worker.prototype.postMessage as (this: Worker, ...args: unknown[]) => void;
    const counts = { loads: [] as { statistics: boolean }[] };
    Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
      const message = args[0] as { kind?: string; params?: { statistics?: boolean } } | null;
      if (message?.kind === 'load') counts.loads.push({ statistics: message.params?.statistics === true });
      post.apply(this, args);
    } as typeof Worker.prototype.postMessage;
    (globalThis as unknown as { __jianguLoads: typeof counts }).__jianguLoads = counts;
  });
}

const loadsSent = (page: Page) => page.evaluate(() => (globalThis as unknown as { __jianguLoads: { loads: { statistics: boolean }[] } }).__jianguLoads.loads);
const modelWorkers = (page: Page) => page.workers().filter((w) => w.url().includes('model.worker')).length;

/** What a run's item results say, without the times they were computed at. */
function scored(results: McItemResult[]) {
  return results.map((r) => ({ itemId: r.itemId, prompt: r.prompt, tokenIds: r.tokenIds, logProbs: r.logProbs, prediction: r.prediction }));
}

async function loadOnPlayground(page: Page, choice: string) {
  await page.goto(page.url().replace(/#.*$/, '') + '#/');
  await page.getByTestId('model-choice').selectOption(choice);
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('load').click();
  await page.getByTestId('score').waitFor();
  await page.waitForFunction(() => !document.querySelector('[data-testid=load]')?.textContent?.includes('Loading'), null, { polling: 100, timeout: MODEL_LOAD_MS });
}

describe('the site’s views share one worker per model', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('a run and a probe of the Playground’s model use its worker, load nothing more than the statistics, and score as a worker of their own', async () => {
    const { page } = session.opened;
    await storeSample(page);
    await loadOnPlayground(page, 'site:jiangu-tiny');
    expect(modelWorkers(page)).toBe(1);
    await countLoads(page);

    // A run of the model the Playground holds: no load reaches a worker, and no second worker starts.
    const shared = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 2, draw: 'first', backend: 'wasm' });
    await waitForStatus(page, 'completed');
    expect(await loadsSent(page)).toEqual([]);
    expect(modelWorkers(page)).toBe(1);

    // The Playground moves on to another model: in place, its worker no one else uses now.
    await loadOnPlayground(page, 'site:jiangu-tiny-gqa');
    expect(modelWorkers(page)).toBe(1);
    // The same run again, now that no worker holds its model: a worker of its own, loaded afresh.
    const own = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 2, draw: 'first', backend: 'wasm' });
    await waitForStatus(page, 'completed');
    expect(await loadsSent(page)).toHaveLength(2);
    expect(modelWorkers(page)).toBe(2);
    const a = await readStoredRun<unknown, McItemResult>(page, shared);
    const b = await readStoredRun<unknown, McItemResult>(page, own);
    expect(a.results.length).toBeGreaterThan(1);
    expect(scored(a.results)).toEqual(scored(b.results));

    // A memorization probe of that model joins the run's idle worker, which loads it again with the statistics.
    await page.goto(page.url().replace(/#.*$/, '') + '#/evaluate');
    await page.getByTestId('eval-kind').selectOption('memorization');
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-limit').fill('2');
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.locator('[data-testid=probe][data-status=completed]').waitFor({ timeout: 120_000 });
    expect((await loadsSent(page)).slice(2)).toEqual([{ statistics: true }]);
    expect(modelWorkers(page)).toBe(2);

    // The Playground's model still answers, in the worker it had.
    await page.goto(page.url().replace(/#.*$/, '') + '#/');
    await page.getByTestId('score').click();
    await page.getByTestId('letter-bars').waitFor();
    expect(modelWorkers(page)).toBe(2);
  });
});
