// A memorization run's label (issue 34, item 3), in Chromium on jiangu-tiny (WASM): set on the run's
// page (a label with a direction character refused, said in both languages, the stored one kept),
// shown in the page heading, the Evaluate page's run list and Compare's pickers and box plots; the run
// file carries it, and imported into another browser (a fresh context) the run shows it again.
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startProbeRun, storeSample } from './runs.ts';
import type { ProbeResult, ProbeRunRecord } from '../../src/lib/core/record/probe-run.ts';
import { openPage } from '../../scripts/browser.ts';

const LABEL = 'tiny 复现';

async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A completed memorization run of AncientBench's sample, 2 items a task, from the Evaluate page; its id. */
function probeRun(page: Page, siteUrl: string): Promise<string> {
  return startProbeRun(page, siteUrl);
}

describe('a memorization run label', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;
  let firstId = '';
  let secondId = '';

  it('is set on the run page, a hidden character refused in both languages, and shown in the heading', async () => {
    page = session.opened.page;
    await storeSample(page);
    firstId = await probeRun(page, session.url);
    secondId = await probeRun(page, session.url);
    expect(await page.getByTestId('probe-label').count()).toBe(0);

    await page.getByTestId('probe-label-input').fill(`  ${LABEL}  `);
    await page.getByTestId('probe-label-save').click();
    await page.getByTestId('probe-label').waitFor();
    expect(await page.getByTestId('probe-label').textContent()).toBe(`“${LABEL}”`);
    expect((await readStoredRun<ProbeRunRecord, ProbeResult>(page, secondId, { runs: 'probeRuns', results: 'probeResults' })).run.label).toBe(LABEL);

    // A direction character: refused and said, the stored label kept.
    await page.getByTestId('probe-label-input').fill('a\u202eb');
    await page.getByTestId('probe-label-save').click();
    await page.getByTestId('probe-label-error').waitFor();
    expect(await page.getByTestId('probe-label-error').textContent()).toContain('invisible or direction character');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('probe-label-error').textContent()).toContain('不可见字符或方向控制字符');
    expect(await page.getByTestId('probe-label-save').textContent()).toBe('保存标签');
    await page.getByTestId('lang-en').click();
    expect(await page.getByTestId('probe-label').textContent()).toBe(`“${LABEL}”`);
    expect((await readStoredRun<ProbeRunRecord, ProbeResult>(page, secondId, { runs: 'probeRuns', results: 'probeResults' })).run.label).toBe(LABEL);
  }, 300_000);

  it('is shown in the run list and in Compare', async () => {
    await page.goto(`${session.url}/#/evaluate`);
    await page.locator(`[data-testid=probe-runs] li[data-run="${firstId}"]`).waitFor();
    expect(await page.locator(`[data-testid=probe-runs] li[data-run="${secondId}"] [data-testid=probe-run-label]`).textContent()).toBe(`“${LABEL}”`);
    expect(await page.locator(`[data-testid=probe-runs] li[data-run="${firstId}"] [data-testid=probe-run-label]`).count()).toBe(0);

    await page.goto(`${session.url}/#/compare`);
    await page.getByTestId('compare-probe-baseline').selectOption(firstId);
    expect(await page.locator(`[data-testid=compare-probe-other] option[value="${secondId}"]`).textContent()).toMatch(new RegExp(`^“${LABEL}” · `));
    await page.getByTestId('compare-probe-other').selectOption(secondId);
    await page.getByTestId('compare-probe-table').waitFor();
    const boxLabels = await page.locator('[data-testid=compare-probe-boxes] text.label').allTextContents();
    // One row per task and run: the labelled run's rows carry its label, the other's do not.
    expect(boxLabels.filter((l) => l.includes(`“${LABEL}”`))).toHaveLength(boxLabels.length / 2);
    expect(boxLabels.length).toBeGreaterThan(0);
  }, 60_000);

  it('goes with the exported run into another browser', async () => {
    await page.goto(`${session.url}/#/probe/${encodeURIComponent(secondId)}`);
    await page.locator('[data-testid=probe][data-status=completed]').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('probe-export').click()]);
    const text = await downloadText(download);
    expect(JSON.parse(text).run.label).toBe(LABEL);

    const fresh = await openPage(session.opened.context.browser()!, `${session.url}/#/evaluate`);
    try {
      await fresh.page.getByTestId('import-run-input').setInputFiles({ name: 'labelled.json', mimeType: 'application/json', buffer: Buffer.from(text) });
      await fresh.page.waitForURL((url) => url.hash.startsWith('#/probe/'));
      const importedId = decodeURIComponent(fresh.page.url().split('#/probe/')[1]);
      await fresh.page.locator('[data-testid=probe][data-status=completed]').waitFor();
      expect(await fresh.page.getByTestId('probe-label').textContent()).toBe(`“${LABEL}”`);
      expect(await fresh.page.getByTestId('probe-label-input').inputValue()).toBe(LABEL);
      await fresh.page.evaluate(() => (location.hash = '#/evaluate'));
      expect(await fresh.page.locator(`[data-testid=probe-runs] li[data-run="${importedId}"] [data-testid=probe-run-label]`).textContent()).toBe(`“${LABEL}”`);
    } finally {
      await fresh.context.close();
    }
  }, 60_000);
});
