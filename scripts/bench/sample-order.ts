// `npm run bench` (sample order, issue 36): what the shuffled, task-interleaved order of a run costs
// a 5-shot run against asking the same items task by task, where each task's exemplar prefix is
// computed once. One generated AncientBench file (10 tasks, no benchmark data), one run started from
// the Evaluate page (5-shot, every item, WASM fp32), then copies of its record that differ only in
// the order of itemIds: its own (shuffled: blocks of 4, 8, 16, … per task in turn) and grouped by
// task (each task's items in the same within-task order), run alternately from their run pages
// through the real page, scheduler, worker and IndexedDB. Per run: wall time from the "running"
// phase to completed, Σ stored forwardMs, and the worker's forward passes per item (a prefix
// computed again adds its passes). Target: shuffled ÷ task by task ≤ 1.10 in wall time.
// A measurement, not a test: it prints a table and writes bench-results/sample-order-<timestamp>.json.
//
//   npx tsx scripts/bench/sample-order.ts [--models jiangu-tiny,jiangu-large] [--per-task 60] [--rounds 5]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Page } from 'playwright-core';
import { openPage, withChromium } from '../browser.ts';
import { projectRoot } from '../site-routes.ts';
import type { ModelName } from '../fixtures/specs.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { importAncientBenchOf } from '../../test/browser/big-ancientbench.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from '../../test/browser/runs.ts';
import { ANCIENTBENCH_TASKS } from '../../src/lib/core/benchmarks/catalog-tasks.ts';
import { machineInfo, machineLines, median, writeBenchRecord } from './report.ts';

const MODELS: readonly ModelName[] = ['jiangu-tiny', 'jiangu-large'];
const USAGE = 'Usage: npx tsx scripts/bench/sample-order.ts [--models jiangu-tiny,jiangu-large] [--per-task 60] [--rounds 5]';
const RUN_TIMEOUT_MS = 900_000;
const TARGET = 1.1;
const DEV_PER_TASK = 5;

type Order = 'shuffled' | 'task by task';

interface RunMeasure {
  order: Order;
  items: number;
  wallMs: number;
  modelMs: number;
  passes: number;
  /** Times the order moves from one task to another (a prefix the worker may have to compute again). */
  switches: number;
}

function parseOptions(argv: readonly string[]) {
  const { values } = parseArgs({ args: [...argv], options: { models: { type: 'string' }, 'per-task': { type: 'string' }, rounds: { type: 'string' } }, strict: true, allowPositionals: false });
  const asked = values.models === undefined ? [...MODELS] : values.models.split(',').map((s) => s.trim());
  const bad = asked.filter((m) => !(MODELS as readonly string[]).includes(m));
  if (bad.length > 0 || asked.length === 0) throw new Error(`--models: ${bad.length > 0 ? `unknown ${bad.join(', ')}` : 'empty'}.\n${USAGE}`);
  const perTask = values['per-task'] === undefined ? 60 : Number(values['per-task']);
  const rounds = values.rounds === undefined ? 5 : Number(values.rounds);
  if (!Number.isInteger(perTask) || perTask < 1 || !Number.isInteger(rounds) || rounds < 1) throw new Error(`--per-task and --rounds must be positive integers.\n${USAGE}`);
  return { models: MODELS.filter((m) => asked.includes(m)), perTask, rounds };
}

// Page code is passed as text: tsx compiles with keepNames, whose `__name` helper does not exist in the page.

/** Installed before the page's scripts: the worker's forward passes per scored prompt. */
const COUNT_WORKER_PASSES = `(() => {
  const post = Worker.prototype.postMessage;
  const scored = [];
  window.__scored = scored;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (!this.__counted) {
      this.__counted = true;
      this.addEventListener('message', (event) => {
        const score = event.data?.result?.score;
        if (event.data?.kind === 'result' && typeof score?.forwardPasses === 'number') scored.push(score.forwardPasses);
      });
    }
    return post.call(this, message, ...rest);
  };
})()`;

/** Stores a copy of `run` under a new id, not started, with `itemIds` in another order. */
const STORE_COPY = `async ([run]) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('jiangu');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  await new Promise((resolve, reject) => {
    const tx = db.transaction('runs', 'readwrite');
    tx.objectStore('runs').put(run);
    tx.oncomplete = resolve;
    tx.onerror = () => reject(tx.error);
  });
  db.close();
}`;

function switches(itemIds: readonly string[], taskOf: Map<string, string>): number {
  let n = 0;
  for (let i = 1; i < itemIds.length; i++) if (taskOf.get(itemIds[i]) !== taskOf.get(itemIds[i - 1])) n++;
  return n;
}

/** Runs a copy of `base` asking its items in `itemIds` order, from its run page. */
async function measureCopy(page: Page, base: McRunRecord, order: Order, itemIds: string[], taskOf: Map<string, string>): Promise<RunMeasure> {
  const now = new Date().toISOString();
  const copy: McRunRecord = { ...base, id: crypto.randomUUID(), createdAt: now, updatedAt: now, status: 'created', config: { ...base.config, itemIds, ...(base.config.sampling ? { sampling: { ...base.config.sampling, order: order === 'shuffled' ? 'shuffled' : 'file' } } : {}) } };
  for (const key of ['environment', 'check', 'letterTokens', 'error', 'decodingOptions', 'modelCheck'] as const) delete (copy as unknown as Record<string, unknown>)[key];
  await page.evaluate(`(${STORE_COPY})(${JSON.stringify([copy])})`);
  await page.goto(page.url().replace(/#.*$/, '') + `#/run/${encodeURIComponent(copy.id)}`);
  await page.evaluate('window.__scored.length = 0');
  await page.getByTestId('resume-run').click();
  await page.locator('[data-testid=run-phase][data-phase=running]').waitFor({ timeout: RUN_TIMEOUT_MS });
  const started = performance.now();
  await waitForStatus(page, 'completed', RUN_TIMEOUT_MS);
  const wallMs = performance.now() - started;
  const { results } = await readStoredRun<McRunRecord, McItemResult>(page, copy.id);
  const passes = (await page.evaluate('window.__scored.slice()')) as number[];
  return { order, items: results.length, wallMs, modelMs: results.reduce((t, r) => t + r.forwardMs, 0), passes: passes.reduce((a, b) => a + b, 0), switches: switches(itemIds, taskOf) };
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const notes: string[] = [];
  let models = options.models;
  if (models.includes('jiangu-large') && !existsSync(join(projectRoot, '.fixtures', 'models', 'jiangu-large', 'config.json'))) {
    models = models.filter((m) => m !== 'jiangu-large');
    notes.push('jiangu-large skipped: .fixtures/models/jiangu-large/config.json is missing; generate it with `npm run fixtures:large`.');
  }
  const tasks = ANCIENTBENCH_TASKS.length;
  const date = new Date();
  const started = performance.now();
  const rows: { model: ModelName; runs: RunMeasure[]; items: number; tasks: number }[] = [];
  const chromium = await withChromium({ webgpu: false }, async (siteUrl, browser) => {
    const { context, page, leaks } = await openPage(browser, `${siteUrl}/#/data`);
    await page.addInitScript(COUNT_WORKER_PASSES);
    // tsx compiles with keepNames: functions given to page.evaluate (readStoredRun) call its `__name` helper, which the page lacks.
    await page.addInitScript({ content: 'globalThis.__name = (f) => f;' });
    await page.reload();
    await importAncientBenchOf(page, tasks * (options.perTask + DEV_PER_TASK), tasks * DEV_PER_TASK);
    for (const model of models) {
      // The run the page starts (its own seeded order) is the warm-up and the template of the copies.
      const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 5, allItems: true, model });
      await waitForStatus(page, 'completed', RUN_TIMEOUT_MS);
      const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
      const taskOf = new Map(results.map((r) => [r.itemId, r.task]));
      const shuffled = [...run.config.itemIds];
      const byTask = run.config.tasks.flatMap((task) => shuffled.filter((id) => taskOf.get(id) === task));
      const runs: RunMeasure[] = [];
      // Alternated, so a slow moment of the machine falls on both orders.
      for (let round = 0; round < options.rounds; round++) {
        for (const [order, ids] of (round % 2 === 0 ? [['shuffled', shuffled], ['task by task', byTask]] : [['task by task', byTask], ['shuffled', shuffled]]) as [Order, string[]][]) {
          const m = await measureCopy(page, run, order, ids, taskOf);
          runs.push(m);
          console.error(`[bench sample-order] ${model} ${order} round ${round + 1}: ${m.items} items in ${(m.wallMs / 1000).toFixed(2)} s, ${m.passes} passes, ${m.switches} task switches`);
        }
      }
      rows.push({ model, runs, items: shuffled.length, tasks: run.config.tasks.length });
    }
    await context.close();
    if (leaks.length > 0) throw new Error(`requests left 127.0.0.1: ${leaks.slice(0, 5).join(', ')}`);
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);
  const per = (runs: RunMeasure[], order: Order, key: 'wallMs' | 'modelMs' | 'passes') => median(runs.filter((r) => r.order === order).map((r) => r[key] / r.items));
  const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));
  console.log('');
  console.log('## 5-shot runs: the shuffled, task-interleaved order against task by task (WASM, fp32, the same items)');
  console.log('');
  console.log('| model | tasks × items | task switches (shuffled / by task) | wall ms/item (shuffled / by task) | ratio wall | model ms/item | ratio model | forward passes/item | ratio passes |');
  console.log('|---|---|---|---|---|---|---|---|---|');
  const ratios: Record<string, { wall: number; model: number; passes: number }> = {};
  for (const row of rows) {
    // Per round (the two orders run one after the other), shuffled ÷ task by task; the median round:
    // a shared machine's load moves both runs of a round alike, far less than it moves rounds apart.
    const r = (key: 'wallMs' | 'modelMs' | 'passes') =>
      median(Array.from({ length: options.rounds }, (_, round) => {
        const pair = row.runs.slice(2 * round, 2 * round + 2);
        const of = (o: Order) => pair.find((x) => x.order === o)!;
        return of('shuffled')[key] / of('shuffled').items / (of('task by task')[key] / of('task by task').items);
      }));
    ratios[row.model] = { wall: r('wallMs'), model: r('modelMs'), passes: r('passes') };
    const sw = (o: Order) => row.runs.find((x) => x.order === o)!.switches;
    console.log(
      `| ${row.model} | ${row.tasks} × ${row.items / row.tasks} | ${sw('shuffled')} / ${sw('task by task')} | ${f(per(row.runs, 'shuffled', 'wallMs'))} / ${f(per(row.runs, 'task by task', 'wallMs'))} | ×${r('wallMs').toFixed(3)} | ${f(per(row.runs, 'shuffled', 'modelMs'))} / ${f(per(row.runs, 'task by task', 'modelMs'))} | ×${r('modelMs').toFixed(3)} | ${f(per(row.runs, 'shuffled', 'passes'))} / ${f(per(row.runs, 'task by task', 'passes'))} | ×${r('passes').toFixed(3)} |`,
    );
  }
  console.log('');
  console.log(`Median of ${options.rounds} run(s) per order (ms/item); ratios are the median of the ${options.rounds} rounds' own ratios (the two orders alternated). Target: shuffled ÷ task by task ≤ ${TARGET} in wall time per item.`);
  for (const [model, r] of Object.entries(ratios)) console.log(`- ${model}: the shuffled order costs ×${r.wall.toFixed(3)} the task-by-task wall time (model time ×${r.model.toFixed(3)}, forward passes ×${r.passes.toFixed(3)}): ${r.wall <= TARGET ? 'meets' : 'MISSES'} the target ≤ ${TARGET}.`);
  for (const n of notes) console.log(`- ${n}`);
  console.log(machineLines(machine, date, durationS));
  writeBenchRecord(projectRoot, 'sample-order-', date, { date: date.toISOString(), durationS, machine, options, notes, ratios, rows });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
