// Run records, comparisons and the two languages in Chromium: an exported run imports in a fresh
// browser as the same table (and a tampered summary is shown as such), an lm-evaluation-harness file
// imports as a run, two runs compare with the exact McNemar test computed here, and the results,
// compare and classroom pages render in English and in Chinese (screenshots in test-results/).
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from '../../scripts/browser.ts';
import { projectRoot } from '../../scripts/site-routes.ts';
import { mcnemarExact } from '../../src/lib/core/metrics/mcnemar.ts';
import type { McItemResult, RunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';

const readResults = async (page: Page, runId: string) => (await readStoredRun<RunRecord, McItemResult>(page, runId)).results;

const TASKS = ['Radical', 'Radical Meaning', 'Pronunciation', 'Phonetic Radical', 'Homophone', 'ExcDoc Word', 'TraDoc Word', 'Cloze', 'Phonetic Loan Character', 'Translation'];
const SCREENSHOTS = join(projectRoot, 'test-results', 'screenshots');

async function accuracyTexts(page: Page): Promise<string[]> {
  await page.getByTestId('results').waitFor();
  return Promise.all([...TASKS, 'overall', 'pooled'].map((key) => page.getByTestId(`acc-${key}`).textContent().then((t) => t ?? '')));
}

/** Nothing sticks out sideways: long Chinese or English labels wrap or scroll inside their own boxes. */
async function expectNoPageOverflow(page: Page, what: string): Promise<void> {
  const { scrollWidth, innerWidth } = await page.evaluate(() => ({ scrollWidth: document.documentElement.scrollWidth, innerWidth: window.innerWidth }));
  expect(scrollWidth, `${what} is wider than the window`).toBeLessThanOrEqual(innerWidth);
}

describe('run records, comparisons and languages', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  const runs: string[] = [];

  it('runs the AncientBench sample twice (letter logits, and letters extracted from generated answers) to have something to export and compare', async () => {
    const { page } = session.opened;
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    // The random-weight fixture picks the same letter whatever the prompt, so a second letter-logits
    // run would agree on every item; answers extracted from generated text differ.
    for (const scoring of ['letter-logits', 'generate-extract'] as const) {
      runs.push(await startFixtureRun(page, { dataset: 'ancientbench', scoring }));
      await waitForStatus(page, 'completed', 120_000);
    }
    expect(runs[0]).not.toBe(runs[1]);
  });

  it('imports an exported run in a fresh browser as the same table, and shows a tampered summary as such', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/run/${runs[0]}`);
    const own = await accuracyTexts(page);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const exported = readFileSync((await download.path())!, 'utf8');
    const record = JSON.parse(exported) as { summary: Record<string, number> };
    expect(record.summary.overall).toBeCloseTo(Number(own[TASKS.length]), 2);

    const fresh = await openPage(session.opened.context.browser()!, `${session.url}/#/evaluate`);
    try {
      await fresh.page.getByTestId('import-run-input').setInputFiles({ name: 'run.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
      await fresh.page.waitForURL(/#\/run\//);
      expect(await accuracyTexts(fresh.page)).toEqual(own);
      expect(await fresh.page.getByTestId('run-origin').getAttribute('data-kind')).toBe('jiangu-file');
      expect(await fresh.page.getByTestId('origin-summary-agrees').count()).toBe(1);
      expect(await fresh.page.getByTestId('resume-run').count()).toBe(0);

      const firstImport = decodeURIComponent(fresh.page.url().split('#/run/')[1]);

      // The same file with an overall that its items do not give. In the browser that holds the run
      // already it is that run (a summary is derived, recomputed from the items): nothing new is
      // stored, and the stored copy is offered.
      record.summary.overall += 7;
      const tampered = { name: 'tampered.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(record)) };
      await fresh.page.goto(`${session.url}/#/evaluate`);
      await fresh.page.getByTestId('import-run-input').setInputFiles(tampered);
      await fresh.page.getByTestId('import-run-already-stored').waitFor();
      expect(await fresh.page.getByTestId('open-stored-copy').getAttribute('href')).toBe(`#/run/${firstImport}`);
      await fresh.page.locator(`[data-testid=run-list] tr[data-run="${firstImport}"]`).waitFor();
      expect(await fresh.page.locator('[data-testid=run-list] tbody tr').count()).toBe(1);

      // In a browser that does not hold it: imported, recomputed, and flagged.
      const other = await openPage(session.opened.context.browser()!, `${session.url}/#/evaluate`);
      try {
        await other.page.getByTestId('import-run-input').setInputFiles(tampered);
        await other.page.waitForURL(/#\/run\//);
        const mismatch = other.page.getByTestId('origin-summary-mismatch');
        await mismatch.waitFor();
        expect(await mismatch.locator('li[data-key=overall]').textContent()).toBe(`Overall: file ${(record.summary.overall).toFixed(2)}, items ${own[TASKS.length]}`);
        expect(await accuracyTexts(other.page)).toEqual(own);
        expect(other.leaks).toEqual([]);
      } finally {
        await other.context.close();
      }

      // A broken file is refused with its message, and nothing is stored.
      await fresh.page.goto(`${session.url}/#/evaluate`);
      await fresh.page.getByTestId('import-run-input').setInputFiles({ name: 'broken.json', mimeType: 'application/json', buffer: Buffer.from('{"format":"jiangu-run","formatVersion":2}') });
      expect(await fresh.page.getByTestId('import-run-error').textContent()).toMatch(/^broken\.json: .*formatVersion/);

      // lm-evaluation-harness results with per-sample records import as a run of ACLUE.
      const harness = join(projectRoot, 'test', 'fixtures', 'lm-eval', 'aclue-two-tasks.json');
      await fresh.page.getByTestId('import-run-input').setInputFiles(harness);
      await fresh.page.waitForURL(/#\/run\//);
      expect(await fresh.page.getByTestId('run-origin').getAttribute('data-kind')).toBe('lm-eval');
      await fresh.page.getByTestId('results').waitFor();
      expect(await fresh.page.getByTestId('share').count()).toBe(0);
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('compares the two runs: scores, paired differences and the exact McNemar test computed here', async () => {
    const { page } = session.opened;
    const [a, b] = await Promise.all(runs.map((id) => readResults(page, id)));
    await page.goto(`${session.url}/#/compare`);
    await page.getByTestId(`compare-pick-${runs[0]}`).check();
    await page.getByTestId(`compare-pick-${runs[1]}`).check();
    await page.getByTestId('compare-table').waitFor();
    expect(decodeURIComponent(page.url().split('#/compare/')[1])).toBe(`${runs[0]},${runs[1]}`);

    const byId = new Map(b.map((r) => [r.itemId, r]));
    for (const task of TASKS) {
      const inTask = (rs: McItemResult[]) => rs.filter((r) => r.task === task);
      const acc = (rs: McItemResult[]) => (100 * inTask(rs).filter((r) => r.correct).length) / inTask(rs).length;
      expect(Number(await page.getByTestId(`compare-cell-${task}-0`).getAttribute('data-score')), task).toBeCloseTo(acc(a), 9);
      expect(Number(await page.getByTestId(`compare-cell-${task}-1`).getAttribute('data-score')), task).toBeCloseTo(acc(b), 9);
      expect(Number(await page.getByTestId(`compare-diff-${task}-1`).getAttribute('data-points')), task).toBeCloseTo(acc(b) - acc(a), 9);
      expect(await page.getByTestId(`compare-diff-${task}-1`).getAttribute('data-pairing')).toBe('paired');
    }
    // McNemar over every item both runs scored, computed here from the stored results.
    const want = mcnemarExact(a.map((r) => ({ a: r.correct === true, b: byId.get(r.itemId)!.correct === true })));
    const cell = page.getByTestId('compare-mcnemar-pooled-1');
    expect(Number(await cell.getAttribute('data-b'))).toBe(want.b);
    expect(Number(await cell.getAttribute('data-c'))).toBe(want.c);
    expect(Number(await cell.getAttribute('data-p'))).toBeCloseTo(want.pValue, 12);
    expect(want.b + want.c).toBeGreaterThan(0); // the two runs disagree somewhere, so the test says something

    // The charts: a bar per task and run, and the paper's rows on the competency radar, dashed.
    expect(await page.locator('[data-testid=compare-chart-bars] [data-testid=interval-bar]').count()).toBe(2 * TASKS.length);
    const radarSeries = await page.locator('[data-testid=compare-chart-radar] [data-testid=radar-polygon]').evaluateAll((els) => els.map((el) => el.getAttribute('data-series')));
    expect(radarSeries.slice(0, 2).every((s) => /^[12]\. /.test(s ?? ''))).toBe(true);
    expect(radarSeries).toContain('paper: Yi1.5-9B-Ancient');

    // The selection is in the URL: a reload shows the same comparison.
    await page.reload();
    await page.getByTestId('compare-table').waitFor();
    expect(Number(await page.getByTestId('compare-mcnemar-pooled-1').getAttribute('data-p'))).toBeCloseTo(want.pValue, 12);

    // A shared link joins as a third column, matched item by item to the stored data: the link of
    // the baseline run agrees with it on every item.
    await page.goto(`${session.url}/#/run/${runs[0]}`);
    await page.getByTestId('share').click();
    const link = await page.getByTestId('share-url').inputValue();
    await page.goto(`${session.url}/#/compare/${runs[0]},${runs[1]}`);
    await page.getByTestId('compare-table').waitFor();
    await page.getByTestId('compare-link-input').fill(link);
    await page.getByTestId('compare-link-add').click();
    await page.getByTestId('compare-cell-pooled-2').waitFor();
    expect(await page.getByTestId('compare-cell-pooled-2').getAttribute('data-score')).toBe(await page.getByTestId('compare-cell-pooled-0').getAttribute('data-score'));
    expect(await page.getByTestId('compare-diff-pooled-2').getAttribute('data-pairing')).toBe('paired');
    expect(Number(await page.getByTestId('compare-diff-pooled-2').getAttribute('data-points'))).toBe(0);
    expect(Number(await page.getByTestId('compare-mcnemar-pooled-2').getAttribute('data-b'))).toBe(0);
    expect(Number(await page.getByTestId('compare-mcnemar-pooled-2').getAttribute('data-c'))).toBe(0);
  });

  it('labels two runs that differ only in backend apart in Compare', async () => {
    const { page } = session.opened;
    // The first run as another browser would have made it on WebGPU: the same run file, but the
    // backend and the run's id (a run made elsewhere is another run; its own file, imported here
    // again, is the stored run, and says so).
    await page.goto(`${session.url}/#/run/${runs[0]}`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
    const exported = readFileSync((await download.path())!, 'utf8');
    await page.goto(`${session.url}/#/evaluate`);
    await page.locator(`[data-testid=run-list] a[href="#/run/${runs[1]}"]`).waitFor();
    const listed = await page.locator('[data-testid=run-list] tbody tr').count();
    await page.getByTestId('import-run-input').setInputFiles({ name: 'own-run.json', mimeType: 'application/json', buffer: Buffer.from(exported) });
    await page.getByTestId('import-run-already-stored').waitFor();
    expect(await page.getByTestId('open-stored-copy').getAttribute('href')).toBe(`#/run/${runs[0]}`);
    expect(await page.locator('[data-testid=run-list] tbody tr').count()).toBe(listed);

    const file = JSON.parse(exported) as { run: { id: string; config: { model: { backend: string } }; environment?: { backendInfo: { backend: string } } }; results: { runId: string }[] };
    file.run.id = randomUUID();
    for (const result of file.results) result.runId = file.run.id;
    file.run.config.model.backend = 'webgpu';
    if (file.run.environment) file.run.environment.backendInfo.backend = 'webgpu';
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('import-run-input').setInputFiles({ name: 'webgpu-run.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
    await page.waitForURL(/#\/run\//);
    const webgpuRun = decodeURIComponent(page.url().split('#/run/')[1]);

    await page.goto(`${session.url}/#/compare/${runs[0]},${webgpuRun}`);
    await page.reload(); // shared links added earlier stay for the visit; this comparison is of these two alone
    await page.getByTestId('compare-table').waitFor();
    const heads = page.locator('[data-testid=compare-table] th.run .label');
    const labels = await heads.allTextContents();
    expect(labels).toHaveLength(2);
    expect(labels[0], 'the two columns read the same').not.toBe(labels[1]);
    expect(labels.map((l) => l.trim())).toEqual(['WASM', 'WebGPU']);
    // What they share is said once, and each column's full description is on hover.
    expect(await page.getByTestId('compare-common').textContent()).toContain('jiangu-tiny (test model, random weights) · fp32');
    expect(await heads.first().getAttribute('title')).toMatch(/^jiangu-tiny \(test model, random weights\) · fp32 · WASM · 0-shot · letter log-probs/);
    expect(await page.locator('[data-testid=compare-chart-bars] [data-legend]').evaluateAll((els) => els.map((el) => el.getAttribute('data-legend')))).toEqual(['1. WASM', '2. WebGPU']);

    // Three runs: each label names what sets it apart from the others; narrow screens scroll inside the table.
    await page.goto(`${session.url}/#/compare/${runs[0]},${webgpuRun},${runs[1]}`);
    // A hash change on the same page: the two-run table's charts are still there until the third column
    // comes, so wait for that column (under load the old table was read, with no labels).
    await heads.nth(2).waitFor();
    await page.getByTestId('compare-charts').waitFor();
    const three = (await heads.allTextContents()).map((l) => l.trim());
    expect(new Set(three).size).toBe(3);
    mkdirSync(SCREENSHOTS, { recursive: true });
    for (const lang of ['en', 'zh'] as const) {
      await page.getByTestId(`lang-${lang}`).click();
      for (const width of [1200, 390]) {
        await page.setViewportSize({ width, height: 1000 });
        await expectNoPageOverflow(page, `compare (${lang}, ${width} px)`);
        writeFileSync(join(SCREENSHOTS, `compare-three-${lang}-${width}.png`), await page.screenshot({ fullPage: true }));
      }
    }
    await page.setViewportSize({ width: 1200, height: 1000 });
    await page.getByTestId('lang-en').click();
  });

  it('wraps a long bar label in Compare between words, never cutting one', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/compare/${runs[0]},${runs[1]}`);
    await page.getByTestId('compare-charts').waitFor();
    // "Phonetic Loan Character" is wider than the bar chart's label column: it is wrapped, not cut.
    const label = 'Phonetic Loan Character';
    const text = page.locator(`[data-testid=compare-chart-bars] text[data-row="${label}"]`);
    const spans = await text.locator('tspan').allTextContents();
    const lines = spans.length > 0 ? spans : [(await text.textContent()) ?? ''];
    const words = new Set(label.split(' '));
    for (const line of lines) {
      for (const word of line.replace(/…$/, '').split(' ').filter(Boolean)) expect(words.has(word), `"${line}" cuts a word of "${label}"`).toBe(true);
    }
    expect(lines.join(' ')).toBe(label);
  });

  it('renders the results, compare and classroom pages in English and in Chinese, switchable, with locale numbers', async () => {
    const { page } = session.opened;
    mkdirSync(SCREENSHOTS, { recursive: true });
    const pages = [
      { name: 'results', hash: `#/run/${runs[0]}`, ready: 'run-charts', en: 'Accuracy per task', zh: '各任务准确率' },
      { name: 'compare', hash: `#/compare/${runs[0]},${runs[1]}`, ready: 'compare-charts', en: 'Compare runs', zh: '比较评测' },
      { name: 'classroom', hash: `#/classroom/${runs[0]}`, ready: 'classroom-question', en: 'Answer', zh: '答案' },
    ];
    const shots: Record<string, Buffer> = {};
    for (const lang of ['en', 'zh'] as const) {
      await page.goto(`${session.url}/#/data`);
      await page.getByTestId(`lang-${lang}`).click();
      expect(await page.evaluate(() => document.documentElement.lang)).toBe(lang === 'zh' ? 'zh-Hans' : 'en');
      for (const p of pages) {
        await page.goto(`${session.url}/${p.hash}`);
        await page.getByTestId(p.ready).waitFor();
        // The run page folds its charts (issue 44): opened, as a reader would, to read their titles.
        if (p.name === 'results') await page.getByTestId(p.ready).evaluate((d) => void ((d as HTMLDetailsElement).open = true));
        if (p.name === 'classroom') {
          // The class guesses B, then the model's probabilities and the answer are revealed.
          await page.keyboard.press('B');
          await page.keyboard.press('Space');
          await page.getByTestId('classroom-reveal').waitFor();
        }
        const text = await page.locator('body').innerText();
        expect(text, `${p.name} in ${lang}`).toContain(p[lang]);
        expect(text, `${p.name} in ${lang} shows the other language`).not.toContain(p[lang === 'en' ? 'zh' : 'en']);
        await expectNoPageOverflow(page, `${p.name} (${lang})`);
        const shot = await page.screenshot({ fullPage: true });
        writeFileSync(join(SCREENSHOTS, `${p.name}-${lang}.png`), shot);
        shots[`${p.name}-${lang}`] = shot;
      }
    }
    for (const p of pages) expect(shots[`${p.name}-en`].equals(shots[`${p.name}-zh`]), p.name).toBe(false);

    // A first visit takes the browser's language, and formats dates for it.
    const zh = await openPage(session.opened.context.browser()!, `${session.url}/#/evaluate`, { locale: 'zh-CN' });
    try {
      await zh.page.getByTestId('nav-evaluate').waitFor();
      expect(await zh.page.getByTestId('nav-evaluate').textContent()).toBe('评测');
      expect(await zh.page.getByTestId('lang-zh').getAttribute('aria-pressed')).toBe('true');
      const date = await zh.page.evaluate(() => new Intl.DateTimeFormat('zh-CN', { dateStyle: 'medium' }).format(new Date(2026, 10, 30)));
      expect(date).toBe('2026年11月30日');
    } finally {
      await zh.context.close();
    }
  });
});
