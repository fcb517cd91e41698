// `npm run bench`, lesson part (issue 45): a teacher preparing and giving a lesson on 《论语》 and
// 《史记》 with the Reading page, on WASM at 1920 × 1080, in the page itself (the clicks a teacher
// makes), each step timed from the click to what the class sees: the model loaded (with the lens and
// the attention behind their gates), the passage read, a token chosen and the temperature dial
// opened, five places to predict chosen and revealed, 断句, the lens, the attention of a token and of
// one head, a 32-token continuation, the lesson link copied and opened in a fresh tab. Screenshots of
// each view in both languages go to bench-results/lesson-<model>-<view>-<lang>.png.
// A measurement, not a test: it prints a Markdown table and writes bench-results/lesson-<timestamp>.json.
//
//   npx tsx scripts/bench/lesson.ts [--models jiangu-large:q4,real-qwen3-0.6b:q8]
// (after `npm run build`, `npm run fixtures:large`, and `npm run fixtures:real` for the real-shaped one)
import { existsSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { findChromium, openPage, withChromium } from '../browser.ts';
import { DEFAULT_OUT_ROOT } from '../fixtures/generate.ts';
import { REAL_OUT_ROOT } from '../fixtures/real-specs.ts';
import { projectRoot } from '../site-routes.ts';
import { machineInfo, machineLines, writeBenchRecord } from './report.ts';

const { values } = parseArgs({ options: { models: { type: 'string', default: 'jiangu-large:q4,real-qwen3-0.6b:q8' } } });
const plan = values
  .models!.split(',')
  .map((m) => m.split(':') as [string, string])
  .filter(([name]) => existsSync(join(DEFAULT_OUT_ROOT, name)) || existsSync(join(REAL_OUT_ROOT, name)));
if (plan.some(([name]) => existsSync(join(REAL_OUT_ROOT, name)))) process.env.JIANGU_MODELS = [process.env.JIANGU_MODELS, REAL_OUT_ROOT].filter(Boolean).join(':');
const out = join(projectRoot, 'bench-results');
mkdirSync(out, { recursive: true });

const LUNYU = '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？';
const SHIJI = '太史公曰：诗有之：“高山仰止，景行行止。”虽不能至，然心乡往之。余读孔氏书，想见其为人。';
const LONG_WAIT = 1_800_000;

interface Step {
  step: string;
  ms: number;
}

async function timed(steps: Step[], step: string, body: () => Promise<unknown>): Promise<void> {
  const t0 = performance.now();
  await body();
  steps.push({ step, ms: performance.now() - t0 });
  process.stderr.write(`  ${step}: ${((performance.now() - t0) / 1000).toFixed(1)} s\n`);
}

const enabled = (page: Page) => page.waitForFunction(() => !document.querySelector('[data-testid=reading-read]')?.hasAttribute('disabled'), null, { polling: 100, timeout: LONG_WAIT });

async function read(page: Page, view: string, shown: string): Promise<void> {
  await page.getByTestId(`reading-view-${view}`).click();
  await enabled(page);
  await page.getByTestId('reading-read').click();
  await page.getByTestId(shown).first().waitFor({ timeout: LONG_WAIT });
}

async function shoot(page: Page, model: string, view: string): Promise<void> {
  for (const lang of ['en', 'zh'] as const) {
    await page.getByTestId(`lang-${lang}`).click();
    await page.getByTestId('reading-board').screenshot({ path: join(out, `lesson-${model}-${view}-${lang}.png`) });
  }
  await page.getByTestId('lang-en').click();
}

const started = new Date();
const results: { model: string; dtype: string; steps: Step[] }[] = [];
await withChromium({ webgpu: false }, async (url, browser) => {
  for (const [model, dtype] of plan) {
    process.stderr.write(`lesson: ${model} ${dtype}\n`);
    const steps: Step[] = [];
    const opened = await openPage(browser, `${url}/#/reading`);
    const page = opened.page;
    await page.setViewportSize({ width: 1920, height: 1080 });
    const link = `#/reading/${new URLSearchParams({ view: 'tokens', text: LUNYU, model: `site:${model}`, dtype, size: '175' }).toString()}`;
    await page.goto(`${url}/${link}`);
    await timed(steps, 'load the model (lens and attention included)', async () => {
      await page.getByTestId('reading-model-a-load-offered').click();
      await page.getByTestId('reading-model-a-loaded').waitFor({ timeout: LONG_WAIT });
    });
    await timed(steps, 'read 《论语》 token by token', () => read(page, 'tokens', 'reading-tokens'));
    await shoot(page, model, 'tokens');
    await timed(steps, 'choose 曰 and open the temperature dial', async () => {
      await page.locator('[data-testid=reading-tokens] button[data-index="1"]').click();
      await page.getByTestId('temperature-open').locator('summary').click();
      await page.getByTestId('temperature-dial').waitFor({ timeout: LONG_WAIT });
    });
    await timed(steps, 'predict: read, choose 5 places, reveal each', async () => {
      await read(page, 'predict', 'predict-chars');
      const selectable = page.locator('[data-testid=predict-char][data-selectable=true]');
      const n = await selectable.count();
      for (const i of [2, 6, 10, 14, 18].filter((i) => i < n)) await selectable.nth(i).click();
      await page.getByTestId('predict-start').click();
      for (let i = 0; i < 5; i++) {
        await page.getByTestId('predict-guess').fill('不');
        await page.getByTestId('predict-reveal').click();
        await page.getByTestId('predict-original').waitFor();
        if (i < 4 && (await page.getByTestId('predict-next').isEnabled())) await page.getByTestId('predict-next').click();
      }
    });
    await shoot(page, model, 'predict');
    await timed(steps, '断句 of 《论语》', () => read(page, 'breaks', 'breaks-strip'));
    await shoot(page, model, 'breaks');
    await page.getByTestId('reading-passage').fill(SHIJI);
    await timed(steps, 'the lens of 《史记》', () => read(page, 'lens', 'lens-grid'));
    await shoot(page, model, 'lens');
    await timed(steps, 'attention: read, choose 余, then head 1', async () => {
      await read(page, 'attention', 'attention-grid');
      const tokens = page.locator('[data-testid=attention-tokens] button');
      await tokens.nth(Math.floor((await tokens.count()) / 2)).click();
      await page.getByTestId('attention-head').selectOption('0');
      await page.getByTestId('attention-grid').waitFor();
    });
    await shoot(page, model, 'attention');
    await page.getByTestId('reading-view-sampling').click();
    await page.getByTestId('sampling-seed').fill('7');
    await timed(steps, 'a 32-token continuation', () => read(page, 'sampling', 'sampling-summary'));
    await shoot(page, model, 'sampling');
    await timed(steps, 'copy the lesson link and open it in a new tab', async () => {
      await page.getByTestId('reading-copy-link').click();
      const fresh = await page.context().newPage();
      await fresh.goto(page.url());
      await fresh.getByTestId('reading-model-a-offer').waitFor();
      await fresh.close();
    });
    results.push({ model, dtype, steps });
    await opened.context.close();
  }
});

const seconds = (new Date().getTime() - started.getTime()) / 1000;
console.log(`\n## A lesson with the Reading page (WASM, 1920 × 1080)\n`);
console.log(machineLines(machineInfo(findChromium()), started, seconds));
for (const r of results) {
  console.log(`\n${r.model} ${r.dtype}\n\n| step | time |\n|---|---|`);
  for (const s of r.steps) console.log(`| ${s.step} | ${(s.ms / 1000).toFixed(1)} s |`);
}
writeBenchRecord(projectRoot, 'lesson-', started, { machine: machineInfo(findChromium()), results });
