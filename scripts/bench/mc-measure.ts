// One configuration (backend × dtype of a fixture model) of the multiple-choice throughput bench, in
// a fresh browser context on the harness page: the pipeline's three modes (0-shot, 5-shot with and
// without prefix reuse), then a bare onnxruntime-web session in the same page over the same token
// ids (the ceiling); then, while time allows, more rounds over the same items, each mode of the
// pipeline followed at once by its bare mode. A failure
// is recorded, never thrown.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openPage, type OpenedPage } from '../browser.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { Backend, LoadResult } from '../../src/lib/engine/messages.ts';
import { ONNX_FILE, type Dtype, type FixtureName } from '../fixtures/specs.ts';
import { projectRoot } from '../site-routes.ts';
import type { BenchItems } from './mc-items.ts';
import {
  pageBare,
  pageBareRelease,
  pageBareSetup,
  pageLoad,
  pagePipeline,
  pageTerminate,
  type BareItem,
  type BarePrompt,
  type BareSetup,
  type ModeRun,
  type PageReply,
  type PipelineItem,
} from './mc-page.ts';
import { withTimeout, unwrap } from './steps.ts';
import { bareOrtUrls, routeOrt } from './bare-ort.ts';

export type PipelineMode = 'zero' | 'fiveReuse' | 'fiveNoReuse';
export type BareMode = 'bareZero' | 'bareFive' | 'bareFiveReuse';

export const PIPELINE_MODES: Record<PipelineMode, { label: string; shots: number; reusePrefix: boolean }> = {
  zero: { label: '0-shot', shots: 0, reusePrefix: false },
  fiveReuse: { label: '5-shot, prefix reuse', shots: 5, reusePrefix: true },
  fiveNoReuse: { label: '5-shot, no reuse', shots: 5, reusePrefix: false },
};
/** Each bare mode replays the token ids of one pipeline mode. */
export const BARE_MODES: Record<BareMode, { label: string; of: PipelineMode; reuse: boolean }> = {
  bareZero: { label: 'bare 0-shot', of: 'zero', reuse: false },
  bareFive: { label: 'bare 5-shot', of: 'fiveNoReuse', reuse: false },
  bareFiveReuse: { label: 'bare 5-shot, prefix reuse', of: 'fiveReuse', reuse: true },
};

export interface McConfiguration {
  backend: Backend;
  model: FixtureName;
  /** The worker's load option (default true): false measures the chunked prefill of a graph without num_logits_to_keep. */
  logitsRewrite?: boolean;
  /** The bare session's graph: one that declares num_logits_to_keep with the same weights (default: model). */
  bareModel?: FixtureName;
  /** How the tables name this configuration (default: the model). */
  label?: string;
  dtype: Dtype;
}

export interface McSettings {
  /** Timed items per mode (the first of the sample's test items, task by task). */
  items: number;
  /** Per pipeline mode, first round: items stop once the next would likely end past this (at least `minItems` run). */
  modeBudgetMs: number;
  minItems: number;
  /** Rounds (every pipeline mode, then every bare mode, over the same items) at most. */
  maxRounds: number;
  /** Another round starts only while the rounds so far plus one more as long as the last fit in this. */
  roundsBudgetMs: number;
  contextLimit: number;
  /** One request or set-up step running longer than this fails the configuration. */
  stepTimeoutMs: number;
}

export interface McResult extends McConfiguration {
  load?: { wallMs: number; result: LoadResult };
  /** The two warm-up items (0-shot, then 5-shot with reuse), page ms each. */
  warmupMs?: number[];
  /** Per mode, one run per round; round 1 decides the items (its time budget), later rounds repeat them. */
  pipeline: Partial<Record<PipelineMode, ModeRun<PipelineItem>[]>>;
  bareSetup?: { wallMs: number; result: BareSetup };
  bareWarmupMs?: number;
  /** Per mode, one run per round, over exactly the prompts of the pipeline mode it replays. */
  bare: Partial<Record<BareMode, ModeRun<BareItem>[]>>;
  /** Page ms of each whole round (pipeline modes + bare modes), set-up and warm-up excluded. */
  roundMs: number[];
  error?: string;
  consoleTail?: string[];
  leaks: string[];
  totalS: number;
}

/** ORT's files the page imports for the bare session; the site serves only the worker's wasm. */
function modelShape(model: FixtureName): { layers: number; kvHeads: number; headDim: number } {
  const config = JSON.parse(readFileSync(join(projectRoot, '.fixtures', 'models', model, 'config.json'), 'utf8')) as {
    num_hidden_layers: number;
    num_key_value_heads: number;
    head_dim?: number;
    hidden_size: number;
    num_attention_heads: number;
  };
  return {
    layers: config.num_hidden_layers,
    kvHeads: config.num_key_value_heads,
    headDim: config.head_dim ?? config.hidden_size / config.num_attention_heads,
  };
}

function barePrompts(run: ModeRun<PipelineItem> | undefined): BarePrompt[] {
  return (run?.items ?? []).map((item) => ({ id: item.id, ids: item.inputIds, prefixLength: item.reusedPrefixTokens }));
}

async function measureInPage(
  page: Page,
  siteUrl: string,
  config: McConfiguration,
  data: BenchItems,
  s: McSettings,
  r: McResult,
  log: (line: string) => void,
): Promise<void> {
  const t = s.stepTimeoutMs;
  const load = unwrap(await withTimeout(page.evaluate(pageLoad, { model: config.model, dtype: config.dtype, backend: config.backend, logitsRewrite: config.logitsRewrite }), t, 'load'), 'load');
  r.load = load;
  const info = load.result;
  log(`load ${load.wallMs.toFixed(0)} ms (${info.backendInfo.backend}${info.backendInfo.fallbackReason ? `, fell back: ${info.backendInfo.fallbackReason}` : ''})`);
  if (info.backendInfo.backend !== config.backend) throw new Error(`asked for ${config.backend}, got ${info.backendInfo.backend}`);

  // Warm-up: two items the timed sets do not contain (the last two test items, another task).
  const timed = data.items.slice(0, s.items);
  const warm = data.items.slice(-2);
  const common = { exemplars: data.exemplars, contextLimit: s.contextLimit, budgetMs: Number.POSITIVE_INFINITY, minItems: 1 };
  const warmZero = await withTimeout(page.evaluate(pagePipeline, { ...common, items: [warm[0]], shots: 0, reusePrefix: false }), t, 'warm-up');
  const warmFive = await withTimeout(page.evaluate(pagePipeline, { ...common, items: [warm[1]], shots: 5, reusePrefix: true }), t, 'warm-up');
  for (const w of [warmZero, warmFive]) if (w.error) throw new Error(`warm-up: ${w.error}`);
  r.warmupMs = [warmZero.totalMs, warmFive.totalMs];
  log(`warm-up ${r.warmupMs.map((ms) => ms.toFixed(0)).join(' + ')} ms`);

  // Round 1 of the pipeline: each mode's time budget decides its items; every later run repeats them.
  const modeItems: Partial<Record<PipelineMode, MultipleChoiceItem[]>> = {};
  const runPipeline = async (mode: PipelineMode, round: number): Promise<number> => {
    const m = PIPELINE_MODES[mode];
    if (m.reusePrefix && round > 1) {
      // The worker keeps the last prefix: put another task's there, as before round 1.
      const reset = await withTimeout(page.evaluate(pagePipeline, { ...common, items: [warm[1]], shots: 5, reusePrefix: true }), t, 'reset');
      if (reset.error) throw new Error(`reset: ${reset.error}`);
    }
    const first = round === 1;
    const items = first ? timed : modeItems[mode]!;
    const args = { ...common, items, shots: m.shots, reusePrefix: m.reusePrefix, budgetMs: first ? s.modeBudgetMs : Number.POSITIVE_INFINITY, minItems: s.minItems };
    const run = await withTimeout(page.evaluate(pagePipeline, args), t + s.modeBudgetMs, m.label);
    (r.pipeline[mode] ??= []).push(run);
    log(`round ${round} ${m.label}: ${run.items.length} items in ${run.totalMs.toFixed(0)} ms${run.budgetCut ? ' (time budget)' : ''}${run.error ? `, ERROR ${run.error}` : ''}`);
    if (run.error) throw new Error(`${m.label}: ${run.error}`);
    if (first) modeItems[mode] = items.slice(0, run.items.length);
    return run.totalMs;
  };
  const firstPrompts: Partial<Record<PipelineMode, BarePrompt[]>> = {};
  const runBare = async (mode: BareMode, round: number): Promise<number> => {
    const m = BARE_MODES[mode];
    const prompts = (firstPrompts[m.of] ??= barePrompts(r.pipeline[m.of]?.[0]));
    // No budget cut: the bare session replays exactly the pipeline's prompts (a safety stop only).
    const run = await withTimeout(page.evaluate(pageBare, { prompts, reuse: m.reuse, budgetMs: 3 * s.modeBudgetMs, minItems: prompts.length }), t + 3 * s.modeBudgetMs, m.label);
    (r.bare[mode] ??= []).push(run);
    log(`round ${round} ${m.label}: ${run.items.length} items in ${run.totalMs.toFixed(0)} ms${run.error ? `, ERROR ${run.error}` : ''}`);
    if (run.error) throw new Error(`${m.label}: ${run.error}`);
    return run.totalMs;
  };

  let roundMs = 0;
  for (const mode of Object.keys(PIPELINE_MODES) as PipelineMode[]) roundMs += await runPipeline(mode, 1);

  // The ceiling, in the same page. The worker stays loaded (idle) so that later rounds can
  // alternate pipeline and bare runs, which spreads the machine's drift over both.
  const bareModel = config.bareModel ?? config.model;
  const shape = modelShape(bareModel);
  const setup = unwrap(
    await withTimeout(
      page.evaluate(pageBareSetup, {
        ...bareOrtUrls(siteUrl),
        modelUrl: `${siteUrl}/models/${bareModel}/onnx/${ONNX_FILE[config.dtype]}`,
        backend: config.backend,
        numThreads: info.backendInfo.wasmThreads,
        ...shape,
      }),
      t,
      'bare session',
    ),
    'bare session',
  );
  r.bareSetup = setup;
  log(`bare session ${setup.wallMs.toFixed(0)} ms (ORT ${setup.result.ortVersion}, ${setup.result.numThreads} thr)`);

  const warmPrompts = [warmZero, warmFive].map((w) => barePrompts(w)[0]);
  const bareWarm = await withTimeout(page.evaluate(pageBare, { prompts: warmPrompts, reuse: true, budgetMs: Number.POSITIVE_INFINITY, minItems: 1 }), t, 'bare warm-up');
  if (bareWarm.error) throw new Error(`bare warm-up: ${bareWarm.error}`);
  r.bareWarmupMs = bareWarm.totalMs;
  log(`bare warm-up ${bareWarm.totalMs.toFixed(0)} ms`);

  for (const mode of Object.keys(BARE_MODES) as BareMode[]) roundMs += await runBare(mode, 1);
  r.roundMs.push(roundMs);

  while (r.roundMs.length < s.maxRounds) {
    const spent = r.roundMs.reduce((x, y) => x + y, 0);
    if (spent + r.roundMs[r.roundMs.length - 1] > s.roundsBudgetMs) break;
    const round = r.roundMs.length + 1;
    roundMs = 0;
    // Each pipeline mode right before the bare mode that replays it: on 2 shared cores the
    // machine's speed drifts by ±20% over seconds, and the ratio is taken per round (see summarise).
    for (const mode of Object.keys(PIPELINE_MODES) as PipelineMode[]) {
      roundMs += await runPipeline(mode, round);
      for (const bare of (Object.keys(BARE_MODES) as BareMode[]).filter((b) => BARE_MODES[b].of === mode)) roundMs += await runBare(bare, round);
    }
    r.roundMs.push(roundMs);
  }
  await page.evaluate(pageBareRelease);
  await page.evaluate(pageTerminate);
}

export async function measureMcConfiguration(
  browser: Browser,
  siteUrl: string,
  config: McConfiguration,
  data: BenchItems,
  settings: McSettings,
  log: (line: string) => void = () => {},
): Promise<McResult> {
  const started = performance.now();
  const result: McResult = { ...config, pipeline: {}, bare: {}, roundMs: [], leaks: [], totalS: 0 };
  let opened: OpenedPage | undefined;
  try {
    opened = await openPage(browser, `${siteUrl}/harness.html`);
    await routeOrt(opened.page, siteUrl);
    await opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { polling: 100, timeout: 30_000 });
    await measureInPage(opened.page, siteUrl, config, data, settings, result, log);
  } catch (e) {
    result.error = e instanceof Error ? e.message : String(e);
    log(`failed: ${result.error}`);
  } finally {
    await opened?.context.close().catch(() => {});
  }
  result.consoleTail = result.error !== undefined ? (opened?.console ?? []).slice(-20) : undefined;
  result.leaks = opened?.leaks ?? [];
  result.totalS = (performance.now() - started) / 1000;
  return result;
}
