// The model picker offers a preset only the dtypes its repository publishes; and "greedy" in the
// page is plain argmax even for a model whose generation_config.json asks for sampling and a
// repetition penalty, as the hub's instruction models' do (a copy of jiangu-tiny, served by the site).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { useBrowserSession } from './session.ts';
import { decodeFixture, encodeFixture, greedyGenerate, loadReferenceModel } from '../../scripts/fixtures/reference.ts';

const SAMPLING_MODEL = 'jiangu-sampling-config';
const NEW_TOKENS = 24;

/** The dtype options the picker shows now. */
async function dtypeOptions(page: Page): Promise<string[]> {
  return page.getByTestId('dtype').locator('option').evaluateAll((options) => options.map((o) => (o as HTMLOptionElement).value));
}

describe('presets and greedy decoding in the page', () => {
  const savedModels = process.env.JIANGU_MODELS;
  const session = useBrowserSession({
    webgpu: false,
    path: '/',
    setup: () => {
      const tiny = join(projectRoot, '.fixtures', 'models', 'jiangu-tiny');
      const root = mkdtempSync(join(tmpdir(), 'jiangu-models-'));
      const dir = join(root, SAMPLING_MODEL);
      mkdirSync(join(dir, 'onnx'), { recursive: true });
      for (const file of ['config.json', 'tokenizer.json', 'tokenizer_config.json', 'onnx/model.onnx']) copyFileSync(join(tiny, file), join(dir, file));
      const generation = JSON.parse(readFileSync(join(tiny, 'generation_config.json'), 'utf8'));
      writeFileSync(join(dir, 'generation_config.json'), JSON.stringify({ ...generation, do_sample: true, temperature: 0.7, top_p: 0.8, top_k: 20, repetition_penalty: 3 }));
      process.env.JIANGU_MODELS = root;
    },
    ready: ({ page }) =>
      page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny'),
  });
  afterAll(() => {
    process.env.JIANGU_MODELS = savedModels;
  });

  it('offers SmolLM2 no q8 (its repository has no such file) and its own q4 size', async () => {
    const { page } = session.opened;
    expect(await dtypeOptions(page)).toEqual(['fp32', 'fp16', 'q8', 'q4', 'q4f16']);
    await page.getByTestId('dtype').selectOption('q8');
    await page.getByTestId('model-choice').selectOption('hub:HuggingFaceTB/SmolLM2-360M-Instruct');
    expect(await dtypeOptions(page)).toEqual(['q4', 'fp32', 'fp16', 'q4f16']);
    // q8 was chosen before: the preset's default replaces it rather than a file that is not there.
    expect(await page.getByTestId('dtype').inputValue()).toBe('q4');
    await expect.poll(() => page.locator('form.picker .muted').textContent()).toBe('about 417 MB download');
    await page.getByTestId('model-choice').selectOption('hub:onnx-community/Qwen2.5-0.5B-Instruct');
    expect(await dtypeOptions(page)).toEqual(['q4', 'q8', 'fp32', 'fp16', 'q4f16']);
    await expect.poll(() => page.locator('form.picker .muted').textContent()).toBe('about 786 MB download');
  });

  it('generates the reference argmax ids although generation_config.json asks for sampling and a repetition penalty', async () => {
    const { page } = session.opened;
    await page.getByTestId('model-choice').selectOption(`site:${SAMPLING_MODEL}`);
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.getByTestId('backend-used').waitFor();
    const prompt = '子曰：学而时习之';
    await page.getByTestId('gen-prompt').fill(prompt);
    await page.getByTestId('max-tokens').fill(String(NEW_TOKENS));
    await page.getByTestId('generate').click();
    await page.getByTestId('gen-stats').waitFor();
    const ids = greedyGenerate(loadReferenceModel('jiangu-tiny', 'fp32'), encodeFixture(prompt), NEW_TOKENS, 2);
    // The reference repeats itself: a repetition penalty would have changed it.
    expect(new Set(ids).size).toBeLessThan(ids.length);
    expect(await page.getByTestId('gen-output').textContent()).toBe(decodeFixture(ids, { skipSpecialTokens: true }));
  });
});
