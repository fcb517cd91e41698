// A phone's width (375 px), in both languages: the Playground's question form and classroom mode's
// header fit the viewport. Nothing overflows the page sideways (scrollWidth ≤ clientWidth), the named
// elements lie within 375 px, and classroom's header keeps the position ("1 / 30") and the score on one line each.
// Screenshots in test-results/narrow-*.png. Classroom's Full screen button says Exit full screen in full screen.
// The Reading page's four views fit too, and its Full screen puts the reading board on the projector.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { projectRoot } from '../../scripts/site-routes.ts';
import { startFixtureRun, storeSample, waitForStatus } from './runs.ts';
import { useBrowserSession } from './session.ts';
import { readingHash } from '../../src/ui/reading/reading-link.ts';

const WIDTH = 375;
const shots = join(projectRoot, 'test-results');

/** The page's sideways overflow and, per test id, the element's right edge (the first match). */
async function fit(page: Page, testIds: string[]): Promise<{ scrollWidth: number; clientWidth: number; right: Record<string, number> }> {
  return page.evaluate((ids) => {
    const right: Record<string, number> = {};
    for (const id of ids) {
      const el = document.querySelector(`[data-testid="${id}"]`);
      right[id] = el ? Math.ceil(el.getBoundingClientRect().right) : -1;
    }
    return { scrollWidth: document.documentElement.scrollWidth, clientWidth: document.documentElement.clientWidth, right };
  }, testIds);
}

/** How many lines an element's text takes: the distinct tops of its text's line boxes. */
const lines = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((el) => {
    const range = document.createRange();
    range.selectNodeContents(el);
    // A smaller word on the same line (<small>) sits a pixel or two lower: a new line is over half a font size down.
    const half = parseFloat(getComputedStyle(el).fontSize) / 2;
    const tops = [...range.getClientRects()].filter((r) => r.width > 0).map((r) => r.top).sort((a, b) => a - b);
    return tops.filter((top, i) => i === 0 || top - tops[i - 1] > half).length;
  });

describe('a 375 px wide screen', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/playground' });

  it('the Playground shows options A–D whole, in English and Chinese', async () => {
    const { page } = session.opened;
    mkdirSync(shots, { recursive: true });
    await page.setViewportSize({ width: WIDTH, height: 900 });
    const ids = ['option-A', 'option-B', 'option-C', 'option-D', 'question', 'score', 'model-choice', 'load'];
    for (const lang of ['en', 'zh'] as const) {
      await page.getByTestId(`lang-${lang}`).click();
      await page.getByTestId('option-D').waitFor();
      const measured = await fit(page, ids);
      await page.screenshot({ path: join(shots, `narrow-playground-${lang}.png`), fullPage: true });
      expect(measured.scrollWidth, `${lang}: the page scrolls sideways`).toBeLessThanOrEqual(measured.clientWidth);
      for (const id of ids) expect(measured.right[id], `${lang}: ${id}`).toBeGreaterThan(0);
      for (const id of ids) expect(measured.right[id], `${lang}: ${id} ends past ${WIDTH} px`).toBeLessThanOrEqual(WIDTH);
    }
    await page.getByTestId('lang-en').click();
  });

  it('classroom mode’s header keeps the position and the score on one line each and the Full screen button in view, in English and Chinese', async () => {
    const { page } = session.opened;
    await page.setViewportSize({ width: 1200, height: 1000 });
    await page.goto(`${session.url}/#/data`);
    await storeSample(page);
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', limit: 3 });
    await waitForStatus(page, 'completed');
    await page.setViewportSize({ width: WIDTH, height: 800 });
    await page.goto(`${session.url}/#/classroom/${encodeURIComponent(runId)}`);
    await page.getByTestId('classroom-question').waitFor();
    const ids = ['classroom-position', 'classroom-score', 'classroom-fullscreen', 'lang-zh'];
    for (const lang of ['en', 'zh'] as const) {
      await page.getByTestId(`lang-${lang}`).click();
      await page.getByTestId('classroom-fullscreen').waitFor();
      const measured = await fit(page, ids);
      await page.screenshot({ path: join(shots, `narrow-classroom-${lang}.png`), fullPage: true });
      expect(measured.scrollWidth, `${lang}: the page scrolls sideways`).toBeLessThanOrEqual(measured.clientWidth);
      for (const id of ids) expect(measured.right[id], `${lang}: ${id}`).toBeGreaterThan(0);
      for (const id of ids) expect(measured.right[id], `${lang}: ${id} ends past ${WIDTH} px`).toBeLessThanOrEqual(WIDTH);
      expect(await lines(page, 'classroom-position'), `${lang}: the position ("1 / 30") wraps`).toBe(1);
      expect(await lines(page, 'classroom-score'), `${lang}: the score wraps`).toBe(1);
      expect(await lines(page, 'classroom-fullscreen'), `${lang}: the Full screen button wraps`).toBe(1);
    }
    await page.getByTestId('lang-en').click();
    await page.setViewportSize({ width: 1200, height: 1000 });
    // In full screen the button says how to leave it, in both languages, and leaves it.
    const button = page.getByTestId('classroom-fullscreen');
    expect(await button.textContent()).toBe('Full screen');
    await button.click();
    await page.locator('[data-testid=classroom-fullscreen][data-fullscreen=yes]').waitFor();
    expect(await page.evaluate(() => document.fullscreenElement !== null)).toBe(true);
    expect(await button.textContent()).toBe('Exit full screen');
    await page.getByTestId('lang-zh').click();
    expect(await button.textContent()).toBe('退出全屏');
    await page.getByTestId('lang-en').click();
    await button.click();
    await page.locator('[data-testid=classroom-fullscreen][data-fullscreen=no]').waitFor();
    expect(await page.evaluate(() => document.fullscreenElement)).toBe(null);
    expect(await button.textContent()).toBe('Full screen');
  });

  it('the Reading page’s views fit, in English and Chinese, and its Full screen button puts the reading on the projector', async () => {
    const { page } = session.opened;
    await page.setViewportSize({ width: WIDTH, height: 800 });
    const link = readingHash({ view: 'tokens', text: '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？', model: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', threshold: null })!;
    await page.goto(`${session.url}/${link}`);
    await page.getByTestId('reading-model-a-load-offered').click();
    await page.getByTestId('reading-model-a-loaded').waitFor({ timeout: 60_000 });
    const views: [string, string][] = [['tokens', 'reading-tokens'], ['predict', 'predict-chars'], ['breaks', 'breaks-strip'], ['sampling', 'sampling-steps'], ['lens', 'lens-grid'], ['attention', 'attention-grid']];
    for (const [view, shown] of views) {
      await page.getByTestId(`reading-view-${view}`).click();
      await page.waitForFunction(() => !document.querySelector('[data-testid=reading-read]')?.hasAttribute('disabled'), null, { polling: 100, timeout: 60_000 });
      await page.getByTestId('reading-read').click();
      await page.getByTestId(shown).waitFor({ timeout: 60_000 });
      for (const lang of ['en', 'zh'] as const) {
        await page.getByTestId(`lang-${lang}`).click();
        const measured = await fit(page, ['reading-read', 'reading-fullscreen', shown]);
        await page.screenshot({ path: join(shots, `narrow-reading-${view}-${lang}.png`), fullPage: true });
        expect(measured.scrollWidth, `${view} ${lang}: the page scrolls sideways`).toBeLessThanOrEqual(measured.clientWidth);
        for (const id of ['reading-read', 'reading-fullscreen']) expect(measured.right[id], `${view} ${lang}: ${id} ends past ${WIDTH} px`).toBeLessThanOrEqual(WIDTH);
        if (view === 'lens') {
          // Each layer's top 5, all five on screen (issue 45: four of five showed, the fifth cut off).
          const rights = await page.locator('[data-testid=lens-position] tr[data-layer] td').evaluateAll((tds) => tds.map((td) => td.getBoundingClientRect().right));
          expect(rights.length).toBeGreaterThan(0);
          for (const right of rights) expect(right, `${lang}: a lens top-5 cell ends past ${WIDTH} px`).toBeLessThanOrEqual(WIDTH);
        }
      }
    }
    await page.getByTestId('lang-en').click();
    const button = page.getByTestId('reading-fullscreen');
    await button.click();
    await page.locator('[data-testid=reading-fullscreen][data-fullscreen=yes]').waitFor();
    expect(await page.evaluate(() => document.fullscreenElement?.getAttribute('data-testid'))).toBe('reading-board');
    expect(await button.textContent()).toBe('Exit full screen');
    await button.click();
    await page.locator('[data-testid=reading-fullscreen][data-fullscreen=no]').waitFor();
  });
});
