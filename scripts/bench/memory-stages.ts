// `npm run bench`, memory by stage: what a model costs the tab's renderer process (the page, the
// model workers and ORT's threads: one process) at each stage of its life, per model, dtype and
// weights mode. A measurement, not a test: it prints a Markdown table and writes
// bench-results/memory-stages-<timestamp>.json.
//
// Stages, each a fresh context (one renderer process) in this order:
//   fetch            load start → the file's bytes reach the session hook (transformers.js read them)
//   rewrite          → the graph rewrites are done (external-weights.ts, logits-rewrite.ts)
//   session          → onnxruntime-web created the session (weights in the wasm heap)
//   load check       → the load's first forwards (the rewrite's and the model check's) are done
//   5-shot items     three 5-shot CMMLU items, the prefix kept (prefix caches)
//   statistics       the same worker loads the statistics graph and reads a text's statistics
//   one session      the same worker loads the model once more with the statistics and the lens (the
//                    Reading page's lens view: one session serves every view), reads a text's lens,
//                    then scores a 5-shot item on that session (the lens gated off)
//   two models       a second worker loads the same model with the lens too and reads a lens (the
//                    Reading page with two models side by side and their lens: two sessions)
// Columns: the renderer's peak RSS in the stage (sampled every 50 ms from /proc, and the kernel's
// VmHWM over the whole row as a check), and the first worker's wasm Memory at the stage's end.
// "external": the weights stay in the downloaded file, mounted as external data (the default);
// "whole-head": external weights, but a dequantized tied head (the hub's q8) expanded whole every
// forward (LoadParams.headBlocks false); "inline": the whole file handed to ORT and the head whole
// (LoadParams.externalWeights false), as before issue 43.
//
//   npx tsx scripts/bench/memory-stages.ts [--models jiangu-large,real-qwen2.5-0.5b,real-qwen3-0.6b]
//     [--dtypes q8,q4] (the defaults; a model not generated is left out)
//     [--modes external,inline] [--threads 1] [--skip statistics,lens]
//     [--ort 'default:;noprepack:prepacking=0;noarena:cpuArena=0;nopattern:memPattern=0']
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { openPage, withChromium, type OpenedPage } from '../browser.ts';
import { projectRoot } from '../site-routes.ts';
import { REAL_OUT_ROOT } from '../fixtures/real-specs.ts';
import { ONNX_FILE, type FixtureDtype } from '../fixtures/specs.ts';
import type { LoadResult, MemoryMark, OrtMemoryOptions, WorkerStats } from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';
import { fiveShotItem, type FiveShotItem } from './memory-item.ts';
import { rendererPids, RssSampler } from './process-rss.ts';
import { machineInfo, machineLines, writeBenchRecord } from './report.ts';
import { withTimeout } from './steps.ts';

const STEP_TIMEOUT_MS = 900_000;
const LOAD_STAGES = ['fetch', 'rewrite', 'session', 'load check'] as const;
const STAGES = [...LOAD_STAGES, '5-shot items', 'statistics', 'one session', 'two models'] as const;
type Stage = (typeof STAGES)[number];
type Mode = 'external' | 'whole-head' | 'inline';

interface StageFigure {
  stage: Stage;
  peakRss: number;
  wasmBytes: number | null;
  ms: number;
}

interface Row {
  model: string;
  dtype: FixtureDtype;
  mode: Mode;
  /** ORT's memory options for this row ('default': the worker's own). */
  variant: string;
  fileBytes: number;
  /** Blocks the head was computed in (0: whole). */
  headBlocks?: number;
  /** The renderer's RSS with the harness page open and no model loaded. */
  baselineRss: number;
  stages: StageFigure[];
  highWater: number;
  weights?: LoadResult['weights'];
  /** Which graph gave the logits (a failed rewrite check loads the file a second time: two sessions in the load). */
  logitsPath?: LoadResult['logitsPath'];
  marks?: MemoryMark[];
  error?: string;
}

type Call =
  | { kind: 'load'; client: 'a' | 'b'; model: string; dtype: FixtureDtype; external: boolean; threads: number; ort: OrtMemoryOptions; headBlocks: boolean; statistics?: boolean; lens?: boolean }
  | { kind: 'items'; item: FiveShotItem; count: number }
  | { kind: 'statistics'; text: string }
  | { kind: 'lens'; text: string; client?: 'a' | 'b' }
  | { kind: 'stats' };

interface BenchWindow {
  stageClients?: Record<string, ModelClient>;
}

/** One request in the page (no inner named functions: see measure.ts on tsx's keepNames). */
async function inPage<T>(opened: OpenedPage, call: Call): Promise<T> {
  const reply = await withTimeout(
    opened.page.evaluate(async (c: Call) => {
      const w = window as unknown as BenchWindow;
      w.stageClients ??= {};
      const clients = w.stageClients;
      try {
        if (c.kind === 'load') {
          clients[c.client] ??= new window.jiangu.ModelClient();
          const result = await clients[c.client].load({ source: { kind: 'site', name: c.model }, dtype: c.dtype, backend: 'wasm', wasmThreads: c.threads, externalWeights: c.external, headBlocks: c.headBlocks, ortMemoryOptions: c.ort, statistics: c.statistics, lens: c.lens });
          return { result };
        }
        const a = c.kind === 'lens' && c.client === 'b' ? clients.b : clients.a;
        if (c.kind === 'stats') return { result: await a.stats() };
        if (c.kind === 'statistics') return { result: await a.textStatistics({ text: c.text, moments: true }) };
        if (c.kind === 'lens') {
          const lens = await a.logitLens({ text: c.text });
          return { result: { layers: lens.layers, rows: lens.rows } };
        }
        for (let i = 0; i < c.count; i++) {
          await a.scoreItem({ protocolId: c.item.protocolId, item: c.item.item, exemplars: c.item.exemplars, shots: 5, contextLimit: 4096, chatTemplate: false, reusePrefix: true });
        }
        return { result: null };
      } catch (e) {
        const err = e as { code?: string; message?: string; detail?: string };
        return { error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': ') };
      }
    }, call),
    STEP_TIMEOUT_MS,
    call.kind,
  );
  if ('error' in reply) throw new Error(`${call.kind}: ${reply.error}`);
  return reply.result as T;
}

function modelFolder(model: string): string {
  const site = join(projectRoot, '.fixtures', 'models', model);
  return existsSync(site) ? site : join(REAL_OUT_ROOT, model);
}

function fileBytes(model: string, dtype: FixtureDtype): number {
  const file = join(modelFolder(model), 'onnx', ONNX_FILE[dtype]);
  let bytes = statSync(file).size;
  for (let i = 0; existsSync(`${file}_data${i === 0 ? '' : `_${i}`}`); i++) bytes += statSync(`${file}_data${i === 0 ? '' : `_${i}`}`).size;
  return bytes;
}

interface Variant {
  name: string;
  ort: OrtMemoryOptions;
}

/** `name:prepacking=0,cpuArena=0;…` (an empty option list: the worker's defaults). */
function parseVariants(text: string): Variant[] {
  return text.split(';').filter(Boolean).map((v) => {
    const [name, list = ''] = v.split(':');
    const ort: OrtMemoryOptions = {};
    for (const pair of list.split(',').filter(Boolean)) {
      const [key, value] = pair.split('=');
      if (!['prepacking', 'cpuArena', 'memPattern'].includes(key)) throw new Error(`--ort: unknown option ${key}`);
      ort[key as keyof OrtMemoryOptions] = value === '1' || value === 'true';
    }
    return { name, ort };
  });
}

async function measure(browser: Browser, siteUrl: string, model: string, dtype: FixtureDtype, mode: Mode, variant: Variant, threads: number, skip: Set<string>, item: FiveShotItem, log: (s: string) => void): Promise<Row> {
  const row: Row = { model, dtype, mode, variant: variant.name, fileBytes: fileBytes(model, dtype), baselineRss: 0, stages: [], highWater: 0 };
  const ort = variant.ort;
  const before = new Set(await rendererPids(browser));
  let opened: OpenedPage | undefined;
  let sampler: RssSampler | undefined;
  try {
    opened = await openPage(browser, `${siteUrl}/harness.html`);
    await opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { polling: 100, timeout: 30_000 });
    const pids = (await rendererPids(browser)).filter((p) => !before.has(p));
    if (pids.length === 0) throw new Error('no new renderer process for the page');
    sampler = new RssSampler(pids);
    row.baselineRss = sampler.now();
    sampler.resetHighWater();
    sampler.start(50);
    const stage = (name: Stage, from: number, to: number, wasmBytes: number | null) => row.stages.push({ stage: name, peakRss: sampler!.peakBetween(from, to), wasmBytes, ms: to - from });
    const loaded = await inPage<LoadResult>(opened, { kind: 'load', client: 'a', model, dtype, external: mode !== 'inline', headBlocks: mode === 'external', threads, ort });
    row.weights = loaded.weights;
    row.logitsPath = loaded.logitsPath;
    row.headBlocks = loaded.headBlocks;
    const marks = ((await inPage<WorkerStats>(opened, { kind: 'stats' })).memoryMarks ?? []) as MemoryMark[];
    row.marks = marks;
    // The load's first pass through each stage (a reload after a failed check comes later).
    const start = marks.findLastIndex((m) => m.stage === 'load-start');
    const at = (name: string) => marks.slice(start).find((m) => m.stage === name) ?? (name === 'load-done' ? marks.findLast((m) => m.stage === name) : undefined);
    const order = ['load-start', 'bytes-fetched', 'graph-rewritten', 'session-created', 'load-done'].map(at);
    if (order.some((m) => !m)) throw new Error(`missing load marks: ${marks.map((m) => m.stage).join(', ')}`);
    LOAD_STAGES.forEach((name, i) => stage(name, order[i]!.at, order[i + 1]!.at + (i === LOAD_STAGES.length - 1 ? 100 : 0), order[i + 1]!.wasmBytes));
    log(`loaded (${loaded.weights?.kind ?? '?'} weights)`);
    let t = Date.now();
    await inPage(opened, { kind: 'items', item, count: 3 });
    stage('5-shot items', t, Date.now() + 100, (await inPage<WorkerStats>(opened, { kind: 'stats' })).wasmMemoryBytes ?? null);
    if (!skip.has('statistics')) {
      t = Date.now();
      await inPage(opened, { kind: 'load', client: 'a', model, dtype, external: mode !== 'inline', headBlocks: mode === 'external', threads, ort, statistics: true });
      await inPage(opened, { kind: 'statistics', text: item.item.question.repeat(4) });
      stage('statistics', t, Date.now() + 100, (await inPage<WorkerStats>(opened, { kind: 'stats' })).wasmMemoryBytes ?? null);
    }
    if (!skip.has('lens')) {
      t = Date.now();
      const withLens = await inPage<LoadResult>(opened, { kind: 'load', client: 'a', model, dtype, external: mode !== 'inline', headBlocks: mode === 'external', threads, ort, statistics: true, lens: true });
      if (withLens.lensPath?.kind !== 'graph') throw new Error(`the lens did not load: ${JSON.stringify(withLens.lensPath)}`);
      await inPage(opened, { kind: 'lens', text: item.item.question });
      await inPage(opened, { kind: 'items', item, count: 1 });
      stage('one session', t, Date.now() + 100, (await inPage<WorkerStats>(opened, { kind: 'stats' })).wasmMemoryBytes ?? null);
      t = Date.now();
      await inPage(opened, { kind: 'load', client: 'b', model, dtype, external: mode !== 'inline', headBlocks: mode === 'external', threads, ort, statistics: true, lens: true });
      await inPage(opened, { kind: 'lens', text: item.item.question, client: 'b' });
      stage('two models', t, Date.now() + 100, null);
    }
    sampler.stop();
    row.highWater = sampler.highWater();
  } catch (e) {
    row.error = e instanceof Error ? e.message : String(e);
    log(`failed: ${row.error}`);
    if (opened) log(opened.console.slice(-8).join('\n'));
  } finally {
    sampler?.stop();
    await opened?.context.close().catch(() => {});
  }
  return row;
}

const mb = (n: number | null) => (n === null ? '–' : `${Math.round(n / 1e6).toLocaleString('en-US')}`);

export function stagesTable(rows: readonly Row[]): string {
  const lines = [
    `| model | dtype | weights | ORT options | file MB | page alone MB | ${STAGES.map((s) => `${s} RSS MB`).join(' | ')} | VmHWM MB | peak ÷ file | wasm after load MB | 3 five-shot items s |`,
    `|---|---|---|---|---:|---:|${STAGES.map(() => '---:').join('|')}|---:|---:|---:|---:|`,
  ];
  for (const r of rows) {
    const by = new Map(r.stages.map((s) => [s.stage, s]));
    const cells = STAGES.map((s) => mb(by.get(s)?.peakRss || null));
    const loadPeak = Math.max(0, ...r.stages.filter((s) => s.stage !== 'one session' && s.stage !== 'two models' && s.stage !== 'statistics').map((s) => s.peakRss));
    const wasm = by.get('load check')?.wasmBytes ?? null;
    lines.push(`| ${r.model} | ${r.dtype} | ${r.mode} | ${r.variant} | ${mb(r.fileBytes)} | ${mb(r.baselineRss)} | ${cells.join(' | ')} | ${mb(r.highWater)} | ${r.error ? `failed: ${r.error.slice(0, 80)}` : (loadPeak / r.fileBytes).toFixed(2)} | ${mb(wasm)} | ${by.get('5-shot items') ? (by.get('5-shot items')!.ms / 1000).toFixed(1) : '—'} |`);
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { ort: { type: 'string' }, models: { type: 'string' }, dtypes: { type: 'string' }, modes: { type: 'string' }, threads: { type: 'string' }, skip: { type: 'string' } }, strict: true });
  const models = (values.models ?? 'jiangu-large,real-qwen2.5-0.5b,real-qwen3-0.6b').split(',');
  const dtypes = (values.dtypes ?? 'q8,q4').split(',') as FixtureDtype[];
  const modes = (values.modes ?? 'external,inline').split(',') as Mode[];
  const threads = Number(values.threads ?? 1);
  const variants = parseVariants(values.ort ?? 'default:');
  const skip = new Set((values.skip ?? '').split(',').filter(Boolean));
  process.env.JIANGU_MODELS = [process.env.JIANGU_MODELS, REAL_OUT_ROOT].filter(Boolean).join(':');
  const present = models.filter((m) => existsSync(join(modelFolder(m), 'config.json')));
  if (present.length === 0) {
    console.log(`Memory stages skipped: none of ${models.join(', ')} is generated (npm run fixtures:large, npm run fixtures:real).`);
    return;
  }
  const item = fiveShotItem();
  const date = new Date();
  const started = performance.now();
  const rows: Row[] = [];
  const chromium = await withChromium({}, async (siteUrl, browser) => {
    for (const model of present)
      for (const dtype of dtypes) {
        if (!existsSync(join(modelFolder(model), 'onnx', ONNX_FILE[dtype]))) continue;
        for (const mode of modes)
          for (const variant of variants) {
            const log = (s: string) => console.error(`[bench memory-stages] ${model} ${dtype} ${mode} ${variant.name}: ${s}`);
            rows.push(await measure(browser, siteUrl, model, dtype, mode, variant, threads, skip, item, log));
            log('done');
          }
      }
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);
  console.log('');
  console.log(stagesTable(rows));
  console.log('');
  console.log(`WASM, ${threads} thread(s). RSS: the page's renderer process (page, model workers and ORT's threads), the largest /proc sample (every 50 ms) in each stage; VmHWM: the kernel's peak over the whole row. "peak ÷ file": the largest of the load and 5-shot stages over the file's bytes (with external data). Item: ${item.source}, reusePrefix on, three times.`);
  console.log(machineLines(machine, date, durationS));
  writeBenchRecord(projectRoot, 'memory-stages-', date, { date: date.toISOString(), durationS, machine, threads, item: item.source, rows });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
