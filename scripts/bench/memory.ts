// `npm run bench`, memory part: on jiangu-large-nokeep (Qwen3's 151,936-token vocabulary, no
// num_logits_to_keep, the presets' case), the largest logits block one forward returns and the model
// worker's peak memory during one 5-shot item and during a 1,000-token greedy generation, before and
// after bounded logits, per backend × dtype. A measurement, not a test: it prints a Markdown table and
// writes the record to bench-results/memory-<timestamp>.json.
//
// "before" is the worker as it was before bounded logits: one forward over the whole prompt. Loading
// with a maxLogitsBytes far past any prompt (BEFORE_LOGITS_BYTES) gives exactly that for scoring (one
// prefill pass over all the prompt's tokens). For generate it gives one pass over all but the last
// token, then generate's own pass over the last: the old worker passed the whole prompt to generate
// in one pass, so its block was one row larger ([1, T, V] instead of [1, T-1, V]; 0.58 MiB here).
// q8 is left out: its prefill rows are fixed (32) whatever maxLogitsBytes, so it has no "before".
//
// Each configuration runs in a fresh browser context (a fresh worker), because ORT's wasm Memory only
// grows: its size after one request is that request's peak only if nothing ran before it but the load.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser } from 'playwright-core';
import { openPage, withChromium, type OpenedPage } from '../browser.ts';
import { projectRoot } from '../site-routes.ts';
import type { GenerateItemResult, GenerateResult, LoadResult, ScoreItemResult, WorkerStats } from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';
import { machineInfo, machineLines, writeBenchRecord } from './report.ts';
import { PROMPTS } from './prompts.ts';
import { fiveShotItem, type FiveShotItem } from './memory-item.ts';
import { WorkerHeap } from './memory-worker-heap.ts';
import { memoryTable, type MemoryConfig, type MemoryResult } from './memory-table.ts';
import { withTimeout } from './steps.ts';

const MODEL = 'jiangu-large-nokeep';
/** Far past any prompt's rows × vocabulary × 4 bytes: the old single pass. */
const BEFORE_LOGITS_BYTES = 2 ** 40;
const GEN_TOKENS = 1000;
/** New tokens of the generation from the 5-shot prompt: its prompt's pass is what is measured. */
const ITEM_GEN_TOKENS = 8;
/** A generation still running after this long is cancelled (it stops after the token in progress). */
const GEN_BUDGET_MS: Record<MemoryConfig['backend'], number> = { wasm: 240_000, webgpu: 90_000 };
const SAMPLE_INTERVAL_MS = 25;
const STEP_TIMEOUT_MS = 300_000;

const USAGE = 'Usage: tsx scripts/bench/memory.ts [--backends wasm,webgpu] [--dtypes fp32,q4] [--workloads item,generation,item-generation] (defaults: WASM fp32 all three, q4 item and item-generation; WebGPU q4 item)';

function list<T extends string>(value: string | undefined, allowed: readonly T[], flag: string): T[] {
  if (value === undefined) return [...allowed];
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (bad.length > 0 || items.length === 0) throw new Error(`--${flag}: choose from ${allowed.join(', ')}.\n${USAGE}`);
  return allowed.filter((a) => items.includes(a));
}

interface BenchWindow {
  memClient?: ModelClient;
}

type PageCall =
  | { kind: 'load'; backend: MemoryConfig['backend']; dtype: MemoryConfig['dtype']; maxLogitsBytes?: number; logitsRewrite?: boolean }
  | { kind: 'stats' }
  | { kind: 'item'; item: FiveShotItem }
  | { kind: 'item-generation'; item: FiveShotItem; maxNewTokens: number }
  | { kind: 'generate'; prompt: string; maxNewTokens: number; capMs: number };

/**
 * One client request in the page. The evaluated function names no inner function: tsx compiles
 * with keepNames, whose `__name` helper does not exist in the page (see measure.ts).
 */
async function inPage<T>(opened: OpenedPage, call: PageCall): Promise<{ result: T; ms: number }> {
  const reply = await withTimeout(
    opened.page.evaluate(async (c: PageCall) => {
      const w = window as unknown as BenchWindow;
      w.memClient ??= new window.jiangu.ModelClient();
      const client = w.memClient;
      const started = performance.now();
      try {
        let result: unknown;
        if (c.kind === 'load') result = await client.load({ source: { kind: 'site', name: 'jiangu-large-nokeep' }, dtype: c.dtype, backend: c.backend, maxLogitsBytes: c.maxLogitsBytes, logitsRewrite: c.logitsRewrite });
        else if (c.kind === 'stats') result = await client.stats();
        else if (c.kind === 'item' || c.kind === 'item-generation') {
          const params = {
            protocolId: c.item.protocolId,
            item: c.item.item,
            exemplars: c.item.exemplars,
            shots: 5,
            contextLimit: 2048,
            chatTemplate: false,
            reusePrefix: false,
          };
          result = c.kind === 'item' ? await client.scoreItem(params) : await client.generateItem({ ...params, maxNewTokens: c.maxNewTokens });
        } else {
          const abort = new AbortController();
          const timer = setTimeout(() => abort.abort(), c.capMs);
          try {
            result = await client.generate({ prompt: c.prompt, maxNewTokens: c.maxNewTokens }, { signal: abort.signal });
          } finally {
            clearTimeout(timer);
          }
        }
        return { result, ms: performance.now() - started };
      } catch (e) {
        const err = e as { code?: string; message?: string; detail?: string };
        return { error: [err.code, err.message ?? String(e), err.detail].filter((p) => p).join(': '), ms: performance.now() - started };
      }
    }, call),
    STEP_TIMEOUT_MS,
    call.kind,
  );
  if ('error' in reply) throw new Error(`${call.kind}: ${reply.error}`);
  return { result: reply.result as T, ms: reply.ms };
}

async function measure(browser: Browser, siteUrl: string, config: MemoryConfig, item: FiveShotItem, log: (line: string) => void): Promise<MemoryResult> {
  const r: MemoryResult = { ...config };
  let opened: OpenedPage | undefined;
  let heap: WorkerHeap | undefined;
  try {
    opened = await openPage(browser, `${siteUrl}/harness.html`);
    await opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { polling: 100, timeout: 30_000 });
    heap = await WorkerHeap.attach(opened.page);
    const maxLogitsBytes = config.mode === 'before' ? BEFORE_LOGITS_BYTES : undefined;
    // before / after measure the chunked path, so the load-time rewrite is off for them.
    const load = await inPage<LoadResult>(opened, { kind: 'load', backend: config.backend, dtype: config.dtype, maxLogitsBytes, logitsRewrite: config.mode === 'rewritten' });
    if (load.result.backendInfo.backend !== config.backend) throw new Error(`loaded on ${load.result.backendInfo.backend}, not ${config.backend}`);
    r.prefillRows = load.result.prefillRows;
    log(`loaded in ${(load.ms / 1000).toFixed(1)} s`);
    if (!heap.attached) throw new Error('the model worker never showed up as a DevTools target');
    const before = (await inPage<WorkerStats>(opened, { kind: 'stats' })).result;
    r.wasmAfterLoad = before.wasmMemoryBytes;
    r.gpuAfterLoad = before.gpuBufferBytes;

    await heap.start(SAMPLE_INTERVAL_MS);
    try {
      if (config.workload === 'item') {
        const done = await inPage<ScoreItemResult>(opened, { kind: 'item', item });
        r.promptTokens = done.result.score.inputIds.length;
        r.requestMs = done.ms;
      } else if (config.workload === 'item-generation') {
        const done = await inPage<GenerateItemResult>(opened, { kind: 'item-generation', item, maxNewTokens: ITEM_GEN_TOKENS });
        r.promptTokens = done.result.generation.inputIds.length;
        r.newTokens = done.result.generation.tokenIds.length;
        r.stoppedBy = done.result.generation.stoppedBy;
        r.requestMs = done.ms;
      } else {
        const done = await inPage<GenerateResult>(opened, { kind: 'generate', prompt: PROMPTS['jiangu-large'], maxNewTokens: GEN_TOKENS, capMs: GEN_BUDGET_MS[config.backend] });
        r.promptTokens = done.result.inputIds.length;
        r.newTokens = done.result.tokenIds.length;
        r.stoppedBy = done.result.stoppedBy;
        r.requestMs = done.ms;
      }
    } finally {
      r.heap = await heap.stop();
    }
    const after = (await inPage<WorkerStats>(opened, { kind: 'stats' })).result;
    r.largestLogitsBytes = after.largestLogitsBytes;
    r.wasmPeak = after.wasmMemoryBytes;
    r.gpuPeak = after.peakGpuBufferBytes;
  } catch (e) {
    r.error = e instanceof Error ? e.message : String(e);
    log(`failed: ${r.error}`);
    if (opened) log(`console tail:\n${opened.console.slice(-10).join('\n')}`);
  } finally {
    await heap?.detach();
    await opened?.context.close().catch(() => {});
  }
  return r;
}

async function main(): Promise<void> {
  const { values } = parseArgs({ args: process.argv.slice(2), options: { backends: { type: 'string' }, dtypes: { type: 'string' }, workloads: { type: 'string' } }, strict: true });
  const backends = list(values.backends, ['wasm', 'webgpu'] as const, 'backends');
  // The defaults keep the run near 8 minutes on 2 cores: SwiftShader takes minutes per fp32 5-shot
  // item and makes about 10 tokens a minute, so WebGPU runs q4 and the 5-shot item only; a q4
  // 1,000-token generation on WASM takes 4 minutes and says nothing fp32's does not.
  const dtypesFor = (backend: MemoryConfig['backend']) => list(values.dtypes ?? (backend === 'webgpu' ? 'q4' : undefined), ['fp32', 'q4'] as const, 'dtypes');
  const workloadsFor = (backend: MemoryConfig['backend'], dtype: MemoryConfig['dtype']) =>
    list(
      values.workloads ?? (backend === 'webgpu' ? 'item' : dtype === 'q4' ? 'item,item-generation' : undefined),
      ['item', 'generation', 'item-generation'] as const,
      'workloads',
    );
  if (!existsSync(join(projectRoot, '.fixtures', 'models', MODEL, 'config.json'))) {
    console.log(`Memory bench skipped: .fixtures/models/${MODEL}/config.json is missing; generate it with \`npm run fixtures:large\` (about 700 MB).`);
    return;
  }
  const item = fiveShotItem();
  const date = new Date();
  const started = performance.now();
  const results: MemoryResult[] = [];
  const chromium = await withChromium({ webgpu: true }, async (siteUrl, browser) => {
    for (const backend of backends) {
      for (const dtype of dtypesFor(backend)) {
        for (const workload of workloadsFor(backend, dtype)) {
          for (const mode of ['before', 'after', 'rewritten'] as const) {
            const config: MemoryConfig = { backend, dtype, workload, mode };
            const name = `${backend} ${dtype} ${workload} ${mode}`;
            const log = (line: string) => console.error(`[bench memory] ${name}: ${line}`);
            const t0 = performance.now();
            results.push(await measure(browser, siteUrl, config, item, log));
            log(`done in ${((performance.now() - t0) / 1000).toFixed(1)} s`);
          }
        }
      }
    }
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);

  console.log('');
  console.log(memoryTable(results));
  console.log('');
  console.log(`Model ${MODEL}. "before": maxLogitsBytes ${BEFORE_LOGITS_BYTES} (one pass over the whole prompt, the worker before bounded logits); "after": the default 64 MiB (chunked prefill); both with the load-time logits rewrite off (the author's graph). "rewritten": the default load, the graph rewritten to one logits row. Each row is a fresh worker: load, then the one request.`);
  console.log(`- 5-shot item: ${item.source}, protocol ${item.protocolId}, no prefix reuse, no chat template, letters A-D scored.`);
  console.log(`- Generation from the 5-shot item: generateItem with the same item and settings, greedy, maxNewTokens ${ITEM_GEN_TOKENS}: the prompt's pass is the part that changed with bounded logits.`);
  console.log(`- Generation: greedy, maxNewTokens ${GEN_TOKENS}, from the ${PROMPTS['jiangu-large'].length}-character CMMLU-style prompt of prompts.ts; cancelled after ${GEN_BUDGET_MS.wasm / 1000} s on WASM and ${GEN_BUDGET_MS.webgpu / 1000} s on WebGPU (SwiftShader runs on the CPU), so fewer tokens there; it stops early at eos only if the random weights pick it (the row says so).`);
  console.log('- Largest logits block: WorkerStats.largestLogitsBytes, the bytes of the largest logits tensor any forward pass returned. For a generation "before" is one row short of the old worker\'s block: today\'s generate prefills all but the last prompt token (here in one pass), the old one ran the whole prompt in one pass.');
  console.log(`- JS heap used / ArrayBuffers: the worker's V8 isolate over CDP (Runtime.getHeapUsage usedSize / backingStorageSize), sampled every ${SAMPLE_INTERVAL_MS} ms during the request after a forced GC (the baseline, the "+" is over it); a sampled peak, so a lower bound. ArrayBuffers are the typed arrays outside the V8 heap: tensors' data copied out of ORT (the logits blocks, until a GC frees them); ORT's wasm Memory is not among them (V8 does not count it there), it is the next column.`);
  console.log("- wasm Memory: the byte length of the WebAssembly.Memory ORT creates in the worker (stats.wasmMemoryBytes); it never shrinks, so after the request it is the high-water mark of load and request together; \"+\" is over its size after loading (+0: the request fit in what loading had already grown it to).");
  console.log('- GPU buffers (WebGPU only): bytes of GPUBuffers alive at once, counted by the worker\'s createBuffer/destroy hook (stats.peakGpuBufferBytes, since the model loaded); "+" is over what was alive after loading (the weights and ORT\'s pool).');
  console.log(machineLines(machine, date, durationS));

  const record = {
    date: date.toISOString(),
    durationS,
    machine,
    model: MODEL,
    settings: { beforeLogitsBytes: BEFORE_LOGITS_BYTES, genTokens: GEN_TOKENS, itemGenTokens: ITEM_GEN_TOKENS, genBudgetMs: GEN_BUDGET_MS, sampleIntervalMs: SAMPLE_INTERVAL_MS, item: { source: item.source, id: item.item.id, protocolId: item.protocolId }, generationPrompt: PROMPTS['jiangu-large'] },
    results,
  };
  writeBenchRecord(projectRoot, 'memory-', date, record);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
