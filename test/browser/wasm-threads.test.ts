// The WASM thread setting in real Chromium, on the test server (cross-origin isolated): the header's
// control sets 2 threads, the playground's worker loads jiangu-tiny on WASM with them and says so,
// the header says the number used and that it was chosen, in both languages; back to Automatic, the
// next load (a fresh worker: ORT fixes its threads once per worker) uses ORT's own rule again; a run
// started with a chosen count stores it in its record. Without isolation the control says why the
// count is fixed at 1. A load request that names its count (the bench's way) runs with it: ORT's
// thread pool, counted in the worker apart from ORT's flag, has that many. Screenshots in test-results/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const shots = join(projectRoot, 'test-results');

/** ORT's own rule for numThreads left unset (onnxruntime-web's initializeFlags), from what the page sees. */
const ortDefault = (page: Page) =>
  page.evaluate('self.crossOriginIsolated ? Math.min(4, Math.ceil((navigator.hardwareConcurrency || 1) / 2)) : 1') as Promise<number>;

async function chooseThreads(page: Page, value: string): Promise<void> {
  const panel = page.getByTestId('wasm-threads-panel');
  if (!(await panel.isVisible())) await page.getByTestId('wasm-threads-open').click();
  await page.getByTestId('wasm-threads-select').selectOption(value);
  await page.getByTestId('wasm-threads-open').click();
}

async function loadTiny(page: Page): Promise<void> {
  await page.goto(page.url().replace(/#.*$/, '') + '#/playground');
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  // The summary goes away while a load runs and comes back, a new element, with its result.
  await page.evaluate('document.querySelector("[data-testid=backend-summary]")?.setAttribute("data-earlier", "")');
  await page.getByTestId('load').click();
  await page.locator('[data-testid=backend-summary]:not([data-earlier])').waitFor({ timeout: 60_000 });
}

const header = (page: Page) => page.getByTestId('site-isolation');

describe('WASM threads', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/playground' });

  it('runs the playground’s model with the 2 threads chosen in the header, says so in both languages, and goes back to ORT’s rule on Automatic', async () => {
    const { page } = session.opened;
    await header(page).waitFor();
    expect(await page.evaluate('self.crossOriginIsolated')).toBe(true);
    const cores = (await page.evaluate('navigator.hardwareConcurrency')) as number;
    expect(cores, 'choosing 2 threads needs a browser that reports at least 2 logical cores').toBeGreaterThanOrEqual(2);
    const automatic = await ortDefault(page);
    expect(Number(await header(page).getAttribute('data-threads'))).toBe(automatic);
    expect(await header(page).getAttribute('data-threads-chosen')).toBe('no');

    // The control offers Automatic and 1 … the logical cores, and explains ORT's rule with this browser's numbers.
    await page.getByTestId('wasm-threads-open').click();
    const options = await page.locator('[data-testid=wasm-threads-select] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value));
    expect(options).toEqual(['auto', ...Array.from({ length: cores }, (_, i) => String(i + 1))]);
    const rule = (await page.getByTestId('wasm-threads-rule').textContent()) ?? '';
    expect(rule).toContain('half the logical cores, rounded up, at most 4');
    expect(rule).toContain(`reports ${cores} logical cores, so Automatic is ${automatic} thread`);
    await page.getByTestId('wasm-threads-select').selectOption('2');
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'wasm-threads-control-en.png') });
    // On a phone's width the open panel stays within the screen.
    const viewport = page.viewportSize()!;
    await page.setViewportSize({ width: 375, height: 700 });
    const box = (await page.getByTestId('wasm-threads-panel').boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(375);
    expect(await page.evaluate('document.documentElement.scrollWidth <= document.documentElement.clientWidth')).toBe(true);
    await page.screenshot({ path: join(shots, 'wasm-threads-control-narrow.png') });
    await page.setViewportSize(viewport);
    await page.getByTestId('wasm-threads-open').click();
    expect(await page.evaluate('localStorage.getItem("jiangu.wasmThreads")')).toBe('2');
    // Before a load the header says what the next one uses.
    expect(await header(page).getAttribute('data-threads-from')).toBe('default');
    expect(Number(await header(page).getAttribute('data-threads'))).toBe(2);

    await loadTiny(page);
    expect(await page.getByTestId('backend-used').textContent()).toBe('WASM');
    const summary = page.getByTestId('backend-wasm-threads');
    expect(await summary.getAttribute('data-threads')).toBe('2');
    expect(await summary.textContent()).toContain('chosen in the header’s thread setting');
    await page.locator('[data-testid=site-isolation][data-threads-from=worker]').waitFor();
    expect(await header(page).getAttribute('data-threads')).toBe('2');
    expect(await header(page).getAttribute('data-threads-chosen')).toBe('yes');
    expect(await header(page).textContent()).toContain('Cross-origin isolated: 2 wasm threads, as chosen');
    await page.getByTestId('lang-zh').click();
    expect(await header(page).textContent()).toContain('已启用跨源隔离：2 个 wasm 线程（自选）');
    expect(await summary.textContent()).toContain('在页首的线程设置中自选');
    await page.locator('header').screenshot({ path: join(shots, 'wasm-threads-header-zh.png') });
    await page.getByTestId('lang-en').click();

    // Back to Automatic: the loaded model keeps its 2 until the next load, which uses ORT's rule.
    await chooseThreads(page, 'auto');
    expect(await page.evaluate('localStorage.getItem("jiangu.wasmThreads")')).toBe(null);
    expect(await header(page).getAttribute('data-threads')).toBe('2');
    expect(await header(page).getAttribute('data-threads-chosen')).toBe('no');
    if (automatic !== 2) expect(await page.getByTestId('site-threads-next').textContent()).toContain(`the next load uses ${automatic} wasm thread`);
    await loadTiny(page);
    expect(Number(await page.getByTestId('backend-wasm-threads').getAttribute('data-threads'))).toBe(automatic);
    expect(await page.getByTestId('backend-wasm-threads').textContent()).toContain('automatic: onnxruntime-web’s rule');
    expect(Number(await header(page).getAttribute('data-threads'))).toBe(automatic);
    expect(await header(page).getAttribute('data-threads-chosen')).toBe('no');
    expect(await header(page).textContent()).toContain(`Cross-origin isolated: ${automatic} wasm thread`);
    expect(await page.getByTestId('site-threads-chosen').count()).toBe(0);
  });

  it('stores the chosen thread count in a run’s record, from the run’s own worker', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/data`);
    await storeSample(page);
    await chooseThreads(page, '2');
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 2 });
    await waitForStatus(page, 'completed', 120_000);
    const { run, results } = await readStoredRun(page, runId);
    expect(results.length).toBeGreaterThan(0);
    expect(run.environment?.backendInfo).toMatchObject({ backend: 'wasm', wasmThreads: 2, crossOriginIsolated: true });
    expect(await header(page).getAttribute('data-threads')).toBe('2');
    expect(await header(page).getAttribute('data-threads-chosen')).toBe('yes');
    await chooseThreads(page, 'auto');
  });

  it('says why the count is fixed at 1 on a page that is not cross-origin isolated, and offers the reload, in both languages', async () => {
    const { page } = session.opened;
    // What a static host without COOP/COEP gives, once the service worker controls the page.
    await page.evaluate('Object.assign(window.jianguSite, { isolated: false, controlled: true })');
    await page.locator('[data-testid=site-isolation][data-isolated=no]').waitFor();
    await page.getByTestId('wasm-threads-open').click();
    expect(await page.getByTestId('wasm-threads-select').count()).toBe(0);
    expect(await page.getByTestId('wasm-threads-fixed').textContent()).toContain('Fixed at 1 thread: this page is not cross-origin isolated');
    expect(await page.getByTestId('wasm-threads-reload').isVisible()).toBe(true);
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('wasm-threads-fixed').textContent()).toContain('固定为 1 个线程：本页未启用跨源隔离');
    await page.screenshot({ path: join(shots, 'wasm-threads-fixed-zh.png') });
    await page.getByTestId('lang-en').click();
    await page.getByTestId('wasm-threads-open').click();
    await page.evaluate('Object.assign(window.jianguSite, { isolated: self.crossOriginIsolated, controlled: false })');
    await page.locator('[data-testid=site-isolation][data-isolated=yes]').waitFor();
  });

  it('runs a load request that names its count (the bench’s way) with that many threads in ORT’s pool, and a fresh worker for another count', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/harness.html`);
    await harnessReady(session.opened);
    const automatic = await ortDefault(page);
    const loads = await page.evaluate(`(async () => {
      const client = new window.jiangu.ModelClient();
      const out = [];
      for (const wasmThreads of [2, 2, 1, 'auto']) {
        const info = await client.load({ source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm', wasmThreads });
        const scored = await client.score({ prompt: '答案是：', candidates: ['A', 'B'] });
        const stats = await client.stats();
        out.push({ asked: info.wasmThreadsAsked, used: info.backendInfo.wasmThreads, pool: stats.wasmThreadWorkers, scored: scored.candidates.length });
      }
      client.terminate();
      return out;
    })()`);
    // ORT starts numThreads − 1 pool workers once per worker: the second load of 2 keeps the worker and its pool.
    expect(loads).toEqual([
      { asked: 2, used: 2, pool: 1, scored: 2 },
      { asked: 2, used: 2, pool: 1, scored: 2 },
      { asked: 1, used: 1, pool: 0, scored: 2 },
      { asked: 'auto', used: automatic, pool: automatic - 1, scored: 2 },
    ]);
  });
});
