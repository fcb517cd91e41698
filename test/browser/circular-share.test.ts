// A circular run shared by link, in Chromium on WASM: the fixture model's circular run of two ACLUE
// tasks (3 items each) is shared from its run page; the link opens on the shared page saying that
// every rotation's letter travels with it and that PriDe's debiased accuracy comes with the run file;
// Show the questions lists each item's rotation letters as stored, and the shared page's letter bias
// and circular numbers equal letterBias/circularSummary of the stored results (the run page's metric
// functions), in English and in Chinese.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { circularSummary, letterBias } from '../../src/lib/core/metrics/index.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';

const TASKS = ['古音学', '医古文'];
const LIMIT = 3;

const value = async (page: Page, testid: string): Promise<number> => Number(await page.getByTestId(testid).first().getAttribute('data-value'));

describe('a circular run shared by link', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let stored: { run: McRunRecord; results: McItemResult[] };
  let url = '';
  /** What the run page draws (its Robustness part), read before sharing. */
  let runPage: Record<string, number> = {};

  /** The drawn numbers both pages have, by test id. */
  const drawn = async (page: Page): Promise<Record<string, number>> => ({
    perf: await value(page, 'circular-perf'),
    mean: await value(page, 'circular-mean'),
    p: await value(page, 'letter-bias-p'),
    entropy: await value(page, 'letter-bias-entropy'),
    baseline: await value(page, 'letter-bias-baseline'),
  });

  it('runs two ACLUE tasks circular and makes its link', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('dataset-aclue').getByTestId('download').click();
    await page.locator('[data-testid=dataset-aclue][data-stored=yes]').waitFor({ timeout: 90_000 });
    const runId = await startFixtureRun(page, { dataset: 'aclue', shots: 0, limit: LIMIT, tasks: TASKS, circular: true });
    await waitForStatus(page, 'completed', 180_000);
    stored = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(stored.run.config.circular).toBe(true);
    expect(stored.results).toHaveLength(TASKS.length * LIMIT);
    expect(stored.results.every((r) => r.rotations?.length === r.letters.length - 1)).toBe(true);
    await page.getByTestId('lang-en').click();
    await page.getByTestId('robustness').waitFor();
    runPage = await drawn(page);
    await page.getByTestId('share').click();
    url = await page.getByTestId('share-url').inputValue();
    expect(url).toContain('#/shared/');
  });

  it("opens on the shared page with every rotation's letter, and PriDe said to come with the run file", async () => {
    const { page } = session.opened;
    await page.goto(url);
    await page.getByTestId('shared').waitFor();
    const carried = page.getByTestId('shared-rotations');
    const rotations = stored.results.reduce((sum, r) => sum + r.rotations!.length, 0);
    expect(Number(await carried.getAttribute('data-value'))).toBe(rotations);
    expect(Number(await carried.getAttribute('data-items'))).toBe(stored.results.length);
    expect(await carried.textContent()).toContain(`Every rotation’s letter travels too: ${rotations} letters`);
    expect(await page.getByTestId('shared-rotations-omitted').count()).toBe(0);
    const pride = page.getByTestId('shared-pride-note');
    expect(Number(await pride.getAttribute('data-seed'))).toBe(stored.run.config.pride!.seed);
    expect(await pride.textContent()).toContain('comes with the run file');

    await page.getByTestId('shared-show-items').click();
    await page.getByTestId('shared-items').waitFor();
    await page.getByTestId('shared-summary-verified').waitFor();
    const shown = await page.getByTestId('shared-item').evaluateAll((els) =>
      els.map((el) => ({
        itemId: el.getAttribute('data-item'),
        prediction: el.getAttribute('data-prediction'),
        rotations: [...el.querySelectorAll('[data-testid=shared-item-rotation]')].map((r) => [Number(r.getAttribute('data-rotation')), r.getAttribute('data-prediction'), r.getAttribute('data-gold')]),
      })),
    );
    expect(shown).toEqual(
      stored.results.map((r) => ({ itemId: r.itemId, prediction: r.prediction ?? '', rotations: r.rotations!.map((x) => [x.rotation, x.prediction ?? '', x.gold ?? '']) })),
    );
  });

  it("shows the circular numbers and letter bias the metric functions give on the stored results", async () => {
    const { page } = session.opened;
    const circular = circularSummary(stored.results)!;
    const bias = letterBias(stored.results).overall;
    expect(circular.scored).toBe(stored.results.length);
    await page.getByTestId('robustness').waitFor();
    expect(await value(page, 'circular-perf')).toBe(circular.perf.accuracy);
    expect(Number(await page.getByTestId('circular-perf').getAttribute('data-n'))).toBe(circular.perf.n);
    expect(await value(page, 'circular-mean')).toBe(circular.mean.accuracy);
    const perRotation = await page.getByTestId('circular-rotation').evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-rotation')), Number(el.getAttribute('data-k')), Number(el.getAttribute('data-n'))]));
    expect(perRotation).toEqual(circular.perRotation.map((r) => [r.rotation, r.k, r.n]));
    const atLeast = await page.getByTestId('circular-at-least').evaluateAll((els) => els.map((el) => [Number(el.getAttribute('data-rotations')), Number(el.getAttribute('data-k'))]));
    expect(atLeast).toEqual(circular.atLeast.map((a) => [a.rotations, a.k]));
    // The same numbers the run page drew (the same metric functions in the same browser) …
    expect(await drawn(page)).toEqual(runPage);
    // … and, up to the last bits of Chromium's and Node's Math, the exact test's p-value run here.
    expect(await value(page, 'letter-bias-p')).toBeCloseTo(bias.fit!.pValue, 12);
    expect(await value(page, 'letter-bias-entropy')).toBeCloseTo(bias.entropyBits!, 12);
    expect(await value(page, 'letter-bias-baseline')).toBe(bias.constantBaseline!.accuracy);
    expect(await page.getByTestId('letter-bias-sentence').getAttribute('data-letter')).toBe(bias.top!.letter);
    // A link carries no log-probabilities: the shared page shows no debiased accuracy of its own.
    expect(await page.getByTestId('pride').count()).toBe(0);

    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('shared-pride-note').textContent()).toContain('它随评测记录文件提供');
    expect(await page.getByTestId('shared-rotations').textContent()).toContain('每个轮换的字母也随链接携带');
    expect(await page.getByTestId('circular').textContent()).toContain('所有轮换都答对');
    expect(await value(page, 'circular-perf')).toBe(circular.perf.accuracy);
    await page.getByTestId('lang-en').click();
  });
});
