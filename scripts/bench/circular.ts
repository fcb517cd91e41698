// `npm run bench` (circular evaluation): what a circular run costs per item against a plain run,
// 0-shot and 5-shot, on the fixture models (jiangu-tiny, and jiangu-large when generated) on WASM,
// through the Evaluate page's real runs (page, scheduler, worker, IndexedDB) over the AncientBench
// sample's test items. Per run: the wall time from the first item to the end, the model time (the
// stored forwardMs of every prompt, rotations included) and the forward passes the worker made (its
// answers counted in the page). The target: circular ÷ plain per item at most the number of
// rotations (4), less with prefix reuse (the 5-shot prefix is computed once per task). A measurement,
// not a test: it prints a Markdown table and writes bench-results/circular-<timestamp>.json.
//
//   npx tsx scripts/bench/circular.ts [--models jiangu-tiny,jiangu-large] [--rounds 3]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { openPage, withChromium } from '../browser.ts';
import { projectRoot } from '../site-routes.ts';
import type { ModelName } from '../fixtures/specs.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { machineInfo, machineLines, median, writeBenchRecord } from './report.ts';

const MODELS: readonly ModelName[] = ['jiangu-tiny', 'jiangu-large'];
const USAGE = 'Usage: npx tsx scripts/bench/circular.ts [--models jiangu-tiny,jiangu-large] [--rounds 3]';
const RUN_TIMEOUT_MS = 600_000;

interface RunMeasure {
  items: number;
  prompts: number;
  /** From the run's "running" phase to its completion, seen from Node (page events, ms). */
  wallMs: number;
  /** Σ forwardMs over every prompt (item and rotations), as stored. */
  modelMs: number;
  /** Forward passes the worker reported for the run's prompts (prefix passes included). */
  passes: number;
  /** Prompts whose 5-shot prefix came from the cache. */
  reusedPrompts: number;
  /**
   * Prompt tokens the model computed: each prompt's tokens after its cached prefix, plus each task's
   * prefix once (the items of a task run one after another, so its prefix is computed once). A
   * proxy for a compute-bound model's cost, free of a tiny model's fixed per-prompt overheads.
   */
  computedTokens: number;
}

interface Row {
  model: ModelName;
  shots: number;
  plain: RunMeasure[];
  circular: RunMeasure[];
}

function parseOptions(argv: readonly string[]): { models: ModelName[]; rounds: number } {
  const { values } = parseArgs({ args: [...argv], options: { models: { type: 'string' }, rounds: { type: 'string' } }, strict: true, allowPositionals: false });
  const asked = values.models === undefined ? [...MODELS] : values.models.split(',').map((s) => s.trim());
  const bad = asked.filter((m) => !(MODELS as readonly string[]).includes(m));
  if (bad.length > 0 || asked.length === 0) throw new Error(`--models: ${bad.length > 0 ? `unknown ${bad.join(', ')}` : 'empty'}.\n${USAGE}`);
  const rounds = values.rounds === undefined ? 3 : Number(values.rounds);
  if (!Number.isInteger(rounds) || rounds < 1) throw new Error(`--rounds must be a positive integer.\n${USAGE}`);
  return { models: MODELS.filter((m) => asked.includes(m)), rounds };
}

// Page code is passed as text: tsx compiles with keepNames, whose `__name` helper does not exist in the page.

/** Installed before the page's scripts: counts, per scored prompt, the worker's forward passes and reused prefix tokens. */
const COUNT_WORKER_PASSES = `(() => {
  const post = Worker.prototype.postMessage;
  const scored = [];
  window.__scored = scored;
  Worker.prototype.postMessage = function (message, ...rest) {
    if (!this.__counted) {
      this.__counted = true;
      this.addEventListener('message', (event) => {
        const score = event.data?.result?.score;
        if (event.data?.kind === 'result' && typeof score?.forwardPasses === 'number') scored.push({ passes: score.forwardPasses, reused: score.reusedPrefixTokens ?? 0 });
      });
    }
    return post.call(this, message, ...rest);
  };
})()`;

/** The run and its results as stored in the page's IndexedDB (read with the raw API). */
const READ_RUN = `async (id) => {
  const db = await new Promise((resolve, reject) => {
    const request = indexedDB.open('jiangu');
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const read = (store, query, index) => new Promise((resolve, reject) => {
    const source = db.transaction(store).objectStore(store);
    const request = index ? source.index(index).getAll(query) : source.get(query);
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
  const run = await read('runs', id);
  const results = await read('results', id, 'by-run');
  db.close();
  return { run, results };
}`;

async function readRun(page: Page, runId: string): Promise<{ run: McRunRecord; results: McItemResult[] }> {
  return page.evaluate(`(${READ_RUN})(${JSON.stringify(runId)})`) as Promise<{ run: McRunRecord; results: McItemResult[] }>;
}

/** One run of the sample's test items from the Evaluate page, measured. */
async function measureRun(page: Page, model: ModelName, shots: number, circular: boolean): Promise<RunMeasure> {
  await page.goto(page.url().replace(/#.*$/, '') + '#/evaluate');
  await page.getByTestId('eval-dataset').selectOption('ancientbench');
  await page.getByTestId('eval-shots').selectOption(String(shots));
  // All the sample's test items, not the first-run suggestion.
  await page.getByTestId('eval-limit').fill('');
  if (circular) await page.getByTestId('eval-circular').check();
  await page.getByTestId('model-choice').selectOption(`site:${model}`);
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.evaluate('window.__scored.length = 0');
  await page.getByTestId('load').click();
  await page.waitForURL(/#\/run\//);
  const runId = decodeURIComponent(page.url().split('#/run/')[1]);
  await page.locator('[data-testid=run-phase][data-phase=running]').waitFor({ timeout: RUN_TIMEOUT_MS });
  const started = performance.now();
  await page.locator('[data-testid=run][data-status=completed]').waitFor({ timeout: RUN_TIMEOUT_MS });
  const wallMs = performance.now() - started;
  const { run, results } = await readRun(page, runId);
  if (run.config.circular !== (circular || undefined)) throw new Error(`run ${runId}: circular is ${run.config.circular}, expected ${circular}`);
  const scored = (await page.evaluate('window.__scored.slice()')) as { passes: number; reused: number }[];
  const prompts = results.reduce((n, r) => n + 1 + (r.rotations?.length ?? 0), 0);
  return {
    items: results.length,
    prompts,
    wallMs,
    modelMs: results.reduce((t, r) => t + r.forwardMs + (r.rotations ?? []).reduce((s, x) => s + x.forwardMs, 0), 0),
    passes: scored.reduce((n, s) => n + s.passes, 0),
    reusedPrompts: scored.filter((s) => s.reused > 0).length,
    computedTokens: computedTokens(results),
  };
}

function computedTokens(results: readonly McItemResult[]): number {
  const prefixOf = new Map<string, number>();
  let tokens = 0;
  for (const r of results) {
    for (const prompt of [r, ...(r.rotations ?? [])]) {
      tokens += prompt.tokenCount - prompt.reusedPrefixTokens;
      if (prompt.reusedPrefixTokens > 0 && !prefixOf.has(r.task)) prefixOf.set(r.task, prompt.reusedPrefixTokens);
    }
  }
  return tokens + [...prefixOf.values()].reduce((a, b) => a + b, 0);
}

type Measured = 'wallMs' | 'modelMs' | 'passes' | 'computedTokens';
const perItem = (runs: readonly RunMeasure[], key: Measured) => median(runs.map((r) => r[key] / r.items));
const ratio = (row: Row, key: Measured) => perItem(row.circular, key) / perItem(row.plain, key);

function table(rows: readonly Row[]): string {
  const header = ['model', 'shots', 'items', 'prompts (plain / circular)', 'wall ms/item (plain / circular)', 'ratio wall', 'model ms/item (plain / circular)', 'ratio model', 'passes/item (plain / circular)', 'ratio passes', 'tokens computed/item (plain / circular)', 'ratio tokens', 'prompts with cached prefix (circular)'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const p = row.plain[0];
    const c = row.circular[0];
    const f = (v: number) => (v >= 100 ? v.toFixed(0) : v.toFixed(2));
    lines.push(
      `| ${[
        row.model,
        row.shots,
        p.items,
        `${p.prompts} / ${c.prompts}`,
        `${f(perItem(row.plain, 'wallMs'))} / ${f(perItem(row.circular, 'wallMs'))}`,
        `×${ratio(row, 'wallMs').toFixed(2)}`,
        `${f(perItem(row.plain, 'modelMs'))} / ${f(perItem(row.circular, 'modelMs'))}`,
        `×${ratio(row, 'modelMs').toFixed(2)}`,
        `${f(perItem(row.plain, 'passes'))} / ${f(perItem(row.circular, 'passes'))}`,
        `×${ratio(row, 'passes').toFixed(2)}`,
        `${f(perItem(row.plain, 'computedTokens'))} / ${f(perItem(row.circular, 'computedTokens'))}`,
        `×${ratio(row, 'computedTokens').toFixed(2)}`,
        `${c.reusedPrompts} of ${c.prompts}`,
      ].join(' | ')} |`,
    );
  }
  return lines.join('\n');
}

async function measureAll(browser: Browser, siteUrl: string, models: readonly ModelName[], rounds: number): Promise<Row[]> {
  // A fresh context with the network guard (nothing may leave 127.0.0.1), English page.
  const { context, page, leaks } = await openPage(browser, `${siteUrl}/#/data`);
  await page.addInitScript(COUNT_WORKER_PASSES);
  await page.reload();
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  await page.getByTestId('import-sample').click();
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
  const rows: Row[] = [];
  for (const model of models) {
    for (const shots of [0, 5]) {
      const row: Row = { model, shots, plain: [], circular: [] };
      // Alternated, so that a slow moment of the machine falls on both.
      for (let round = 0; round < rounds; round++) {
        for (const circular of [false, true]) {
          const measured = await measureRun(page, model, shots, circular);
          (circular ? row.circular : row.plain).push(measured);
          console.error(`[bench] ${model} ${shots}-shot ${circular ? 'circular' : 'plain'} round ${round + 1}: ${measured.prompts} prompts in ${(measured.wallMs / 1000).toFixed(2)} s, ${measured.passes} passes`);
        }
      }
      rows.push(row);
    }
  }
  await context.close();
  if (leaks.length > 0) throw new Error(`requests left 127.0.0.1: ${leaks.slice(0, 5).join(', ')}`);
  return rows;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const notes: string[] = [];
  let models = options.models;
  if (models.includes('jiangu-large') && !existsSync(join(projectRoot, '.fixtures', 'models', 'jiangu-large', 'config.json'))) {
    models = models.filter((m) => m !== 'jiangu-large');
    notes.push('jiangu-large skipped: .fixtures/models/jiangu-large/config.json is missing; generate it with `npm run fixtures:large`.');
  }
  const date = new Date();
  const started = performance.now();
  let rows: Row[] = [];
  const chromium = await withChromium({ webgpu: false }, async (siteUrl, browser) => {
    rows = await measureAll(browser, siteUrl, models, options.rounds);
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);
  console.log('');
  console.log('## Circular evaluation: cost per item against a plain run (WASM, fp32, AncientBench sample test items)');
  console.log('');
  console.log(table(rows));
  console.log('');
  console.log(`Median of ${options.rounds} round(s) per configuration. Target: ratio ≤ 4 (the rotations of a four-option item), less with prefix reuse.`);
  for (const row of rows) {
    const r = ratio(row, 'wallMs');
    console.log(`- ${row.model} ${row.shots}-shot: a circular run costs ×${r.toFixed(2)} a plain run's wall time per item (model time ×${ratio(row, 'modelMs').toFixed(2)}, forward passes ×${ratio(row, 'passes').toFixed(2)}, prompt tokens computed ×${ratio(row, 'computedTokens').toFixed(2)}): ${r <= 4 ? 'meets' : 'MISSES'} the target ≤ 4.`);
  }
  for (const n of notes) console.log(`- ${n}`);
  console.log(machineLines(machine, date, durationS));
  writeBenchRecord(projectRoot, 'circular-', date, { date: date.toISOString(), durationS, machine, options, notes, rows: rows.map((row) => ({ ...row, ratios: { wallMs: ratio(row, 'wallMs'), modelMs: ratio(row, 'modelMs'), passes: ratio(row, 'passes'), computedTokens: ratio(row, 'computedTokens') } })) });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
