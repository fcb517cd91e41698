// The run page's Robustness part and Compare's robustness rows, in Chromium on WASM: the fixture
// model picks the same letter whatever the prompt, so a circular 5-shot run of two ACLUE tasks shows
// a significant letter bias, is never right under every rotation (perf 0), and PriDe changes its
// answers. Every drawn number is checked against the metric functions run here, in Node, on the
// results the page stored; the part renders in English and Chinese; Compare against a plain run of
// the same items tests perf with McNemar. Screenshots in test-results/screenshots/.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { allRotationsCorrect, circularSummary, classroomTopLetter, letterBias, prideDebias } from '../../src/lib/core/metrics/index.ts';
import { mcnemarExact } from '../../src/lib/core/metrics/mcnemar.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';

const SCREENSHOTS = join(projectRoot, 'test-results', 'screenshots');
const TASKS = ['古音学', '医古文'];
const RUN = { dataset: 'aclue', shots: 5, limit: 4, tasks: TASKS };

const value = async (page: Page, testid: string): Promise<number> => Number(await page.getByTestId(testid).first().getAttribute('data-value'));

/**
 * A number the page computed with Math.exp/log equals Node's to 1e-12 relative: Chromium's and
 * Node's V8 may differ in the last bits of those (0.18792866941015077 against 0.1879286694101508).
 */
function expectSame(actual: number, expected: number, what: string): void {
  expect(Math.abs(actual - expected), `${what}: ${actual} vs ${expected}`).toBeLessThanOrEqual(1e-12 * Math.max(1, Math.abs(expected)));
}

/** The whole page, and the part under test alone (easier to look at). */
async function screenshot(page: Page, name: string, part: string): Promise<void> {
  mkdirSync(SCREENSHOTS, { recursive: true });
  writeFileSync(join(SCREENSHOTS, `${name}.png`), await page.screenshot({ fullPage: true }));
  writeFileSync(join(SCREENSHOTS, `${name}-part.png`), await page.getByTestId(part).screenshot());
}

describe('robustness: letter bias, circular evaluation and PriDe on the run page and in Compare', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let circularId = '';
  let plainId = '';
  let stored: { run: McRunRecord; results: McItemResult[] };

  it('runs two ACLUE tasks 5-shot, circular and plain, on the same items', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('dataset-aclue').getByTestId('download').click();
    await page.locator('[data-testid=dataset-aclue][data-stored=yes]').waitFor({ timeout: 90_000 });
    circularId = await startFixtureRun(page, { ...RUN, circular: true });
    await waitForStatus(page, 'completed', 180_000);
    plainId = await startFixtureRun(page, RUN);
    await waitForStatus(page, 'completed', 120_000);
    stored = await readStoredRun<McRunRecord, McItemResult>(page, circularId);
    expect(stored.run.config.circular).toBe(true);
    expect(stored.run.config.pride).toBeDefined();
    expect(stored.results).toHaveLength(2 * RUN.limit);
    expect(stored.results.every((r) => r.rotations?.length === r.letters.length - 1)).toBe(true);
  });

  it('the letter bias drawn is letterBias of the stored results, and significant', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/run/${circularId}`);
    await page.getByTestId('lang-en').click();
    await page.getByTestId('robustness').waitFor();
    // The run's head says how its options were asked.
    expect(await page.getByTestId('run-circular').textContent()).toContain('circular');
    // Issue 21: the head read "0-shot· circular …· PriDe" (Svelte trimmed the spans' leading spaces).
    expect(await page.getByTestId('run-circular').locator('..').textContent()).toMatch(/-shot · (prefix KV reuse · )?circular \(every rotation of the options\) · PriDe \(/);
    expect(await page.getByTestId('run-pride').textContent()).toContain(`seed ${stored.run.config.pride!.seed}`);
    const bias = letterBias(stored.results).overall;
    expect(bias.fit!.pValue).toBeLessThan(0.05);
    expectSame(await value(page, 'letter-bias-p'), bias.fit!.pValue, 'p');
    expect(await value(page, 'letter-bias-df')).toBe(bias.fit!.df);
    expect(await page.getByTestId('letter-bias-method').getAttribute('data-value')).toBe(bias.fit!.method);
    const statistic = await page.getByTestId('letter-bias-statistic').getAttribute('data-value');
    if (statistic === 'Infinity') expect(bias.fit!.statistic).toBe(Infinity);
    else expectSame(Number(statistic), bias.fit!.statistic, 'statistic');
    await page.getByTestId('letter-bias-significant').waitFor();
    expect(await value(page, 'letter-bias-baseline')).toBe(bias.constantBaseline!.accuracy);
    expect(await page.getByTestId('letter-bias-baseline').getAttribute('data-letter')).toBe(bias.constantBaseline!.letter);
    expectSame(await value(page, 'letter-bias-entropy'), bias.entropyBits!, 'entropy');
    const sentence = page.getByTestId('letter-bias-sentence');
    expect(await sentence.getAttribute('data-letter')).toBe(bias.top!.letter);
    expect(Number(await sentence.getAttribute('data-share'))).toBe(bias.top!.share);
    expect(Number(await sentence.getAttribute('data-gold-share'))).toBe(bias.top!.goldShare);
    // The fixture likes one letter: it chose it for every question.
    expect(bias.top!.share).toBe(1);
    expect(await sentence.textContent()).toContain(`The model chose ${bias.top!.letter} for 100% of the questions; ${bias.top!.letter} is right for`);
    // The chart: two bars per letter, the model's counts and the answers' counts.
    const bars = await page.locator('[data-testid=letter-bias-chart] [data-testid=letter-bias-bar]').evaluateAll((els) =>
      els.map((el) => [el.getAttribute('data-letter'), el.getAttribute('data-series'), Number(el.getAttribute('data-count'))]),
    );
    expect(bars).toEqual(bias.letters.flatMap((l) => [[l, 'predicted', bias.predicted[l]], [l, 'gold', bias.gold[l]]]));
    // Per task, through the selector.
    const task = letterBias(stored.results).tasks.find((p) => p.key === TASKS[1])!;
    await page.getByTestId('letter-bias-part').selectOption(TASKS[1]);
    await page.locator(`[data-testid=letter-bias-chart][data-key="${TASKS[1]}"]`).waitFor();
    expectSame(await value(page, 'letter-bias-p'), task.fit!.pValue, 'task p');
    expect(await value(page, 'letter-bias-baseline')).toBe(task.constantBaseline!.accuracy);
    await page.getByTestId('letter-bias-part').selectOption('overall');
  });

  it('the circular numbers drawn are circularSummary of the stored results: perf 0', async () => {
    const { page } = session.opened;
    const summary = circularSummary(stored.results)!;
    expect(summary.perf.accuracy).toBe(0);
    expect(await value(page, 'circular-perf')).toBe(0);
    expect(await value(page, 'circular-mean')).toBe(summary.mean.accuracy);
    const rows = await page.getByTestId('circular-rotation').evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-rotation')), Number(el.getAttribute('data-value')), Number(el.getAttribute('data-n'))]));
    expect(rows).toEqual(summary.perRotation.map((r) => [r.rotation, r.accuracy, r.n]));
    const atLeast = await page.getByTestId('circular-at-least').evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-rotations')), Number(el.getAttribute('data-value'))]));
    expect(atLeast).toEqual(summary.atLeast.map((a) => [a.rotations, a.accuracy]));
  });

  // The estimation set is drawn with the run's random seed; some draws leave every prediction as it
  // was (raw = debiased), so only the page's agreement with prideDebias is asserted, whatever the draw.
  it('the PriDe numbers drawn are prideDebias of the stored results', async () => {
    const { page } = session.opened;
    const pride = prideDebias(stored.results, stored.run.config.pride!.estimationItemIds)!;
    expect(await value(page, 'pride-raw')).toBe(pride.raw.accuracy);
    expect(await value(page, 'pride-debiased')).toBe(pride.debiased.accuracy);
    expect(await value(page, 'pride-changed')).toBe(pride.changed);
    const estimation = page.getByTestId('pride-estimation');
    expect(Number(await estimation.getAttribute('data-size'))).toBe(stored.run.config.pride!.estimationItemIds.length);
    expect(Number(await estimation.getAttribute('data-seed'))).toBe(stored.run.config.pride!.seed);
    const prior = await page.getByTestId('pride-prior-position').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-value'))));
    const want = pride.priors.flatMap((p) => p.prior);
    expect(prior).toHaveLength(want.length);
    prior.forEach((p, i) => expectSame(p, want[i], `prior ${i}`));
    await screenshot(page, 'robustness-run-en', 'robustness');
  });

  it('renders in Chinese: the headings and the sentence', async () => {
    const { page } = session.opened;
    const top = letterBias(stored.results).overall.top!;
    await page.getByTestId('lang-zh').click();
    const part = page.getByTestId('robustness');
    await part.getByRole('heading', { name: '稳健性' }).waitFor();
    for (const heading of ['字母偏好', '循环评测', '去偏准确率（PriDe）']) await part.getByRole('heading', { name: heading }).waitFor();
    expect(await page.getByTestId('letter-bias-sentence').textContent()).toContain(`模型在 100% 的题目中选了 ${top.letter}`);
    await screenshot(page, 'robustness-run-zh', 'robustness');
    await page.getByTestId('lang-en').click();
    await part.getByRole('heading', { name: 'Robustness' }).waitFor();
    expect(await part.getByRole('heading', { name: 'Letter bias' }).count()).toBe(1);
  });

  it('classroom mode says which letter the model likes, over the questions revealed so far', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/classroom/${circularId}`);
    await page.getByTestId('classroom-question').waitFor();
    for (let i = 0; i < 3; i++) {
      await page.keyboard.press('Space');
      await page.getByTestId('classroom-reveal').waitFor();
      await page.keyboard.press('ArrowRight');
    }
    const top = classroomTopLetter(stored.results.slice(0, 3))!;
    const sentence = page.getByTestId('classroom-top-letter');
    expect(Number(await sentence.getAttribute('data-n'))).toBe(3);
    expect(await sentence.getAttribute('data-letter')).toBe(top.letter);
    expect(Number(await sentence.getAttribute('data-gold-share'))).toBe(top.goldShare);
    expect(await sentence.textContent()).toContain(`So far the model chose ${top.letter} for 100% of the questions`);
    await screenshot(page, 'robustness-classroom-en', 'classroom');
  });

  it('Compare against the plain run of the same items: McNemar on the all-rotations-right outcome', async () => {
    const { page } = session.opened;
    const plain = (await readStoredRun<McRunRecord, McItemResult>(page, plainId)).results;
    await page.goto(`${session.url}/#/compare/${circularId},${plainId}`);
    await page.getByTestId('compare-table').waitFor();
    await page.getByTestId('compare-robustness-heading').waitFor();
    // Baseline: the circular run's all-rotations-right; the plain run enters with its one-order outcome.
    const plainById = new Map(plain.map((r) => [`${r.task}/${r.itemId}`, r.correct]));
    const pairs = stored.results.map((r) => ({ a: allRotationsCorrect(r)!, b: plainById.get(`${r.task}/${r.itemId}`)! }));
    const want = mcnemarExact(pairs);
    const cell = page.getByTestId('compare-mcnemar-circular:perf-1');
    expectSame(Number(await cell.getAttribute('data-p')), want.pValue, 'McNemar p');
    expect(Number(await cell.getAttribute('data-b'))).toBe(want.b);
    expect(Number(await cell.getAttribute('data-c'))).toBe(want.c);
    expect(Number(await page.getByTestId('compare-cell-circular:perf-0').getAttribute('data-score'))).toBe(0);
    await page.getByTestId('compare-one-order-1').waitFor();
    expect(await page.getByTestId('compare-diff-circular:perf-1').getAttribute('data-pairing')).toBe('paired');
    const pValue = Number(await page.getByTestId('compare-cell-bias:p-value-0').getAttribute('data-score'));
    expectSame(pValue, letterBias(stored.results).overall.fit!.pValue, 'compare p');
    await screenshot(page, 'robustness-compare-en', 'compare-table');
  });
});
