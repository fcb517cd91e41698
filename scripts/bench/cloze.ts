// `npm run bench` (cloze part, issue 25): what scoring option texts (cloze) costs next to scoring
// letters, and what it buys.
//  1. Cost: a cloze item's page time ÷ a letter item's, WASM, jiangu-large (4 layers, the real Qwen3
//     tokenizer: 151,669 logits per row), 0-shot and 5-shot with prefix reuse, on real CMMLU 古汉语
//     test items (their task's dev items as exemplars) read from ../shared/data; the cloze request as
//     runs make it (unconditional: true, for PMI) and without the PMI part. Items run in blocks of
//     one task, each block through every mode in turn (the order rotated), so the machine's drift
//     falls on all of them; blocks alternate between 0- and 5-shot, so no item is asked twice with
//     PMI (the worker keeps the scores after the answer cue per option text, as a run would use them). Then a profile: the same items' cloze work replayed phase by phase on a
//     bare onnxruntime-web session in the page (cloze-page.ts), to say where the time goes.
//  2. Signal: one 0-shot run of stories260k (a trained model) over the same dataset's items, letters
//     and cloze: overall accuracy with its 95% interval (aggregateForDataset), mean p(gold) with its
//     stratified bootstrap interval (aggregateContinuous), and bits per byte of the gold text.
// A measurement, not a test: it prints Markdown tables and a line per target, and writes
// bench-results/cloze-<timestamp>.json.
//
//   npx tsx scripts/bench/cloze.ts [--dataset cmmlu-ancient|aclue] [--task <task>] [--dtype fp32] [--budget-s 120]
//                                  [--block 4] [--max-items 96] [--profile-items 6] [--stories-items 164] [--skip-cost] [--skip-signal]
// (after `npm run build`, `npm run fixtures` and `npm run fixtures:large`)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { AutoTokenizer, env as transformersEnv, type PreTrainedTokenizer } from '@huggingface/transformers';
import { openPage, withChromium, type OpenedPage } from '../browser.ts';
import { DTYPES, ONNX_FILE, type Dtype } from '../fixtures/specs.ts';
import { projectRoot } from '../site-routes.ts';
import type { MultipleChoiceItem, OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import type { LoadResult } from '../../src/lib/engine/messages.ts';
import type { McItemResult } from '../../src/lib/core/record/run.ts';
import { buildClozePrompt, buildMcPrompt, encodePair, getProtocol, scoreLetters } from '../../src/lib/core/protocols/index.ts';
import { aggregateForDataset } from '../../src/lib/core/metrics/mc-aggregate.ts';
import { aggregateContinuous, continuousOf, type ContinuousMetric } from '../../src/lib/core/metrics/continuous.ts';
import { CLOZE_RULES, resultsUnderRule } from '../../src/lib/core/metrics/cloze-rules.ts';
import { clozeResult } from '../../src/lib/engine/cloze-result.ts';
import { pageBareRelease, pageBareSetup, pageLoad, pageTerminate, type PageReply } from './mc-page.ts';
import { installNameHelper, pageLoadCloze, pageProfile, pageSequence, pageTerminateCloze, type Formulation, type ProfileItem, type ProfilePhases, type SequenceItem, type SequenceRun } from './cloze-page.ts';
import { CLOZE_BENCH_DATASETS, loadSharedItems, type ClozeBenchDataset, type ClozeBenchItems } from './cloze-items.ts';
import { machineInfo, machineLines, median, percentile, writeBenchRecord } from './report.ts';
import { bodyMacs, fixtureShape, headMacs, REAL_SHAPES } from './model-shapes.ts';
import { integerOption } from './cli.ts';
import { withTimeout, unwrap } from './steps.ts';
import { bareOrtUrls, routeOrt } from './bare-ort.ts';

const COST_MODEL = 'jiangu-large';
const SIGNAL_MODEL = 'stories260k';
/** The issue's target: a cloze item costs at most this × a letter item (WASM, jiangu-large, 0- and 5-shot with reuse). */
const TARGET_RATIO = 2;
const CONTEXT_LIMIT = 2048;
const STEP_TIMEOUT_MS = 180_000;
/** Each profiled item's phases run this often; the median of each is kept. */
const PROFILE_REPEATS = 3;
const USAGE =
  'Usage: npx tsx scripts/bench/cloze.ts [--dataset cmmlu-ancient|aclue] [--task <task>] [--dtype fp32] [--budget-s 120] [--block 4] [--max-items 96] [--profile-items 6] [--stories-items 164] [--skip-cost] [--skip-signal]';

interface Options {
  dataset: ClozeBenchDataset;
  task?: string;
  dtype: Dtype;
  /** The cost part's timed blocks stop once the next would likely end past this. */
  budgetS: number;
  block: number;
  maxItems: number;
  profileItems: number;
  storiesItems: number;
  skipCost: boolean;
  skipSignal: boolean;
}

const positiveInteger = (flag: string, value: string | undefined, fallback: number, allowZero = false): number => integerOption(flag, value, fallback, USAGE, allowZero);

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      dataset: { type: 'string' },
      task: { type: 'string' },
      dtype: { type: 'string' },
      'budget-s': { type: 'string' },
      block: { type: 'string' },
      'max-items': { type: 'string' },
      'profile-items': { type: 'string' },
      'stories-items': { type: 'string' },
      'skip-cost': { type: 'boolean' },
      'skip-signal': { type: 'boolean' },
    },
    strict: true,
    allowPositionals: false,
  });
  const dataset = (values.dataset ?? 'cmmlu-ancient') as ClozeBenchDataset;
  if (!CLOZE_BENCH_DATASETS.includes(dataset)) throw new Error(`--dataset: choose from ${CLOZE_BENCH_DATASETS.join(', ')}.\n${USAGE}`);
  const dtype = (values.dtype ?? 'fp32') as Dtype;
  if (!(DTYPES as readonly string[]).includes(dtype)) throw new Error(`--dtype: choose from ${DTYPES.join(', ')}.\n${USAGE}`);
  return {
    dataset,
    task: values.task,
    dtype,
    budgetS: positiveInteger('budget-s', values['budget-s'], 120),
    block: positiveInteger('block', values.block, 4),
    maxItems: positiveInteger('max-items', values['max-items'], 96),
    profileItems: positiveInteger('profile-items', values['profile-items'], 6, true),
    storiesItems: positiveInteger('stories-items', values['stories-items'], 164),
    skipCost: values['skip-cost'] ?? false,
    skipSignal: values['skip-signal'] ?? false,
  };
}

function modelPresent(model: string, dtype: Dtype): boolean {
  const dir = join(projectRoot, '.fixtures', 'models', model);
  return existsSync(join(dir, 'config.json')) && existsSync(join(dir, 'onnx', ONNX_FILE[dtype]));
}

function modelShape(model: string): { layers: number; kvHeads: number; headDim: number } {
  const config = JSON.parse(readFileSync(join(projectRoot, '.fixtures', 'models', model, 'config.json'), 'utf8')) as {
    num_hidden_layers: number;
    num_key_value_heads: number;
    head_dim?: number;
    hidden_size: number;
    num_attention_heads: number;
  };
  return { layers: config.num_hidden_layers, kvHeads: config.num_key_value_heads, headDim: config.head_dim ?? config.hidden_size / config.num_attention_heads };
}

/** onnxruntime-web's ESM build for the bare session, served on the site's origin (as mc-measure.ts does). */
async function openHarness(browser: Browser, siteUrl: string): Promise<OpenedPage> {
  const opened = await openPage(browser, `${siteUrl}/harness.html`);
  await routeOrt(opened.page, siteUrl);
  await opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { polling: 100, timeout: 30_000 });
  await installNameHelper(opened.page);
  return opened;
}

async function loadModel(page: Page, model: string, dtype: Dtype): Promise<{ wallMs: number; result: LoadResult }> {
  const load = unwrap(await withTimeout(page.evaluate(pageLoad, { model, dtype: dtype as 'fp32' | 'q8' | 'q4', backend: 'wasm' as const }), STEP_TIMEOUT_MS, `load ${model}`), `load ${model}`);
  if (load.result.backendInfo.backend !== 'wasm') throw new Error(`asked for wasm, got ${load.result.backendInfo.backend}`);
  return load;
}

// ---- the modes of the cost part ---------------------------------------------------------------

type ModeKey = 'letter' | 'clozePmi' | 'cloze';
const MODES: Record<ModeKey, { label: string; formulation: Formulation; unconditional: boolean }> = {
  letter: { label: 'letters (scoreItem, read-ahead as runs)', formulation: 'letter', unconditional: false },
  clozePmi: { label: 'cloze, as runs (unconditional: true)', formulation: 'cloze', unconditional: true },
  cloze: { label: 'cloze without PMI (unconditional: false)', formulation: 'cloze', unconditional: false },
};
const MODE_KEYS = Object.keys(MODES) as ModeKey[];
const SHOTS = [0, 5] as const;
type Shots = (typeof SHOTS)[number];

interface CostBlock {
  shots: Shots;
  task: string;
  /** Per mode: the run over the block's items (the prime untimed). */
  runs: Partial<Record<ModeKey, SequenceRun>>;
  order: ModeKey[];
}

interface CostResult {
  model: string;
  dtype: Dtype;
  load?: { wallMs: number; result: LoadResult };
  /** The cloze worker's statistics path (`graph`: Jiangu's statistics outputs, as runs use them). */
  statisticsPath?: string | null;
  warmupMs?: number;
  blocks: CostBlock[];
  budgetCut: boolean;
  profile?: Partial<Record<Shots, { setupMs: number; items: ProfilePhases[]; bareSetupMs: number; error?: string; /** Per item: the pipeline's median ms (cloze as runs), measured right before the replay. */ pipelineMs: Record<string, number> }>>;
  /** Worker-side tokenising of the same items, timed in Node with the same tokenizer code (ms per item). */
  tokenizing?: Partial<Record<Shots, { letterMs: number; clozeMs: number; items: number }>>;
  error?: string;
  leaks: string[];
  consoleTail?: string[];
  totalS: number;
}

/** Timed items in blocks of at most `size`, each block one task (a block's prime puts that task's prefix in the cache). */
function blocksOf(items: readonly MultipleChoiceItem[], size: number): MultipleChoiceItem[][] {
  const blocks: MultipleChoiceItem[][] = [];
  for (const item of items) {
    const last = blocks[blocks.length - 1];
    if (last && last.length < size && last[0].task === item.task) last.push(item);
    else blocks.push([item]);
  }
  return blocks;
}

async function runSequence(page: Page, args: Parameters<typeof pageSequence>[0], what: string): Promise<SequenceRun> {
  const run = await withTimeout(page.evaluate(pageSequence, args), STEP_TIMEOUT_MS, what);
  if (run.error) throw new Error(`${what}: ${run.error}`);
  return run;
}

async function measureCost(browser: Browser, siteUrl: string, data: ClozeBenchItems, o: Options, log: (line: string) => void): Promise<CostResult> {
  const started = performance.now();
  const r: CostResult = { model: COST_MODEL, dtype: o.dtype, blocks: [], budgetCut: false, leaks: [], totalS: 0 };
  let opened: OpenedPage | undefined;
  try {
    opened = await openHarness(browser, siteUrl);
    const page = opened.page;
    r.load = await loadModel(page, COST_MODEL, o.dtype);
    // Cloze runs load with the statistics outputs (run-scheduler.ts); letter runs without.
    const cloze = await withTimeout(page.evaluate(pageLoadCloze, { model: COST_MODEL, dtype: o.dtype as 'fp32' | 'q8' | 'q4' }), STEP_TIMEOUT_MS, 'load the cloze worker');
    if (cloze.error) throw new Error(`cloze worker: ${cloze.error}`);
    r.statisticsPath = cloze.statisticsPath;
    log(`cloze worker: statistics ${cloze.statisticsPath ?? 'not asked'}`);
    log(`load ${r.load.wallMs.toFixed(0)} ms (wasm, ${r.load.result.backendInfo.wasmThreads} threads, ${r.load.result.backendInfo.crossOriginIsolated ? 'cross-origin isolated' : 'NOT cross-origin isolated'})`);

    // The last two test items warm every mode up; the timed items are the first ones, task by task.
    const warm = data.items.slice(-2);
    const timed = data.items.slice(0, Math.min(o.maxItems, data.items.length - warm.length));
    const common = { protocolId: data.protocolId, exemplars: data.exemplars, contextLimit: CONTEXT_LIMIT, readAhead: true, keepResults: false };
    const w0 = performance.now();
    for (const shots of SHOTS) {
      for (const mode of MODE_KEYS) {
        const m = MODES[mode];
        await runSequence(page, { ...common, items: warm, formulation: m.formulation, unconditional: m.unconditional, shots, reusePrefix: shots > 0 }, `warm-up ${shots}-shot ${mode}`);
      }
    }
    r.warmupMs = performance.now() - w0;
    log(`warm-up ${r.warmupMs.toFixed(0)} ms (every mode on ${warm.length} items)`);

    const budgetMs = o.budgetS * 1000;
    const t0 = performance.now();
    let lastBlockMs = 0;
    const blocks = blocksOf(timed, o.block);
    for (const [b, items] of blocks.entries()) {
      const spent = performance.now() - t0;
      if (b > 0 && spent + lastBlockMs > budgetMs) {
        r.budgetCut = true;
        break;
      }
      const b0 = performance.now();
      // Each block is timed at one shot count, alternating: the worker keeps the options' scores after
      // the answer cue for the run, so a second pass over the same items would find them all cached,
      // which no run does (it sees an item once; only option texts repeated across items are cached).
      for (const shots of [SHOTS[b % SHOTS.length]]) {
        // Rotate the modes' order from block to block: none always runs first after a prefix change.
        const order = MODE_KEYS.map((_, k) => MODE_KEYS[(k + b) % MODE_KEYS.length]);
        const block: CostBlock = { shots, task: items[0].task, runs: {}, order };
        for (const mode of order) {
          const m = MODES[mode];
          const reusePrefix = shots > 0;
          // With reuse, the block's first item is scored once untimed first: the letter and cloze
          // prefixes differ, and the worker keeps one, so each mode's prefix is computed there (a run
          // computes it once per task) and every timed item finds it cached.
          block.runs[mode] = await runSequence(
            page,
            { ...common, items, formulation: m.formulation, unconditional: m.unconditional, shots, reusePrefix, ...(reusePrefix ? { prime: items[0] } : {}) },
            `${shots}-shot ${mode}`,
          );
        }
        r.blocks.push(block);
      }
      lastBlockMs = performance.now() - b0;
      log(`block ${b + 1}/${blocks.length} (${items.length} items, ${items[0].task}): ${lastBlockMs.toFixed(0)} ms`);
    }

    await page.evaluate(pageTerminateCloze);
    if (o.profileItems > 0) await profileCost(page, siteUrl, data, r, o, log);
    await page.evaluate(pageTerminate);
  } catch (e) {
    r.error = e instanceof Error ? e.message : String(e);
    log(`failed: ${r.error}`);
  } finally {
    await opened?.context.close().catch(() => {});
  }
  r.consoleTail = r.error !== undefined ? (opened?.console ?? []).slice(-20) : undefined;
  r.leaks = opened?.leaks ?? [];
  r.totalS = (performance.now() - started) / 1000;
  return r;
}

// ---- the profile ----------------------------------------------------------------------------------

async function loadNodeTokenizer(model: string): Promise<PreTrainedTokenizer> {
  transformersEnv.allowRemoteModels = false;
  transformersEnv.localModelPath = `${join(projectRoot, '.fixtures', 'models')}/`;
  return AutoTokenizer.from_pretrained(model);
}

/**
 * The cloze work of the timed items replayed on a bare session in the same page (the worker loaded
 * and idle), and the worker's tokenising of the same items timed in Node.
 */
async function profileCost(page: Page, siteUrl: string, data: ClozeBenchItems, r: CostResult, o: Options, log: (line: string) => void): Promise<void> {
  const tokenizer = await loadNodeTokenizer(COST_MODEL);
  const encode = (text: string) => tokenizer.encode(text, { add_special_tokens: true });
  const protocol = getProtocol(data.protocolId);
  const shape = modelShape(COST_MODEL);
  const info = r.load!.result;
  const setup = unwrap(
    await withTimeout(
      page.evaluate(pageBareSetup, {
        ...bareOrtUrls(siteUrl),
        modelUrl: `${siteUrl}/models/${COST_MODEL}/onnx/${ONNX_FILE[o.dtype]}`,
        backend: 'wasm' as const,
        numThreads: info.backendInfo.wasmThreads,
        ...shape,
      }),
      STEP_TIMEOUT_MS,
      'bare session',
    ),
    'bare session',
  );
  log(`bare session ${setup.wallMs.toFixed(0)} ms (ORT ${setup.result.ortVersion}, ${setup.result.numThreads} threads)`);
  r.profile = {};
  r.tokenizing = {};
  for (const shots of SHOTS) {
    // The cloze results of the timed items (the PMI mode has every count), first items first.
    const scored = r.blocks.filter((b) => b.shots === shots).flatMap((b) => b.runs.clozePmi?.items ?? []);
    const ids = new Set(scored.slice(0, o.profileItems).map((s) => s.id));
    const items = data.items.filter((item) => ids.has(item.id));
    if (items.length === 0) continue;
    // Token ids as the worker has them: the context's own tokens, its prefix, each option's split.
    const profileItems: ProfileItem[] = items.map((item) => {
      const built = buildClozePrompt(protocol, item, data.exemplars[item.task] ?? [], shots, { countTokens: (t) => encode(t).length, contextLimit: CONTEXT_LIMIT });
      const pairs = built.continuations.map((c) => encodePair(encode, built.context, c));
      const prefixLength = shots > 0 && built.prefix ? encode(built.context.slice(0, built.context.indexOf(built.prefix) + built.prefix.length)).length : 0;
      const cuePairs = item.options.map((option) => encodePair(encode, built.domainContext, protocol.cloze.targetDelimiter + option));
      return { id: item.id, contextIds: pairs[0].contextIds, prefixLength, options: pairs.map((p) => p.continuationIds), cueIds: cuePairs[0].contextIds, cueOptions: cuePairs.map((p) => p.continuationIds) };
    });
    // The pipeline on the same items right before their replay, without PMI (the worker keeps the
    // scores after the answer cue per option text, so repeats of an item would find them cached), as
    // often as the replay repeats each phase: the per-item median is what those phases add up to.
    const pipelineMs = new Map<string, number[]>();
    for (let rep = 0; rep < PROFILE_REPEATS; rep++) {
      const run = await runSequence(
        page,
        { protocolId: data.protocolId, exemplars: data.exemplars, contextLimit: CONTEXT_LIMIT, readAhead: false, keepResults: false, items, formulation: 'cloze', unconditional: false, shots, reusePrefix: shots > 0, ...(shots > 0 ? { prime: items[0] } : {}) },
        `profile pipeline ${shots}-shot`,
      );
      for (const item of run.items) pipelineMs.set(item.id, [...(pipelineMs.get(item.id) ?? []), item.ms]);
    }
    const run = await withTimeout(page.evaluate(pageProfile, { items: profileItems, vocab: info.vocabSize, repeats: PROFILE_REPEATS }), STEP_TIMEOUT_MS, `profile ${shots}-shot`);
    r.profile[shots] = { ...run, bareSetupMs: setup.wallMs, pipelineMs: Object.fromEntries([...pipelineMs].map(([id, ms]) => [id, median(ms)])) };
    log(`profile ${shots}-shot: ${run.items.length} items${run.error ? `, ERROR ${run.error}` : ''}`);

    // The worker's tokenising, timed here: the same transformers.js tokenizer code, one encode cache of
    // four texts as encodeRecent keeps (workers/loaded-model.ts).
    const recent = new Map<string, number[]>();
    const cached = (text: string): number[] => {
      const known = recent.get(text);
      if (known) return known;
      const got = encode(text);
      recent.set(text, got);
      while (recent.size > 4) recent.delete(recent.keys().next().value!);
      return got;
    };
    const count = (t: string) => cached(t).length;
    let letterMs = 0;
    let clozeMs = 0;
    for (let pass = 0; pass < 2; pass++) {
      // The first pass warms the tokenizer's own caches up; the second is timed.
      let l = 0;
      let c = 0;
      for (const item of items) {
        const ex = data.exemplars[item.task] ?? [];
        let t = performance.now();
        const letter = buildMcPrompt(protocol, item, ex, shots, { countTokens: count, contextLimit: CONTEXT_LIMIT });
        cached(letter.prompt);
        if (shots > 0) cached(letter.prompt.slice(0, letter.prompt.indexOf(letter.prefix) + letter.prefix.length));
        l += performance.now() - t;
        t = performance.now();
        const built = buildClozePrompt(protocol, item, ex, shots, { countTokens: count, contextLimit: CONTEXT_LIMIT });
        for (const continuation of built.continuations) encodePair(cached, built.context, continuation);
        if (shots > 0) cached(built.context.slice(0, built.context.indexOf(built.prefix) + built.prefix.length));
        for (const option of item.options) encodePair(encode, built.domainContext, protocol.cloze.targetDelimiter + option);
        c += performance.now() - t;
      }
      letterMs = l / items.length;
      clozeMs = c / items.length;
    }
    r.tokenizing[shots] = { letterMs, clozeMs, items: items.length };
  }
  await page.evaluate(pageBareRelease);
}

// ---- the signal part ------------------------------------------------------------------------------

interface SignalRun {
  formulation: Formulation;
  items: SequenceItem[];
  totalMs: number;
  error?: string;
}

interface SignalResult {
  model: string;
  dtype: Dtype;
  load?: { wallMs: number; result: LoadResult };
  runs: SignalRun[];
  error?: string;
  leaks: string[];
  consoleTail?: string[];
  totalS: number;
}

async function measureSignal(browser: Browser, siteUrl: string, data: ClozeBenchItems, o: Options, log: (line: string) => void): Promise<SignalResult> {
  const started = performance.now();
  const dtype: Dtype = 'fp32';
  const r: SignalResult = { model: SIGNAL_MODEL, dtype, runs: [], leaks: [], totalS: 0 };
  let opened: OpenedPage | undefined;
  try {
    opened = await openHarness(browser, siteUrl);
    const page = opened.page;
    r.load = await loadModel(page, SIGNAL_MODEL, dtype);
    log(`load ${r.load.wallMs.toFixed(0)} ms`);
    const items = data.items.slice(0, o.storiesItems);
    for (const formulation of ['letter', 'cloze'] as const) {
      // One run: 0-shot, every item once, as a run asks (letters with read-ahead; cloze with PMI).
      const run = await withTimeout(
        page.evaluate(pageSequence, { formulation, protocolId: data.protocolId, items, exemplars: data.exemplars, shots: 0, reusePrefix: true, unconditional: true, readAhead: true, contextLimit: CONTEXT_LIMIT, keepResults: true }),
        STEP_TIMEOUT_MS * 2,
        `${SIGNAL_MODEL} ${formulation}`,
      );
      r.runs.push({ formulation, items: run.items, totalMs: run.totalMs, error: run.error });
      log(`${formulation}: ${run.items.length} items in ${run.totalMs.toFixed(0)} ms${run.error ? `, ERROR ${run.error}` : ''}`);
      if (run.error) throw new Error(`${formulation}: ${run.error}`);
    }
    await page.evaluate(pageTerminate);
  } catch (e) {
    r.error = e instanceof Error ? e.message : String(e);
    log(`failed: ${r.error}`);
  } finally {
    await opened?.context.close().catch(() => {});
  }
  r.consoleTail = r.error !== undefined ? (opened?.console ?? []).slice(-20) : undefined;
  r.leaks = opened?.leaks ?? [];
  r.totalS = (performance.now() - started) / 1000;
  return r;
}

/** A letter item's stored result, as the run scheduler's toResult makes it (the fields the metrics read). */
function letterResult(index: number, item: MultipleChoiceItem, s: SequenceItem): McItemResult {
  const scored = s.letter!;
  const letters = scored.score.candidates.map((c) => c.text as OptionLetter);
  const outcome = scoreLetters(letters, scored.score.candidates.map((c) => c.logProb), item.answer);
  return {
    runId: 'bench',
    itemId: item.id,
    task: item.task,
    index,
    prompt: scored.prompt,
    promptHash: '',
    tokenCount: scored.score.inputIds.length,
    shotsUsed: scored.shotsUsed,
    exemplarIds: scored.exemplarIds,
    letters,
    tokenIds: scored.score.candidates.map((c) => c.tokenId),
    logProbs: outcome.logProbs,
    probs: outcome.letterProbs,
    prediction: outcome.prediction,
    gold: item.answer,
    correct: outcome.correct,
    reusedPrefixTokens: scored.score.reusedPrefixTokens,
    forwardMs: scored.score.forwardMs,
    completedAt: '',
  };
}

interface Interval {
  estimate: number;
  low: number;
  high: number;
}

interface SignalSummary {
  formulation: Formulation;
  items: number;
  msPerItem: number;
  accuracy: Interval | null;
  pGold: Interval | null;
  logPGold: Interval | null;
  bitsPerByte: Interval | null;
  /** Cloze: accuracy under each prediction rule (acc is the run's own). */
  rules?: Record<string, Interval | null>;
  chance: number;
}

function accuracyOf(datasetId: ClozeBenchDataset, results: readonly McItemResult[]): Interval | null {
  const overall = aggregateForDataset(datasetId, results).overall;
  return overall.accuracy === null || overall.interval === null ? null : { estimate: overall.accuracy, ...overall.interval };
}

function summariseSignal(data: ClozeBenchItems, run: SignalRun): SignalSummary {
  const byId = new Map(data.items.map((item) => [item.id, item]));
  const results = run.items.map((s, i) => {
    const item = byId.get(s.id)!;
    return run.formulation === 'letter' ? letterResult(i, item, s) : clozeResult('bench', i, item, s.cloze!, '');
  });
  const continuous = results.map(continuousOf).filter((c) => c !== null);
  const order = [...new Set(results.map((x) => x.task))];
  const metric = (m: ContinuousMetric): Interval | null => {
    const e = aggregateContinuous(data.datasetId, continuous, m, order).overall.estimate;
    return e ? { estimate: e.estimate, low: e.low, high: e.high } : null;
  };
  const chance = results.reduce((sum, x) => sum + 1 / x.letters.length, 0) / Math.max(1, results.length);
  const summary: SignalSummary = {
    formulation: run.formulation,
    items: results.length,
    msPerItem: run.totalMs / Math.max(1, run.items.length),
    accuracy: accuracyOf(data.datasetId, results),
    pGold: metric('pGold'),
    logPGold: metric('logPGold'),
    bitsPerByte: run.formulation === 'cloze' ? metric('bitsPerByte') : null,
    chance,
  };
  if (run.formulation === 'cloze') {
    summary.rules = {};
    for (const rule of CLOZE_RULES) {
      const under = resultsUnderRule(results, rule);
      summary.rules[rule] = under ? accuracyOf(data.datasetId, under) : null;
    }
  }
  return summary;
}

// ---- reporting ------------------------------------------------------------------------------------

const DASH = '—';
const fmt = (v: number | undefined, digits = 1) => (v === undefined || !Number.isFinite(v) ? DASH : v.toFixed(digits));
const mean = (values: readonly number[]) => (values.length === 0 ? Number.NaN : values.reduce((a, b) => a + b, 0) / values.length);
const sum = (values: readonly number[]) => values.reduce((a, b) => a + b, 0);

interface CostRow {
  shots: Shots;
  mode: ModeKey;
  items: number;
  msPerItem: number;
  medianMs: number;
  p90Ms: number;
  workerMs: number;
  passes: number;
  logitsCopied: number;
  rows: number;
  contextTokens: number;
  optionTokens: number;
  /** This mode's ms per item ÷ letters', over the same items. */
  ratio: number;
  /** The same ratio per block: its smallest and largest (the machine's noise). */
  blockRatios: number[];
  primeMs: number;
}

function costRows(r: CostResult, vocab: number): CostRow[] {
  const rows: CostRow[] = [];
  for (const shots of SHOTS) {
    const blocks = r.blocks.filter((b) => b.shots === shots && MODE_KEYS.every((m) => b.runs[m] !== undefined));
    const letterMs = sum(blocks.map((b) => sum(b.runs.letter!.items.map((i) => i.ms))));
    for (const mode of MODE_KEYS) {
      const items = blocks.flatMap((b) => b.runs[mode]!.items);
      if (items.length === 0) continue;
      const ms = items.map((i) => i.ms);
      rows.push({
        shots,
        mode,
        items: items.length,
        msPerItem: mean(ms),
        medianMs: median(ms),
        p90Ms: percentile(ms, 90),
        workerMs: mean(items.map((i) => i.workerMs)),
        passes: mean(items.map((i) => i.forwardPasses)),
        logitsCopied: mean(items.map((i) => i.logitsCopied)),
        rows: mean(items.map((i) => i.logitsCopied)) / vocab,
        contextTokens: mean(items.map((i) => i.contextTokens)),
        optionTokens: mean(items.map((i) => sum(i.optionTokens ?? []))),
        ratio: sum(ms) / letterMs,
        blockRatios: blocks.map((b) => sum(b.runs[mode]!.items.map((i) => i.ms)) / sum(b.runs.letter!.items.map((i) => i.ms))),
        primeMs: mean(blocks.map((b) => b.runs[mode]!.primeMs).filter((x): x is number => x !== undefined)),
      });
    }
  }
  return rows;
}

function costTable(rows: readonly CostRow[]): string {
  const header = ['shots', 'formulation', 'items', 'ms / item (mean)', 'median / p90', 'worker ms / item', '÷ letters (blocks min–max)', 'forward passes / item', 'logits rows / item', 'logits copied / item', 'context tokens', 'option tokens / item'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) {
    const range = row.blockRatios.length > 1 ? ` (${fmt(Math.min(...row.blockRatios), 2)}–${fmt(Math.max(...row.blockRatios), 2)})` : '';
    lines.push(
      `| ${row.shots === 0 ? '0-shot' : '5-shot, prefix reuse'} | ${MODES[row.mode].label} | ${row.items} | ${fmt(row.msPerItem)} | ${fmt(row.medianMs)} / ${fmt(row.p90Ms)} | ${fmt(row.workerMs)} | ${fmt(row.ratio, 2)}${range} | ${fmt(row.passes, 2)} | ${fmt(row.rows, 2)} | ${Math.round(row.logitsCopied).toLocaleString('en-US')} | ${fmt(row.contextTokens, 0)} | ${row.mode === 'letter' ? DASH : fmt(row.optionTokens, 1)} |`,
    );
  }
  return lines.join('\n');
}

/**
 * The ratio compute alone would give (the layers over every token run, the head over every logits row
 * returned), from the timed items' own counts: for jiangu-large, next to the measured ratio, and for
 * real models of the same vocabulary, whose layers outweigh their head.
 */
function projectionLines(r: CostResult, vocab: number): string[] {
  const shapes = [fixtureShape(COST_MODEL), ...REAL_SHAPES];
  const lines: string[] = [];
  for (const shots of SHOTS) {
    const blocks = r.blocks.filter((b) => b.shots === shots && MODE_KEYS.every((m) => b.runs[m] !== undefined));
    const counts = (mode: ModeKey) => {
      const items = blocks.flatMap((b) => b.runs[mode]!.items);
      const pmi = MODES[mode].unconditional ? 2 : 1;
      return {
        tokens: sum(items.map((i) => i.contextTokens - i.reusedPrefixTokens + pmi * sum((i.optionTokens ?? []).map((n) => n - 1)))),
        rows: sum(items.map((i) => i.logitsCopied / vocab)),
      };
    };
    const letter = counts('letter');
    if (letter.tokens === 0) continue;
    const parts = (['clozePmi', 'cloze'] as const).map((mode) => {
      const c = counts(mode);
      const ratios = shapes.map((m) => `${m.name} ${fmt((c.tokens * bodyMacs(m) + c.rows * headMacs(m)) / (letter.tokens * bodyMacs(m) + letter.rows * headMacs(m)), 2)}×`);
      return `${mode === 'clozePmi' ? 'as runs' : 'without PMI'}: ${ratios.join(', ')}`;
    });
    lines.push(`- ${shots === 0 ? '0-shot' : '5-shot, reuse'}, compute only (tokens through the layers + logits rows through the head, from these items' counts): ${parts.join('; ')}.`);
  }
  const heads = shapes.map((m) => `${m.name} ${fmt(headMacs(m) / bodyMacs(m), 2)}`);
  lines.push(`- One logits row through the head ÷ one token through the layers (multiply-adds): ${heads.join(', ')}.`);
  return lines;
}

function costTargetLines(rows: readonly CostRow[]): string[] {
  const lines: string[] = [];
  for (const shots of SHOTS) {
    const pmi = rows.find((x) => x.shots === shots && x.mode === 'clozePmi');
    const plain = rows.find((x) => x.shots === shots && x.mode === 'cloze');
    const letter = rows.find((x) => x.shots === shots && x.mode === 'letter');
    if (!pmi || !plain || !letter) continue;
    const label = shots === 0 ? '0-shot' : '5-shot with prefix reuse';
    lines.push(
      `- ${label}: cloze ${fmt(pmi.msPerItem)} ms ÷ letters ${fmt(letter.msPerItem)} ms per item = ${fmt(pmi.ratio, 2)}× as runs make it (target ≤ ${TARGET_RATIO}×: ${pmi.ratio <= TARGET_RATIO ? 'met' : 'NOT MET'}); ` +
        `without PMI ${fmt(plain.msPerItem)} ms = ${fmt(plain.ratio, 2)}× (${plain.ratio <= TARGET_RATIO ? 'met' : 'NOT MET'}); ${pmi.items} items each`,
    );
  }
  return lines;
}

interface ProfileRow {
  label: string;
  values: Partial<Record<Shots, number>>;
  note: string;
}

function profileRows(r: CostResult, rows: readonly CostRow[]): ProfileRow[] {
  const p = r.profile ?? {};
  const per = (shots: Shots, f: (x: ProfilePhases) => number) => {
    const items = p[shots]?.items ?? [];
    return items.length === 0 ? Number.NaN : mean(items.map(f));
  };
  const row = (label: string, f: (x: ProfilePhases) => number, note: string): ProfileRow => ({ label, values: { 0: per(0, f), 5: per(5, f) }, note });
  // As the worker runs them: the context's (and the cue's) last row normalised once, not per option.
  const bare = (x: ProfilePhases) => x.contextPrefill + x.optionPasses + x.logSoftmaxOnce + x.cuePasses + x.cueLogSoftmax;
  const bareWithoutPmi = (x: ProfilePhases) => x.contextPrefill + x.optionPasses + x.logSoftmaxOnce;
  const pipeline = (shots: Shots) => {
    const measured = p[shots]?.pipelineMs ?? {};
    const values = (p[shots]?.items ?? []).map((x) => measured[x.id]).filter((v) => v !== undefined);
    return values.length === 0 ? Number.NaN : mean(values);
  };
  const letter = (shots: Shots) => rows.find((x) => x.shots === shots && x.mode === 'letter')?.msPerItem ?? Number.NaN;
  const out: ProfileRow[] = [
    row('option rows / item (Σ tokens − 1)', (x) => x.optionRows, 'logits rows the option passes return, 151,669 values each; the same again after the cue'),
    row('context prefill (on the prefix cache)', (x) => x.contextPrefill, 'the letter path pays this too: its prompt is about as long'),
    row('option passes, every row kept', (x) => x.optionPasses, 'what the worker runs: each option on the context state'),
    row('  … of which the full-vocabulary rows', (x) => x.optionPasses - x.optionPassesOneRow, 'the same passes keeping 1 row are this much faster: LM head over the rows + their copy out'),
    row('  … of which present.* copied out', (x) => x.optionPasses - x.optionPassesLogitsOnly, 'the same passes fetching only logits: the whole context KV comes back per option (a difference of two timings: noisy, can come out below 0)'),
    row('  … copying the logits rows once in JS', (x) => x.logitsCopy, 'a plain copy of the rows (what onnxruntime-web does leaving the wasm heap)'),
    row('log-softmax + argmax in JS, the context row per option', (x) => x.logSoftmax, "3 passes over 151,669 values per row, the context's last row again for every option (the worker before this bench)"),
    row("  … with the context's last row done once", (x) => x.logSoftmaxOnce, 'as the worker does now (rowStats once per context)'),
    row('PMI: option passes after the cue', (x) => x.cuePasses, 'as many rows again; the cue state is cached for the run'),
    row('PMI: their log-softmax + argmax', (x) => x.cueLogSoftmax, 'the cue row again per option too'),
    row('bare total (the phases as the worker runs them)', bare, 'context + option passes + log-softmax + PMI passes + their log-softmax'),
  ];
  const headPerRow = (x: ProfilePhases) => (x.optionRows > x.optionPassCount ? (x.optionPasses - x.optionPassesOneRow) / (x.optionRows - x.optionPassCount) : Number.NaN);
  const perRow = (shots: Shots, f: (x: ProfilePhases) => number) => {
    const values = (p[shots]?.items ?? []).map(f).filter((v) => Number.isFinite(v));
    return values.length === 0 ? Number.NaN : mean(values);
  };
  out.push({ label: 'per logits row: LM head + copy out', values: { 0: perRow(0, headPerRow), 5: perRow(5, headPerRow) }, note: '(every row kept − one row kept) ÷ the extra rows' });
  out.push({ label: 'per option pass, one row kept', values: { 0: perRow(0, (x) => (x.optionPassCount > 0 ? x.optionPassesOneRow / x.optionPassCount : Number.NaN)), 5: perRow(5, (x) => (x.optionPassCount > 0 ? x.optionPassesOneRow / x.optionPassCount : Number.NaN)) }, note: "a pass's cost besides its extra rows: its tokens through the layers, one head row, the context KV copied in and out, the run itself" });
  out.push({ label: 'per logits row: log-softmax + argmax in JS', values: { 0: perRow(0, (x) => x.logSoftmaxOnce / (x.optionRows + 1)), 5: perRow(5, (x) => x.logSoftmaxOnce / (x.optionRows + 1)) }, note: 'the option rows and the context row, once each' });
  out.push({ label: 'per context token through the 4 layers', values: { 0: perRow(0, (x) => (x.contextPrefill - headPerRow(x)) / x.newContextTokens), 5: perRow(5, (x) => (x.contextPrefill - headPerRow(x)) / x.newContextTokens) }, note: "(context prefill − one head row) ÷ its new tokens: jiangu-large's body is tiny next to its 151,669-row head" });
  out.push({ label: 'pipeline: cloze without PMI (same items)', values: { 0: pipeline(0), 5: pipeline(5) }, note: `page time of scoreClozeItem (unconditional: false) through the worker, just before the replay (median of ${PROFILE_REPEATS} per item)` });
  out.push({ label: 'pipeline − bare without PMI', values: { 0: pipeline(0) - per(0, bareWithoutPmi), 5: pipeline(5) - per(5, bareWithoutPmi) }, note: 'transformers.js, the worker, tokenising, messages' });
  out.push({ label: '  … tokenising, cloze (Node, same code)', values: { 0: r.tokenizing?.[0]?.clozeMs ?? Number.NaN, 5: r.tokenizing?.[5]?.clozeMs ?? Number.NaN }, note: 'build with the limit check, every option encoded with the whole context (encodePair), PMI pairs' });
  out.push({ label: '  … tokenising, letters (Node, same code)', values: { 0: r.tokenizing?.[0]?.letterMs ?? Number.NaN, 5: r.tokenizing?.[5]?.letterMs ?? Number.NaN }, note: 'for comparison' });
  out.push({ label: 'pipeline: letters, ms / item (all timed items)', values: { 0: letter(0), 5: letter(5) }, note: 'the denominator of the ratio' });
  return out;
}

/** What each change the profile points at would save, from the measured phases (estimates, ms per item and the ratio left). */
function savingLines(r: CostResult, rows: readonly CostRow[]): string[] {
  const lines: string[] = [];
  for (const shots of SHOTS) {
    const items = r.profile?.[shots]?.items ?? [];
    const letter = rows.find((x) => x.shots === shots && x.mode === 'letter');
    const pmi = rows.find((x) => x.shots === shots && x.mode === 'clozePmi');
    const plain = rows.find((x) => x.shots === shots && x.mode === 'cloze');
    if (items.length === 0 || !letter || !pmi || !plain) continue;
    const m = (f: (x: ProfilePhases) => number) => mean(items.map(f));
    const label = shots === 0 ? '0-shot' : '5-shot, reuse';
    const ratio = (ms: number) => `${fmt(ms / letter.msPerItem, 2)}×`;
    // Differences of two noisy timings: one under half a millisecond (or below 0) is no saving seen.
    const saving = (ms: number) => (ms > 0.5 ? `−${fmt(ms)} ms` : 'none measurable');
    const twiceRow = m((x) => x.logSoftmax - x.logSoftmaxOnce) * 2;
    const presents = m((x) => x.optionPasses - x.optionPassesLogitsOnly) * 2;
    const jsRows = m((x) => x.logSoftmaxOnce + x.logitsCopy) * 2;
    const head = m((x) => x.optionPasses - x.optionPassesOneRow);
    lines.push(
      `- ${label}: PMI only when its rule is asked for: ${saving(pmi.msPerItem - plain.msPerItem)} (pipeline, measured) → ${ratio(plain.msPerItem)}; ` +
        `(the context's last row normalised once per item instead of once per option, done: ${saving(twiceRow)}); ` +
        `option passes fetching only logits (not present.*, with PMI): ${saving(presents)}; ` +
        `the full-vocabulary log-softmax, argmax and row copies (with PMI) moved out of JS, into the graph (LogSoftmax + GatherElements + ArgMax after the head, returning 2 numbers a row): up to ${saving(jsRows)} less what the graph then spends on it; ` +
        `left even then: the LM head over every option row, ${fmt(Math.max(0, head))} ms without PMI (${ratio(Math.max(0, head))} a letter item by itself) and as much again with it.`,
    );
  }
  return lines;
}

function profileTable(rows: readonly ProfileRow[], r: CostResult): string {
  const n = (s: Shots) => r.profile?.[s]?.items.length ?? 0;
  const header = ['phase (ms per cloze item)', `0-shot (${n(0)} items)`, `5-shot, reuse (${n(5)} items)`, 'what it is'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const row of rows) lines.push(`| ${row.label} | ${fmt(row.values[0])} | ${fmt(row.values[5])} | ${row.note} |`);
  return lines.join('\n');
}

function signalTable(summaries: readonly SignalSummary[]): string {
  const pts = (i: Interval | null) => (i ? `${(i.estimate * 100).toFixed(1)} [${(i.low * 100).toFixed(1)}, ${(i.high * 100).toFixed(1)}]` : DASH);
  const width = (i: Interval | null) => (i ? ((i.high - i.low) * 100).toFixed(1) : DASH);
  const header = ['formulation', 'items', 'accuracy % [95%]', 'width (points)', 'mean p(gold) % [95% bootstrap]', 'width (points)', 'width ratio p(gold) ÷ acc', 'mean log p(gold) [95%]', 'bits per byte [95%]', 'ms / item'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const s of summaries) {
    const ratio = s.accuracy && s.pGold ? (s.pGold.high - s.pGold.low) / (s.accuracy.high - s.accuracy.low) : Number.NaN;
    const plain = (i: Interval | null, d: number) => (i ? `${i.estimate.toFixed(d)} [${i.low.toFixed(d)}, ${i.high.toFixed(d)}]` : DASH);
    lines.push(
      `| ${s.formulation === 'letter' ? 'letters' : 'cloze (acc rule)'} | ${s.items} | ${pts(s.accuracy)} | ${width(s.accuracy)} | ${pts(s.pGold)} | ${width(s.pGold)} | ${fmt(ratio, 2)} | ${plain(s.logPGold, 2)} | ${plain(s.bitsPerByte, 3)} | ${fmt(s.msPerItem)} |`,
    );
  }
  return lines.join('\n');
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const notes: string[] = [];
  const data = loadSharedItems(options.dataset, options.task);
  const date = new Date();
  const started = performance.now();
  const costWanted = !options.skipCost;
  const costReady = modelPresent(COST_MODEL, options.dtype);
  if (costWanted && !costReady) notes.push(`cost part skipped: ${COST_MODEL} ${options.dtype} is missing; generate it with \`npm run fixtures:large\` (about 700 MB).`);
  const signalReady = modelPresent(SIGNAL_MODEL, 'fp32');
  if (!options.skipSignal && !signalReady) notes.push(`signal part skipped: ${SIGNAL_MODEL} is missing; \`npm run fixtures\` converts it from ../shared/models.`);

  let cost: CostResult | undefined;
  let signal: SignalResult | undefined;
  const chromium = await withChromium({}, async (siteUrl, browser) => {
    if (costWanted && costReady) cost = await measureCost(browser, siteUrl, data, options, (line) => console.error(`[bench cloze] ${COST_MODEL} wasm ${options.dtype}: ${line}`));
    if (!options.skipSignal && signalReady) signal = await measureSignal(browser, siteUrl, data, options, (line) => console.error(`[bench cloze] ${SIGNAL_MODEL} wasm fp32: ${line}`));
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);

  const itemsLine = `${data.datasetId}${options.task ? ` task ${options.task}` : ''} test items from ${data.source} (${data.items.length} with a key, ${data.tasks.length} task(s)), protocol ${data.protocolId}, the task's dev items as exemplars, context limit ${CONTEXT_LIMIT}, no chat template`;
  let costSummary: CostRow[] = [];
  let profile: ProfileRow[] = [];
  if (cost) {
    const vocab = cost.load?.result.vocabSize ?? 151_669;
    costSummary = costRows(cost, vocab);
    console.log('');
    console.log(`### Cloze vs letters: cost per item (${COST_MODEL}, WASM ${options.dtype}, ${cost.load?.result.backendInfo.wasmThreads ?? '?'} threads; letters on the plain graph, cloze with statistics: ${cost.statisticsPath ?? 'not asked'}, as runs load them)`);
    console.log('');
    console.log(costTable(costSummary));
    console.log('');
    console.log('Targets (reported, not enforced):');
    for (const line of costTargetLines(costSummary)) console.log(line);
    console.log('');
    console.log("The same ratio from compute alone (an estimate, not a measurement: no JS log-softmax, copies, attention or overheads), jiangu-large's shape beside real models':");
    for (const line of projectionLines(cost, vocab)) console.log(line);
    if (cost.profile) {
      profile = profileRows(cost, costSummary);
      console.log('');
      console.log(`### Where a cloze item's time goes (bare onnxruntime-web session in the page replaying the first timed items; ${COST_MODEL} ${options.dtype})`);
      console.log('');
      console.log(profileTable(profile, cost));
      console.log('');
      console.log('What would bring it down (estimates from the rows above, ms per cloze item; the ratio is to a letter item):');
      for (const line of savingLines(cost, costSummary)) console.log(line);
    }
    console.log('');
    console.log(
      `Items: ${itemsLine}. Warm-up: every mode on the last 2 test items. Timed: the first test items in blocks of ${options.block} (one task each), every block through each mode in turn (order rotated per block), ` +
        `0-shot then 5-shot, until the ${options.budgetS} s budget${cost.budgetCut ? ' stopped them' : ''} or ${options.maxItems} items. With prefix reuse each mode first scores the block's first item untimed, so its exemplar prefix is cached ` +
        '(the letter and cloze prefixes differ and the worker keeps one): the table is the per-item cost once a task\'s prefix exists, which a run pays once per task. ' +
        'ms / item: page time of each request (scoreItem, with the next item named as runs do; scoreClozeItem); ÷ letters: Σ ms ÷ Σ letter ms over the same blocks. logits rows = logits copied ÷ the vocabulary. ' +
        'The cloze count includes the answer cue state for PMI only when it was computed (once per run; the warm-up did).',
    );
    if (cost.error) notes.push(`cost part failed: ${cost.error}`);
    if (cost.leaks.length > 0) notes.push(`cost part: ${cost.leaks.length} request(s) tried to leave 127.0.0.1: ${cost.leaks.slice(0, 3).join(', ')}`);
  }
  let signalSummaries: SignalSummary[] = [];
  if (signal) {
    signalSummaries = signal.runs.filter((run) => run.items.length > 0).map((run) => summariseSignal(data, run));
    console.log('');
    console.log(`### One 0-shot run of ${SIGNAL_MODEL} (WASM fp32): interval widths, accuracy vs mean p(gold)`);
    console.log('');
    console.log(signalTable(signalSummaries));
    console.log('');
    for (const s of signalSummaries) {
      if (!s.rules) continue;
      const rules = Object.entries(s.rules).map(([rule, i]) => `${rule} ${i ? `${(i.estimate * 100).toFixed(1)}% (width ${((i.high - i.low) * 100).toFixed(1)})` : DASH}`);
      console.log(`- cloze accuracy by prediction rule: ${rules.join(', ')}; chance ${(s.chance * 100).toFixed(1)}%.`);
    }
    console.log(
      `- Items: the first ${Math.min(options.storiesItems, data.items.length)} ${itemsLine.replace(/, context limit.*$/, '')}, 0 shots, every item once per formulation. ` +
        'Accuracy: overall by the benchmark\'s rule with its 95% interval (aggregateForDataset: normal, Agresti–Coull task variances); p(gold), log p(gold) and bits per byte: ' +
        'overall mean with the task-stratified percentile bootstrap (aggregateContinuous, B = 2,000, seed 12345). p(gold) is normalised over the item\'s options (letters: their softmax; cloze: the options\' summed log-likelihoods).',
    );
    if (signal.error) notes.push(`signal part failed: ${signal.error}`);
    if (signal.leaks.length > 0) notes.push(`signal part: ${signal.leaks.length} request(s) tried to leave 127.0.0.1: ${signal.leaks.slice(0, 3).join(', ')}`);
  }
  const leaks = (cost?.leaks.length ?? 0) + (signal?.leaks.length ?? 0);
  if (leaks === 0) notes.push('network guard: no request left 127.0.0.1.');
  notes.push('timings on a shared 2-core machine drift by ±20% over seconds; the ratios are taken over the same items, blocks interleaved, to spread it.');
  for (const n of notes) console.log(`- ${n}`);
  console.log(machineLines(machine, date, durationS));

  writeBenchRecord(projectRoot, 'cloze-', date, {
    date: date.toISOString(),
    durationS,
    machine,
    options,
    settings: { costModel: COST_MODEL, signalModel: SIGNAL_MODEL, contextLimit: CONTEXT_LIMIT, targetRatio: TARGET_RATIO, dataset: data.datasetId, protocol: data.protocolId, source: data.source },
    notes,
    cost: cost ? { summary: costSummary, profile, ...cost } : null,
    signal: signal
      ? { summary: signalSummaries, model: signal.model, dtype: signal.dtype, load: signal.load, error: signal.error, totalS: signal.totalS, runs: signal.runs.map((run) => ({ formulation: run.formulation, totalMs: run.totalMs, items: run.items.map(({ letter: _l, cloze: _c, ...rest }) => rest) })) }
      : null,
  });
  if (cost?.error || signal?.error) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
