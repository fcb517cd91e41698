// Compare's paired difference on one random order (issue 36, part 4) in Chromium: run A of
// jiangu-tiny on a random sample of ACLUE, a run of another model (stories260k) on another sample
// (no paired sequence: said why), then "Run it on this sample" from Compare starts a run of
// stories260k on A's sample and order with the sign-settled stop rule; once it ends, Compare shows
// the paired difference's confidence sequence over every item both runs scored, in both languages.
// (The jiangu-tiny variants share one set of weights and answer alike; stories260k does not.)
import { describe, expect, it } from 'vitest';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';

const TASK = '古音学';
const LIMIT = 12;
/** A's sample: with it, stories260k and jiangu-tiny differ (by +50 points on these 12 items), so a sign is visible. */
const SEED_A = 1;

describe('Compare: a second model on the first run’s sample and order', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('starts the run from Compare, and shows the paired sequence once both have run', async () => {
    const { page } = session.opened;
    await storeSampleAndAclue(page, session.url);
    const a = await startFixtureRun(page, { dataset: 'aclue', shots: 0, limit: LIMIT, tasks: [TASK], scoring: 'letter-logits', sampleSeed: SEED_A });
    await waitForStatus(page, 'completed');
    const c = await startFixtureRun(page, { dataset: 'aclue', shots: 0, limit: LIMIT, tasks: [TASK], scoring: 'letter-logits', model: 'stories260k', sampleSeed: SEED_A + 1 });
    await waitForStatus(page, 'completed');

    await page.goto(`${session.url}/#/compare/${a},${c}`);
    const section = page.getByTestId('compare-paired-sequence');
    await section.waitFor();
    // Two seeds: two samples, so no paired sequence, and the page says why.
    expect(await section.locator(`[data-testid=compare-paired-none][data-run="${c}"]`).getAttribute('data-problem')).toBe('sampling-differs');
    // The offer lists the other stored model (stories260k), and starts it on A's sample.
    expect(await section.getByTestId('compare-paired-model').textContent()).toContain('stories260k');
    await section.getByTestId('compare-paired-start').click();
    await page.waitForURL(/#\/run\//);
    const b = decodeURIComponent(page.url().split('#/run/')[1]);
    await waitForStatus(page, 'completed');

    const runA = await readStoredRun<McRunRecord, McItemResult>(page, a);
    const runB = await readStoredRun<McRunRecord, McItemResult>(page, b);
    expect(runB.run.config.itemIds).toEqual(runA.run.config.itemIds);
    expect(runB.run.config.sampling).toEqual(runA.run.config.sampling);
    expect(runB.run.config.model).toMatchObject({ source: { kind: 'site', name: 'stories260k' }, dtype: 'fp32' });
    expect(runB.run.config.stopRule).toEqual({ kind: 'sign-settled', baselineRunId: a, alpha: 0.05 });
    // B stopped by its rule (then the sign is settled) or asked every item; either way in A's order.
    const asked = new Set(runB.results.map((r) => r.itemId));
    expect(runB.results.map((r) => r.itemId)).toEqual(runA.run.config.itemIds.slice(0, runB.results.length));

    await page.goto(`${session.url}/#/compare/${a},${b}`);
    const pair = page.locator(`[data-testid=compare-paired-sequence] .pair[data-run="${b}"]`);
    await pair.waitFor();
    expect(Number(await pair.getAttribute('data-pairs'))).toBe(runB.results.length);
    const verdict = (await pair.getAttribute('data-verdict'))!;
    if (runB.results.length < LIMIT) expect(['other-better', 'baseline-better']).toContain(verdict);
    // One task (weight 1): the estimate is B's accuracy less A's on the items both asked, and the sequence holds it.
    const accuracy = (results: McItemResult[]) => {
      const mine = results.filter((r) => asked.has(r.itemId));
      return mine.filter((r) => r.correct).length / mine.length;
    };
    const low = Number(await pair.getAttribute('data-low'));
    const high = Number(await pair.getAttribute('data-high'));
    const estimate = Number(await pair.getAttribute('data-estimate'));
    expect(estimate).toBeCloseTo(accuracy(runB.results) - accuracy(runA.results), 9);
    expect(estimate).not.toBe(0);
    expect(low).toBeLessThanOrEqual(estimate);
    expect(high).toBeGreaterThanOrEqual(estimate);
    const en = (await pair.textContent())!.replace(/\s+/g, ' ');
    const sentence: Record<string, RegExp> = {
      unsettled: /Not settled yet: .* points\./,
      'other-better': /is better than .* by .* points, at any stopping time\./,
      'baseline-better': /is better than .* by .* points, at any stopping time\./,
      equal: /exactly the same score/,
    };
    expect(en).toMatch(sentence[verdict]);
    expect(en).toContain(`${runB.results.length} items scored by both runs in their shared random order`);
    expect(en).toContain('95% confidence sequence: valid whenever you stop looking');
    await page.getByTestId('lang-zh').click();
    const zh = (await pair.textContent())!.replace(/\s+/g, ' ');
    expect(zh).toMatch(verdict === 'unsettled' ? /尚未分出高下/ : verdict === 'equal' ? /得分完全相同/ : /高 .* 个百分点，在任何时刻停止都成立/);
    expect(zh).toContain('95% 置信序列');
  });
});
