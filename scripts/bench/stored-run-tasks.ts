// The longest main-thread task of each step on a stored paper-size run, without running a model:
// a generated AncientBench file of 28,707 questions is imported on the Data page, a finished run of
// its 28,657 test items is made up in Node (scripts/fixtures/fabricated-run.ts, each result as large
// as a real 0-shot result: about 39 MB of run file), then the steps issue 35 names are timed:
// importing the run file (from the Evaluate page, where its button is), opening its run page in a new
// document, its classroom, importing a second run, comparing the two in a new document, and the
// Evaluate page with the whole dataset chosen (its time estimate sizes every prompt, 0- then 5-shot). Each step reports its wall time and its longest task (a PerformanceObserver for `longtask`).
// With --profile, each step also records a CPU profile (CDP) and prints the functions with the most
// self time: build unminified for readable names (`JIANGU_DIST=dist-prof npx vite build --minify false`).
// A measurement, not a test. Needs a build first.
//   npx tsx scripts/bench/stored-run-tasks.ts [items] [--profile] [--evaluate-only]
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import type { OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { runJson } from '../../src/lib/core/formats/jiangu-run/export.ts';
import { mulberry32 } from '../../src/lib/core/metrics/index.ts';
import { ancientBenchOfItems, PAPER_SIZE } from '../../test/browser/big-ancientbench.ts';
import { storedItems } from '../../test/browser/large-runs.ts';
import { fabricatedMcRun } from '../fixtures/fabricated-run.ts';
import { launchChromium, openPage, startSite } from '../browser.ts';

const args = process.argv.slice(2);
const profile = args.includes('--profile');
// --evaluate-only: the dataset's import and the Evaluate page's step, no run files (minutes fewer).
const evaluateOnly = args.includes('--evaluate-only');
const items = Number(args.find((a) => /^\d+$/.test(a)) ?? PAPER_SIZE.items);
const dev = Math.min(PAPER_SIZE.dev, Math.floor(items / 100) * 10);
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];
const dir = mkdtempSync(join(tmpdir(), 'jiangu-stored-run-'));
const csvPath = join(dir, 'ancientbench.csv');
writeFileSync(csvPath, ancientBenchOfItems(items, dev));

// Every document the page loads records its long tasks from its first moment.
const OBSERVE = `
  globalThis.__name = (f) => f;
  window.__longTasks = [];
  new PerformanceObserver((list) => list.getEntries().forEach((e) => window.__longTasks.push({ start: e.startTime, duration: e.duration }))).observe({ type: 'longtask', buffered: true });
`;

const now = (page: Page): Promise<number> => page.evaluate('performance.now()') as Promise<number>;

interface Hot {
  fn: string;
  selfMs: number;
  /** Its caller with the most of that time. */
  via: string;
}

/** The functions with the most self time in a CDP CPU profile. */
type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
function hottest(profileData: { nodes: ProfileNode[]; samples: number[]; timeDeltas: number[] }, top = 20): Hot[] {
  const byNode = new Map<number, number>();
  profileData.samples.forEach((id, i) => byNode.set(id, (byNode.get(id) ?? 0) + (profileData.timeDeltas[i] ?? 0)));
  const parent = new Map<number, ProfileNode>();
  for (const node of profileData.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const name = (f: ProfileNode['callFrame']) => `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
  const byFn = new Map<string, { us: number; via: Map<string, number> }>();
  for (const node of profileData.nodes) {
    const us = byNode.get(node.id) ?? 0;
    const f = node.callFrame;
    if (f.functionName === '(idle)' || f.functionName === '(program)') continue;
    const entry = byFn.get(name(f)) ?? { us: 0, via: new Map<string, number>() };
    entry.us += us;
    const caller = parent.get(node.id);
    const callerName = caller ? name(caller.callFrame) : '(root)';
    entry.via.set(callerName, (entry.via.get(callerName) ?? 0) + us);
    byFn.set(name(f), entry);
  }
  return [...byFn.entries()]
    .sort((a, b) => b[1].us - a[1].us)
    .slice(0, top)
    .map(([fn, e]) => ({ fn, selfMs: Math.round(e.us / 1000), via: [...e.via.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? '' }));
}

/**
 * The longest task on the page's main thread in a Chrome trace, by its CPU time (`tdur`) and its
 * wall time (`dur`), ms. On a machine shared with other work the wall time of a task stretches with
 * the wait for a core; its CPU time does not, so it says what the page's own work costs.
 */
function longestTraceTask(trace: Buffer): { cpuMs: number; wallMs: number } {
  const events = (JSON.parse(trace.toString('utf8')) as { traceEvents: { name: string; ph: string; pid: number; tid: number; dur?: number; tdur?: number; args?: { name?: string } }[] }).traceEvents;
  const mains = new Set(events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain').map((e) => `${e.pid}:${e.tid}`));
  const tasks = events.filter((e) => e.ph === 'X' && (e.name === 'RunTask' || e.name === 'ThreadControllerImpl::RunTask') && mains.has(`${e.pid}:${e.tid}`));
  return { cpuMs: Math.round(Math.max(0, ...tasks.map((t) => t.tdur ?? 0)) / 1000), wallMs: Math.round(Math.max(0, ...tasks.map((t) => t.dur ?? 0)) / 1000) };
}

/** Runs `step`; its wall time, the longest main-thread task (and all over 50 ms), and with --profile its hottest functions. */
async function timed(page: Page, cdp: CDPSession, step: () => Promise<unknown>, newDocument = false): Promise<{ ms: number; longestTaskMs: number; longestTaskCpuMs?: number; longestTraceTaskMs?: number; tasks: number[]; hot?: Hot[] }> {
  if (profile) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  if (!profile) await browser.startTracing(page, { categories: ['toplevel', 'disabled-by-default-devtools.timeline'] });
  // A step that loads a new document counts every task of that document, from its start.
  const t0 = newDocument ? 0 : await now(page);
  const started = Date.now();
  await step();
  const ms = Date.now() - started;
  await page.waitForTimeout(500);
  const tasks = ((await page.evaluate(`window.__longTasks.filter((x) => x.start >= ${t0}).map((x) => Math.round(x.duration))`)) as number[]);
  let hot: Hot[] | undefined;
  if (profile) hot = hottest((await cdp.send('Profiler.stop')).profile as never);
  const traced = profile ? null : longestTraceTask(await browser.stopTracing());
  return { ms, longestTaskMs: Math.max(0, ...tasks), ...(traced ? { longestTaskCpuMs: traced.cpuMs, longestTraceTaskMs: traced.wallMs } : {}), tasks, ...(hot ? { hot } : {}) };
}

/** A finished run of `stored` (id, task, answer) as a run file, each result as large as a real 0-shot one. */
async function runFileOf(id: string, seed: number, stored: [string, string, OptionLetter][]): Promise<string> {
  const random = mulberry32(seed);
  const { run, results } = await fabricatedMcRun({
    id,
    datasetId: 'ancientbench',
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    tasks: [...new Set(stored.map(([, task]) => task))],
    datasetFiles: [{ path: 'ancientbench.csv', sha256: 'a'.repeat(64) }],
    limitPerTask: null,
    items: stored.map(([itemId, task, gold]) => ({ id: itemId, task, gold, logProbs: LETTERS.map(() => random() * 4 - 6) })),
  });
  const prompt = '以下是关于古代汉语的单项选择题，请直接给出正确答案的选项。\n\n题目：天地玄黄宇宙洪荒日月盈昃辰宿列张寒来暑往秋收冬藏\nA. 甲\nB. 乙\nC. 丙\nD. 丁\n答案是：';
  const sized = results.map((r, i) => ({ ...r, prompt: `${prompt}${i}`, promptHash: (i.toString(16) + 'f'.repeat(64)).slice(0, 64), tokenIds: [32, 33, 34, 35], tokenCount: 120 + (i % 50), forwardMs: 30 + (i % 7) }));
  resultCount = sized.length;
  return runJson(run, sized);
}
let resultCount = 0;

/** The estimate shown for the configuration now set: known, or its reason for not knowing (both empty while it is read). */
async function settled(page: Page): Promise<void> {
  await page.waitForTimeout(50);
  await page.locator('[data-testid=eval-estimate][data-known=yes], [data-testid=eval-estimate]:not([data-reason=""])').waitFor({ timeout: 600_000 });
}

const site = await startSite();
const browser = await launchChromium();
try {
  const { page } = await openPage(browser, `${site.url}/#/data`);
  await page.addInitScript({ content: OBSERVE });
  await page.evaluate(OBSERVE);
  const cdp = await page.context().newCDPSession(page);
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  await page.getByTestId('import-kind').selectOption('ancientbench');
  await page.getByTestId('file-input').setInputFiles(csvPath);
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor({ timeout: 600_000 });

  let runSteps: Record<string, unknown> = {};
  if (!evaluateOnly) {
    // The stored test items (id, task, answer), in the store's order.
    const stored = await storedItems(page);
    const runFile = join(dir, 'run.json');
    const otherFile = join(dir, 'other-run.json');
    writeFileSync(runFile, await runFileOf('stored-run-bench', 35, stored));
    writeFileSync(otherFile, await runFileOf('stored-run-bench-other', 36, stored));

    await page.goto(`${site.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').waitFor();
    const importRun = await timed(page, cdp, async () => {
      await page.getByTestId('import-run-input').setInputFiles(runFile);
      await page.waitForURL((url) => url.hash.startsWith('#/run/'), { timeout: 120_000, waitUntil: 'commit' });
      await page.getByTestId('results').waitFor({ timeout: 600_000 });
    });
    const runId = decodeURIComponent(page.url().split('#/run/')[1]);
    // Opened as a link or a reload opens it: a new document on the run page (not after the Evaluate
    // page, whose own work on the stored runs would fall into the step).
    await page.goto('about:blank');
    const open = await timed(
      page,
      cdp,
      async () => {
        await page.goto(`${site.url}/#/run/${encodeURIComponent(runId)}`);
        await page.getByTestId('results').waitFor({ timeout: 600_000 });
        await page.getByTestId('inspector').waitFor({ timeout: 600_000 });
        // Everything drawn: the charts (drawn last) and the continuous scores' intervals.
        await page.getByTestId('run-charts').waitFor({ timeout: 600_000 });
        await page.getByTestId('cont-pGold-overall').waitFor({ timeout: 600_000 });
      },
      true,
    );
    const overall = await page.getByTestId('acc-overall').textContent();
    const classroom = await timed(page, cdp, async () => {
      await page.getByTestId('classroom-link').click();
      await page.getByTestId('classroom-question').waitFor({ timeout: 600_000 });
    });
    await page.goto(`${site.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').waitFor();
    const importOther = await timed(page, cdp, async () => {
      await page.getByTestId('import-run-input').setInputFiles(otherFile);
      await page.waitForURL((url) => url.hash.startsWith('#/run/') && !url.hash.includes(encodeURIComponent(runId)), { timeout: 120_000, waitUntil: 'commit' });
      await page.getByTestId('results').waitFor({ timeout: 600_000 });
    });
    const importedId = decodeURIComponent(page.url().split('#/run/')[1]);
    // A new document too: the Evaluate page's own work after the import would fall into the step.
    await page.goto('about:blank');
    const compare = await timed(
      page,
      cdp,
      async () => {
        await page.goto(`${site.url}/#/compare/${encodeURIComponent(runId)},${encodeURIComponent(importedId)}`);
        await page.getByTestId('compare-table').waitFor({ timeout: 600_000 });
        await page.getByTestId('continuous-pGold-overall').waitFor({ timeout: 600_000 });
      },
      true,
    );
    runSteps = { results: resultCount, overall, importRun, open, classroom, importOther, compare };
  }
  // The Evaluate page with the paper-size dataset chosen, all its items (no per-task limit): its time
  // estimate sizes every item's prompt (0-shot, then 5-shot). Opened in a new document, as a reload.
  await page.goto('about:blank');
  const evaluate = await timed(
    page,
    cdp,
    async () => {
      await page.goto(`${site.url}/#/evaluate`);
      await page.getByTestId('eval-dataset').waitFor();
      await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
      await page.getByTestId('eval-dataset').selectOption('ancientbench');
      await page.getByTestId('eval-limit').fill('');
      await page.locator('[data-testid=eval-total]:not([data-total="0"])').waitFor();
      await settled(page);
    },
    true,
  );
  const sizedIn = await page.getByTestId('eval-estimate').getAttribute('data-sized-in');
  const evaluate5 = await timed(page, cdp, async () => {
    await page.getByTestId('eval-shots').selectOption('5');
    await settled(page);
  });
  console.log(JSON.stringify({ items, ...runSteps, evaluate, evaluate5, sizedIn }, null, 1));
} finally {
  await browser.close();
  await site.close();
}
