// A run live in another tab (issue 46), in Chromium on jiangu-tiny (WASM) with the AncientBench
// sample: a second tab of the same browser opens the run's page while the first runs it, and its
// Resume is disabled, saying why beside it and as its title, in both languages (the run's lock would
// refuse it anyway, with a message after the click). Once the first tab pauses the run, the second
// tab's Resume comes back by itself, and resuming there turns the first tab's Resume off in turn. The
// same holds for a memorization run's page.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { allowScoreItems, gateScoreItems, readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';
import type { ProbeResult, ProbeRunRecord } from '../../src/lib/core/record/probe-run.ts';

const REASON_EN = 'This run is running in another tab or window: Resume is possible here once it stops there.';
const REASON_ZH = '这个评测正在另一个标签页或窗口中运行：等它在那里停下后，才能在这里继续。';

/** The stored status of a run, read from IndexedDB. */
async function storedStatus(page: Page, runId: string, probe = false): Promise<string> {
  const stored = probe ? await readStoredRun<ProbeRunRecord, ProbeResult>(page, runId, { runs: 'probeRuns', results: 'probeResults' }) : await readStoredRun(page, runId);
  return (stored.run as { status: string }).status;
}

describe('a run live in another tab', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('cannot be resumed from a second tab while it runs, says why, and can once it stops there', async () => {
    const { page, context } = session.opened;
    await storeSample(page);
    // The first tab's run is held after its second item: it holds the run's lock while the second tab looks.
    await gateScoreItems(page, 2);
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, tasks: ['Radical'], allItems: true });
    await expect.poll(() => storedStatus(page, runId), { timeout: 30_000 }).toBe('running');

    const second = await context.newPage();
    await second.goto(`${session.url}/#/run/${encodeURIComponent(runId)}`);
    await second.locator('[data-testid=run]').waitFor();
    const resume = second.getByTestId('resume-run');
    await resume.waitFor();
    expect(await resume.isDisabled()).toBe(true);
    expect(await resume.getAttribute('title')).toBe(REASON_EN);
    expect(await second.getByTestId('resume-elsewhere').textContent()).toBe(REASON_EN);
    expect(await second.getByTestId('run-status').getAttribute('data-status')).toBe('running');
    await second.getByTestId('lang-zh').click();
    expect(await resume.getAttribute('title')).toBe(REASON_ZH);
    expect(await second.getByTestId('resume-elsewhere').textContent()).toBe(REASON_ZH);
    await second.getByTestId('lang-en').click();

    // Paused in the first tab: the second tab's Resume comes back without a reload.
    await page.getByTestId('cancel-run').click();
    await allowScoreItems(page, Infinity);
    await waitForStatus(page, 'paused');
    await second.locator('[data-testid=run][data-status=paused]').waitFor({ timeout: 10_000 });
    await expect.poll(() => resume.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await second.getByTestId('resume-elsewhere').count()).toBe(0);
    expect(await resume.getAttribute('title')).toBeNull();

    // Resumed in the second tab (held at its first item): now the first tab's Resume goes off.
    await gateScoreItems(second, 0);
    await resume.click();
    await second.getByTestId('cancel-run').waitFor();
    await expect.poll(() => storedStatus(page, runId), { timeout: 30_000 }).toBe('running');
    const firstResume = page.getByTestId('resume-run');
    await expect.poll(() => firstResume.isDisabled(), { timeout: 10_000 }).toBe(true);
    expect(await page.getByTestId('resume-elsewhere').textContent()).toBe(REASON_EN);
    await allowScoreItems(second, Infinity);
    await waitForStatus(second, 'completed');
    // Completed there: nothing to resume here, and the page says it is completed.
    await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: 10_000 });
    expect(await page.getByTestId('resume-run').count()).toBe(0);
    await second.close();
  }, 180_000);

  it('a memorization run live in another tab cannot be resumed from a second one either', async () => {
    const { page, context } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await gateScoreItems(page, 1, 'textStatistics');
    await page.getByTestId('eval-kind').selectOption('memorization');
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-limit').fill('2');
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/probe\//);
    const runId = decodeURIComponent(page.url().split('#/probe/')[1]);
    await expect.poll(() => storedStatus(page, runId, true), { timeout: 30_000 }).toBe('running');

    const second = await context.newPage();
    await second.goto(`${session.url}/#/probe/${encodeURIComponent(runId)}`);
    await second.locator('[data-testid=probe]').waitFor();
    const resume = second.getByTestId('probe-resume');
    await resume.waitFor();
    expect(await resume.isDisabled()).toBe(true);
    expect(await resume.getAttribute('title')).toBe(REASON_EN);
    expect(await second.getByTestId('probe-resume-elsewhere').textContent()).toBe(REASON_EN);
    await second.getByTestId('lang-zh').click();
    expect(await second.getByTestId('probe-resume-elsewhere').textContent()).toBe(REASON_ZH);
    await second.getByTestId('lang-en').click();

    await page.getByTestId('probe-pause').click();
    await allowScoreItems(page, Infinity);
    await page.locator('[data-testid=probe][data-status=paused]').waitFor({ timeout: 60_000 });
    await expect.poll(() => resume.isEnabled(), { timeout: 10_000 }).toBe(true);
    expect(await second.getByTestId('probe-resume-elsewhere').count()).toBe(0);
    await second.close();
  }, 180_000);
});
