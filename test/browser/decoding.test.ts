// The model picker offers a preset only the dtypes its repository publishes; and "greedy" in the
// page is plain argmax even for a model whose generation_config.json asks for sampling and a
// repetition penalty, as the hub's instruction models' do (a copy of jiangu-tiny, served by the site).
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { MODEL_LOAD_MS, useBrowserSession } from './session.ts';
import { decodeFixture, encodeFixture, greedyGenerate, lastLogProbs, loadReferenceModel } from '../../scripts/fixtures/reference.ts';

const SAMPLING_MODEL = 'jiangu-sampling-config';
const PREPEND_MODEL = 'jiangu-prepend';
/** jiangu-tiny's `~`, renamed `▁` in PREPEND_MODEL's tokenizer (a rarely used id, so the weights stay as they are). */
const TILDE_ID = encodeFixture('~')[0];
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
      // A SentencePiece-style tokenizer: a `▁` prepended to every text, so "A" alone is [▁, A] while
      // after the prompt the letter is the token A; the old rule read ▁ for every letter.
      const prepend = join(root, PREPEND_MODEL);
      mkdirSync(join(prepend, 'onnx'), { recursive: true });
      for (const file of ['config.json', 'generation_config.json', 'tokenizer_config.json', 'onnx/model.onnx']) copyFileSync(join(tiny, file), join(prepend, file));
      const tokenizer = JSON.parse(readFileSync(join(tiny, 'tokenizer.json'), 'utf8'));
      const vocab = tokenizer.model.vocab as Record<string, number>;
      expect(vocab['~']).toBe(TILDE_ID);
      delete vocab['~'];
      vocab['▁'] = TILDE_ID;
      tokenizer.normalizer = { type: 'Prepend', prepend: '▁' };
      writeFileSync(join(prepend, 'tokenizer.json'), JSON.stringify(tokenizer));
      process.env.JIANGU_MODELS = root;
    },
    ready: ({ page }) =>
      page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny', null, { polling: 100 }),
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

  it('scores the letter as it follows the answer cue with a ▁-prepending tokenizer, not the letter alone', async () => {
    const { page } = session.opened;
    await page.getByTestId('model-choice').selectOption(`site:${PREPEND_MODEL}`);
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.waitForFunction(() => !document.querySelector('[data-testid=load]')?.textContent?.includes('Loading'), null, { polling: 100, timeout: MODEL_LOAD_MS });
    await page.getByTestId('score').click();
    await page.getByTestId('letter-bars').waitFor();
    const prompt = (await page.getByTestId('prompt').textContent()) ?? '';
    const letters = ['A', 'B', 'C', 'D'];
    const letterIds = letters.map((l) => encodeFixture(l)[0]);
    // The tokenizer prepends ▁ (id TILDE_ID) to the prompt; the letters follow as their own tokens.
    const want = lastLogProbs(loadReferenceModel('jiangu-tiny', 'fp32'), [TILDE_ID, ...encodeFixture(prompt)], letterIds);
    for (const [k, letter] of letters.entries()) {
      const shown = Number(await page.getByTestId(`logprob-${letter}`).textContent());
      expect(Math.abs(shown - want[k]), letter).toBeLessThan(1.5e-4);
    }
  });
});
