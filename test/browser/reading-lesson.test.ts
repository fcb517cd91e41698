// The Reading page as a teacher gives a lesson with it (issue 45), on WASM, in both languages:
// characters a model has no token for shown as themselves and left out of a two-model comparison,
// which counts only the characters both read; the heading over the top ten; the projector's text
// size and the page's full width; the words a class reads, with the numbers on screen; the lens with
// no second load; 断句 breaks a back row can see; a link's parts the page cannot take, listed; the
// link encoded once. Screenshots at projector size and 375 px in test-results/reading-lesson-*.png.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encodeFixture, forward, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { LINK_TEXT_LIMIT, readingHash } from '../../src/ui/reading/reading-link.ts';
import { storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { MODEL_LOAD_MS, useBrowserSession } from './session.ts';

const shots = join(process.cwd(), 'test-results');
mkdirSync(shots, { recursive: true });
// 《史记·孔子世家》赞: jiangu-tiny's vocabulary lacks 15 of its characters.
const SHIJI = '太史公曰：诗有之：“高山仰止，景行行止。”虽不能至，然心乡往之。余读孔氏书，想见其为人。适鲁，观仲尼庙堂车服礼器，诸生以时习礼其家，余祗回留之不能去云。';
const unknownToTiny = [...SHIJI].filter((c) => encodeFixture(c)[0] === 0);
const tiny = { kind: 'site' as const, name: 'jiangu-tiny' };
const LUNYU = '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？';
const reference = loadReferenceModel('jiangu-tiny', 'fp32');

/** softmax(row / T) in float64, written here from the definition: the dial's numbers checked against it. */
function atTemperature(row: Float32Array, temperature: number): Float64Array {
  let max = -Infinity;
  for (const x of row) max = Math.max(max, x);
  const out = new Float64Array(row.length);
  let sum = 0;
  for (let v = 0; v < row.length; v++) sum += out[v] = Math.exp((row[v] - max) / temperature);
  for (let v = 0; v < row.length; v++) out[v] /= sum;
  return out;
}

async function loadOffered(page: Page, slot: 'a' | 'b'): Promise<void> {
  await page.getByTestId(`reading-model-${slot}-load-offered`).click();
  await page.getByTestId(`reading-model-${slot}-loaded`).waitFor({ timeout: 90_000 });
}

async function readView(page: Page, view: string, shown: string): Promise<void> {
  await page.getByTestId(`reading-view-${view}`).click();
  await page.waitForFunction(() => !document.querySelector('[data-testid=reading-read]')?.hasAttribute('disabled'), null, { polling: 100, timeout: 90_000 });
  await page.getByTestId('reading-read').click();
  await page.getByTestId(shown).first().waitFor({ timeout: 90_000 });
}

const fontPx = (page: Page, selector: string) => page.locator(selector).first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize));

describe.runIf(storiesPresent)('two models on a passage one of them cannot fully read', () => {
  const link = readingHash({ view: 'tokens', text: SHIJI, model: tiny, dtype: 'fp32', model2: { kind: 'site', name: 'stories260k' }, dtype2: 'fp32', threshold: null })!;
  const session = useBrowserSession({ webgpu: false, path: `/${link}` });

  it('shows each unknown character as itself, marked, and compares over the characters both read, saying which were left out', async () => {
    const { page } = session.opened;
    expect(unknownToTiny.length).toBeGreaterThan(10);
    await loadOffered(page, 'a');
    await loadOffered(page, 'b');
    await readView(page, 'tokens', 'reading-difference');
    const a = page.locator('[data-testid=reading-column-a] [data-testid=reading-tokens] button[data-index]');
    const unknown = await a.evaluateAll((els) => els.filter((e) => e.getAttribute('data-unknown') === 'yes').map((e) => e.textContent));
    expect(unknown).toEqual(unknownToTiny);
    expect(await page.locator('[data-testid=reading-column-a] [data-testid=reading-tokens]').textContent()).not.toContain('<unk>');
    expect(Number(await page.locator('[data-testid=reading-column-a] [data-testid=reading-unknown]').getAttribute('data-count'))).toBe(unknownToTiny.length);

    // The comparison: every character but A's unknown ones (stories260k reads every character as bytes,
    // each character's bytes ending in a token of its own, after its BOS).
    const difference = page.getByTestId('reading-difference');
    const characters = Number(await difference.getAttribute('data-characters'));
    expect(characters).toBe([...SHIJI].length - unknownToTiny.length - 1); // and the first character: nothing before it in A
    expect(await page.getByTestId('reading-unknown-a').getAttribute('data-count')).toBe(String(unknownToTiny.length));
    expect(await page.getByTestId('reading-unknown-b').count()).toBe(0);
    // A's bits over the shared characters: its tokens' own bits, the unknown ones and their successors' none left out.
    const tokenBits = await a.evaluateAll((els) => els.map((e) => ({ text: e.textContent, bits: e.getAttribute('data-bits') })));
    const sumA = tokenBits.filter((t) => t.bits !== null).reduce((s, t) => s + Number(t.bits), 0);
    const shownA = Number((await difference.textContent())!.match(/A ([\d.]+)/)![1]);
    expect(Math.abs(shownA - sumA / characters)).toBeLessThan(0.01);
    await page.screenshot({ path: join(shots, 'reading-lesson-two-models-en.png'), fullPage: true });
    await page.getByTestId('lang-zh').click();
    expect(await difference.textContent()).toContain('两个模型都读了的');
    expect(await page.getByTestId('reading-unknown-a').textContent()).toContain('模型 A 的词表里没有');
    await page.screenshot({ path: join(shots, 'reading-lesson-two-models-zh.png'), fullPage: true });
    await page.getByTestId('lang-en').click();
    await page.getByTestId('reading-second').uncheck();
  });
});

describe('the Reading page on a projector', () => {
  const link = readingHash({ view: 'tokens', text: LUNYU, model: tiny, dtype: 'fp32', threshold: null })!;
  const session = useBrowserSession({ webgpu: false, path: `/${link}` });

  it('draws no empty box before a reading, scales the reading with the text size, and uses the full width', async () => {
    const { page } = session.opened;
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByTestId('reading-page').waitFor();
    expect(await page.getByTestId('reading-board').count()).toBe(0);
    await loadOffered(page, 'a');
    await readView(page, 'tokens', 'reading-tokens');
    const main = await page.locator('main').evaluate((e) => e.getBoundingClientRect().width);
    expect(main).toBeGreaterThan(1800);
    const before = await fontPx(page, '[data-testid=reading-tokens]');
    const listBefore = await fontPx(page, '[data-testid=reading-top] li');
    await page.getByTestId('reading-size-up').click();
    await page.getByTestId('reading-size-up').click();
    await page.getByTestId('reading-size-up').click();
    expect(await page.getByTestId('reading-size').getAttribute('data-size')).toBe('175');
    expect((await fontPx(page, '[data-testid=reading-tokens]')) / before).toBeCloseTo(1.75, 2);
    expect((await fontPx(page, '[data-testid=reading-top] li')) / listBefore).toBeCloseTo(1.75, 2);
    // The top ten's names stay near their chances: the row is no wider than it needs.
    const spread = await page.locator('[data-testid=reading-top] li').first().evaluate((li) => {
      const [piece, , p] = [...li.children].map((c) => c.getBoundingClientRect());
      return p.left - piece.right;
    });
    expect(spread).toBeLessThan(700);
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-tokens-en.png') });
    // The size is kept for the next visit, and a link carries it.
    await page.getByTestId('reading-copy-link').click();
    expect(page.url()).toContain('size=175');
    expect(page.url()).not.toContain('%25');
  });

  it('says what the numbers mean with the passage’s own, and heads the top ten the right way round, in both languages', async () => {
    const { page } = session.opened;
    const tokens = page.locator('[data-testid=reading-tokens] button[data-index]');
    // The most surprising token: its example sentence, with its bits, coin flips and chance.
    const bits = await tokens.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-bits') ?? 'NaN')));
    const worst = bits.reduce((best, b, j) => (Number.isFinite(b) && (best < 0 || b > bits[best]) ? j : best), -1);
    await tokens.nth(worst).click();
    const text = (await tokens.nth(worst).textContent())!;
    const example = (await page.getByTestId('reading-example').textContent())!;
    expect(example).toContain(`“${text}” cost ${bits[worst].toFixed(1)} bits`);
    expect(example).toContain(`${Math.round(bits[worst])} coin flips`);
    const p = 2 ** -bits[worst];
    if (p < 0.001) expect(await page.getByTestId('reading-came').textContent()).toMatch(/chance of 1 in [\d,]+/);
    expect(await page.getByTestId('reading-came').textContent()).not.toContain('0.000');
    expect(await page.getByTestId('reading-meaning').textContent()).toContain('bits');
    expect(await page.getByTestId('reading-bpc').textContent()).toMatch(/about [\d,]+ equally likely ones/);
    await page.getByTestId('lang-zh').click();
    expect((await page.getByTestId('reading-expected').locator('h3').textContent())!.trim()).toBe(`在“${text}”出现之前，模型对下一个词元的预期：`);
    expect(await page.getByTestId('reading-example').textContent()).toContain('硬币');
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-tokens-zh.png') });
    await page.getByTestId('lang-en').click();
    expect((await page.getByTestId('reading-expected').locator('h3').textContent())!.trim()).toBe(`Before “${text}” came, the model expected:`);
  });

  it('redraws a position’s distribution as the temperature dial moves, with the model’s own chances', async () => {
    const { page } = session.opened;
    const ids = encodeFixture(LUNYU);
    const { logits } = forward(reference, ids);
    // The token 学 (index 3): the row before it is the reference's row 2.
    await page.locator('[data-testid=reading-tokens] button[data-index="3"]').click();
    await page.getByTestId('temperature-open').locator('summary').click();
    await page.getByTestId('temperature-dial').waitFor({ timeout: 60_000 });
    for (const temperature of [1, 0.5, 1.7]) {
      await page.getByTestId('dial-slider').evaluate((el, v) => {
        (el as HTMLInputElement).value = String(v);
        el.dispatchEvent(new Event('input', { bubbles: true }));
      }, temperature);
      const want = atTemperature(logits[2], temperature);
      const bars = await page.locator('[data-testid=dial-bar]').evaluateAll((els) => els.map((e) => ({ id: Number(e.getAttribute('data-id')), p: Number(e.getAttribute('data-p')) })));
      expect(bars.length).toBe(10);
      for (const bar of bars) expect(Math.abs(bar.p - want[bar.id]), `T ${temperature}, token ${bar.id}`).toBeLessThan(1e-5);
      // The ten bars are the ten likeliest, best first.
      const order = [...want.keys()].sort((a, b) => want[b] - want[a] || a - b).slice(0, 10);
      expect(bars.map((b) => b.id)).toEqual(order);
    }
    expect(await page.getByTestId('dial-sentence').textContent()).toContain('At temperature 1.7');
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-dial-en.png') });
    // The link carries the dial's setting.
    await page.getByTestId('reading-copy-link').click();
    expect(new URLSearchParams(page.url().split('#/reading/')[1]).get('temp')).toBe('1.7');
  });

  it('predict, then reveal: the class guesses, the page reveals the original and the model’s ten, and keeps the tally', async () => {
    const { page } = session.opened;
    await readView(page, 'predict', 'predict-chars');
    const ids = encodeFixture(LUNYU);
    const { logits } = forward(reference, ids);
    // The class sees 3, 7 and 12 characters (jiangu-tiny: one token a character, so each is askable).
    for (const k of [3, 7, 12]) await page.locator(`[data-testid=predict-char][data-k="${k}"]`).click();
    await page.getByTestId('predict-start').click();
    const chars = [...LUNYU];
    const guesses = [chars[3], '不', chars[12]];
    for (const [i, k] of [3, 7, 12].entries()) {
      expect(await page.getByTestId('predict-lesson').getAttribute('data-k')).toBe(String(k));
      expect(await page.getByTestId('predict-passage').textContent()).not.toContain(chars[k] + chars[k + 1]);
      await page.getByTestId('predict-guess').fill(guesses[i]);
      await page.getByTestId('predict-reveal').click();
      expect(await page.getByTestId('predict-original').textContent()).toBe(chars[k]);
      const want = atTemperature(logits[k - 1], 1);
      const top = await page.locator('[data-testid=predict-model-top] li').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
      expect(top).toEqual([...want.keys()].sort((a, b) => want[b] - want[a] || a - b).slice(0, 10));
      expect(await page.getByTestId('predict-model-verdict').getAttribute('data-right')).toBe(String(top[0] === ids[k]));
      if (i < 2) await page.getByTestId('predict-next').click();
    }
    const tally = page.getByTestId('predict-tally');
    expect(await tally.getAttribute('data-revealed')).toBe('3');
    expect(await tally.getAttribute('data-class')).toBe(String(guesses.filter((g, i) => g === chars[[3, 7, 12][i]]).length));
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-predict-en.png') });
    await page.getByTestId('lang-zh').click();
    expect(await tally.textContent()).toMatch(/全班|班/);
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-predict-zh.png') });
    await page.getByTestId('lang-en').click();
    // The lesson link names the characters to predict; a fresh tab opens on them.
    await page.getByTestId('reading-copy-link').click();
    expect(new URLSearchParams(page.url().split('#/reading/')[1]).get('ask')).toBe('3,7,12');
  });

  it('opens the lens with no second load and no button, its grid scrollable and its first column kept', async () => {
    const { page } = session.opened;
    const workers = () => page.workers().filter((w) => w.url().includes('model.worker')).length;
    const before = workers();
    await page.getByTestId('reading-passage').fill('子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？太史公曰：余读孔氏书，想见其为人。');
    await page.getByTestId('reading-view-lens').click();
    expect(await page.getByTestId('lens-prepare-a').count()).toBe(0);
    expect(await page.getByTestId('reading-read').isDisabled()).toBe(false);
    await readView(page, 'lens', 'lens-grid');
    expect(workers()).toBe(before);
    expect(await page.getByTestId('lens-example').textContent()).toContain('layer 1 would guess');
    // 氏 has no token in jiangu-tiny: the lens's input row shows it as itself, marked, not as <unk>.
    const inputs = await page.locator('[data-testid=lens-input]').evaluateAll((els) => els.map((e) => [e.textContent, e.closest('td')!.classList.contains('unknown')]));
    expect(inputs.filter(([, unknown]) => unknown).map(([text]) => text)).toEqual(['氏']);
    expect(inputs.some(([text]) => text === '<unk>')).toBe(false);
    await page.setViewportSize({ width: 1000, height: 900 });
    const scroll = await page.locator('[data-testid=lens-grid]').evaluate((grid) => {
      const box = grid.parentElement!;
      box.scrollLeft = 200;
      const th = grid.querySelector('th')!.getBoundingClientRect().left - box.getBoundingClientRect().left;
      return { wide: box.scrollWidth > box.clientWidth, moved: box.scrollLeft, th };
    });
    expect(scroll.wide).toBe(true);
    expect(scroll.moved).toBeGreaterThan(0);
    expect(Math.abs(scroll.th)).toBeLessThan(2);
    await page.setViewportSize({ width: 1920, height: 1080 });
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-lens-en.png') });
  });

  it('shows where the model looks: each layer’s attention from the chosen token, heads averaged or one head, the reference’s', async () => {
    const { page } = session.opened;
    const text = '学而时习之不亦说乎';
    await page.getByTestId('reading-passage').fill(text);
    await readView(page, 'attention', 'attention-grid');
    const ids = encodeFixture(text);
    const { attentionWeights } = forward(reference, ids, undefined, { attentionWeights: true });
    const heads = reference.spec.numHeads;
    const cells = async () => page.locator('[data-testid=attention-grid] tr[data-layer]').evaluateAll((rows) => rows.map((r) => ({ layer: Number(r.getAttribute('data-layer')), w: [...r.querySelectorAll('td')].map((td) => Number(td.getAttribute('data-w'))) })));
    for (const [position, head] of [[ids.length - 1, null], [4, null], [4, 1]] as const) {
      if (head === null) await page.locator(`[data-testid=attention-tokens] button[data-index="${position}"]`).click();
      else await page.getByTestId('attention-head').selectOption(String(head));
      await page.waitForFunction((p) => document.querySelector('[data-testid=attention-grid]')?.getAttribute('data-position') === String(p), position, { polling: 100 });
      await page.waitForTimeout(50);
      for (const { layer, w } of await cells()) {
        expect(w.length).toBe(position + 1);
        w.forEach((got, j) => {
          const at = (h: number) => attentionWeights![layer][(position * heads + h) * ids.length + j];
          const want = head === null ? Array.from({ length: heads }, (_, h) => at(h)).reduce((a, b) => a + b, 0) / heads : at(head);
          expect(Math.abs(got - want), `layer ${layer}, key ${j}, head ${head}`).toBeLessThan(1e-5);
        });
      }
    }
    expect(await page.getByTestId('attention-example').textContent()).toContain('(head 2)');
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-attention-en.png') });
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('attention-example').textContent()).toContain('第 2 个头');
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-attention-zh.png') });
    await page.getByTestId('lang-en').click();
    await page.getByTestId('reading-copy-link').click();
    const query = new URLSearchParams(page.url().split('#/reading/')[1]);
    expect([query.get('view'), query.get('token'), query.get('head')]).toEqual(['attention', '4', '1']);
  });

  it('marks 断句 breaks a back row can see, and counts in the singular where it is one', async () => {
    const { page } = session.opened;
    await page.getByTestId('reading-passage').fill('子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？');
    await readView(page, 'breaks', 'breaks-strip');
    await page.getByTestId('breaks-threshold').evaluate((el) => {
      (el as HTMLInputElement).value = '0.05';
      el.dispatchEvent(new Event('input', { bubbles: true }));
    });
    const cuts = page.locator('[data-testid=breaks-strip] .gap.marked .cut');
    expect(await cuts.count()).toBe(await page.locator('[data-testid=breaks-strip] .gap.marked').count());
    if ((await cuts.count()) > 0) {
      const char = await page.locator('[data-testid=breaks-strip] .char').first().evaluate((e) => e.getBoundingClientRect().height);
      const cut = await cuts.first().evaluate((e) => e.getBoundingClientRect());
      expect(cut.height).toBeGreaterThan(0.7 * char);
      expect(cut.width).toBeGreaterThanOrEqual(4);
    }
    expect(await page.getByTestId('breaks-counts').textContent()).not.toMatch(/\b1 gaps\b/);
    expect(await page.getByTestId('breaks-words').textContent()).toContain('Precision: of the breaks the model made');
    await page.getByTestId('reading-board').screenshot({ path: join(shots, 'reading-lesson-projector-breaks-en.png') });
  });
});

describe('a link the page cannot fully take', () => {
  const query = new URLSearchParams({ view: 'sampling', text: '学'.repeat(LINK_TEXT_LIMIT + 5), model: 'site:', t: '7', k: '40', seed: '3', n: '20', size: '999' });
  const session = useBrowserSession({ webgpu: false, path: `/#/reading/${query.toString()}` });

  it('says each part it did not use and why, in both languages, and goes on with its own choices', async () => {
    const { page } = session.opened;
    const notice = page.getByTestId('reading-link-dropped');
    await notice.waitFor();
    const parts = await notice.locator('li').evaluateAll((els) => els.map((e) => [e.getAttribute('data-part'), e.getAttribute('data-reason')]));
    expect(parts).toEqual([['text', 'too-long'], ['model', 'not-a-model'], ['sampling', 'out-of-range'], ['size', 'out-of-range']]);
    expect(await notice.textContent()).toContain(`longer than ${LINK_TEXT_LIMIT.toLocaleString('en')} characters`);
    expect(await page.getByTestId('reading-passage').inputValue()).not.toContain('学学学');
    expect(await page.getByTestId('sampling-temperature').inputValue()).toBe('0.8');
    await page.getByTestId('lang-zh').click();
    expect(await notice.textContent()).toContain('此链接中有几项本页无法采用');
    expect(await notice.textContent()).toContain('抽样设置');
    await page.getByTestId('lang-en').click();
  });
});

describe('a model the Playground loaded, without the lens', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/' });

  it('is loaded once more with the lens in its own worker when the lens view opens, with no button, and reads', async () => {
    const { page } = session.opened;
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.getByTestId('score').waitFor({ timeout: 90_000 });
    await page.waitForFunction(() => !document.querySelector('[data-testid=load]')?.textContent?.includes('Loading'), null, { polling: 100, timeout: MODEL_LOAD_MS });
    // Count the loads the page sends its workers from here on.
    await page.evaluate(() => {
      const post = Worker.prototype.postMessage as (this: Worker, ...args: unknown[]) => void;
      const loads: { lens: boolean }[] = [];
      Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
        const message = args[0] as { kind?: string; params?: { lens?: boolean } } | null;
        if (message?.kind === 'load') loads.push({ lens: message.params?.lens === true });
        post.apply(this, args);
      } as typeof Worker.prototype.postMessage;
      (globalThis as unknown as { __loads: typeof loads }).__loads = loads;
    });
    const workers = () => page.workers().filter((w) => w.url().includes('model.worker')).length;
    const before = workers();
    await page.getByTestId('nav-reading').click();
    await page.getByTestId('reading-model-a-loaded').waitFor();
    await page.getByTestId('reading-passage').fill('学而时习之');
    await readView(page, 'tokens', 'reading-tokens');
    expect(await page.evaluate(() => (globalThis as unknown as { __loads: unknown[] }).__loads)).toEqual([]);
    await page.getByTestId('reading-view-lens').click();
    await readView(page, 'lens', 'lens-grid');
    expect(await page.evaluate(() => (globalThis as unknown as { __loads: unknown[] }).__loads)).toEqual([{ lens: true }]);
    expect(workers()).toBe(before);
    // Back on the tokens view, and the lens view again: nothing more is loaded.
    await readView(page, 'tokens', 'reading-tokens');
    await readView(page, 'lens', 'lens-grid');
    expect(await page.evaluate(() => (globalThis as unknown as { __loads: unknown[] }).__loads)).toHaveLength(1);
  });
});
