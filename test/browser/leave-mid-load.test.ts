// Leaving a page while it still reads the store: the read's answer comes after the page is gone and
// must not touch it. It read the gone page's derived values (Svelte's derived_inert warning, seen by
// the page-error guard in share.test.ts on a loaded machine): each page that reads asynchronously is
// left at once, several times, with the CPU throttled so the reads outlast the page.
import { describe, expect, it } from 'vitest';
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
