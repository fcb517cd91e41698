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
import { drawEstimationSet, PRIDE_MIN_ESTIMATION_ITEMS } from '../../src/lib/core/protocols/estimation-set.ts';
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
/** The run page folds its robustness part (issue 44): opened before the test looks inside. */
async function openRobustness(page: Page): Promise<void> {
  const part = page.getByTestId('robustness');
  await part.waitFor();
  if ((await part.getAttribute('open')) === null) await part.locator('summary').first().click();
}

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

  it('the letter bias drawn is letterBias of the stored results: the Stuart–Maxwell test, p written with its p', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/run/${circularId}`);
    await page.getByTestId('lang-en').click();
    await openRobustness(page);
    // The run's head says how its options were asked.
    expect(await page.getByTestId('run-circular').textContent()).toContain('circular');
    // Issue 21: the head read "0-shot· circular …· PriDe" (Svelte trimmed the spans' leading spaces).
    expect(await page.getByTestId('run-circular').locator('..').textContent()).toMatch(/-shot · (prefix KV reuse · )?circular \(every rotation of the options\) · PriDe \(/);
    expect(await page.getByTestId('run-pride').textContent()).toContain(`seed ${stored.run.config.pride!.seed}`);
    const bias = letterBias(stored.results).overall;
    // Eight items: the exact permutation test (version 1 printed X² = ∞ and p < 0.001 here).
    expect(bias.fit!.method).toBe('exact-permutation');
    expectSame(await value(page, 'letter-bias-p'), bias.fit!.pValue, 'p');
    expect(await page.getByTestId('letter-bias-p').textContent()).toBe(bias.fit!.pValue < 0.001 ? 'p < 0.001' : `p = ${bias.fit!.pValue.toFixed(3)}`);
    expect(await value(page, 'letter-bias-df')).toBe(bias.fit!.df);
    expect(bias.fit!.df).toBeGreaterThan(0);
    expect(await page.getByTestId('letter-bias-method').getAttribute('data-value')).toBe(bias.fit!.method);
    expectSame(await value(page, 'letter-bias-statistic'), bias.fit!.statistic, 'statistic');
    expect(await page.getByTestId('letter-bias-significant').count()).toBe(bias.fit!.pValue < 0.05 ? 1 : 0);
    expect(await page.getByTestId('letter-bias-too-few').count()).toBe(bias.fit!.smallestPValue! >= 0.05 ? 1 : 0);
    expect(await page.getByTestId('letter-bias-signature').textContent()).toBe(letterBias(stored.results).signature);
    // The signature is said in words too (it read as code alone).
    expect(await page.getByTestId('letter-bias-how').textContent()).toContain('The Stuart–Maxwell test asks whether the chosen letters are spread as the answers’ letters are, on the same items: exact');
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
    // Four items: however they fall, the exact test cannot reach 0.05, and the page says so.
    expect(task.fit!.smallestPValue).toBeGreaterThanOrEqual(0.05);
    expectSame(await value(page, 'letter-bias-too-few'), task.fit!.smallestPValue!, 'smallest p');
    expect(await page.getByTestId('letter-bias-too-few').textContent()).toContain('Too few items to test');
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

  it('PriDe on the run’s one estimation item: no debiased accuracy, and the page says why', async () => {
    const { page } = session.opened;
    const config = stored.run.config.pride!;
    expect(config.estimationItemIds).toHaveLength(1);
    expect(prideDebias(stored.results, config.estimationItemIds)).toBeNull();
    const tooFew = page.getByTestId('pride-too-few');
    expect(Number(await tooFew.getAttribute('data-items'))).toBe(1);
    expect(Number(await tooFew.getAttribute('data-required'))).toBe(PRIDE_MIN_ESTIMATION_ITEMS);
    expect(await tooFew.textContent()).toContain(`PriDe needs at least ${PRIDE_MIN_ESTIMATION_ITEMS} estimation items`);
    expect(await tooFew.textContent()).toContain('this run has 1.');
    expect(await tooFew.textContent()).toContain('A run of 390 items or more');
    expect(await page.getByTestId('pride-debiased').count()).toBe(0);
    const estimation = page.getByTestId('pride-estimation');
    expect(Number(await estimation.getAttribute('data-size'))).toBe(config.estimationItemIds.length);
    expect(Number(await estimation.getAttribute('data-seed'))).toBe(config.seed);
    await screenshot(page, 'robustness-run-en', 'robustness');
  });

  // A run of 390 items or more is too slow here: the circular run is stored again, in the raw
  // IndexedDB API, with three copies of each item under new ids, and a share that draws 24 of them.
  // The set is what the run's seed draws at that share (drawEstimationSet), as the stored-run check
  // demands of every run it reads; every item of a circular run has all its rotations, so any may be drawn.
  it('PriDe from 24 estimation items: the debiased interval drawn is prideDebias’s bootstrap, with the prior’s standard errors', async () => {
    const { page } = session.opened;
    const copies = [1, 2, 3].flatMap((k) => stored.results.map((r) => ({ ...r, itemId: `${r.itemId}~${k}`, index: r.index + k * stored.results.length })));
    const results = [...stored.results, ...copies];
    const itemIds = results.map((r) => r.itemId);
    const share = 24 / itemIds.length;
    const seed = stored.run.config.pride!.seed;
    const estimationItemIds = drawEstimationSet(itemIds, share, seed);
    expect(estimationItemIds).toHaveLength(24);
    // Four items a task for each one asked: the record's limit and sample say so too, or the stored-run
    // check refuses it as damaged (its sampling would give 8 items where it lists 32), which is not
    // what this test is about. Copies keep their task, so each task has four times its items.
    const limitPerTask = 4 * stored.run.config.limitPerTask!;
    const sampling = stored.run.config.sampling!;
    const population = Object.fromEntries(Object.entries(sampling.population).map(([task, n]) => [task, Math.max(n, limitPerTask)]));
    const run: McRunRecord = {
      ...stored.run,
      id: `${stored.run.id}-pride24`,
      config: { ...stored.run.config, itemIds, limitPerTask, sampling: { ...sampling, population }, pride: { share, seed, estimationItemIds } },
    };
    await page.evaluate(
      async ({ run, results }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('jiangu');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        const tx = db.transaction(['runs', 'results'], 'readwrite');
        tx.objectStore('runs').put(run);
        for (const r of results) tx.objectStore('results').put({ ...r, runId: run.id });
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { run, results },
    );
    const pride = prideDebias(results, estimationItemIds)!;
    expect(pride.priors[0].estimationItems).toBe(24);
    await page.goto(`${session.url}/#/run/${run.id}`);
    await openRobustness(page);
    await page.getByTestId('pride-debiased').waitFor();
    expect(await value(page, 'pride-raw')).toBe(pride.raw.accuracy);
    expect(await value(page, 'pride-debiased')).toBe(pride.debiased.accuracy);
    expect(await value(page, 'pride-changed')).toBe(pride.changed);
    const drawn = page.getByTestId('pride-debiased-interval');
    expectSame(Number(await drawn.getAttribute('data-low')), pride.debiased.interval!.low, 'interval low');
    expectSame(Number(await drawn.getAttribute('data-high')), pride.debiased.interval!.high, 'interval high');
    const note = page.getByTestId('pride-interval-note');
    expect(Number(await note.getAttribute('data-resamples'))).toBe(1000);
    expect(await note.textContent()).toContain('re-estimates the prior in each');
    const prior = await page.getByTestId('pride-prior-position').evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-value')), Number(el.getAttribute('data-se'))]));
    const want = pride.priors.flatMap((p) => p.prior.map((x, j) => [x, p.standardError[j]]));
    expect(prior).toHaveLength(want.length);
    prior.forEach(([p, se], i) => {
      expectSame(p, want[i][0], `prior ${i}`);
      expectSame(se, want[i][1], `standard error ${i}`);
    });
    expect(await page.getByTestId('pride-signature').textContent()).toBe(pride.signature);
    await screenshot(page, 'robustness-pride24-en', 'pride');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('pride-interval-note').textContent()).toContain('每次重抽估计题并重新估计先验');
    await page.getByTestId('lang-en').click();
    await page.goto(`${session.url}/#/run/${circularId}`);
    await openRobustness(page);
  });

  // A record no run writes, whose sizes still add up (so the stored-run check shows it): its sampling
  // says the first task has 2 items, and it has 4 results of it. The page draws the rest of the run
  // and says the benchmark's score cannot be estimated, in both languages, instead of throwing.
  it('a record whose results disagree with its sample: the rest of the page, and the estimate said to be impossible', async () => {
    const { page } = session.opened;
    const [first, second] = TASKS;
    const run: McRunRecord = {
      ...stored.run,
      id: `${stored.run.id}-forged-sample`,
      config: { ...stored.run.config, limitPerTask: null, sampling: { ...stored.run.config.sampling!, population: { [first]: 2, [second]: 2 * RUN.limit - 2 } } },
    };
    await page.evaluate(
      async ({ run, results }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('jiangu');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        const tx = db.transaction(['runs', 'results'], 'readwrite');
        tx.objectStore('runs').put(run);
        for (const r of results) tx.objectStore('results').put({ ...r, runId: run.id });
        await new Promise<void>((resolve, reject) => {
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { run, results: stored.results },
    );
    await page.goto(`${session.url}/#/run/${run.id}`);
    await openRobustness(page);
    const said = page.locator('[data-testid=estimate-unavailable][data-code=more-results-than-items]');
    await said.waitFor();
    expect(await said.textContent()).toContain('cannot be estimated from this record');
    expect(await page.getByTestId('estimate-overall').count()).toBe(0);
    await page.getByTestId('lang-zh').click();
    expect(await said.textContent()).toContain('无法根据这条记录估计整个基准的得分');
    await page.getByTestId('lang-en').click();
    await page.getByTestId('robustness').getByRole('heading', { name: 'Robustness' }).waitFor();
    await page.goto(`${session.url}/#/run/${circularId}`);
    await openRobustness(page);
  });

  it('renders in Chinese: the headings and the sentence', async () => {
    const { page } = session.opened;
    const top = letterBias(stored.results).overall.top!;
    await page.getByTestId('lang-zh').click();
    const part = page.getByTestId('robustness');
    await part.getByRole('heading', { name: '稳健性' }).waitFor();
    for (const heading of ['字母偏好', '循环评测', '去偏准确率（PriDe）']) await part.getByRole('heading', { name: heading }).waitFor();
    expect(await page.getByTestId('letter-bias-sentence').textContent()).toContain(`模型在 100% 的题目中选了 ${top.letter}`);
    expect(await page.getByTestId('pride-too-few').textContent()).toContain(`PriDe 需要至少 ${PRIDE_MIN_ESTIMATION_ITEMS} 道`);
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
