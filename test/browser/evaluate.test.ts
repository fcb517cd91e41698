// Multiple-choice runs end to end in Chromium: the Evaluate page starts a run on the fixture model,
// every stored letter log-probability equals the reference forward's, every accuracy on the page
// equals one computed here from the stored predictions, a reload mid-run resumes to the same
// results, WASM and WebGPU predict alike, and a second tab cannot run the same run.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { encodeFixture, lastLogProbs, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { allowScoreItems, gateScoreItems, readStoredRun, startFixtureRun as startRun, waitForStatus, storeSampleAndAclue } from './runs.ts';

const readRun = (page: Page, runId: string): Promise<StoredRun> => readStoredRun<McRunRecord, McItemResult>(page, runId);

interface StoredRun {
  run: McRunRecord;
  results: McItemResult[];
}

const LETTER_IDS = Object.fromEntries(['A', 'B', 'C', 'D'].map((l) => [l, encodeFixture(l)[0]]));

/** Every stored log-probability against the reference forward on the stored prompt. */
function checkAgainstReference({ run, results }: StoredRun): void {
  const reference = loadReferenceModel('jiangu-tiny', run.config.model.dtype as 'fp32');
  expect(results.length).toBe(run.config.itemIds.length);
  for (const result of results) {
    const ids = encodeFixture(result.prompt);
    expect(result.tokenCount, result.itemId).toBe(ids.length);
    const want = lastLogProbs(reference, ids, result.letters.map((l) => LETTER_IDS[l]));
    result.logProbs.forEach((lp, k) => expect(Math.abs(lp - want[k]), `${result.itemId} ${result.letters[k]}`).toBeLessThan(1e-4));
    const best = want.indexOf(Math.max(...want));
    expect(result.prediction).toBe(result.letters[best]);
    expect(result.correct).toBe(result.gold === null ? null : result.prediction === result.gold);
  }
}

/** Per-task accuracy computed here, independently of the metrics module. */
function accuracies(results: McItemResult[]): Map<string, number> {
  const byTask = new Map<string, { k: number; n: number }>();
  for (const r of results) {
    if (r.correct === null) continue;
    const t = byTask.get(r.task) ?? { k: 0, n: 0 };
    t.n++;
    if (r.correct) t.k++;
    byTask.set(r.task, t);
  }
  return new Map([...byTask].map(([task, { k, n }]) => [task, k / n]));
}

async function checkPageAccuracies(page: Page, stored: StoredRun, competencies?: Record<string, string[]>): Promise<void> {
  await page.getByTestId('results').waitFor();
  const perTask = accuracies(stored.results);
  for (const [task, acc] of perTask) {
    expect(await page.getByTestId(`acc-${task}`).textContent(), task).toBe((100 * acc).toFixed(2));
  }
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  let overall = mean([...perTask.values()]);
  if (competencies) {
    const groupMeans = Object.entries(competencies).map(([group, tasks]) => {
      const m = mean(tasks.map((t) => perTask.get(t)!));
      return [group, m] as const;
    });
    for (const [group, m] of groupMeans) expect(await page.getByTestId(`group-${group}`).textContent(), group).toBe((100 * m).toFixed(2));
    overall = mean(groupMeans.map(([, m]) => m));
  }
  expect(await page.getByTestId('acc-overall').textContent()).toBe((100 * overall).toFixed(2));
  const scored = stored.results.filter((r) => r.correct !== null);
  const pooled = scored.filter((r) => r.correct).length / scored.length;
  expect(await page.getByTestId('acc-pooled').textContent()).toBe((100 * pooled).toFixed(2));
}

/** The charts drew what the stored results give: a bar per task, a radar vertex per competency, every item in the calibration bins. */
async function checkCharts(page: Page, stored: StoredRun, competencies: Record<string, string[]>): Promise<void> {
  await page.getByTestId('run-charts').waitFor();
  const perTask = accuracies(stored.results);
  const bars = await page.locator('[data-testid=chart-task-bars] [data-testid=interval-bar]').evaluateAll((els) =>
    els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-value')), Number(el.getAttribute('data-low')), Number(el.getAttribute('data-high'))] as const),
  );
  expect(bars.map(([key]) => key).sort()).toEqual([...perTask.keys()].sort());
  for (const [key, value, low, high] of bars) {
    expect(value, key!).toBeCloseTo(100 * perTask.get(key!)!, 9);
    expect(low).toBeLessThanOrEqual(value);
    expect(high).toBeGreaterThanOrEqual(value);
  }
  const vertices = await page.locator('[data-testid=chart-radar] [data-testid=radar-vertex]').evaluateAll((els) =>
    els.map((el) => [el.getAttribute('data-key'), Number(el.getAttribute('data-value'))] as const),
  );
  const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;
  expect(vertices.map(([key]) => key)).toEqual(Object.keys(competencies));
  for (const [key, value] of vertices) expect(value, key!).toBeCloseTo(100 * mean(competencies[key!].map((t) => perTask.get(t)!)), 9);
  const counts = await page.locator('[data-testid=chart-calibration] [data-testid=calibration-point]').evaluateAll((els) => els.map((el) => Number(el.getAttribute('data-count'))));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(stored.results.length);
}

const COMPETENCIES = {
  glyph: ['Radical', 'Radical Meaning'],
  pronunciation: ['Pronunciation', 'Phonetic Radical', 'Homophone'],
  meaning: ['ExcDoc Word', 'TraDoc Word'],
  context: ['Cloze', 'Phonetic Loan Character', 'Translation'],
};

describe('multiple-choice runs', () => {
  const session = useBrowserSession({ webgpu: true, path: '/#/data' });
  let page: Page;

  it('gets the data: the AncientBench sample and ACLUE through the mirror', async () => {
    page = session.opened.page;
    await storeSampleAndAclue(page, session.url);
  });

  for (const shots of [0, 5]) {
    it(`runs the AncientBench sample ${shots}-shot on WASM: reference log-probs, page accuracies, competencies`, async () => {
      const runId = await startRun(page, { dataset: 'ancientbench', shots, backend: 'wasm' });
      await waitForStatus(page, 'completed');
      const stored = await readRun(page, runId);
      expect(stored.run.config.protocolId).toBe('ancientbench');
      expect(stored.run.config.shots).toBe(shots);
      expect(stored.run.config.itemIds).toHaveLength(30); // 3 test items × 10 tasks
      expect(stored.results.every((r) => r.shotsUsed === shots)).toBe(true);
      if (shots === 5) expect(stored.results.some((r) => r.reusedPrefixTokens > 0)).toBe(true);
      checkAgainstReference(stored);
      await checkPageAccuracies(page, stored, COMPETENCIES);
      await checkCharts(page, stored, COMPETENCIES);

      // The inspector: folded on the run page (issue 44), opened; wrong answers only, one item opened, its exact prompt and numbers.
      await page.locator('[data-testid=inspector] > summary').click();
      await page.getByTestId('wrong-only').check();
      const wrong = stored.results.filter((r) => r.correct === false);
      expect(await page.locator('[data-testid=inspector] li[data-item]').count()).toBe(wrong.length);
      const first = wrong[0];
      await page.locator(`li[data-item="${first.itemId}"] button`).click();
      const detail = page.getByTestId('item-detail');
      expect(await detail.locator('pre').textContent()).toBe(first.prompt);
      for (const [k, letter] of first.letters.entries()) {
        expect(await detail.getByTestId(`item-logprob-${letter}`).textContent()).toBe(first.logProbs[k].toFixed(4));
      }
    });
  }

  it('runs an ACLUE task 5-shot on WASM and on WebGPU with the same predictions', async () => {
    const byBackend: Record<string, StoredRun> = {};
    for (const backend of ['wasm', 'webgpu'] as const) {
      const runId = await startRun(page, { dataset: 'aclue', shots: 5, limit: 12, backend, tasks: ['古音学'] });
      await waitForStatus(page, 'completed');
      byBackend[backend] = await readRun(page, runId);
      checkAgainstReference(byBackend[backend]);
      await checkPageAccuracies(page, byBackend[backend]);
    }
    expect(byBackend.webgpu.run.environment?.backendInfo.backend).toBe('webgpu');
    expect(byBackend.webgpu.run.check?.passed).toBe(true);
    expect(byBackend.webgpu.results.map((r) => r.prediction)).toEqual(byBackend.wasm.results.map((r) => r.prediction));
  });

  it('checks a cloze run on WebGPU against WASM before it runs: options per token, the acc rule\'s pick, said in both languages', async () => {
    const runId = await startRun(page, { dataset: 'aclue', shots: 0, limit: 3, backend: 'webgpu', tasks: ['古音学'], scoring: 'cloze' });
    await waitForStatus(page, 'completed');
    const { run, results } = await readRun(page, runId);
    expect(run.config.scoring).toBe('cloze');
    expect(run.environment?.backendInfo.backend).toBe('webgpu');
    expect(run.environment?.statisticsPath?.kind).toBe('graph');
    // The first three items were scored on both backends (WASM with the statistics outputs too) and agreed.
    expect(run.check).toMatchObject({ passed: true, itemIds: run.config.itemIds.slice(0, 3), mismatchedPredictions: [] });
    expect(run.check!.maxLogProbDiff).toBeLessThan(1e-3);
    expect(results).toHaveLength(3);
    expect(results.every((r) => r.cloze !== undefined)).toBe(true);
    const said = page.getByTestId('backend-check');
    expect(await said.textContent()).toContain('WebGPU agreed with WASM on the first 3 items (largest per-token log-probability difference of an option');
    await page.getByTestId('lang-zh').click();
    expect(await said.textContent()).toContain('WebGPU 与 WASM 在前 3 题上一致（选项每词元对数概率最大差');
    await page.getByTestId('lang-en').click();
  });

  it('resumes a run interrupted by a reload to the results of an uninterrupted one', async () => {
    // The page's model requests after the fifth item are held until the reload, so the reload always
    // interrupts the run: on a loaded machine a tiny model's 80 items were all stored once between the
    // last look at the store and the reload. The reloaded page (no gate) sends its requests as ever.
    await gateScoreItems(page, 5);
    const runId = await startRun(page, { dataset: 'aclue', shots: 5, limit: 40, backend: 'wasm', tasks: ['古音学', '医古文'] });
    await expect.poll(async () => (await readRun(page, runId)).results.length, { timeout: 60_000, interval: 50 }).toBeGreaterThan(3);
    await page.reload();
    await page.locator('[data-testid=run]').waitFor();
    const interrupted = await readRun(page, runId);
    expect(interrupted.results.length).toBeLessThan(80);
    // Stored as `running` by the closed tab, but no tab holds its lock: shown as interrupted, with Resume.
    expect(interrupted.run.status).toBe('running');
    await page.locator('[data-testid=run-status][data-status=interrupted]').waitFor();
    expect(await page.getByTestId('run-status').textContent()).toContain('interrupted');
    expect(await page.getByTestId('run-progress').count()).toBe(0);
    // The run list says so too.
    await page.evaluate(() => (location.hash = '#/evaluate'));
    await page.locator(`[data-testid=run-list] tr:has(a[href="#/run/${runId}"]) td[data-status=interrupted]`).waitFor();
    await page.evaluate((id) => (location.hash = `#/run/${id}`), runId);
    await page.locator('[data-testid=run-status][data-status=interrupted]').waitFor();
    await page.getByTestId('resume-run').click();
    await waitForStatus(page, 'completed');
    const resumed = await readRun(page, runId);
    expect(resumed.results.map((r) => r.itemId)).toEqual(resumed.run.config.itemIds);

    const againId = await startRun(page, { dataset: 'aclue', shots: 5, limit: 40, backend: 'wasm', tasks: ['古音学', '医古文'] });
    await waitForStatus(page, 'completed');
    const uninterrupted = await readRun(page, againId);
    const strip = (r: McItemResult) => ({ itemId: r.itemId, prediction: r.prediction, logProbs: r.logProbs, prompt: r.prompt, correct: r.correct });
    expect(resumed.results.map(strip)).toEqual(uninterrupted.results.map(strip));
  });

  it('predicts AC-EVAL test items, which have no released keys, without scoring them, and exports the predictions', async () => {
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('dataset-ac-eval').getByTestId('download').click();
    await page.locator('[data-testid=dataset-ac-eval][data-stored=yes]').waitFor({ timeout: 60_000 });
    const runId = await startRun(page, { dataset: 'ac-eval', shots: 5, limit: 4, backend: 'wasm', tasks: ['geography'] });
    await waitForStatus(page, 'completed');
    const stored = await readRun(page, runId);
    expect(stored.run.config.protocolId).toBe('ac-eval');
    expect(stored.results).toHaveLength(4);
    expect(stored.results.every((r) => r.gold === null && r.correct === null)).toBe(true);
    checkAgainstReference(stored);
    expect(await page.locator('[data-task=geography]').textContent()).toContain('(+4 unscored)');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-csv').click()]);
    const csv = await new Promise<string>((resolve, reject) => {
      void download.createReadStream().then((stream) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
        stream.on('error', reject);
      });
    });
    expect(csv.charCodeAt(0)).toBe(0xfeff); // a UTF-8 BOM, for Excel
    const lines = csv.slice(1).trim().split('\n');
    expect(lines[0]).toMatch(/^item_id,task,prediction,gold,correct,/);
    expect(lines).toHaveLength(5);
    stored.results.forEach((r, i) => expect(lines[i + 1].startsWith(`${r.itemId},geography,${r.prediction},,,`)).toBe(true));
  });

  it('refuses to run the same run in a second tab at once, even where that tab missed that the first runs it', async () => {
    // The first tab's run is held after its fifth item until the second tab has tried: it still holds
    // the run's lock then, on any machine (a fast one could finish 500 items first).
    await gateScoreItems(page, 5);
    const runId = await startRun(page, { dataset: 'aclue', shots: 0, backend: 'wasm', tasks: ['古文单字多义'] });
    const second = await session.opened.context.newPage();
    // A page that sees the first tab's hold turns its Resume off (run-elsewhere.test.ts). This one is
    // blind to it (its lock query answers "none held", as a page that looked a moment before the first
    // tab started), so its Resume stays on: the run's lock itself must refuse.
    await second.addInitScript(() => {
      navigator.locks.query = async () => ({ held: [], pending: [] });
    });
    await second.goto(`${session.url}/#/run/${runId}`);
    await second.locator('[data-testid=run]').waitFor();
    // The first tab still holds the run's lock, so the second cannot start it.
    await second.getByTestId('resume-run').click();
    expect(await second.getByTestId('run-error').textContent()).toContain('already running in another tab');
    // Cancelled while held, then let go: the run stops at the item it was on (500 would complete on a fast machine).
    await page.getByTestId('cancel-run').click();
    await allowScoreItems(page, Infinity);
    await waitForStatus(page, 'paused');
    await second.close();
  });
});
