// The time estimate before a run (issue 35, item 3) in Chromium: with no earlier run, the probe the
// user asks for loads jiangu-tiny, times the configured run's first items and gives an estimate in
// both languages (scaled by prompt tokens to another shot count); after a completed run, the same
// configuration's estimate, with backend Auto and WASM, is the one the estimate module computes
// from that run's stored records, and near the run's own wall-clock time.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { estimateRun, sampleOfRun } from '../../src/lib/core/metrics/run-estimate.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';

const TASK = '古音学';
const LIMIT = 12;

/** Configures the Evaluate page as startFixtureRun does (ACLUE, one task, jiangu-tiny fp32), without starting. */
async function configure(page: Page, url: string, backend: 'auto' | 'wasm', shots = 0): Promise<void> {
  await page.goto(`${url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  await page.getByTestId('eval-dataset').selectOption('aclue');
  await page.getByTestId('eval-shots').selectOption(String(shots));
  await page.getByTestId('eval-scoring').selectOption('letter-logits');
  await page.getByTestId('eval-limit').fill(String(LIMIT));
  await page.getByRole('button', { name: 'none' }).click();
  await page.locator(`input[type=checkbox][value="${TASK}"]`).check();
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption(backend);
}

const estimate = (page: Page) => page.getByTestId('eval-estimate');
/** The estimate's words as a reader sees them, white space collapsed. */
const estimateText = async (page: Page) => ((await estimate(page).textContent()) ?? '').replace(/\s+/g, ' ');

describe('the time estimate before a run', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it('with no earlier run, says why it cannot tell, and the probe the user asks for gives one in both languages', async () => {
    const { page } = session.opened;
    await storeSampleAndAclue(page, session.url);
    await configure(page, session.url, 'wasm');
    await page.locator('[data-testid=eval-estimate][data-reason=no-runs]').waitFor();
    expect(await estimate(page).getAttribute('data-known')).toBe('no');
    expect(await estimateText(page)).toContain('unknown until the first items have run');
    expect(await page.getByTestId('eval-probe-note').textContent()).toContain('first 3 items');

    await page.getByTestId('eval-probe').click();
    await page.locator('[data-testid=eval-estimate][data-known=yes][data-source=probe]').waitFor({ timeout: 60_000 });
    expect(await estimate(page).getAttribute('data-backend')).toBe('wasm');
    expect(Number(await estimate(page).getAttribute('data-seconds'))).toBeGreaterThan(0);
    const en = await estimateText(page);
    expect(en).toMatch(/Time:\s*about \d+ (s|min)/);
    expect(en).toContain('a probe of the first 3 items just now');
    expect(en).toContain('on WASM');
    expect(en).toContain('Loading the model comes on top');
    // Nothing stored or drawn in a probe, and no run here yet to say what that costs: said, not hidden.
    expect(en).toContain('a probe stores and shows nothing, and no run here tells how long that takes');
    await page.getByTestId('lang-zh').click();
    const zh = await estimateText(page);
    expect(zh).toMatch(/耗时：\s*约 \d+ (秒|分钟)/);
    expect(zh).toContain('刚才对前 3 道题的试测');
    await page.getByTestId('lang-en').click();

    // 5-shot: the 0-shot probe's pace per prompt token, over the 5-shot prompts' estimated tokens.
    const zeroShot = Number(await estimate(page).getAttribute('data-seconds'));
    await page.getByTestId('eval-shots').selectOption('5');
    await page.locator('[data-testid=eval-estimate][data-scaling=tokens-from-characters]').waitFor();
    expect(await estimateText(page)).toContain('it ran 0-shot, scaled by prompt tokens');
    await page.getByTestId('lang-zh').click();
    await page.getByTestId('lang-en').click();
    expect(Number(await estimate(page).getAttribute('data-seconds'))).toBeGreaterThan(zeroShot);

    // Option texts: a letters probe says nothing of them; a cloze probe of its own does.
    await page.getByTestId('eval-scoring').selectOption('cloze');
    await page.locator('[data-testid=eval-estimate][data-known=no][data-reason=no-runs]').waitFor();
    await page.getByTestId('eval-probe').click();
    await page.locator('[data-testid=eval-estimate][data-known=yes][data-source=probe]').waitFor({ timeout: 60_000 });
    expect(await estimateText(page)).toMatch(/a probe of the first 3 items just now: the model at [\d,]+ prompt tokens\/s/);
  });

  it('after a run with Auto, estimates the same configuration from that run, on Auto and on WASM, near its own time', async () => {
    const { page } = session.opened;
    const runId = await startFixtureRun(page, { dataset: 'aclue', shots: 0, scoring: 'letter-logits', limit: LIMIT, tasks: [TASK], backend: 'auto' });
    await waitForStatus(page, 'completed', 120_000);
    const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(run.environment?.backendInfo.backend).toBe('wasm');
    const sample = sampleOfRun(run, results, 'jiangu-tiny')!;
    const expected = (backendChoice: 'auto' | 'wasm') =>
      estimateRun(
        { shape: { model: 'jiangu-tiny', dtype: 'fp32', scoring: 'letter-logits', shots: 0, chatTemplate: false, maxNewTokens: null }, backendChoice, backend: 'wasm', wasmThreads: null, itemIds: run.config.itemIds, promptFactor: 1, chars: null, pageShare: null },
        [sample],
      );
    expect(expected('auto').reason).toBeNull();

    for (const backend of ['auto', 'wasm'] as const) {
      await configure(page, session.url, backend);
      // The tab keeps its sample choice (sample-choice.svelte.ts), so the run the page would start
      // draws what the earlier run drew: the expectation is over run.config.itemIds, the very items
      // the page sizes (a page that sized the first LIMIT in file order gave another time).
      const choice = page.getByTestId('eval-sample');
      expect(await choice.getAttribute('data-draw')).toBe(run.config.sampling!.draw);
      expect(Number(await choice.getAttribute('data-seed'))).toBe(run.config.sampling!.seed);
      await page.locator(`[data-testid=eval-estimate][data-known=yes][data-run-id="${runId}"]`).waitFor();
      const shown = Number(await estimate(page).getAttribute('data-seconds'));
      expect(shown).toBeCloseTo(expected(backend).estimate!.seconds, 6);
      expect(await estimate(page).getAttribute('data-scaling')).toBe('same-items');
      expect(await estimate(page).getAttribute('data-backend')).toBe('wasm');
      expect(await estimate(page).getAttribute('data-threads')).toBe(String(run.environment!.backendInfo.wasmThreads));
      const text = await estimateText(page);
      expect(text).toMatch(/about \d+ (s|min|h) at [\d.,]+ items\/s on WASM/);
      if (backend === 'auto') expect(text).toContain('what Auto picks on this device');
    }

    // Near the run's own time: its results' span, with the first item's share added back.
    const times = results.map((r) => Date.parse(r.completedAt)).sort((a, b) => a - b);
    const own = ((times[times.length - 1] - times[0]) / 1000) * (times.length / (times.length - 1));
    const shown = Number(await estimate(page).getAttribute('data-seconds'));
    expect(shown / own).toBeGreaterThan(0.5);
    expect(shown / own).toBeLessThan(2);

    // Option texts: the letters run is not used (said so); a probe takes that run's page share per prompt.
    await page.getByTestId('eval-scoring').selectOption('cloze');
    await page.locator('[data-testid=eval-estimate][data-reason=other-scoring]').waitFor();
    expect(await estimateText(page)).toContain('scored another way');
    await page.getByTestId('eval-probe').click();
    await page.locator('[data-testid=eval-estimate][data-known=yes][data-source=probe]').waitFor({ timeout: 60_000 });
    expect(await estimateText(page)).toMatch(/per prompt for storing and showing each result \(as in this browser’s run of /);
  });
});

describe('the time estimate where WebGPU has only a software adapter', () => {
  const session = useBrowserSession({ webgpu: true, path: '/#/evaluate' });

  it('takes a WASM run for Auto (Auto passes over SwiftShader here), and none for WebGPU', async () => {
    const { page } = session.opened;
    await storeSampleAndAclue(page, session.url);
    const runId = await startFixtureRun(page, { dataset: 'aclue', shots: 0, limit: LIMIT, tasks: [TASK], backend: 'wasm' });
    await waitForStatus(page, 'completed', 120_000);
    await configure(page, session.url, 'auto');
    await page.locator(`[data-testid=eval-estimate][data-known=yes][data-run-id="${runId}"]`).waitFor();
    expect(await estimate(page).getAttribute('data-backend')).toBe('wasm');
    expect(await estimateText(page)).toMatch(/on WASM( \(\d+ threads?\))?, what Auto picks on this device/);
    await page.getByTestId('backend').selectOption('webgpu');
    await page.locator('[data-testid=eval-estimate][data-reason=other-backend]').waitFor();
    expect(await estimateText(page)).toContain('no earlier run here with this model and dtype on WebGPU');
  });
});
