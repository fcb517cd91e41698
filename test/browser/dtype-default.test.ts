// The model picker's dtype follows where the load will run (issue 35): on WASM onnxruntime-web's
// MatMulNBits turns q4's weights back into fp32 on every forward, so a preset that publishes q8 starts
// on it there, q4 beside WASM says why it is slow, and a dtype the user picks stays picked. Hub models
// cannot be downloaded here: only the picker's state and words are checked, nothing is loaded.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { storeSample } from './runs.ts';

const QWEN25 = 'hub:onnx-community/Qwen2.5-0.5B-Instruct';
const QWEN3 = 'hub:onnx-community/Qwen3-0.6B-ONNX';
const SMOL = 'hub:HuggingFaceTB/SmolLM2-360M-Instruct';

const dtype = (page: Page) => page.getByTestId('dtype').inputValue();
const hint = (page: Page) => page.getByTestId('dtype-wasm-hint');
const hintText = async (page: Page) => ((await hint(page).textContent()) ?? '').replace(/\s+/g, ' ');
/** The site's own model is preselected once its list arrives: the form is settled from then on. */
const siteListed = (page: Page) =>
  page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny', null, { polling: 100 });

/** A new visit: nothing chosen by hand. */
async function freshPage(page: Page, url: string) {
  await page.goto(url);
  await page.reload();
  await siteListed(page);
}

describe('playground with no WebGPU (Auto runs on WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/', ready: ({ page }) => siteListed(page) });

  it('starts Qwen2.5 on q8 on WASM, and on q4 when WebGPU is asked for, until the user picks one', async () => {
    const { page } = session.opened;
    await page.getByTestId('model-choice').selectOption(QWEN25);
    await expect.poll(() => dtype(page)).toBe('q8');
    expect(await hint(page).count()).toBe(0);
    await expect.poll(() => page.locator('form.picker .muted').textContent()).toBe('about 512 MB download');
    // The offered order is the repository's, whatever the default.
    expect(await page.locator('[data-testid=dtype] option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toEqual(['q4', 'q8', 'fp32', 'fp16', 'q4f16']);
    await page.getByTestId('backend').selectOption('webgpu');
    await expect.poll(() => dtype(page)).toBe('q4');
    expect(await hint(page).count()).toBe(0); // WebGPU has its own MatMulNBits kernel
    await page.getByTestId('backend').selectOption('wasm');
    await expect.poll(() => dtype(page)).toBe('q8');
    await page.getByTestId('backend').selectOption('auto');
    await page.getByTestId('model-choice').selectOption(QWEN3);
    await expect.poll(() => dtype(page)).toBe('q8');
    // SmolLM2 publishes no q8: q4 it is, with the hint.
    await page.getByTestId('model-choice').selectOption(SMOL);
    await expect.poll(() => dtype(page)).toBe('q4');
    await hint(page).waitFor();
    expect(await hintText(page)).toContain('publishes no q8: fp32 (about 1,640 MB download), or the WebGPU backend on a GPU, avoids this');
  });

  it('says beside q4 on WASM why it is slow, in both languages', async () => {
    const { page } = session.opened;
    await freshPage(page, `${session.url}/`);
    await page.getByTestId('model-choice').selectOption(QWEN25);
    await expect.poll(() => dtype(page)).toBe('q8');
    await page.getByTestId('dtype').selectOption('q4');
    await hint(page).waitFor();
    const en = await hintText(page);
    expect(en).toContain("On WASM, onnxruntime-web turns q4's 4-bit weights back into fp32 on every forward");
    expect(en).toContain('each forward costs about as much as a whole prompt');
    expect(en).toContain('q8 is about twice as fast per prompt here, and ten times per generated token');
    await page.getByTestId('dtype').selectOption('q4f16');
    await expect.poll(() => hintText(page)).toContain("turns q4f16's 4-bit weights");
    await page.getByTestId('lang-zh').click();
    await expect.poll(() => hintText(page)).toContain('在 WASM 上，onnxruntime-web 每次前向计算都要把 q4f16 的 4 位权重重新还原成 fp32');
    expect(await hintText(page)).toContain('q8 每个提示快约一倍，每生成一个词元快约十倍');
    await page.getByTestId('lang-en').click();
    await page.getByTestId('dtype').selectOption('q8');
    await hint(page).waitFor({ state: 'detached' });
  });

  it('keeps a dtype the user picked when the backend or the model changes', async () => {
    const { page } = session.opened;
    await freshPage(page, `${session.url}/`);
    await page.getByTestId('model-choice').selectOption(QWEN25);
    await expect.poll(() => dtype(page)).toBe('q8');
    await page.getByTestId('dtype').selectOption('q4');
    await page.getByTestId('backend').selectOption('webgpu');
    await hint(page).waitFor({ state: 'detached' });
    await page.getByTestId('backend').selectOption('wasm');
    await hint(page).waitFor();
    await page.getByTestId('backend').selectOption('auto');
    await page.getByTestId('model-choice').selectOption(QWEN3);
    // Settled: the hint answers after the page has asked where the load would run.
    await hint(page).waitFor();
    expect(await dtype(page)).toBe('q4');
    // And the other way: q8 picked while WebGPU is asked for stays q8.
    await freshPage(page, `${session.url}/`);
    await page.getByTestId('model-choice').selectOption(QWEN25);
    await page.getByTestId('backend').selectOption('webgpu');
    await expect.poll(() => dtype(page)).toBe('q4');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('backend').selectOption('auto');
    await expect.poll(() => page.locator('form.picker .muted').textContent()).toBe('about 1,990 MB download');
    expect(await dtype(page)).toBe('fp32');
  });
});

describe('Evaluate page with a software WebGPU adapter (Auto passes over it for WASM)', () => {
  // The page shows its model form once a benchmark is stored.
  const session = useBrowserSession({ webgpu: true, path: '/#/data', ready: ({ page }) => storeSample(page) });

  it('starts Qwen2.5 on q8 and says why q4 is slow', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await siteListed(page);
    await page.getByTestId('model-choice').selectOption(QWEN25);
    await expect.poll(() => dtype(page)).toBe('q8');
    expect(await hint(page).count()).toBe(0);
    await page.getByTestId('dtype').selectOption('q4');
    await hint(page).waitFor();
    expect(await hintText(page)).toContain('generation and option-text scoring are slow');
    await page.getByTestId('lang-zh').click();
    await expect.poll(() => hintText(page)).toContain('生成和按选项文本打分都很慢');
    await page.getByTestId('lang-en').click();
    // WebGPU asked for by name runs on the adapter, software or not: no hint, and q4 stays picked.
    await page.getByTestId('backend').selectOption('webgpu');
    await hint(page).waitFor({ state: 'detached' });
    expect(await dtype(page)).toBe('q4');
  });
});
