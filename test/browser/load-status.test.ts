// What the pages say about a model while and after it loads (issue 23, items 9 and 11), in Chromium
// whose only WebGPU adapter is SwiftShader (on the CPU): Auto loads on WASM and says why, in the
// playground and on a run's page and record; WebGPU chosen by name still runs on SwiftShader; and a
// run's page claims nothing about the model's config.json before the file was read.
import { describe, expect, it } from 'vitest';
import type { Page, Route } from 'playwright-core';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';

const SOFTWARE_EN = 'WebGPU here is a software adapter (SwiftShader), slower than WASM; using WASM. Choose WebGPU to use it anyway.';
const SOFTWARE_ZH = '此处的 WebGPU 是软件模拟的适配器（SwiftShader），比 WASM 慢；因此使用 WASM。如仍要使用它，请选择 WebGPU。';

async function loadInPlayground(page: Page, backend: string): Promise<void> {
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption(backend);
  await page.getByTestId('load').click();
  await page.waitForFunction(() => !(document.querySelector('[data-testid=load]') as HTMLButtonElement | null)?.disabled, null, { polling: 100 });
}

describe('loading on a software WebGPU adapter (SwiftShader)', () => {
  const session = useBrowserSession({ webgpu: true, path: '/#/data' });

  it('the playground: Auto loads on WASM and says why, in both languages; WebGPU by name still gets SwiftShader', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/playground`);
    await expect.poll(() => page.getByTestId('model-choice').inputValue()).toBe('site:jiangu-tiny');
    // Auto is what a new user gets.
    expect(await page.getByTestId('backend').inputValue()).toBe('auto');
    await loadInPlayground(page, 'auto');
    expect(await page.getByTestId('model-error').count()).toBe(0);
    expect(await page.getByTestId('backend-used').textContent()).toBe('WASM');
    expect(await page.getByTestId('adapter').count()).toBe(0);
    expect(await page.getByTestId('fallback-reason').textContent()).toBe(SOFTWARE_EN);
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('fallback-reason').textContent()).toBe(SOFTWARE_ZH);
    await page.getByTestId('lang-en').click();
    await page.getByTestId('score').click();
    await page.getByTestId('letter-bars').waitFor();

    await loadInPlayground(page, 'webgpu');
    expect(await page.getByTestId('model-error').count()).toBe(0);
    expect(await page.getByTestId('backend-used').textContent()).toBe('WebGPU');
    expect(await page.getByTestId('adapter').textContent()).toContain('swiftshader');
    expect(await page.getByTestId('fallback-reason').count()).toBe(0);
  });

  it('a run on Auto: no word on config.json before it is read; then WASM and why, on its page and in its record', async () => {
    const { page, context } = session.opened;
    // A fresh page, so a fresh model worker: nothing of config.json is kept from the playground's load.
    await page.goto(`${session.url}/#/data`);
    await page.reload();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    // The model's config.json is held until the run page has been read while the model loads.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked = 0;
    const hold = async (route: Route) => {
      asked++;
      await held;
      await route.fallback();
    };
    await context.route('**/models/jiangu-tiny/config.json', hold);
    try {
      const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 2, backend: 'auto' });
      await expect.poll(() => asked).toBeGreaterThan(0);
      const limit = page.getByTestId('run-context-limit');
      expect(await limit.getAttribute('data-from')).toBe('default');
      expect(await limit.textContent()).toContain('the default, until the model’s config.json is read');
      expect(await limit.textContent()).not.toContain('states no positions');
      await page.getByTestId('lang-zh').click();
      expect(await limit.textContent()).toContain('默认值，直到读取模型的 config.json');
      await page.getByTestId('lang-en').click();
      release();
      await waitForStatus(page, 'completed');
      // Read now: jiangu-tiny's config.json states max_position_embeddings.
      expect(await limit.textContent()).toContain('the model’s config.json, max_position_embeddings');
      const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
      expect(results.length).toBe(run.config.itemIds.length);
      expect(run.config.model.backend).toBe('auto');
      expect(run.environment?.backendInfo).toMatchObject({ backend: 'wasm', fallbackReason: SOFTWARE_EN, fallbackNotice: { code: 'model.fallback-software-adapter', params: { adapter: 'SwiftShader' } } });
      expect(run.environment?.backendInfo.adapter).toBeUndefined();
      expect(run.check).toBeUndefined(); // no WebGPU-against-WASM check: it ran on WASM
      expect(await page.getByTestId('run-model-backend').textContent()).toBe(`fp32, wasm (Auto: ${SOFTWARE_EN})`);
    } finally {
      release();
      await context.unroute('**/models/jiangu-tiny/config.json', hold);
    }
  });
});
