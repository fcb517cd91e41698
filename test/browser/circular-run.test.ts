// Circular evaluation and PriDe in Chromium, on the fixture model (WASM): the Evaluate page shows
// the cost before the run; a circular 5-shot run asks every item under its four rotations, the gold
// letter moving, with the 5-shot prefix computed once per task and reused by every rotation (forward
// passes counted from the worker's answers); every stored rotation equals the reference forward on
// the rotated item's prompt built here; a reload mid-item resumes from the first missing rotation;
// the exported file imports again with every rotation in another browser (here it is the stored run); a PriDe run has rotations on its estimation
// items only, the ones its recorded seed draws.
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { encodeFixture, lastLogProbs, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { buildMcPrompt, getProtocol } from '../../src/lib/core/protocols/index.ts';
import { rotateItem } from '../../src/lib/core/protocols/rotation.ts';
import { drawEstimationSet, DEFAULT_ESTIMATION_SHARE } from '../../src/lib/core/protocols/estimation-set.ts';
import { openPage } from '../../scripts/browser.ts';
import { useBrowserSession } from './session.ts';
import { readStoredItems, readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';

const TASKS = ['古音学', '医古文'];
const RUN = { dataset: 'aclue', shots: 5, limit: 3, tasks: TASKS } as const;
const readRun = (page: Page, runId: string) => readStoredRun<McRunRecord, McItemResult>(page, runId);
const LETTER_IDS = Object.fromEntries(['A', 'B', 'C', 'D'].map((l) => [l, encodeFixture(l)[0]]));

/**
 * Installed before the page's scripts: keeps, for every item a model worker scores, its forward
 * passes and reused prefix tokens; and with `window.__stallAfter` set, holds back every scoreItem
 * request after that many, so a run stops at a known prompt (until the page is reloaded).
 */
function countWorkerPasses(): void {
  const post = Worker.prototype.postMessage;
  const scored: { passes: number; reused: number }[] = [];
  const w = window as unknown as { __scored: typeof scored; __stallAfter?: number; __sent: number };
  w.__scored = scored;
  w.__sent = 0;
  Worker.prototype.postMessage = function (this: Worker & { __counted?: boolean }, message: unknown, ...rest: unknown[]) {
    if ((message as { kind?: string } | null)?.kind === 'scoreItem' && ++w.__sent > (w.__stallAfter ?? Infinity)) return;
    if (!this.__counted) {
      this.__counted = true;
      this.addEventListener('message', (event: MessageEvent) => {
        const score = (event.data as { kind?: string; result?: { score?: { forwardPasses?: number; reusedPrefixTokens?: number } } })?.result?.score;
        if ((event.data as { kind?: string }).kind === 'result' && typeof score?.forwardPasses === 'number') scored.push({ passes: score.forwardPasses, reused: score.reusedPrefixTokens ?? 0 });
      });
    }
    return (post as (...args: unknown[]) => void).call(this, message, ...rest);
  } as typeof Worker.prototype.postMessage;
}

async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Every result's rotations against the items stored in the page: numbered 1..3 in order, the gold
 * moved with its option, and each equal to scoring the rotated item alone (its prompt built here
 * from the stored item and exemplars, the reference forward on it with no prefix cache).
 */
async function checkRotations(page: Page, results: McItemResult[], rotated: ReadonlySet<string> | null): Promise<void> {
  const reference = loadReferenceModel('jiangu-tiny', 'fp32');
  const protocol = getProtocol('aclue');
  for (const result of results) {
    if (rotated && !rotated.has(result.itemId)) {
      expect(result.rotations, result.itemId).toBeUndefined();
      continue;
    }
    const [item] = await readStoredItems<MultipleChoiceItem>(page, 'aclue', [result.itemId]);
    const exemplars = await readStoredItems<MultipleChoiceItem>(page, 'aclue', result.exemplarIds);
    expect(item.options).toHaveLength(4);
    expect(result.rotations?.map((r) => r.rotation), result.itemId).toEqual([1, 2, 3]);
    // The gold letter moves through every position.
    expect(new Set([result.gold, ...result.rotations!.map((r) => r.gold)]).size).toBe(4);
    for (const rotation of result.rotations!) {
      const asked = rotateItem(item, rotation.rotation);
      expect(rotation.gold).toBe(asked.answer);
      const prompt = buildMcPrompt(protocol, asked, exemplars, 5, { countTokens: (p) => encodeFixture(p).length, contextLimit: 2048 }).prompt;
      expect(rotation.promptHash, `${result.itemId} rotation ${rotation.rotation}`).toBe(createHash('sha256').update(prompt).digest('hex'));
      const ids = encodeFixture(prompt);
      expect(rotation.tokenCount).toBe(ids.length);
      const want = lastLogProbs(reference, ids, rotation.letters.map((l) => LETTER_IDS[l]));
      rotation.logProbs.forEach((lp, k) => expect(Math.abs(lp - want[k]), `${result.itemId} rotation ${rotation.rotation} ${rotation.letters[k]}`).toBeLessThan(1e-4));
      expect(rotation.prediction).toBe(rotation.letters[want.indexOf(Math.max(...want))]);
      expect(rotation.correct).toBe(rotation.prediction === rotation.gold);
      // Exemplars are not rotated: the task's 5-shot prefix came from the cache.
      expect(rotation.reusedPrefixTokens).toBeGreaterThan(0);
    }
  }
}

describe('circular evaluation and PriDe on jiangu-tiny (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;
  let circularId = '';

  it('gets ACLUE through the mirror', async () => {
    page = session.opened.page;
    await page.addInitScript(countWorkerPasses);
    await storeSampleAndAclue(page, session.url);
  });

  it('shows the cost of each option before the run starts', async () => {
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('aclue');
    await page.getByTestId('eval-limit').fill('3');
    await page.getByRole('button', { name: 'none' }).click();
    for (const task of TASKS) await page.locator(`input[type=checkbox][value="${task}"]`).check();
    await page.locator('[data-testid=eval-circular-cost][data-prompts="24"]').waitFor();
    expect(await page.getByTestId('eval-circular-cost').textContent()).toContain('×4.0: 24 prompts instead of 6');
    // 5% of 6 items is one item, asked under its three other rotations.
    expect(await page.getByTestId('eval-pride-cost').textContent()).toContain('+50%: 3 more prompts');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('eval-circular-cost').textContent()).toContain('×4.0：共 24 个提示，而非 6 个');
    expect(await page.getByTestId('eval-pride-cost').textContent()).toContain('+50%：多 3 个提示');
    await page.getByTestId('lang-en').click();
    // Ticked, PriDe says before the run that one estimation item is below its 20, and from how many items it would not be.
    expect(await page.getByTestId('eval-pride-too-few').count()).toBe(0);
    await page.getByTestId('eval-pride').check();
    expect(await page.getByTestId('eval-pride-too-few').textContent()).toBe(
      "PriDe's estimation set would have 1 item; it needs 20 of each option count (390 items or more in the run), so this run will show no debiased accuracy.",
    );
    await page.getByTestId('eval-pride').uncheck();
    await page.getByTestId('eval-scoring').selectOption('generate-extract');
    expect(await page.getByTestId('eval-pride').isDisabled()).toBe(true);
    expect(await page.getByTestId('eval-pride-cost').textContent()).toContain('log-probabilities');
    expect(await page.getByTestId('eval-circular').isDisabled()).toBe(false);
  });

  it('runs a circular 5-shot run: four rotations per item, the prefix computed once per task and reused by every rotation', async () => {
    await page.reload();
    await page.evaluate(() => ((window as unknown as { __scored: unknown[] }).__scored.length = 0));
    circularId = await startFixtureRun(page, { ...RUN, circular: true });
    await waitForStatus(page, 'completed');
    const { run, results } = await readRun(page, circularId);
    expect(run.config.circular).toBe(true);
    expect(run.config.pride?.estimationItemIds).toEqual(drawEstimationSet(run.config.itemIds, DEFAULT_ESTIMATION_SHARE, run.config.pride!.seed));
    expect(results.map((r) => r.itemId)).toEqual(run.config.itemIds);
    expect(results.every((r) => r.shotsUsed === 5)).toBe(true);
    await checkRotations(page, results, null);
    const scored = await page.evaluate(() => (window as unknown as { __scored: { passes: number; reused: number }[] }).__scored.slice());
    // 6 items × 4 rotations; each prompt is one pass over its own tokens, and the 5-shot prefix
    // costs one more pass only twice: once for each task, reused by every later prompt.
    expect(scored).toHaveLength(24);
    expect(scored.every((s) => s.reused > 0)).toBe(true);
    expect(scored.reduce((n, s) => n + s.passes, 0)).toBe(24 + TASKS.length);
    expect(scored.filter((s) => s.passes === 2)).toHaveLength(TASKS.length);
  });

  it('resumes a circular run reloaded between two rotations of an item, with no rotation missing or asked twice', async () => {
    await page.reload();
    // The run stops at its 7th prompt, the second item's rotation 2: the first item and the second's
    // rotations 0 and 1 are stored.
    await page.evaluate(() => ((window as unknown as { __stallAfter: number }).__stallAfter = 6));
    const runId = await startFixtureRun(page, { ...RUN, circular: true });
    await expect.poll(async () => (await readRun(page, runId)).results.map((r) => r.rotations?.length ?? 0), { timeout: 60_000, interval: 50 }).toEqual([3, 1]);
    // The progress counts prompts (6 of 24 asked) beside items (1 of 6 complete).
    await page.locator('[data-testid=run-progress-prompts][data-done="6"][data-total="24"]').waitFor();
    expect(await page.getByTestId('run-progress-prompts').textContent()).toContain('6 / 24 prompts with the rotations');
    expect(await page.getByTestId('run-progress-text').textContent()).toMatch(/^\s*1 \/ 6 items/);
    await page.reload();
    await page.locator('[data-testid=run]').waitFor();
    const interrupted = await readRun(page, runId);
    expect(interrupted.results.map((r) => r.rotations?.map((x) => x.rotation))).toEqual([[1, 2, 3], [1]]);
    await page.evaluate(() => ((window as unknown as { __scored: unknown[] }).__scored.length = 0));
    await page.locator('[data-testid=run-status][data-status=interrupted]').waitFor();
    await page.getByTestId('resume-run').click();
    await waitForStatus(page, 'completed');
    const resumed = await readRun(page, runId);
    await checkRotations(page, resumed.results, null);
    // Only what was missing was asked: 24 prompts less those stored before the reload.
    const storedBefore = interrupted.results.reduce((n, r) => n + 1 + (r.rotations?.length ?? 0), 0);
    expect(await page.evaluate(() => (window as unknown as { __scored: unknown[] }).__scored.length)).toBe(24 - storedBefore);
    // The same numbers as the uninterrupted run.
    const uninterrupted = await readRun(page, circularId);
    const strip = (r: McItemResult) => ({ itemId: r.itemId, logProbs: r.logProbs, rotations: r.rotations!.map((x) => ({ rotation: x.rotation, logProbs: x.logProbs, prediction: x.prediction, gold: x.gold, promptHash: x.promptHash })) });
    expect(resumed.results.map(strip)).toEqual(uninterrupted.results.map(strip));
  });

  it('exports the circular run with every rotation, and the file imports again with all of them', async () => {
    await page.evaluate((id) => (location.hash = `#/run/${id}`), circularId);
    await page.locator('[data-testid=run][data-status=completed]').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const text = await downloadText(download);
    const exported = JSON.parse(text) as { run: McRunRecord; results: McItemResult[] };
    const original = await readRun(page, circularId);
    expect(exported.results.map((r) => r.rotations)).toEqual(original.results.map((r) => r.rotations));
    const file = { name: 'circular.json', mimeType: 'application/json', buffer: Buffer.from(text) };
    // Here, where the run is stored, its own file is that run: nothing new is stored, the run is offered.
    await page.evaluate(() => (location.hash = '#/evaluate'));
    await page.getByTestId('import-run-input').setInputFiles(file);
    await page.getByTestId('import-run-already-stored').waitFor();
    expect(await page.getByTestId('open-stored-copy').getAttribute('href')).toBe(`#/run/${circularId}`);

    // In another browser holding the same benchmark: a run with every rotation.
    const other = await openPage(page.context().browser()!, `${session.url}/#/data`);
    try {
      await storeSampleAndAclue(other.page, session.url);
      await other.page.goto(`${session.url}/#/evaluate`);
      await other.page.getByTestId('import-run-input').setInputFiles(file);
      await other.page.waitForURL(/#\/run\//);
      const importedId = decodeURIComponent(other.page.url().split('#/run/')[1]);
      const imported = await readRun(other.page, importedId);
      expect(imported.run.origin?.kind).toBe('jiangu-file');
      expect(imported.run.origin?.originalRunId).toBe(circularId);
      expect(imported.run.config.circular).toBe(true);
      expect(imported.run.config.pride).toEqual(original.run.config.pride);
      expect(imported.results.map((r) => r.rotations)).toEqual(original.results.map((r) => r.rotations));
      expect(other.leaks).toEqual([]);
    } finally {
      await other.context.close();
    }
  });

  it('runs PriDe without circular: rotations on its estimation items only, those its recorded seed draws', async () => {
    await page.reload();
    const runId = await startFixtureRun(page, { ...RUN, pride: true });
    await waitForStatus(page, 'completed');
    const { run, results } = await readRun(page, runId);
    expect(run.config.circular).toBeUndefined();
    const pride = run.config.pride!;
    expect(pride.share).toBe(DEFAULT_ESTIMATION_SHARE);
    expect(Number.isInteger(pride.seed)).toBe(true);
    expect(pride.estimationItemIds).toEqual(drawEstimationSet(run.config.itemIds, pride.share, pride.seed));
    expect(pride.estimationItemIds).toHaveLength(1);
    await checkRotations(page, results, new Set(pride.estimationItemIds));
  });
});
