// Verbatim recall in the playground (issue 26, item 4), as a teacher meets it: a passage pasted, its
// first half continued greedily by the loaded model, and the second half marked character by
// character. On jiangu-tiny (random weights) the passage is built from the reference's own greedy
// output with two characters changed, so the page must show exactly that output and mark every
// character but those two; the marks and numbers are recomputed here in Node from the reference.
// On stories260k (trained on TinyStories) the first sentences of its documented greedy paragraph
// are recalled in full.
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { decodeFixture, encodeFixture, greedyGenerate, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { generateStories260k, STORIES260K_GGUF } from '../../scripts/fixtures/stories260k.ts';
import { recallTokenBudget, splitPassage, verbatimRecall } from '../../src/lib/core/metrics/memorization/index.ts';
import { readStoredItems, storeSample } from './runs.ts';
import { useBrowserSession } from './session.ts';

const EOS = 2;
const shots = join(projectRoot, 'test-results');
// Under CI a missing checkpoint is a failure, not a skip (as for `npm run fixtures`).
const storiesPresent = existsSync(STORIES260K_GGUF) || (process.env.CI ?? '') !== '';
if (!storiesPresent) console.warn(`stories260k recall test skipped: ${STORIES260K_GGUF} is absent`);

/** The first two sentences of llama2.c's documented greedy paragraph (../shared/models/stories260K/SOURCE.md). */
const STORIES_PASSAGE = 'Once upon a time, there was a little girl named Lily. She loved to play outside in the park.';

async function loadModel(page: Page, choice: string) {
  await page.getByTestId('model-choice').selectOption(choice);
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('load').click();
  // The label names the model once it is loaded (a second load must not read the first one's).
  await page.getByTestId('loaded-model').filter({ hasText: new RegExp(`Loaded: ${choice.slice('site:'.length)}`) }).waitFor();
  expect(await page.getByTestId('model-error').count()).toBe(0);
}

async function recall(page: Page, passage: string) {
  await page.getByTestId('recall-passage').fill(passage);
  await page.getByTestId('recall-run').click();
  await page.getByTestId('recall-summary').waitFor();
}

/**
 * The marks as the page shows them: whether reproduced, the true character, the model's at that
 * position ('' past its end) and what is printed beneath the cell (the model's character under a miss).
 */
function shownMarks(page: Page) {
  return page.getByTestId('recall-mark').evaluateAll((cells) =>
    cells.map((cell) => ({
      reproduced: cell.getAttribute('data-reproduced') === 'true',
      expected: cell.querySelector('.expected')?.textContent ?? '',
      written: cell.querySelector('.written')?.getAttribute('data-written') ?? '',
      beneath: cell.querySelector('.written')?.textContent ?? '',
    })),
  );
}

describe('verbatim recall in the playground', () => {
  const session = useBrowserSession({
    webgpu: false,
    path: '/',
    setup: () => void (storiesPresent && generateStories260k()),
    ready: ({ page }) =>
      page.waitForFunction(() => (document.querySelector('[data-testid=model-choice]') as HTMLSelectElement | null)?.value === 'site:jiangu-tiny', null, { polling: 100 }),
  });

  it('jiangu-tiny: shows the greedy continuation and marks each character as recomputed in Node, in both languages', async () => {
    const { page } = session.opened;
    const reference = loadReferenceModel('jiangu-tiny', 'fp32');
    // The passage: a prompt and the reference's own continuation of it, two characters changed.
    const prompt = '子曰：学而时习之，不亦说乎？';
    const own = Array.from(decodeFixture(greedyGenerate(reference, encodeFixture(prompt), 12, EOS), { skipSpecialTokens: true }));
    expect(own, 'twelve characters, none a space').toHaveLength(12);
    expect(own.some((c) => /\s/u.test(c) || c === '学')).toBe(false);
    const target = own.map((c, i) => (i === 5 || i === 9 ? '学' : c)).join('');
    const split = splitPassage(prompt + target);
    expect(split, 'the cut falls after 乎？, 1 from the middle').toMatchObject({ prompt, target, atPunctuation: true });

    // With nothing stored, the picker of stored items sends the teacher to the Data page.
    await page.getByTestId('recall-panel').locator('details summary').click();
    expect(await page.getByTestId('recall-no-data').textContent()).toContain('No benchmark is stored in this browser yet');
    await page.getByTestId('recall-panel').locator('details summary').click();

    await loadModel(page, 'site:jiangu-tiny');
    await recall(page, prompt + target);

    // The budget: the target's tokens as the worker counted them (one per character here) plus the margin.
    const stats = page.getByTestId('recall-stats');
    expect(Number(await stats.getAttribute('data-target-tokens'))).toBe(encodeFixture(target).length);
    const maxNewTokens = Number(await stats.getAttribute('data-max-new-tokens'));
    expect(maxNewTokens).toBe(recallTokenBudget(encodeFixture(target).length));
    const ids = greedyGenerate(reference, encodeFixture(prompt), maxNewTokens, EOS);
    const continuation = decodeFixture(ids, { skipSpecialTokens: true });
    expect(await page.getByTestId('recall-continuation').textContent()).toBe(continuation);
    expect(Number(await stats.getAttribute('data-generated-tokens'))).toBe(ids.length);
    expect(await page.getByTestId('recall-shown').textContent()).toBe(prompt);

    const want = verbatimRecall(target, continuation);
    expect(await shownMarks(page)).toEqual(
      want.marks.map((m) => ({ reproduced: m.reproduced, expected: m.expected, written: m.written ?? '', beneath: m.reproduced ? '' : (m.written ?? '') })),
    );
    // Hand-checked: positions 5 and 9 were changed, so the first 5 hold, 10 of 12 are in place and in order.
    expect(want).toMatchObject({ targetLength: 12, prefixLength: 5, inPlace: 10, lcs: 10 });
    const summary = page.getByTestId('recall-summary');
    expect(await summary.getAttribute('data-prefix')).toBe('5');
    expect(await summary.getAttribute('data-in-place')).toBe('10');
    expect(await summary.getAttribute('data-lcs')).toBe('10');
    expect(await summary.textContent()).toContain(
      'Of the 12 characters to recall, the model wrote 10 (83%) in their place, the first 5 without a slip; 10 (83%) appear in order',
    );
    expect(await page.getByTestId('recall-split').textContent()).toContain('Shown: 14 characters; to recall: 12 characters, cut at the punctuation nearest the middle.');
    expect(await stats.textContent()).toContain(`The second half is 12 tokens for this model; asked for at most ${maxNewTokens}`);

    mkdirSync(shots, { recursive: true });
    const panel = page.getByTestId('recall-panel');
    await panel.screenshot({ path: join(shots, 'recall-en.png') });
    await page.getByTestId('lang-zh').click();
    expect(await page.locator('#recall-heading').textContent()).toBe('背诵测试');
    expect(await summary.textContent()).toContain('要续写的 12 个字中，模型在原位写对了 10 个（83%），开头连续 5 个一字不差；按顺序出现在它所写内容中的有 10 个（83%，最长公共子序列）。');
    expect(await page.getByTestId('recall-split').textContent()).toContain('给模型看 14 个字，让它续写 12 个字，在最靠近中间的标点处切开。');
    expect(await page.getByTestId('recall-run').textContent()).toBe('续写前半段（贪心解码）');
    await panel.screenshot({ path: join(shots, 'recall-zh.png') });
    await page.getByTestId('lang-en').click();
  });

  it.skipIf(!storiesPresent)('stories260k: recalls the second half of its own documented opening in full', async () => {
    const { page } = session.opened;
    await loadModel(page, 'site:stories260k');
    await recall(page, STORIES_PASSAGE);
    const { target } = splitPassage(STORIES_PASSAGE);
    expect(target).toBe('She loved to play outside in the park.');
    expect(await page.getByTestId('recall-shown').textContent()).toBe('Once upon a time, there was a little girl named Lily.');
    const marks = await shownMarks(page);
    expect(marks.map((m) => m.expected).join('').replaceAll('␣', ' ')).toBe(target);
    expect(marks.every((m) => m.reproduced)).toBe(true);
    const summary = page.getByTestId('recall-summary');
    expect(await summary.getAttribute('data-prefix')).toBe(String(Array.from(target).length));
    expect(await summary.textContent()).toContain(`Of the ${target.length} characters to recall, the model wrote ${target.length} (100%) in their place`);
    expect((await page.getByTestId('recall-continuation').textContent())?.trimStart().startsWith(target)).toBe(true);
    await page.getByTestId('recall-panel').screenshot({ path: join(shots, 'recall-stories260k.png') });
  });

  it("takes a stored item's text as the passage", async () => {
    const { page } = session.opened;
    await page.getByTestId('nav-data').click();
    await storeSample(page);
    // Back to the playground: the model loaded before is still there.
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('recall-panel').locator('details summary').click();
    await page.getByTestId('recall-dataset').selectOption('ancientbench');
    await expect.poll(() => page.locator('[data-testid=recall-item] option').count()).toBeGreaterThan(1);
    const itemId = await page.locator('[data-testid=recall-item] option').nth(1).getAttribute('value');
    await page.getByTestId('recall-item').selectOption(itemId ?? '');
    const [item] = await readStoredItems<{ kind: string; question?: string; input?: string }>(page, 'ancientbench', [itemId ?? '']);
    const text = item.kind === 'multiple-choice' ? item.question : item.input;
    expect(text?.length).toBeGreaterThan(0);
    expect(await page.getByTestId('recall-passage').inputValue()).toBe(text);
    await page.getByTestId('recall-run').click();
    await page.getByTestId('recall-summary').waitFor();
    expect(await page.getByTestId('recall-mark').count()).toBe(Array.from(splitPassage(text ?? '').target.replace(/^\s+/u, '')).length);
    await page.getByTestId('recall-panel').screenshot({ path: join(shots, 'recall-stored-item.png') });
  });
});
