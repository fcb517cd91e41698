// A memorization run through the page (issue 26), on jiangu-tiny (WASM): the Evaluate page says what
// it reads before it starts, in both languages; the run scores every item's text position by position
// with numbers equal to the reference forward (1e-4), and every shard of the file-order test in its
// file order and shuffled orders; its page shows the distributions, the most familiar items and the
// exchangeability results the core computes from what is stored; a reload mid-run resumes with
// nothing lost or asked twice and the same numbers; stories260k's stored numbers give what an
// independent numpy script gives, and Compare sets it beside jiangu-tiny as the core does; a share
// link of the run draws its rounded scores and reproduces it here within that rounding.
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { encodeFixture, forward, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { rowStatistics } from '../../src/lib/core/logprobs.ts';
import { compareMemorization, probeRunSummary } from '../../src/lib/core/metrics/memorization/index.ts';
import type { ProbeItemResult, ProbeResult, ProbeRunRecord, ProbeShardResult } from '../../src/lib/core/record/probe-run.ts';
import { useBrowserSession } from './session.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../src/lib/core/formats/share-link/share-bytes.ts';
import { reference } from '../unit/metrics/memorization-helpers.ts';
import { generateStories260k } from '../../scripts/fixtures/stories260k.ts';
import { storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { readStoredRun, storeSampleAndAclue } from './runs.ts';
import { openPage } from '../../scripts/browser.ts';

const TASKS = ['古音学', '医古文'];

/** The run and its results as the page stored them (runs.ts reads them with the raw IndexedDB API): items in run order, then shards. */
async function readProbe(page: Page, runId: string): Promise<{ run: ProbeRunRecord; results: ProbeResult[] }> {
  const { run, results } = await readStoredRun<ProbeRunRecord, ProbeResult>(page, runId, { runs: 'probeRuns', results: 'probeResults' });
  return { run, results: results.sort((a, b) => (a.kind === b.kind ? a.index - b.index : a.kind === 'item' ? -1 : 1)) };
}

/** Installed before the page's scripts: with `window.__stallAfter` set, holds back every textStatistics request after that many. */
function stallStatistics(): void {
  const post = Worker.prototype.postMessage;
  const w = window as unknown as { __stallAfter?: number; __texts: number };
  w.__texts = 0;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
    if ((message as { kind?: string } | null)?.kind === 'textStatistics' && ++w.__texts > (w.__stallAfter ?? Infinity)) return;
    return (post as (...args: unknown[]) => void).call(this, message, ...rest);
  } as typeof Worker.prototype.postMessage;
}

async function startProbe(page: Page, siteUrl: string, exchange: boolean, model = 'jiangu-tiny'): Promise<string> {
  await page.goto(`${siteUrl}/#/evaluate`);
  await page.getByTestId('eval-kind').selectOption('memorization');
  await page.getByTestId('eval-dataset').selectOption('aclue');
  await page.getByTestId('eval-limit').fill('8');
  await page.getByRole('button', { name: 'none' }).click();
  for (const task of TASKS) await page.locator(`input[type=checkbox][value="${task}"]`).check();
  if (exchange) {
    await page.getByTestId('eval-exchangeability').check();
    await page.getByTestId('eval-permutations').fill('3');
  }
  await page.getByTestId('model-choice').selectOption(`site:${model}`);
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('load').click();
  await page.waitForURL(/#\/probe\//);
  return decodeURIComponent(page.url().split('#/probe/')[1]);
}

async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

describe('a memorization run on jiangu-tiny (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data', setup: () => void (storiesPresent && generateStories260k()) });
  let page: Page;
  let firstId = '';
  let secondId = '';

  it('gets ACLUE through the mirror', async () => {
    page = session.opened.page;
    await page.addInitScript(stallStatistics);
    await storeSampleAndAclue(page, session.url);
  });

  it('says what it reads before it starts, with and without the file-order test, in both languages', async () => {
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-kind').selectOption('memorization');
    await page.getByTestId('eval-dataset').selectOption('aclue');
    await page.getByTestId('eval-limit').fill('8');
    await page.getByRole('button', { name: 'none' }).click();
    for (const task of TASKS) await page.locator(`input[type=checkbox][value="${task}"]`).check();
    await page.locator('[data-testid=eval-memorization-cost][data-texts="16"][data-shard-texts="0"]').waitFor();
    expect(await page.getByTestId('eval-memorization-cost').textContent()).toContain('Cost: 16 texts');
    await page.getByTestId('eval-exchangeability').check();
    await page.getByTestId('eval-permutations').fill('3');
    // 8 items a task: 4 shards of 2, each read in its order and its one other order (the swap, scored once, not 3 times), in each of 2 tasks.
    await page.locator('[data-testid=eval-memorization-cost][data-shard-texts="16"]').waitFor();
    expect(await page.getByTestId('eval-memorization-cost').textContent()).toContain('for the file-order test 16 texts');
    // Said in words: every shard has 2 items, and 8 items a task make a weak test.
    expect(await page.getByTestId('eval-shards-two-item').getAttribute('data-count')).toBe('8');
    expect(await page.getByTestId('eval-shards-two-item').textContent()).toContain('it is scored once, not 3 times');
    expect((await page.getByTestId('eval-shards-weak').getAttribute('data-tasks'))?.split('|').sort()).toEqual([...TASKS].sort());
    expect(await page.getByTestId('eval-scoring').count()).toBe(0);
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('eval-memorization-hint').textContent()).toContain('记忆检测');
    expect(await page.getByTestId('eval-memorization-cost').textContent()).toContain('文件顺序检验另需 16 段文本');
    expect(await page.getByTestId('eval-shards-two-item').textContent()).toContain('只评一次');
    expect(await page.getByTestId('eval-shards-weak').textContent()).toContain('文件顺序检验很弱');
    await page.getByTestId('lang-en').click();
  });

  it('scores every item and shard; each position equals the reference; the page shows what the core computes', async () => {
    firstId = await startProbe(page, session.url, true);
    await page.locator('[data-testid=probe][data-status=completed]').waitFor({ timeout: 120_000 });
    const { run, results } = await readProbe(page, firstId);
    const items = results.filter((r): r is ProbeItemResult => r.kind === 'item');
    const shards = results.filter((r): r is ProbeShardResult => r.kind === 'shard');
    expect(items.map((r) => r.itemId)).toEqual(run.config.itemIds);
    expect(shards).toHaveLength(8);
    expect(run.environment?.statisticsPath?.kind).toBe('graph');
    const model = loadReferenceModel('jiangu-tiny', 'fp32');
    let worst = 0;
    for (const r of items) {
      const ids = encodeFixture(r.text);
      expect(r.tokenCount).toBe(ids.length);
      const { logits } = forward(model, ids);
      r.logprob.forEach((lp, j) => {
        const want = rowStatistics(logits[j], 0, model.vocabSize, ids[j + 1]);
        worst = Math.max(worst, Math.abs(lp - want.logprob), Math.abs(r.mean[j] - want.mean), Math.abs(r.std[j] - want.std));
      });
    }
    expect(worst).toBeLessThan(1e-4);
    for (const s of shards) expect(s.permuted).toHaveLength(3);

    const summary = probeRunSummary(run, results);
    for (const task of TASKS) {
      const want = summary.minKPlusPlus.tasks.find((x) => x.task === task)!.summary!.median;
      expect(Number(await page.getByTestId(`probe-median-minKPlusPlus-${task}`).getAttribute('data-value')), task).toBe(want);
    }
    expect(Number(await page.getByTestId('probe-median-minKProb-overall').getAttribute('data-value'))).toBe(summary.minKProb.overall!.median);
    const familiar = await page.locator('[data-testid=probe-familiar] li').evaluateAll((els) => els.map((el) => el.getAttribute('data-item')));
    expect(familiar).toHaveLength(10);
    const scores = summary.items.map((i) => i.minKPlusPlus!).sort((a, b) => b - a);
    expect(Number(await page.locator('[data-testid=probe-familiar] li').first().getAttribute('data-score'))).toBe(scores[0]);
    for (const file of summary.exchangeability) {
      const row = page.locator(`[data-testid=probe-exchangeability] tr[data-file="${file.task}"]`);
      expect(Number(await row.getAttribute('data-p-holm'))).toBe(file.pHolm);
    }
    await page.getByTestId('probe-boxes-minKPlusPlus').waitFor();
    // Each task's 4 shards have 2 items: the run page says so, and that 8 items a task make a weak test.
    expect(await page.getByTestId('probe-shards-two-item').getAttribute('data-count')).toBe('8');
    expect((await page.getByTestId('probe-shards-weak').getAttribute('data-tasks'))?.split('|').sort()).toEqual([...TASKS].sort());
    // Scored once: every permuted log-likelihood of a 2-item shard is the one number.
    for (const s of shards) expect(new Set(s.permuted).size).toBe(1);
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('probe-shards-two-item').textContent()).toContain('只评一次');
    expect(await page.getByTestId('probe').textContent()).toContain('它见过文件的顺序吗');
    expect(await page.getByTestId(`probe-verdict-${TASKS[0]}`).textContent()).toMatch(/经 Holm 校正/);
    await page.getByTestId('lang-en').click();
  });

  it('exports the run and imports the file back through the Evaluate page: here it is stored already (the stored copy offered), in a fresh browser its run page shows the same numbers; a tampered file is refused naming the field', async () => {
    await page.goto(`${session.url}/#/probe/${encodeURIComponent(firstId)}`);
    await page.locator('[data-testid=probe][data-status=completed]').waitFor();
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('probe-export').click()]);
    const text = await downloadText(download);
    const shownOn = async (p: Page) => {
      const values: Record<string, string | null> = {};
      for (const probe of ['minKPlusPlus', 'minKProb']) for (const task of [...TASKS, 'overall']) values[`${probe}-${task}`] = await p.getByTestId(`probe-median-${probe}-${task}`).getAttribute('data-value');
      values.familiar = await p.locator('[data-testid=probe-familiar] li').first().getAttribute('data-score');
      for (const task of TASKS) values[`p-${task}`] = await p.locator(`[data-testid=probe-exchangeability] tr[data-file="${task}"]`).getAttribute('data-p-holm');
      return values;
    };
    const before = await shownOn(page);

    // A tampered copy: refused, naming the field, and nothing stored.
    const tampered = JSON.parse(text) as { results: { index: number }[] };
    tampered.results[1].index = 5;
    await page.evaluate(() => (location.hash = '#/evaluate'));
    await page.getByTestId('import-run-input').setInputFiles({ name: 'tampered.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(tampered)) });
    await page.getByTestId('import-run-error').waitFor();
    expect(await page.getByTestId('import-run-error').textContent()).toContain('results[1].index');
    expect(await page.locator('[data-testid=probe-runs] li').count()).toBe(1);
    // The file itself, here: the run is stored already, and the way on is its page.
    await page.getByTestId('import-run-input').setInputFiles({ name: 'memorization.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.getByTestId('import-run-already-stored').waitFor();
    expect(await page.getByTestId('open-stored-copy').getAttribute('href')).toBe(`#/probe/${firstId}`);
    expect(await page.locator('[data-testid=probe-runs] li').count()).toBe(1);

    // Another browser (a fresh context, nothing stored): imported, with the same numbers on its page.
    const fresh = await openPage(session.opened.context.browser()!, `${session.url}/#/evaluate`);
    try {
      await fresh.page.getByTestId('import-run-input').setInputFiles({ name: 'memorization.json', mimeType: 'application/json', buffer: Buffer.from(text) });
      await fresh.page.waitForURL((url) => url.hash.startsWith('#/probe/'));
      const importedId = decodeURIComponent(fresh.page.url().split('#/probe/')[1]);
      await fresh.page.locator('[data-testid=probe][data-status=completed]').waitFor();
      expect(await shownOn(fresh.page)).toEqual(before);
      expect(await fresh.page.getByTestId('probe-origin').textContent()).toContain('from memorization.json');
      await fresh.page.getByTestId('lang-zh').click();
      expect(await fresh.page.getByTestId('probe-origin').textContent()).toContain('从 memorization.json 导入');
      const imported = await readProbe(fresh.page, importedId);
      expect(imported.run.origin).toMatchObject({ kind: 'jiangu-file', fileName: 'memorization.json', originalRunId: firstId });
      const original = await readProbe(page, firstId);
      expect(probeRunSummary(imported.run, imported.results)).toEqual(probeRunSummary(original.run, original.results));
    } finally {
      await fresh.context.close();
    }
  });

  it('resumes a memorization run reloaded mid-run, with nothing lost or asked twice, and the same numbers', async () => {
    await page.reload();
    await page.evaluate(() => ((window as unknown as { __stallAfter: number }).__stallAfter = 5));
    const runId = await startProbe(page, session.url, false);
    await expect.poll(async () => (await readProbe(page, runId)).results.length, { timeout: 60_000, interval: 50 }).toBe(5);
    await page.reload();
    await page.locator('[data-testid=probe-status][data-status=interrupted]').waitFor();
    const before = await readProbe(page, runId);
    await page.evaluate(() => ((window as unknown as { __texts: number }).__texts = 0));
    await page.getByTestId('probe-resume').click();
    await page.locator('[data-testid=probe][data-status=completed]').waitFor({ timeout: 60_000 });
    expect(await page.evaluate(() => (window as unknown as { __texts: number }).__texts)).toBe(16 - 5);
    const after = await readProbe(page, runId);
    expect(after.results.slice(0, 5)).toEqual(before.results);
    const strip = (r: ProbeResult) => (r.kind === 'item' ? { itemId: r.itemId, text: r.text, logprob: r.logprob, mean: r.mean, std: r.std } : r.itemId);
    const first = (await readProbe(page, firstId)).results.filter((r) => r.kind === 'item');
    expect(after.results.map(strip)).toEqual(first.map(strip));
    // Listed on the Evaluate page with the first.
    await page.goto(`${session.url}/#/evaluate`);
    await page.locator(`[data-testid=probe-runs] li[data-run="${runId}"]`).waitFor();
    expect(await page.locator('[data-testid=probe-runs] li').count()).toBe(2);
    // No scoring run is stored, but the memorization runs are listed: the page does not say "No runs yet." above them.
    expect(await page.getByText('No runs yet.').count()).toBe(0);
    secondId = runId;
  });

  // A page error (Svelte's each_key_duplicate, which left Compare blank) fails the test through the session's guard.
  it('compares two memorization runs of the same model: both runs\' rows drawn, nothing thrown', async () => {
    await page.goto(`${session.url}/#/compare`);
    await page.getByTestId('compare-probe-baseline').selectOption(firstId);
    await page.getByTestId('compare-probe-other').selectOption(secondId);
    await page.getByTestId('compare-probe-table').waitFor();
    // One box per task and run: the labels repeat (the same model twice), the rows do not go.
    await expect.poll(() => page.locator('[data-testid=compare-probe-boxes] rect.box').count()).toBe(2 * TASKS.length);
    const a = await readProbe(page, firstId);
    const b = await readProbe(page, secondId);
    const want = compareMemorization('aclue', probeRunSummary(a.run, a.results).items, probeRunSummary(b.run, b.results).items, a.run.config.tasks, a.run.config.k);
    expect(Number(await page.getByTestId('compare-probe-overall').getAttribute('data-value'))).toBe(want.difference.overall.estimate!.estimate);
  });

  it('shares the run as a link whose page draws the rounded scores, and reproduces it here within the rounding', async () => {
    await page.goto(`${session.url}/#/probe/${encodeURIComponent(firstId)}`);
    await page.locator('[data-testid=probe][data-status=completed]').waitFor();
    await page.getByTestId('probe-share').click();
    const url = await page.getByTestId('probe-share-url').inputValue();
    expect(url).toContain('#/probe-link/');
    await page.goto(url);
    await page.getByTestId('probe-link').waitFor();
    const { run, results } = await readProbe(page, firstId);
    const summary = probeRunSummary(run, results);
    const shown = page.getByTestId('probe-link-summary');
    expect(Number(await shown.getAttribute('data-n'))).toBe(summary.minKPlusPlus.overall!.n);
    // The link's median is within half a step of the run's own.
    expect(Math.abs(Number(await shown.getAttribute('data-median')) - summary.minKPlusPlus.overall!.median)).toBeLessThanOrEqual(0.005 + 1e-9);
    for (const file of summary.exchangeability) expect(Number(await page.locator(`[data-testid=probe-link-files] li[data-file="${file.task}"]`).getAttribute('data-p'))).toBe(file.result!.pValue);
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('probe-link-note').textContent()).toContain('链接带有每道题的 Min-K%++');
    await page.getByTestId('lang-en').click();
    await page.getByTestId('probe-link-reproduce').click();
    const agreement = page.getByTestId('probe-link-agreement');
    await Promise.race([
      agreement.waitFor({ timeout: 120_000 }),
      page.getByTestId('probe-link-reproduce-error').waitFor({ timeout: 120_000 }).then(async () => {
        throw new Error(`reproduction refused: ${await page.getByTestId('probe-link-reproduce-error').textContent()}`);
      }),
    ]);
    expect(await agreement.getAttribute('data-within')).toBe(String(summary.items.length));
    expect(await agreement.textContent()).toContain(`${summary.items.length} of ${summary.items.length} items' Min-K%++ here are within the link's rounding`);
    // The file-order test of each task file, here against the link's: the same conclusion.
    for (const task of TASKS) expect(await page.locator(`[data-testid=probe-link-file-order] li[data-file="${task}"]`).getAttribute('data-matched')).toBe('true');
    expect(await page.getByTestId('probe-link-file-order').textContent()).toContain('the file-order test matched');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('probe-link-file-order').textContent()).toContain('文件顺序检验一致');
    await page.getByTestId('lang-en').click();

    // The same link with no items: read, and said to have nothing to show or reproduce.
    const payload = url.split('#/probe-link/')[1];
    const { version, header } = unframe(await inflateRaw(fromBase64Url(payload), 1 << 22), 1 << 20);
    const empty: Record<string, unknown> = { ...(JSON.parse(new TextDecoder().decode(header)) as Record<string, unknown>), files: null };
    Object.assign(empty.config as Record<string, unknown>, { itemCount: 0 });
    await page.goto(`${session.url}/#/probe-link/${toBase64Url(await deflateRaw(frame(version, new TextEncoder().encode(JSON.stringify(empty)), new Uint8Array(0))))}`);
    await page.getByTestId('probe-link-empty').waitFor();
    expect(await page.getByTestId('probe-link-reproduce').isDisabled()).toBe(true);
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('probe-link-empty').textContent()).toContain('没有题目');
    await page.getByTestId('lang-en').click();
  });

  it.skipIf(!storiesPresent)('stories260k: the probes and the file-order test computed from its stored numbers equal an independent numpy script', async () => {
    const runId = await startProbe(page, session.url, true, 'stories260k');
    await page.locator('[data-testid=probe][data-status=completed]').waitFor({ timeout: 120_000 });
    const { run, results } = await readProbe(page, runId);
    const items = results.filter((r): r is ProbeItemResult => r.kind === 'item' && !r.failure);
    const summary = probeRunSummary(run, results);
    const files = run.config.exchangeability!;
    const shardSets = files.map((file) => results.filter((r): r is ProbeShardResult => r.kind === 'shard' && r.task === file.task).sort((a, b) => a.shard - b.shard).map((r) => ({ canonical: r.canonical, permuted: r.permuted })));
    const out = reference({ ks: [run.config.k], positionTexts: items.map((r) => ({ logprob: r.logprob, mean: r.mean, std: r.std })), shardSets });
    items.forEach((r, i) => {
      const ours = summary.items.find((x) => x.itemId === r.itemId)!;
      expect(ours.minKProb!, r.itemId).toBeCloseTo(out.positionTexts[i].minK[0]!, 10);
      expect(ours.minKPlusPlus!, r.itemId).toBeCloseTo(out.positionTexts[i].minKPlusPlus[0]!, 9);
    });
    summary.exchangeability.forEach((file, i) => {
      expect(file.result!.statistic!).toBeCloseTo(out.shardSets[i].t, 9);
      expect(file.result!.pValue!).toBeCloseTo(out.shardSets[i].p, 9);
    });
    // Compare: the jiangu-tiny run against this one, on the same items, as the core compares them.
    await page.goto(`${session.url}/#/compare`);
    await page.getByTestId('compare-probe-baseline').selectOption(firstId);
    await page.getByTestId('compare-probe-other').selectOption(runId);
    await page.getByTestId('compare-probe-table').waitFor();
    const tiny = await readProbe(page, firstId);
    const want = compareMemorization('aclue', probeRunSummary(tiny.run, tiny.results).items, summary.items, tiny.run.config.tasks, tiny.run.config.k);
    expect(Number(await page.getByTestId('compare-probe-overall').getAttribute('data-value'))).toBe(want.difference.overall.estimate!.estimate);
    await page.getByTestId('compare-probe-boxes').waitFor();
    console.log(`stories260k memorization on ${items.length} ACLUE items: Min-K%++ median ${summary.minKPlusPlus.overall?.median.toFixed(3)}; file-order p ${summary.exchangeability.map((f) => f.result?.pValue?.toFixed(3)).join(', ')}`);
  });
});
