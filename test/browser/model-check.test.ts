// The model check as a user reads it: after a load the playground says what Jiangu found in the
// model (graph inputs, last-row logits, attention, dtypes, external data, letters after 答案是：,
// the chat template, the memory of a 5-shot CMMLU prompt) with warnings that say what to do, in
// English and Chinese; and a finished run's page shows its model's check and its decoding options,
// read from the stored run record.
import { existsSync, mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { AutoTokenizer, env } from '@huggingface/transformers';
import { projectRoot } from '../../scripts/site-routes.ts';
import { encodeFixture } from '../../scripts/fixtures/reference.ts';
import { STORIES260K_GGUF } from '../../scripts/fixtures/stories260k.ts';
import { sampleCmmluPrompt, CMMLU_5SHOT_MEDIAN_CHARS } from '../../src/lib/core/models/model-check.ts';
import type { McRunRecord } from '../../src/lib/core/record/run.ts';
import { byteSize } from '../../src/ui/data/byte-size.ts';
import { readStoredRun, waitForStatus } from './runs.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const shots = join(projectRoot, 'test-results');
const modelsDir = join(projectRoot, '.fixtures', 'models');
const storiesPresent = existsSync(STORIES260K_GGUF) || (process.env.CI ?? '') !== '';

/** A byte count as the page writes it in English ("945.4 KB", "1.3 MB"). */
const kb = (bytes: number) => byteSize(bytes, (x, d) => x.toLocaleString('en', { minimumFractionDigits: d, maximumFractionDigits: d }));

async function loadInPlayground(page: Page, model: string): Promise<void> {
  await page.getByTestId('model-choice').selectOption(`site:${model}`);
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('load').click();
  await page.getByTestId('model-check').waitFor({ timeout: 120_000 });
}

const text = async (page: Page, testid: string) => ((await page.getByTestId(testid).first().textContent()) ?? '').replace(/\s+/g, ' ').trim();
const warningCodes = (page: Page, root = 'model-check') =>
  page.getByTestId(root).getByTestId('model-check-warning').evaluateAll((els) => els.map((e) => e.getAttribute('data-code')));

describe('the model check in the playground (WASM)', () => {
  const session = useBrowserSession({
    webgpu: false,
    path: '/',
    ready: ({ page }) => page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny', null, { polling: 100 }),
  });

  it('jiangu-tiny-nokeep: no num_logits_to_keep, so rewritten at load to keep one row (checked), nothing to warn; MatMul attention; the letters and the memory', async () => {
    const { page } = session.opened;
    await loadInPlayground(page, 'jiangu-tiny-nokeep');
    const prompt = sampleCmmluPrompt();
    const tokens = encodeFixture(prompt).length;
    const weights = statSync(join(modelsDir, 'jiangu-tiny-nokeep', 'onnx', 'model.onnx')).size;
    // jiangu-tiny: 2 layers × 2 KV heads × 16, float32; vocabulary 749; a pass of up to 64 MiB holds every row of this prompt.
    const kv = 2 * 2 * 2 * 16 * tokens * 4;
    // Rewritten at load to keep the last row: one pass returns one row of 749 float32 logits.
    const block = 749 * 4;

    const check = page.getByTestId('model-check');
    expect(await check.getAttribute('data-attention')).toBe('MatMul');
    expect(await check.getAttribute('data-keeps-last-row')).toBe('true');
    expect(await check.getAttribute('data-logits-path')).toBe('rewritten');
    const summary = await text(page, 'model-check-summary');
    expect(summary).toContain('MatMul attention');
    expect(summary).toContain('one logits row: graph rewritten at load (checked)');
    expect(summary).toContain('KV float32, logits float32');
    expect(summary).toContain('A–D are single tokens after 答案是：');
    expect(summary).toContain(`A typical 5-shot CMMLU prompt is ${tokens} tokens here and needs about ${kb(weights)} of weights, ${kb(kv)} of KV cache and ${kb(block)} for the largest logits block.`);
    // Nothing to warn about: the rewrite is checked, so no chunks and no cost to mention.
    expect(await warningCodes(page)).toEqual([]);

    // The details: folded until asked for, then exact.
    expect(await page.getByTestId('model-check-inputs').isVisible()).toBe(false);
    await page.getByTestId('model-check-details').locator('summary').click();
    const inputs = await text(page, 'model-check-inputs');
    expect(inputs).toContain('input_ids int64 [batch_size, sequence_length]');
    expect(inputs).toContain('past_key_values.1.value float32 [batch_size, 2, past_sequence_length, 16]');
    expect(inputs).not.toContain('num_logits_to_keep');
    expect(await text(page, 'model-check-keeps')).toMatch(/^yes: the graph has no num_logits_to_keep, so Jiangu rewrote it at load to compute the last row only, and checked it on a 16-token prompt against every row \(largest log-prob difference 0\)$/);
    expect(await text(page, 'model-check-attention')).toBe('MatMul and Softmax (plain ONNX ops)');
    expect(await text(page, 'model-check-external')).toBe('none: the weights are inside the .onnx file');
    const letters = await text(page, 'model-check-letters');
    for (const letter of ['A', 'B', 'C', 'D']) expect(letters).toContain(`${letter} → ${encodeFixture(letter)[0]}`);
    // The cue ends in its own full-width colon: no ASCII one after it (it read "答案是：:").
    expect(letters).toMatch(/^after 答案是：, token ids: A → /);
    const template = await text(page, 'model-check-template');
    expect(template).toContain('opens with "用户："');
    expect(template).toContain('answer after "\\n助手："');
    expect(template).toContain('no thinking mode');
    expect(await text(page, 'model-check-prompt')).toContain(`${CMMLU_5SHOT_MEDIAN_CHARS} characters (the median 5-shot CMMLU 古汉语 prompt) of 《论语·学而》 + 答案是： → ${tokens} tokens; the model has 2,048 positions`);
    const memory = await text(page, 'model-check-memory');
    expect(memory).toContain(`KV cache: ${kb(kv)} (2 × 2 × 2 × 16 × ${tokens} × 4 B)`);
    expect(memory).toContain(`largest logits block: ${kb(block)} (1 × 749 × 4 B, 1 pass)`);
    mkdirSync(shots, { recursive: true });
    await page.screenshot({ path: join(shots, 'model-check-nokeep-en.png'), fullPage: true });

    // 中文: the same check, reworded where it is, warnings included.
    await page.getByTestId('lang-zh').click();
    const zh = await text(page, 'model-check-summary');
    expect(zh).toContain('MatMul 注意力');
    expect(zh).toContain('只算一行 logits：加载时改写计算图（已核对）');
    expect(zh).toContain(`一个典型的 5-shot CMMLU 提示在此为 ${tokens} 个词元`);
    expect(await text(page, 'model-check-keeps')).toContain('是：计算图没有 num_logits_to_keep，鉴古在加载时把它改写为只算最后一行');
    await page.screenshot({ path: join(shots, 'model-check-nokeep-zh.png'), fullPage: true });
    await page.getByTestId('lang-en').click();
  });

  it('jiangu-tiny-gqa: GroupQueryAttention with SkipSimplifiedLayerNormalization, as the model builder writes it; no position_ids', async () => {
    const { page } = session.opened;
    await loadInPlayground(page, 'jiangu-tiny-gqa');
    const check = page.getByTestId('model-check');
    expect(await check.getAttribute('data-attention')).toBe('GroupQueryAttention');
    // No num_logits_to_keep in the file, rewritten at load: the check says so and warns of nothing.
    expect(await check.getAttribute('data-keeps-last-row')).toBe('true');
    const summary = await text(page, 'model-check-summary');
    expect(summary).toContain('GroupQueryAttention');
    expect(summary).toContain('one logits row: graph rewritten at load (checked)');
    expect(summary).toContain('A–D are single tokens after 答案是：');
    expect(await warningCodes(page)).toEqual([]);
    await page.getByTestId('model-check-details').locator('summary').click();
    const inputs = await text(page, 'model-check-inputs');
    expect(inputs).toContain('attention_mask int64 [batch_size, total_sequence_length]');
    expect(inputs).not.toContain('position_ids');
    expect(await text(page, 'model-check-attention')).toContain('GroupQueryAttention');
    await page.screenshot({ path: join(shots, 'model-check-gqa-en.png'), fullPage: true });
  });

  it.skipIf(!storiesPresent)('stories260k: keeps the last row, byte fallback makes about 3 tokens a character, and the check says what that means', async () => {
    const { page } = session.opened;
    await loadInPlayground(page, 'stories260k');
    env.allowRemoteModels = false;
    env.localModelPath = `${modelsDir}/`;
    const tokenizer = await AutoTokenizer.from_pretrained('stories260k');
    const prompt = sampleCmmluPrompt();
    const tokens = tokenizer.encode(prompt).length;
    expect(tokens / CMMLU_5SHOT_MEDIAN_CHARS).toBeGreaterThan(2.5);
    // Five layers × 4 KV heads × 8, float32; the last row only: one row of 512.
    const kv = 2 * 5 * 4 * 8 * tokens * 4;

    expect(await page.getByTestId('model-check').getAttribute('data-keeps-last-row')).toBe('true');
    const summary = await text(page, 'model-check-summary');
    expect(summary).toContain('keeps only the last logits row');
    expect(summary).toContain(`A typical 5-shot CMMLU prompt is ${tokens.toLocaleString('en')} tokens here`);
    expect(summary).toContain(`${kb(kv)} of KV cache and ${kb(512 * 4)} for the largest logits block`);
    expect(await warningCodes(page)).toEqual(['check.many-tokens-per-char']);
    expect(await text(page, 'model-check-warning')).toContain(`about ${(tokens / CMMLU_5SHOT_MEDIAN_CHARS).toFixed(1)} tokens per classical Chinese character`);

    await page.getByTestId('model-check-details').locator('summary').click();
    expect(await text(page, 'model-check-inputs')).toContain('num_logits_to_keep int64 []');
    expect(await text(page, 'model-check-template')).toBe('none (prompts are sent as they are)');
    // After 答案是： the letter is its own piece, not the `▁A` that "A" alone encodes to.
    const letters = page.getByTestId('model-check-letters');
    for (const letter of ['A', 'B', 'C', 'D']) {
      const alone = tokenizer.encode(letter, { add_special_tokens: false });
      const joined = tokenizer.encode(prompt + letter);
      const inContext = joined.slice(tokenizer.encode(prompt).length);
      expect(await letters.locator(`[data-letter=${letter}]`).getAttribute('data-token-id')).toBe(String(inContext[0]));
      if (alone.join(' ') !== inContext.join(' ')) expect(await letters.locator(`[data-letter=${letter}]`).textContent()).toContain(`(alone: ${alone.join(' ')})`);
    }
    await page.screenshot({ path: join(shots, 'model-check-stories-en.png'), fullPage: true });
    await page.getByTestId('lang-zh').click();
    expect(await text(page, 'model-check-warning')).toContain(`此分词器每个文言汉字约用 ${(tokens / CMMLU_5SHOT_MEDIAN_CHARS).toFixed(1)} 个词元`);
    expect(await text(page, 'model-check-summary')).toContain('只保留最后一行 logits');
    await page.screenshot({ path: join(shots, 'model-check-stories-zh.png'), fullPage: true });
    await page.getByTestId('lang-en').click();
  });

  it('a finished run shows its model check and the decoding options and thinking mode it recorded', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-scoring').selectOption('generate-extract');
    await page.getByTestId('eval-max-tokens').fill('4');
    await page.getByTestId('eval-limit').fill('1');
    await page.getByTestId('eval-chat').check();
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny-nokeep');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/run\//);
    const runId = decodeURIComponent(page.url().split('#/run/')[1]);
    await waitForStatus(page, 'completed');

    // What the page shows is what the record holds, so it stays after the model is gone: reload.
    const { run } = await readStoredRun<McRunRecord>(page, runId);
    // The page loads with the rewrite on: the record says which path scored the run.
    expect(run.modelCheck?.keepsLastRow).toBe(true);
    expect(run.environment?.logitsPath).toEqual({ kind: 'rewritten', check: { tokens: 16, maxAbsDiff: 0 } });
    expect(run.modelCheck?.logitsPath).toEqual(run.environment?.logitsPath);
    expect(run.modelCheck?.onnxFile).toBe('onnx/model.onnx');
    await page.reload();
    await waitForStatus(page, 'completed');
    const check = page.getByTestId('run-model-check');
    await check.waitFor();
    expect(await check.getAttribute('data-attention')).toBe('MatMul');
    expect(await check.getByTestId('model-check-summary').textContent()).toContain('one logits row: graph rewritten at load (checked)');
    expect(await warningCodes(page, 'run-model-check')).toEqual([]);

    expect(await text(page, 'run-thinking')).toBe('off: the chat template was rendered with enable_thinking=false');
    expect(await text(page, 'run-decoding')).toContain('greedy: plain argmax, no repetition penalty');
    await page.getByTestId('run-decoding').locator('summary').click();
    const options = await text(page, 'run-decoding-options');
    expect(options).toContain('do_sample=false');
    expect(options).toContain('repetition_penalty=1');
    expect(options).toContain(`top_k=${run.decodingOptions?.top_k}`);
    await page.screenshot({ path: join(shots, 'model-check-run-en.png'), fullPage: true });

    await page.getByTestId('lang-zh').click();
    expect(await text(page, 'run-thinking')).toBe('关闭：对话模板以 enable_thinking=false 渲染');
    expect(await text(page, 'run-decoding')).toContain('贪心：纯 argmax，无重复惩罚');
    expect(await check.getByTestId('model-check-summary').textContent()).toContain('只算一行 logits：加载时改写计算图（已核对）');
    await page.screenshot({ path: join(shots, 'model-check-run-zh.png'), fullPage: true });
    await page.getByTestId('lang-en').click();
  });
});

describe('the model check of a hub model (the site’s fixture hub)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  it('reads the ONNX file from Cache Storage, where transformers.js keeps it: never a second download', async () => {
    const { page } = session.opened;
    const onnxRequests: string[] = [];
    page.context().on('request', (request) => {
      // A one-byte Range probe (the revision lookup) is not a download; a plain GET is.
      if (/\/onnx\/model\.onnx$/.test(new URL(request.url()).pathname) && request.method() === 'GET' && !request.headers().range) onnxRequests.push(request.url());
    });
    const info = await page.evaluate(
      async ({ host }) => {
        const client = new window.jiangu.ModelClient();
        try {
          return await client.load({ source: { kind: 'hub', id: 'jiangu/jiangu-tiny-external', host, revision: 'main' }, dtype: 'fp32', backend: 'wasm' });
        } finally {
          client.terminate();
        }
      },
      { host: `${session.url}/hub/` },
    );
    const check = info.modelCheck;
    // External data passed through to the rewritten graph's session unchanged: rewritten, nothing to warn.
    expect(info.logitsPath?.kind).toBe('rewritten');
    expect(check?.warnings.map((w) => w.code)).toEqual([]);
    expect(check?.graph?.inputs.map((i) => i.name)).toContain('past_key_values.1.value');
    const dataBytes = statSync(join(modelsDir, 'jiangu-tiny-external', 'onnx', 'model.onnx_data')).size;
    expect(check?.externalData).toEqual([{ file: 'onnx/model.onnx_data', bytes: dataBytes }]);
    expect(check?.externalHow).toBe('config');
    expect(check?.memory.weightsBytes).toBe(statSync(join(modelsDir, 'jiangu-tiny-external', 'onnx', 'model.onnx')).size + dataBytes);
    expect(onnxRequests).toHaveLength(1);
  });
});

describe('the model check on WebGPU (SwiftShader)', () => {
  const session = useBrowserSession({
    webgpu: true,
    path: '/',
    ready: ({ page }) => page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny', null, { polling: 100 }),
  });

  it('jiangu-tiny keeps only the last row: one row of logits, nothing to warn about', async () => {
    const { page } = session.opened;
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('webgpu');
    await page.getByTestId('load').click();
    await page.getByTestId('model-check').waitFor({ timeout: 180_000 });
    const tokens = encodeFixture(sampleCmmluPrompt()).length;
    const summary = await text(page, 'model-check-summary');
    expect(summary).toContain('MatMul attention · keeps only the last logits row');
    expect(summary).toContain(`${kb(2 * 2 * 2 * 16 * tokens * 4)} of KV cache and ${kb(749 * 4)} for the largest logits block`);
    expect(await warningCodes(page)).toEqual([]);
    expect(await text(page, 'model-check-ok')).toBe('Nothing to warn about.');
    await page.getByTestId('model-check-details').locator('summary').click();
    expect(await text(page, 'model-check-details')).toContain('onnx/model.onnx · fp32 · WebGPU');
    expect(await text(page, 'model-check-keeps')).toContain('yes: the graph declares num_logits_to_keep');
    await page.getByTestId('lang-zh').click();
    expect(await text(page, 'model-check-ok')).toBe('没有需要提醒的问题。');
    await page.getByTestId('lang-en').click();
  });
});
