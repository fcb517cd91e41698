// The reading page as a teacher uses it (issue 37), on WASM: a link names the passage, the view and
// the model; the page offers the model and loads it only when asked; the tokens are coloured by the
// reference forward's surprise; a chosen token lists the reference's ten; the 断句 strip's bars are
// the reference's punctuation mass and its counts are breaksAt's at the threshold the slider sets, in
// English and in Chinese; the copied link opens the same view in a fresh page; a passage longer than
// the model's context is refused with a message that says so, and the page goes on.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encodeFixture, forward, loadReferenceModel, referenceLens } from '../../scripts/fixtures/reference.ts';
import { C3_PUNCTUATION } from '../../src/lib/core/benchmarks/adapters/c3bench-values.ts';
import type { PassageReading } from '../../src/lib/core/reading/passage.ts';
import { readRow, surpriseBits } from '../../src/lib/core/reading/row-reading.ts';
import { breaksAt, breakStrip, unpunctuated } from '../../src/lib/core/reading/sentence-breaks.ts';
import { readingHash } from '../../src/ui/reading/reading-link.ts';
import { referenceContinuation } from '../unit/reading/sampling-reference.ts';
import { useBrowserSession } from './session.ts';

const PUNCTUATED = '学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？';
const model = loadReferenceModel('jiangu-tiny', 'fp32');
const modelQ4 = loadReferenceModel('jiangu-tiny', 'q4');
const tinyPunctuation = [...new Set([...C3_PUNCTUATION].map((c) => encodeFixture(c)[0] ?? 0).filter((id) => id > 0))].sort((a, b) => a - b);

/** The reference's reading of a text (jiangu-tiny: one token per character, no BOS). */
function referenceReading(text: string, reference = model): PassageReading {
  const ids = encodeFixture(text);
  const { logits } = forward(reference, ids);
  return {
    chars: [...text],
    ids,
    pieces: [...text].map((c) => ({ text: c, byte: false, special: false })),
    charEnds: ids.map((_, j) => j + 1),
    rows: logits.map((row, j) => readRow(row, 0, model.vocabSize, j + 1 < ids.length ? ids[j + 1] : null, 10, tinyPunctuation)),
  };
}

async function setThreshold(page: Page, value: number): Promise<void> {
  await page.getByTestId('breaks-threshold').evaluate((el, v) => {
    (el as HTMLInputElement).value = String(v);
    el.dispatchEvent(new Event('input', { bubbles: true }));
  }, value);
}

const countsOf = (text: string) => (text.match(/\d+/g) ?? []).map(Number);

describe('the reading page', () => {
  const link = readingHash({ view: 'tokens', text: PUNCTUATED, model: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', threshold: null })!;
  const session = useBrowserSession({ webgpu: false, path: `/${link}` });

  it('offers the link’s model, colours each token by its surprise, and lists what the model expected', async () => {
    const { page } = session.opened;
    await page.getByTestId('reading-page').waitFor();
    expect(await page.getByTestId('reading-passage').inputValue()).toBe(PUNCTUATED);
    // Nothing loads unasked: the Read button waits for a model.
    expect(await page.getByTestId('reading-read').isDisabled()).toBe(true);
    await page.getByTestId('reading-model-a-load-offered').click();
    await page.getByTestId('reading-model-a-loaded').waitFor({ timeout: 60_000 });
    await page.getByTestId('reading-read').click();
    await page.getByTestId('reading-tokens').waitFor({ timeout: 60_000 });

    const want = referenceReading(PUNCTUATED);
    const buttons = page.locator('[data-testid=reading-tokens] button[data-index]');
    expect(await buttons.count()).toBe(want.ids.length + 1);
    // The first token has nothing before it (no BOS): not coloured; every other one is its reference surprise.
    expect(await buttons.nth(0).getAttribute('data-bits')).toBeNull();
    for (let j = 1; j < want.ids.length; j++) {
      const bits = Number(await buttons.nth(j).getAttribute('data-bits'));
      expect(Math.abs(bits - surpriseBits(want.rows[j - 1].logprob!))).toBeLessThan(1e-4);
    }
    const bpc = want.rows.slice(0, -1).reduce((s, r) => s + surpriseBits(r.logprob!), 0) / (want.ids.length - 1);
    expect(await page.getByTestId('reading-bpc').textContent()).toContain(`${bpc.toFixed(2)} bits per character`);

    // A token chosen by the keyboard: its row's ten, best first, and the rank of the one that came.
    await buttons.nth(1).click();
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await buttons.nth(3).getAttribute('aria-selected')).toBe('true');
    const row = want.rows[2];
    const ids = await page.locator('[data-testid=reading-top] li').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    expect(ids).toEqual(row.topIds);
    expect(await page.getByTestId('reading-came').textContent()).toContain(`rank ${row.rank!.toLocaleString('en')}`);
  });

  it('断句: bars of the reference’s punctuation mass, counted at the slider’s threshold, in both languages; the link keeps the view', async () => {
    const { page } = session.opened;
    await page.getByTestId('reading-view-breaks').click();
    await page.getByTestId('reading-read').click();
    await page.getByTestId('breaks-strip').waitFor({ timeout: 60_000 });
    const strip = breakStrip(PUNCTUATED, referenceReading(unpunctuated(PUNCTUATED)));
    const shown = await page.locator('[data-testid=breaks-strip] .gap').evaluateAll((els) => els.map((e) => ({ p: e.getAttribute('data-p'), mark: e.getAttribute('data-mark') })));
    expect(shown.map((g) => g.mark)).toEqual(strip.gaps.map((g) => g.mark));
    shown.forEach((g, i) => {
      const want = strip.gaps[i].probability;
      if (want === null) expect(g.p).toBe('');
      else expect(Math.abs(Number(g.p) - want)).toBeLessThan(1e-4);
    });
    // The lowest threshold marks more gaps than the highest; each count is breaksAt's.
    const masses = strip.gaps.map((g) => g.probability ?? 0).sort((a, b) => a - b);
    const low = Math.max(0.05, Math.round(masses[Math.floor(masses.length / 2)] * 20) / 20);
    for (const threshold of [low, 0.95]) {
      await setThreshold(page, threshold);
      const want = breaksAt(strip, threshold);
      const [, tp, fp, fn] = countsOf((await page.getByTestId('breaks-counts').textContent())!.split(':').slice(1).join(':')).slice(-4);
      expect({ tp, fp, fn }).toEqual({ tp: want.tp, fp: want.fp, fn: want.fn });
    }
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('breaks-counts').textContent()).toContain('精确率');
    expect(await page.getByTestId('reading-copy-link').textContent()).toBe('复制本课的链接');
    await page.getByTestId('reading-copy-link').click();
    const copied = page.url();
    expect(copied).toContain('#/reading/');
    // A fresh page from the link: the same passage, the 断句 view and the threshold, and the model offered, not loaded.
    const fresh = await page.context().newPage();
    await fresh.goto(copied);
    await fresh.getByTestId('reading-page').waitFor();
    expect(await fresh.getByTestId('reading-passage').inputValue()).toBe(PUNCTUATED);
    expect(await fresh.getByTestId('reading-view-breaks').getAttribute('aria-pressed')).toBe('true');
    expect(await fresh.getByTestId('reading-model-a-offer').textContent()).toContain('jiangu-tiny');
    await fresh.close();
    await page.getByTestId('lang-en').click();
  });

  it('reads with two models side by side (fp32 and q4), with the difference in bits per character; the link names both', async () => {
    const { page } = session.opened;
    const both = readingHash({ view: 'tokens', text: PUNCTUATED, model: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', model2: { kind: 'site', name: 'jiangu-tiny' }, dtype2: 'q4', threshold: null })!;
    await page.goto(`${session.url}/${both}`);
    await page.getByTestId('reading-model-b-load-offered').click();
    await page.getByTestId('reading-model-b-loaded').waitFor({ timeout: 60_000 });
    // Model A is still the page's one model, loaded above from the first link.
    await page.getByTestId('reading-model-a-loaded').waitFor();
    await page.getByTestId('reading-read').click();
    await page.getByTestId('reading-column-b').waitFor({ timeout: 60_000 });
    const bpc = (reading: PassageReading) => reading.rows.slice(0, -1).reduce((s, r) => s + surpriseBits(r.logprob!), 0) / (reading.ids.length - 1);
    const want = bpc(referenceReading(PUNCTUATED, modelQ4)) - bpc(referenceReading(PUNCTUATED));
    const shown = Number(await page.getByTestId('reading-difference').getAttribute('data-value'));
    expect(Math.abs(shown - want)).toBeLessThan(1e-4);
    expect(await page.locator('[data-testid=reading-column-b] [data-testid=reading-tokens] button[data-index]').count()).toBe(encodeFixture(PUNCTUATED).length + 1);
    await page.getByTestId('reading-copy-link').click();
    expect(decodeURIComponent(page.url())).toContain('dtype2=q4');
    await page.getByTestId('reading-second').uncheck();
  });

  it('sampling, seen: the seeded continuation is the reference’s, a step shows what it was drawn from, and the link keeps the setting', async () => {
    const { page } = session.opened;
    await page.getByTestId('reading-view-sampling').click();
    await page.getByTestId('reading-passage').fill('学而时习之');
    await page.getByTestId('sampling-temperature').fill('0.9');
    await page.getByTestId('sampling-top-k').fill('20');
    await page.getByTestId('sampling-seed').fill('11');
    await page.getByTestId('sampling-tokens').fill('12');
    await page.getByTestId('reading-read').click();
    await page.getByTestId('sampling-summary').waitFor({ timeout: 60_000 });
    const want = referenceContinuation(model, encodeFixture('学而时习之'), { temperature: 0.9, topK: 20 }, 11, 12);
    const tokens = await page.locator('[data-testid=sampling-steps] button').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-token'))));
    expect(tokens).toEqual(want.map((s) => s.token));
    await page.locator('[data-testid=sampling-steps] button').nth(2).click();
    const top = await page.locator('[data-testid=sampling-top] li').evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-id'))));
    expect(top).toEqual(Array.from(want[2].distribution.ids.slice(0, 10)));
    expect(await page.getByTestId('sampling-summary').textContent()).toContain('seed 11');
    // An invalid setting is said, and nothing is asked of the model.
    await page.getByTestId('sampling-temperature').fill('5');
    expect(await page.getByTestId('sampling-invalid').textContent()).toContain('Temperature from 0 to 2');
    expect(await page.getByTestId('reading-read').isDisabled()).toBe(true);
    await page.getByTestId('sampling-temperature').fill('0.9');
    await page.getByTestId('reading-copy-link').click();
    const query = new URLSearchParams(page.url().split('#/reading/')[1]);
    expect({ view: query.get('view'), t: query.get('t'), k: query.get('k'), seed: query.get('seed'), n: query.get('n') }).toEqual({ view: 'sampling', t: '0.9', k: '20', seed: '11', n: '12' });
  });

  it('the logit lens: the model the page loaded carries the lens, in the same worker, and the grid’s top prediction per layer and position is the reference lens’s', async () => {
    const { page } = session.opened;
    const modelWorkers = () => page.workers().filter((w) => w.url().includes('model.worker')).length;
    const workersBefore = modelWorkers();
    await page.getByTestId('reading-view-lens').click();
    await page.getByTestId('reading-passage').fill('学而时习之不亦说乎');
    // The model was loaded by this page, with the lens behind its gate: no second load, no button.
    expect(await page.getByTestId('reading-needs-model').count()).toBe(0);
    expect(await page.getByTestId('lens-prepare-a').count()).toBe(0);
    await page.waitForFunction(() => !document.querySelector('[data-testid=reading-read]')?.hasAttribute('disabled'), null, { polling: 100, timeout: 60_000 });
    await page.getByTestId('reading-read').click();
    await page.getByTestId('lens-grid').waitFor({ timeout: 60_000 });
    const ids = encodeFixture('学而时习之不亦说乎');
    const want = referenceLens(model, ids, 5);
    const cells = await page.locator('[data-testid=lens-grid] tr[data-layer]').evaluateAll((rows) => rows.map((r) => ({ layer: Number(r.getAttribute('data-layer')), ids: [...r.querySelectorAll('td')].map((td) => Number(td.getAttribute('data-id'))) })));
    expect(cells.map((c) => c.layer)).toEqual([...Array(want.layers).keys()].reverse());
    for (const { layer, ids: top } of cells) expect(top).toEqual(ids.map((_, r) => want.ids[(layer * ids.length + r) * 5]));
    // A position chosen: its top 5 for every layer.
    await page.locator('[data-testid=lens-input][data-index="3"]').click();
    const five = await page.locator('[data-testid=lens-position] tr[data-layer="0"] td').evaluateAll((tds) => tds.map((td) => Number(td.getAttribute('data-id'))));
    expect(five).toEqual(Array.from(want.ids.slice(3 * 5, 3 * 5 + 5)));
    // One session per model: the lens load replaced the model's session in its worker, and the
    // tokens view reads on that same session, its numbers the reference's.
    expect(modelWorkers()).toBe(workersBefore);
    await page.getByTestId('reading-view-tokens').click();
    expect(await page.getByTestId('lens-prepare-a').count()).toBe(0);
    await page.getByTestId('reading-read').click();
    await page.getByTestId('reading-tokens').waitFor({ timeout: 60_000 });
    const read = referenceReading('学而时习之不亦说乎');
    const bits = await page.locator('[data-testid=reading-tokens] button[data-index]').evaluateAll((els) => els.slice(1, -1).map((e) => Number(e.getAttribute('data-bits'))));
    expect(bits.length).toBe(read.ids.length - 1);
    bits.forEach((b, j) => expect(Math.abs(b - surpriseBits(read.rows[j].logprob!))).toBeLessThan(1e-4));
  });

  it('refuses a passage longer than the model’s context, saying so, and reads the next one', async () => {
    const { page } = session.opened;
    await page.getByTestId('reading-view-tokens').click();
    await page.getByTestId('reading-passage').fill('学'.repeat(5_000));
    await page.getByTestId('reading-read').click();
    const error = page.getByTestId('reading-error');
    await error.waitFor({ timeout: 60_000 });
    expect(await error.textContent()).toMatch(/5,000|5000/);
    await page.getByTestId('reading-passage').fill('学而时习之');
    await page.getByTestId('reading-read').click();
    await page.getByTestId('reading-tokens').waitFor({ timeout: 60_000 });
    expect(await page.getByTestId('reading-error').count()).toBe(0);
  });
});
