// One configuration of the real-shapes bench (real-shapes.ts): a real-shaped model (npm run
// fixtures:real) × dtype × wasm thread count, measured in a fresh browser context on the harness
// page, through the same ModelClient and worker a run uses:
//  1. the letter load (the one-row rewrite and its check, the model check), load time;
//  2. letter items 0-shot and 5-shot with prefix reuse on CMMLU 古汉语, ACLUE and the AncientBench
//     sample's prompts (each set after one untimed item; a 5-shot set's untimed item computes the
//     task's exemplar prefix and is timed apart: the prefix's cost);
//  3. a greedy generation, token by token; the worker's peak wasm memory;
//  4. (deep) one statistics-free forward over a passage (statistics' denominator), then a bare
//     onnxruntime-web session in the page over the 0-shot prompts' own token ids (the ceiling);
//  5. (deep) the cloze load (statistics outputs, as a cloze run loads), option-text scoring of the
//     0-shot CMMLU items with and without PMI, and the statistics of the same passage.
// A failure is recorded, never thrown: the tables say what did not run and why.
import { readFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { openPage, type OpenedPage } from '../browser.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { McProtocolId } from '../../src/lib/core/protocols/mc-protocols.ts';
import type { LoadResult, WorkerStats } from '../../src/lib/engine/messages.ts';
import { ONNX_FILE, type FixtureDtype } from '../fixtures/specs.ts';
import { REAL_OUT_ROOT } from '../fixtures/real-specs.ts';
import { installNameHelper, pageSequence, type SequenceRun } from './cloze-page.ts';
import { pageBare, pageBareRelease, pageBareSetup, type BareItem, type BareSetup, type ModeRun } from './mc-page.ts';
import { pageRealGenerate, pageRealLoad, pageRealStats, pageRealTerminate, type RealGeneration, type RealReply, type RealSlot } from './real-page.ts';
import { pageStatsCall, type StatsCall } from './statistics-page.ts';
import { withTimeout, unwrap } from './steps.ts';
import { bareOrtUrls, routeOrt } from './bare-ort.ts';

/** The prompt sets of step 2, each with its own items and exemplars (all in Node, from ../shared/data or the site's sample). */
export type RealSetName = 'cmmlu-ancient' | 'aclue' | 'ancientbench';
export interface RealSet {
  name: RealSetName;
  protocolId: McProtocolId;
  /** Timed 0-shot items (after `zeroPrime`); their task is also the 5-shot set's. */
  items: MultipleChoiceItem[];
  zeroPrime: MultipleChoiceItem;
  /** The 5-shot set: untimed-for-rate first item (its prefix), then `items` reuse it. */
  fivePrime: MultipleChoiceItem;
  exemplars: Record<string, MultipleChoiceItem[]>;
}

export interface RealConfiguration {
  model: string;
  dtype: FixtureDtype;
  /** Wasm threads asked for. */
  threads: number;
  /** Also measure cloze, statistics and the bare-session ceiling. */
  deep: boolean;
}

export interface RealSettings {
  sets: RealSet[];
  /** A passage (about 300 characters of the benchmark's own text) for statistics ÷ one-row forward. */
  passage: string;
  /** Greedy generation's prompt and length. */
  genPrompt: string;
  genTokens: number;
  genCapMs: number;
  contextLimit: number;
  stepTimeoutMs: number;
}

export interface RealLetters {
  zero?: SequenceRun;
  five?: SequenceRun;
}

export interface RealResult extends RealConfiguration {
  load?: { wallMs: number; result: LoadResult };
  letters: Partial<Record<RealSetName, RealLetters>>;
  generation?: RealGeneration;
  lettersMemory?: WorkerStats | null;
  oneRow?: StatsCall;
  bareSetup?: { wallMs: number; result: BareSetup };
  bareZero?: ModeRun<BareItem>;
  /**
   * The pipeline's 0-shot CMMLU items once more, right after the bare session: pipeline, bare,
   * pipeline, so a gap that comes and goes with the machine's other work shows as one between the
   * two pipeline runs, and a gap of the pipeline's own stays in both.
   */
  pipelineAgain?: SequenceRun;
  statsLoad?: { wallMs: number; result: LoadResult };
  cloze?: { plain?: SequenceRun; pmi?: SequenceRun };
  statistics?: StatsCall;
  statsMemory?: WorkerStats | null;
  /** Steps that failed (the rest of the configuration went on where it could). */
  errors: string[];
  consoleTail: string[];
  leaks: string[];
  totalS: number;
  /** The machine's 1-minute load average at the start and end (os.loadavg): how shared its cores were. */
  machineLoad: [number, number];
}

/** The model's shape from its config.json, for the bare session's empty cache. */
function cacheShape(model: string): { layers: number; kvHeads: number; headDim: number } {
  const c = JSON.parse(readFileSync(join(REAL_OUT_ROOT, model, 'config.json'), 'utf8')) as { num_hidden_layers: number; num_key_value_heads: number; head_dim?: number; hidden_size: number; num_attention_heads: number };
  return { layers: c.num_hidden_layers, kvHeads: c.num_key_value_heads, headDim: c.head_dim ?? c.hidden_size / c.num_attention_heads };
}

export async function measureRealConfiguration(browser: Browser, siteUrl: string, config: RealConfiguration, s: RealSettings, log: (line: string) => void): Promise<RealResult> {
  const started = performance.now();
  const r: RealResult = { ...config, letters: {}, errors: [], consoleTail: [], leaks: [], totalS: 0, machineLoad: [loadavg()[0], NaN] };
  let opened: OpenedPage | undefined;
  try {
    opened = await openPage(browser, `${siteUrl}/harness.html`);
    const page = opened.page;
    page.on('console', (m) => {
      r.consoleTail.push(`${m.type()}: ${m.text()}`.slice(0, 300));
      if (r.consoleTail.length > 20) r.consoleTail.shift();
    });
    await installNameHelper(page);
    await page.waitForFunction('window.jiangu !== undefined', null, { polling: 100 });
    await routeOrt(page, siteUrl);
    await measureInPage(page, siteUrl, config, s, r, log);
  } catch (e) {
    // A fatal step has recorded itself already; anything else (the page, the harness) is recorded here.
    const message = e instanceof Error ? e.message : String(e);
    if (!r.errors.includes(message)) {
      r.errors.push(message);
      log(`ERROR ${message}`);
    }
  } finally {
    if (opened) {
      r.leaks = [...opened.leaks];
      await opened.context.close().catch(() => {});
    }
    r.totalS = (performance.now() - started) / 1000;
    r.machineLoad[1] = loadavg()[0];
  }
  return r;
}

/** Runs `step`, recording its failure (and going on) unless `fatal`. */
async function step(r: RealResult, what: string, log: (line: string) => void, body: () => Promise<void>, fatal = false): Promise<boolean> {
  try {
    await body();
    return true;
  } catch (e) {
    const message = `${what}: ${e instanceof Error ? e.message : String(e)}`;
    r.errors.push(message);
    log(`ERROR ${message}`);
    if (fatal) throw new Error(message);
    return false;
  }
}

function sequenceArgs(set: RealSet, items: MultipleChoiceItem[], prime: MultipleChoiceItem, shots: number, formulation: 'letter' | 'cloze', contextLimit: number, extra: { unconditional?: boolean; keepResults?: boolean } = {}) {
  return {
    formulation,
    protocolId: set.protocolId,
    items,
    exemplars: set.exemplars,
    shots,
    reusePrefix: shots > 0,
    unconditional: extra.unconditional ?? false,
    readAhead: formulation === 'letter',
    contextLimit,
    prime,
    keepResults: extra.keepResults ?? false,
  };
}

async function sequence(page: Page, args: ReturnType<typeof sequenceArgs>, timeoutMs: number, what: string): Promise<SequenceRun> {
  const run = await withTimeout(page.evaluate(pageSequence, args), timeoutMs, what);
  if (run.error) throw new Error(run.error);
  return run;
}

async function load(page: Page, slot: RealSlot, config: RealConfiguration, timeoutMs: number): Promise<{ wallMs: number; result: LoadResult }> {
  return unwrap(await withTimeout(page.evaluate(pageRealLoad, { slot, model: config.model, dtype: config.dtype, backend: 'wasm' as const, wasmThreads: config.threads }), timeoutMs, `${slot} load`), `${slot} load`);
}

async function measureInPage(page: Page, siteUrl: string, config: RealConfiguration, s: RealSettings, r: RealResult, log: (line: string) => void): Promise<void> {
  const t = s.stepTimeoutMs;
  await step(r, 'letter load', log, async () => {
    r.load = await load(page, 'letters', config, t);
    const info = r.load.result;
    log(`letter load ${(r.load.wallMs / 1000).toFixed(1)} s, ${info.backendInfo.wasmThreads} thread(s), logits path ${info.logitsPath?.kind ?? '?'}`);
  }, true);

  for (const set of s.sets) {
    const letters: RealLetters = (r.letters[set.name] = {});
    await step(r, `${set.name} 0-shot`, log, async () => {
      letters.zero = await sequence(page, sequenceArgs(set, set.items, set.zeroPrime, 0, 'letter', s.contextLimit, { keepResults: set.name === 'cmmlu-ancient' }), t, `${set.name} 0-shot`);
      log(`${set.name} 0-shot: ${letters.zero.items.map((i) => `${(i.ms / 1000).toFixed(2)} s/${i.contextTokens} tok`).join(', ')}`);
    });
    await step(r, `${set.name} 5-shot`, log, async () => {
      letters.five = await sequence(page, sequenceArgs(set, set.items, set.fivePrime, 5, 'letter', s.contextLimit), 3 * t, `${set.name} 5-shot`);
      log(`${set.name} 5-shot: prefix item ${((letters.five.primeMs ?? 0) / 1000).toFixed(1)} s; ${letters.five.items.map((i) => `${(i.ms / 1000).toFixed(2)} s/${i.contextTokens} tok (${i.reusedPrefixTokens} reused)`).join(', ')}`);
    });
  }

  await step(r, 'generation', log, async () => {
    r.generation = unwrap(await withTimeout(page.evaluate(pageRealGenerate, { prompt: s.genPrompt, maxNewTokens: s.genTokens, capMs: s.genCapMs }), s.genCapMs + t, 'generation'), 'generation').result;
    log(`generation: ${r.generation.result.tokenIds.length} tokens in ${(r.generation.wallMs / 1000).toFixed(1)} s (${r.generation.result.stoppedBy})`);
  });
  r.lettersMemory = await page.evaluate(pageRealStats, 'letters' as RealSlot).catch(() => null);

  if (config.deep) {
    await step(r, 'one-row forward', log, async () => {
      await page.evaluate(pageStatsCall, { mode: 'oneRow' as const, slot: 'plain', text: s.passage, keepValues: false }); // warm-up at this length
      const reply = await withTimeout(page.evaluate(pageStatsCall, { mode: 'oneRow' as const, slot: 'plain', text: s.passage, keepValues: false }), t, 'one-row forward');
      if (!reply.result) throw new Error(reply.error ?? 'no result');
      r.oneRow = reply.result;
      log(`one-row forward over the passage: ${(r.oneRow.ms / 1000).toFixed(2)} s, ${r.oneRow.tokens} tokens`);
    });
    await step(r, 'bare session', log, async () => {
      const base = `${siteUrl}/models/${config.model}/onnx/`;
      const file = ONNX_FILE[config.dtype];
      const external = config.dtype === 'fp32' && /qwen3/.test(config.model) ? [{ path: `${file}_data`, url: `${base}${file}_data` }] : undefined;
      const setup = unwrap(
        await withTimeout(
          page.evaluate(pageBareSetup, {
            ...bareOrtUrls(siteUrl),
            modelUrl: `${base}${file}`,
            backend: 'wasm' as const,
            numThreads: r.load?.result.backendInfo.wasmThreads ?? config.threads,
            ...cacheShape(config.model),
            rewrite: true,
            ...(external ? { externalData: external } : {}),
            cacheType: config.dtype === 'fp16' || config.dtype === 'q4f16' ? ('float16' as const) : ('float32' as const),
          }),
          t,
          'bare session',
        ),
        'bare session',
      );
      r.bareSetup = setup;
      const zero = r.letters['cmmlu-ancient']?.zero;
      const prompts = (zero?.items ?? []).map((i) => ({ id: i.id, ids: i.letter?.score.inputIds ?? [], prefixLength: 0 }));
      if (prompts.length === 0 || prompts.some((p) => p.ids.length === 0)) throw new Error('no 0-shot CMMLU prompts to replay');
      // The first prompt once untimed (the session's first run at this length), then all of them.
      await withTimeout(page.evaluate(pageBare, { prompts: prompts.slice(0, 1), reuse: false, budgetMs: Number.POSITIVE_INFINITY, minItems: 1 }), t, 'bare warm-up');
      const run = await withTimeout(page.evaluate(pageBare, { prompts, reuse: false, budgetMs: Number.POSITIVE_INFINITY, minItems: prompts.length }), t, 'bare 0-shot');
      if (run.error) throw new Error(run.error);
      r.bareZero = run;
      log(`bare session (created in ${(setup.result.createMs / 1000).toFixed(1)} s): ${run.items.map((i) => `${(i.ms / 1000).toFixed(2)} s`).join(', ')}`);
      const set = s.sets.find((x) => x.name === 'cmmlu-ancient');
      if (set) {
        r.pipelineAgain = await sequence(page, sequenceArgs(set, set.items, set.zeroPrime, 0, 'letter', s.contextLimit), t, 'cmmlu-ancient 0-shot again');
        log(`pipeline again: ${r.pipelineAgain.items.map((i) => `${(i.ms / 1000).toFixed(2)} s`).join(', ')}`);
      }
    });
    await page.evaluate(pageBareRelease).catch(() => {});
  }
  await page.evaluate(pageRealTerminate, 'letters' as RealSlot);
  if (!config.deep) return;

  const ok = await step(r, 'cloze load', log, async () => {
    r.statsLoad = await load(page, 'stats', config, t);
    log(`cloze load ${(r.statsLoad.wallMs / 1000).toFixed(1)} s, statistics ${r.statsLoad.result.statisticsPath?.kind ?? '?'}`);
    // pageSequence wants a letters client to exist; the cloze calls go to clozeClient.
    await page.evaluate('window.mcClient = window.clozeClient');
  });
  if (ok) {
    const set = s.sets.find((x) => x.name === 'cmmlu-ancient');
    if (set) {
      const cloze: NonNullable<RealResult['cloze']> = (r.cloze = {});
      await step(r, 'cloze', log, async () => {
        cloze.plain = await sequence(page, sequenceArgs(set, set.items, set.zeroPrime, 0, 'cloze', s.contextLimit), t, 'cloze');
        log(`cloze: ${cloze.plain.items.map((i) => `${(i.ms / 1000).toFixed(2)} s`).join(', ')}`);
      });
      await step(r, 'cloze with PMI', log, async () => {
        cloze.pmi = await sequence(page, sequenceArgs(set, set.items, set.zeroPrime, 0, 'cloze', s.contextLimit, { unconditional: true }), t, 'cloze with PMI');
        log(`cloze with PMI: ${cloze.pmi.items.map((i) => `${(i.ms / 1000).toFixed(2)} s`).join(', ')}`);
      });
    }
    await step(r, 'statistics', log, async () => {
      await page.evaluate(pageStatsCall, { mode: 'graph' as const, slot: 'stats', text: s.passage, keepValues: false });
      const reply = await withTimeout(page.evaluate(pageStatsCall, { mode: 'graph' as const, slot: 'stats', text: s.passage, keepValues: false }), t, 'statistics');
      if (!reply.result) throw new Error(reply.error ?? 'no result');
      r.statistics = reply.result;
      log(`statistics over the passage: ${(r.statistics.ms / 1000).toFixed(2)} s (${r.statistics.path})`);
    });
    r.statsMemory = await page.evaluate(pageRealStats, 'stats' as RealSlot).catch(() => null);
  }
  await page.evaluate(pageRealTerminate, 'stats' as RealSlot);
  await page.evaluate('window.mcClient = undefined');
}
