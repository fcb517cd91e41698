// Leaving a page while it still reads the store: the read's answer comes after the page is gone and
// must not touch it. It read the gone page's derived values (Svelte's derived_inert warning, seen by
// the page-error guard in share.test.ts on a loaded machine): each page that reads asynchronously is
// left at once, several times, with the CPU throttled so the reads outlast the page.
import { describe, expect, it } from 'vitest';
import { WORKER_FROM_RESULTS } from '../../src/lib/data/stored-run-work.ts';
import { importAncientBenchOf } from './big-ancientbench.ts';
import { importRun, madeRun, storedItems } from './large-runs.ts';
import { startFixtureRun, storeSample, waitForStatus } from './runs.ts';
import { useBrowserSession } from './session.ts';

describe('leaving a page before its reads come back', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('Evaluate (its run list, option counts and speed), left within a frame, reports nothing', async () => {
    const { page, context, errors } = session.opened;
    await storeSample(page);
    // A stored run, so the page's speed estimate reads results too.
    await startFixtureRun(page, { dataset: 'ancientbench', limit: 2 });
    await waitForStatus(page, 'completed');
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 8 });
    try {
      for (let i = 0; i < 6; i++) {
        await page.evaluate(async (frames) => {
          location.hash = '#/evaluate';
          for (let f = 0; f < frames; f++) await new Promise((r) => requestAnimationFrame(r));
          location.hash = '#/data';
        }, 1 + (i % 3));
        await page.waitForTimeout(300);
      }
      await page.waitForTimeout(1500);
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
    expect(errors.take()).toEqual([]);
  });

});

describe('leaving a large stored run’s page before its worker answers', () => {
  // Its own browser: the store holds only the generated benchmark and the run.
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  // A large run's page asks the stored-run worker for its continuous scores' intervals, and compared
  // the answer with the page's results (a derived value) when it came: a page left before then read a
  // gone page's derived (large-stored-run.test.ts caught it once, leaving run B's page for Compare).
  it('a large stored run’s page, left once it has asked the worker for its intervals, reports nothing', async () => {
    const { page, context, errors } = session.opened;
    await page.goto(`${session.url}/#/data`);
    await importAncientBenchOf(page, WORKER_FROM_RESULTS + 500 + 50, 50);
    const run = await madeRun('large-left', 3, await storedItems(page));
    const runId = await importRun(page, session.url, 'large-left.json', run.text);
    await page.locator('[data-testid=continuous][data-computed-in=worker]').waitFor({ timeout: 60_000 });
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 4 });
    let leftBeforeAnswer = 0;
    try {
      for (let i = 0; i < 4; i++) {
        // Left in the frame after its continuous scores appear (their request sent), before the answer.
        const left = await page.evaluate(async (hash) => {
          location.hash = hash;
          const until = performance.now() + 60_000;
          while (!document.querySelector('[data-testid=continuous]')) {
            if (performance.now() > until) return false;
            await new Promise((r) => requestAnimationFrame(r));
          }
          const answered = document.querySelector('[data-testid=continuous][data-computed-in=worker]') !== null;
          location.hash = '#/data';
          return !answered;
        }, `#/run/${encodeURIComponent(runId)}`);
        if (left) leftBeforeAnswer++;
        await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
        await page.waitForTimeout(1500);
      }
    } finally {
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
    // The answer takes the worker a bootstrap of 2,500 items; the page is left within a frame.
    expect(leftBeforeAnswer).toBeGreaterThan(0);
    expect(errors.take()).toEqual([]);
  }, 240_000);
});
