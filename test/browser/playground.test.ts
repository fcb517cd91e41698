// The playground as a new user meets it: the fixture model is preselected, loads on WebGPU (or WASM
// when there is none), the letter bars show the reference's numbers, a generation streams in, and
// every failure leaves a message and a page that still works.
import { cpSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { useBrowserSession } from './session.ts';
import {
  decodeFixture,
  encodeFixture,
  greedyGenerate,
  lastLogProbs,
  loadReferenceModel,
} from '../../scripts/fixtures/reference.ts';

const LETTERS = ['A', 'B', 'C', 'D'];
const letterIds = LETTERS.map((l) => encodeFixture(l)[0]);
const shots = join(projectRoot, 'test-results');

async function loadModel(page: Page, options: { choice?: string; dtype?: string; backend?: string } = {}) {
  if (options.choice) await page.getByTestId('model-choice').selectOption(options.choice);
  if (options.dtype) await page.getByTestId('dtype').selectOption(options.dtype);
  if (options.backend) await page.getByTestId('backend').selectOption(options.backend);
  await page.getByTestId('load').click();
  await page.waitForFunction(() => {
    const button = document.querySelector('[data-testid=load]');
    return button && !button.textContent?.includes('Loading');
  });
}

async function modelError(page: Page): Promise<string | null> {
  const error = page.getByTestId('model-error');
  return (await error.count()) > 0 ? error.textContent() : null;
}

/** Scores the question on the page and checks the bars against the reference forward. */
async function scoreAndCheck(page: Page) {
  await page.getByTestId('score').click();
  await page.getByTestId('letter-bars').waitFor();
  const prompt = (await page.getByTestId('prompt').textContent()) ?? '';
  const want = lastLogProbs(loadReferenceModel('jiangu-tiny', 'fp32'), encodeFixture(prompt), letterIds);
  for (const [k, letter] of LETTERS.entries()) {
    const shown = Number(await page.getByTestId(`logprob-${letter}`).textContent());
    // Shown with 4 decimals: the rounding adds up to 5e-5 to the 1e-4 tolerance.
    expect(Math.abs(shown - want[k])).toBeLessThan(1.5e-4);
  }
  const best = LETTERS[want.indexOf(Math.max(...want))];
  expect(await page.getByTestId('mc-pick').textContent()).toContain(`Model's pick: ${best}`);
}

describe('playground with WebGPU', () => {
  const session = useBrowserSession({ webgpu: true, path: '/' });

  it('loads the preselected fixture on WebGPU, shows the letter probabilities and streams a generation', async () => {
    const { page } = session.opened;
    // A new user: nothing chosen by hand, the fixture served by the site is the default.
    await expect.poll(() => page.getByTestId('model-choice').inputValue()).toBe('site:jiangu-tiny');
    expect(await page.getByTestId('dtype').inputValue()).toBe('fp32');
    await loadModel(page);
    expect(await modelError(page)).toBeNull();
    expect(await page.getByTestId('backend-used').textContent()).toBe('WebGPU');
    expect(await page.getByTestId('adapter').textContent()).toContain('swiftshader');
    expect(await page.getByTestId('load-progress').textContent()).toContain('onnx/model.onnx');

    await scoreAndCheck(page);

    await page.getByTestId('max-tokens').fill('16');
    await page.getByTestId('generate').click();
    await page.getByTestId('gen-stats').waitFor();
    const prompt = await page.getByTestId('gen-prompt').inputValue();
    const ids = greedyGenerate(loadReferenceModel('jiangu-tiny', 'fp32'), encodeFixture(prompt), 16, 2);
    expect(await page.getByTestId('gen-output').textContent()).toBe(decodeFixture(ids, { skipSpecialTokens: true }));
    expect(await page.getByTestId('gen-stats').textContent()).toContain(`${ids.length} tokens`);

    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'playground-webgpu.png'), fullPage: true });
  });
});

describe('playground failures', () => {
  const savedModels = process.env.JIANGU_MODELS;
  const session = useBrowserSession({
    webgpu: false, // a browser without WebGPU
    path: '/',
    setup: () => {
      // A model folder whose ONNX file is damaged, served beside the fixtures.
      const root = mkdtempSync(join(tmpdir(), 'jiangu-models-'));
      const broken = join(root, 'broken-model');
      cpSync(join(projectRoot, '.fixtures', 'models', 'jiangu-tiny'), broken, { recursive: true });
      writeFileSync(join(broken, 'onnx', 'model.onnx'), 'this is not an onnx file');
      process.env.JIANGU_MODELS = root;
    },
    ready: ({ page }) =>
      page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny'),
  });
  afterAll(() => {
    process.env.JIANGU_MODELS = savedModels;
  });

  it('refuses WebGPU when the browser has none, then falls back to WASM on Auto and says why', async () => {
    const { page } = session.opened;
    await loadModel(page, { backend: 'webgpu' });
    expect(await modelError(page)).toMatch(/WebGPU was requested but .*Choose WASM or Auto/);
    await loadModel(page, { backend: 'auto' });
    expect(await modelError(page)).toBeNull();
    expect(await page.getByTestId('backend-used').textContent()).toBe('WASM');
    expect(await page.getByTestId('fallback-reason').textContent()).toMatch(/no adapter|no WebGPU/);
    await scoreAndCheck(page);
  });

  it('names a missing dtype, a missing model and a damaged file, and keeps working after each', async () => {
    const { page } = session.opened;
    await loadModel(page, { choice: 'site:jiangu-tiny', dtype: 'q4f16', backend: 'wasm' });
    expect(await modelError(page)).toContain('has no q4f16 weights (onnx/model_q4f16.onnx was not found)');

    await page.getByTestId('model-choice').selectOption('custom');
    await page.getByTestId('custom-id').fill('nobody/no-such-model');
    await page.getByTestId('model-host').fill(`${session.url}/hub/`); // a mirror that has no such model
    await loadModel(page, { dtype: 'fp32' });
    expect(await modelError(page)).toContain('No model found at nobody/no-such-model');

    await loadModel(page, { choice: 'site:broken-model', dtype: 'fp32' });
    expect(await modelError(page)).toMatch(/\/models\/broken-model\/ could not be read: onnx\/model\.onnx/);

    await loadModel(page, { choice: 'site:jiangu-tiny', dtype: 'fp32', backend: 'wasm' });
    expect(await modelError(page)).toBeNull();
    await scoreAndCheck(page);
  });
});
