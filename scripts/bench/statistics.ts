// `npm run bench` (statistics part, issue 26): what per-position statistics of a text cost (log p of
// each next token, the argmax, μ and σ of log p: what Min-K% and Min-K%++ need), next to a forward
// pass that keeps one logits row, on jiangu-large (4 layers, the real Qwen3 tokenizer: 151,669 logits
// a row), WASM fp32 (WebGPU q4 with --backends wasm,webgpu).
// Three requests on the same text (about 1,000 tokens, and a short one of about 64), each through
// the page's ModelClient and worker as the site makes them (statistics-page.ts):
//  - one-row forward: ModelClient.score with the text as its prompt and one candidate, on a plain load
//    (statistics: false; jiangu-large declares num_logits_to_keep, so one pass keeps one row): what
//    scoring a prompt costs, with the same worker, tokenising and message overheads as the others;
//  - statistics graph: ModelClient.textStatistics (moments: true) on a `statistics: true` load
//    (Jiangu's statistics outputs, stats-rewrite.ts; passes bounded by maxLogitsBytes);
//  - chunked full rows: the same request on the plain load: whole logits rows read out in chunks
//    bounded by maxLogitsBytes (64 MiB: 110 rows of 151,669) and computed in JavaScript.
// Each text: every mode once to warm up (the two statistics paths compared there, value by value),
// then rounds of all three in an order rotated per round; medians per mode, and the ratios.
// Then the same ratio from arithmetic alone (multiply-adds of the head vs the layers) for jiangu-large
// and real models of the Qwen vocabulary: jiangu-large's head is 16.5 token-equivalents a row, so a
// statistics pass that runs the head over every row cannot come near 1.3× there; real models' heads
// are about a third of a token, which puts them near it.
// A measurement, not a test: it prints Markdown tables and a line per target, and writes
// bench-results/statistics-<timestamp>.json.
//
//   npx tsx scripts/bench/statistics.ts [--dataset cmmlu-ancient|aclue] [--lengths 1000,64] [--repeats 7] [--short-repeats 9]
//                                       [--budget-s 60] [--backends wasm[,webgpu]] [--webgpu-dtype q4] [--webgpu-lengths 64] [--max-logits-mib 64]
// (after `npm run build` and `npm run fixtures:large`)
// Time on 2 cores (WASM fp32, defaults): about 2 minutes: two loads of the 320 MB model (about 10 s
// each), a 1,000-token round about 10 s (rounds stop at --budget-s), a 64-token round under 1 s.
// WebGPU is left out by default: on SwiftShader (no GPU) jiangu-large q4 takes about 4 s for a
// 64-token one-row forward and 20 s for its statistics, so `--backends wasm,webgpu` measures the
// 64-token text only (--webgpu-lengths) and adds about 3 minutes (loads, warm-up, 3 rounds of 40 s).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { AutoTokenizer, env as transformersEnv, type PreTrainedTokenizer } from '@huggingface/transformers';
import { openPage, withChromium } from '../browser.ts';
import { DTYPES, ONNX_FILE, type Dtype } from '../fixtures/specs.ts';
import { projectRoot } from '../site-routes.ts';
import type { Backend, LoadResult } from '../../src/lib/engine/messages.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import { installNameHelper } from './cloze-page.ts';
import { CLOZE_BENCH_DATASETS, loadSharedItems, type ClozeBenchDataset } from './cloze-items.ts';
import { attentionMacs, bodyMacs, fixtureShape, headMacs, REAL_SHAPES, type Shape } from './model-shapes.ts';
import { machineInfo, machineLines, median, writeBenchRecord } from './report.ts';
import { pageStatsCall, pageStatsLoad, pageStatsTerminate, type StatsCall, type StatsLoadReply, type StatsMode } from './statistics-page.ts';
import { integerOption } from './cli.ts';
import { withTimeout } from './steps.ts';

const MODEL = 'jiangu-large';
/** The issue's target: statistics over a 1,000-token text cost at most this × a forward pass that keeps one row. */
const TARGET_RATIO = 1.3;
/** The text length the target is stated for. */
const TARGET_TOKENS = 1000;
const STEP_TIMEOUT_MS = 180_000;
/** Rounds run at least this often, whatever the budget. */
const MIN_ROUNDS = 3;
/** Elementwise passes over a row the statistics graph adds after the head (stats-rewrite.ts: "about twelve"). */
const STATS_PASSES = 12;
const BACKENDS: readonly Backend[] = ['wasm', 'webgpu'];
const USAGE =
  'Usage: npx tsx scripts/bench/statistics.ts [--dataset cmmlu-ancient|aclue] [--lengths 1000,64] [--repeats 7] [--short-repeats 9] [--budget-s 60] [--backends wasm[,webgpu]] [--webgpu-dtype q4] [--webgpu-lengths 64] [--max-logits-mib 64]';

interface Options {
  dataset: ClozeBenchDataset;
  /** Target token counts of the texts, longest first. */
  lengths: number[];
  /** Rounds for texts of TARGET_TOKENS or more; `shortRepeats` for the others. */
  repeats: number;
  shortRepeats: number;
  /** Per configuration and text: rounds stop (after MIN_ROUNDS) once the next would likely end past this. */
  budgetS: number;
  backends: Backend[];
  webgpuDtype: Dtype;
  webgpuLengths: number[];
  /** LoadParams.maxLogitsBytes in MiB for both loads; the site's default (64) when absent. */
  maxLogitsMib?: number;
}

function integers(flag: string, value: string | undefined, fallback: readonly number[]): number[] {
  if (value === undefined) return [...fallback];
  const out = value.split(',').map((s) => Number(s.trim()));
  if (out.length === 0 || out.some((n) => !Number.isInteger(n) || n < 2 || n > 2000)) throw new Error(`--${flag}: integers from 2 to 2000, not ${value}.\n${USAGE}`);
  return [...new Set(out)].sort((a, b) => b - a);
}

const positiveInteger = (flag: string, value: string | undefined, fallback: number, allowZero = false): number => integerOption(flag, value, fallback, USAGE, allowZero);

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      dataset: { type: 'string' },
      lengths: { type: 'string' },
      repeats: { type: 'string' },
      'short-repeats': { type: 'string' },
      'budget-s': { type: 'string' },
      backends: { type: 'string' },
      'webgpu-dtype': { type: 'string' },
      'webgpu-lengths': { type: 'string' },
      'max-logits-mib': { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const dataset = (values.dataset ?? 'cmmlu-ancient') as ClozeBenchDataset;
  if (!CLOZE_BENCH_DATASETS.includes(dataset)) throw new Error(`--dataset: choose from ${CLOZE_BENCH_DATASETS.join(', ')}.\n${USAGE}`);
  const backends = (values.backends ?? 'wasm').split(',').map((s) => s.trim()) as Backend[];
  if (backends.length === 0 || backends.some((b) => !BACKENDS.includes(b))) throw new Error(`--backends: choose from ${BACKENDS.join(', ')}.\n${USAGE}`);
  const webgpuDtype = (values['webgpu-dtype'] ?? 'q4') as Dtype;
  if (!(DTYPES as readonly string[]).includes(webgpuDtype)) throw new Error(`--webgpu-dtype: choose from ${DTYPES.join(', ')}.\n${USAGE}`);
  return {
    dataset,
    lengths: integers('lengths', values.lengths, [TARGET_TOKENS, 64]),
    repeats: positiveInteger('repeats', values.repeats, 7),
    shortRepeats: positiveInteger('short-repeats', values['short-repeats'], 9),
    budgetS: positiveInteger('budget-s', values['budget-s'], 60),
    backends: BACKENDS.filter((b) => backends.includes(b)),
    webgpuDtype,
    webgpuLengths: integers('webgpu-lengths', values['webgpu-lengths'], [64]),
    maxLogitsMib: values['max-logits-mib'] === undefined ? undefined : positiveInteger('max-logits-mib', values['max-logits-mib'], 64),
  };
}

// ---- the texts ---------------------------------------------------------------------------------

interface BenchText {
  target: number;
  text: string;
  chars: number;
  /** Its tokens in Node with the model's tokenizer (special tokens as the worker adds them). */
  tokens: number;
  /** The items it was cut from (file order), for the record. */
  itemIds: string[];
  /** Node's tokenising of the whole text (median of 5, ms): what textStatistics spends encoding it (score's encoding is cached after its first request). */
  encodeMs: number;
}

async function loadNodeTokenizer(model: string): Promise<PreTrainedTokenizer> {
  transformersEnv.allowRemoteModels = false;
  transformersEnv.localModelPath = `${join(projectRoot, '.fixtures', 'models')}/`;
  return AutoTokenizer.from_pretrained(model);
}

const itemText = (item: MultipleChoiceItem) => `${item.question}\n${item.options.map((o, k) => `${'ABCD'[k]}．${o}`).join('\n')}`;

/**
 * Test items' questions and options, in file order from `start`, joined until the text has at least
 * `target` tokens, then cut (by characters) to the longest prefix of at most `target` tokens.
 */
function buildText(tokenizer: PreTrainedTokenizer, items: readonly MultipleChoiceItem[], start: number, target: number): { text: BenchText; next: number } {
  const count = (s: string) => tokenizer.encode(s, { add_special_tokens: true }).length;
  const parts: string[] = [];
  const ids: string[] = [];
  let i = start;
  while (i < items.length && count(parts.join('\n\n')) < target) {
    parts.push(itemText(items[i]));
    ids.push(items[i].id);
    i++;
  }
  const whole = parts.join('\n\n');
  if (count(whole) < target) throw new Error(`the items from ${start} give only ${count(whole)} tokens, fewer than ${target}`);
  let lo = 1;
  let hi = whole.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (count(whole.slice(0, mid)) <= target) lo = mid;
    else hi = mid - 1;
  }
  const text = whole.slice(0, lo);
  const times: number[] = [];
  for (let k = 0; k < 5; k++) {
    const t0 = performance.now();
    count(text);
    times.push(performance.now() - t0);
  }
  return { text: { target, text, chars: text.length, tokens: count(text), itemIds: ids, encodeMs: median(times) }, next: i };
}

// ---- the measurement ---------------------------------------------------------------------------

const MODES: Record<StatsMode, { slot: 'plain' | 'stats'; label: string }> = {
  oneRow: { slot: 'plain', label: 'one-row forward (score, plain graph)' },
  graph: { slot: 'stats', label: 'statistics graph (textStatistics, statistics: true)' },
  worker: { slot: 'plain', label: 'chunked full rows (textStatistics, statistics: false)' },
};
const MODE_KEYS = Object.keys(MODES) as StatsMode[];

interface Agreement {
  positions: number;
  logprob: number;
  mean: number;
  std: number;
  argmaxMismatches: number;
}

interface LengthResult {
  target: number;
  tokens: number;
  warmup: Partial<Record<StatsMode, StatsCall>>;
  /** Per round, every mode's call (in the round's order). */
  rounds: StatsCall[][];
  budgetCut: boolean;
  agreement?: Agreement;
  error?: string;
}

interface ConfigResult {
  backend: Backend;
  dtype: Dtype;
  loads: Partial<Record<'plain' | 'stats', StatsLoadReply>>;
  lengths: LengthResult[];
  error?: string;
  leaks: string[];
  consoleTail?: string[];
  totalS: number;
}

async function call(page: Page, mode: StatsMode, text: string, keepValues: boolean): Promise<StatsCall> {
  const reply = await withTimeout(page.evaluate(pageStatsCall, { mode, slot: MODES[mode].slot, text, keepValues }), STEP_TIMEOUT_MS, mode);
  if (reply.error !== undefined || reply.result === undefined) throw new Error(`${mode}: ${reply.error ?? 'no result'}`);
  const expected = mode === 'oneRow' ? undefined : mode;
  if (reply.result.path !== expected) throw new Error(`${mode}: textStatistics answered from the ${reply.result.path} path`);
  return reply.result;
}

function agreementOf(a: StatsCall, b: StatsCall): Agreement | undefined {
  if (!a.values || !b.values) return undefined;
  const maxDiff = (x: number[], y: number[]) => x.reduce((m, v, i) => Math.max(m, Math.abs(v - y[i])), x.length === y.length ? 0 : Infinity);
  return {
    positions: a.values.logprob.length,
    logprob: maxDiff(a.values.logprob, b.values.logprob),
    mean: maxDiff(a.values.mean, b.values.mean),
    std: maxDiff(a.values.std, b.values.std),
    argmaxMismatches: a.values.argmax.filter((v, i) => v !== b.values!.argmax[i]).length,
  };
}

async function measureConfig(
  browser: Browser,
  siteUrl: string,
  backend: Backend,
  dtype: Dtype,
  texts: readonly BenchText[],
  o: Options,
  log: (line: string) => void,
): Promise<ConfigResult> {
  const started = performance.now();
  const r: ConfigResult = { backend, dtype, loads: {}, lengths: [], leaks: [], totalS: 0 };
  const opened = await openPage(browser, `${siteUrl}/harness.html`);
  const page = opened.page;
  try {
    await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { polling: 100, timeout: 30_000 });
    await installNameHelper(page);
    const maxLogitsBytes = o.maxLogitsMib === undefined ? undefined : o.maxLogitsMib * 2 ** 20;
    for (const [slot, statistics] of [['plain', false], ['stats', true]] as const) {
      const load = await withTimeout(
        page.evaluate(pageStatsLoad, { slot, model: MODEL, dtype: dtype as 'fp32' | 'q8' | 'q4', backend, statistics, ...(maxLogitsBytes === undefined ? {} : { maxLogitsBytes }) }),
        STEP_TIMEOUT_MS,
        `load ${slot}`,
      );
      r.loads[slot] = load;
      if (load.error !== undefined || !load.result) throw new Error(`load (statistics: ${statistics}): ${load.error ?? 'no result'}`);
      const info = load.result.backendInfo;
      if (info.backend !== backend) throw new Error(`asked for ${backend}, got ${info.backend}${info.fallbackReason ? ` (${info.fallbackReason})` : ''}`);
      const path = load.result.statisticsPath;
      log(
        `load statistics: ${statistics}: ${load.wallMs.toFixed(0)} ms (${info.wasmThreads} threads, ${info.crossOriginIsolated ? 'cross-origin isolated' : 'NOT cross-origin isolated'})` +
          (statistics ? `; statistics path ${path?.kind ?? 'none'}${path?.check ? ` (load check on ${path.check.tokens} tokens, max |Δ| ${path.check.maxAbsDiff.toExponential(1)})` : ''}` : ''),
      );
      if (statistics && path?.kind !== 'graph') throw new Error(`the statistics load fell back to the ${path?.kind ?? 'no'} path${path?.refusal ? `: ${JSON.stringify(path.refusal)}` : ''}`);
    }
    const budgetMs = o.budgetS * 1000;
    for (const t of texts) {
      const lr: LengthResult = { target: t.target, tokens: t.tokens, warmup: {}, rounds: [], budgetCut: false };
      r.lengths.push(lr);
      try {
        // Warm-up: each mode once; the two statistics paths' values compared.
        for (const mode of MODE_KEYS) lr.warmup[mode] = await call(page, mode, t.text, mode !== 'oneRow');
        lr.agreement = agreementOf(lr.warmup.graph!, lr.warmup.worker!);
        for (const mode of ['graph', 'worker'] as const) delete lr.warmup[mode]!.values;
        lr.tokens = lr.warmup.graph!.tokens;
        log(`${t.tokens} tokens: warm-up ${MODE_KEYS.map((m) => `${m} ${lr.warmup[m]!.ms.toFixed(0)} ms`).join(', ')}`);
        const rounds = t.target >= TARGET_TOKENS ? o.repeats : o.shortRepeats;
        const t0 = performance.now();
        for (let k = 0; k < rounds; k++) {
          const spent = performance.now() - t0;
          if (k >= MIN_ROUNDS && spent + spent / k > budgetMs) {
            lr.budgetCut = true;
            break;
          }
          const order = MODE_KEYS.map((_, j) => MODE_KEYS[(j + k) % MODE_KEYS.length]);
          const round: StatsCall[] = [];
          for (const mode of order) round.push(await call(page, mode, t.text, false));
          lr.rounds.push(round);
        }
        log(`${t.tokens} tokens: ${lr.rounds.length} rounds in ${((performance.now() - t0) / 1000).toFixed(1)} s${lr.budgetCut ? ' (budget)' : ''}`);
      } catch (e) {
        lr.error = e instanceof Error ? e.message : String(e);
        log(`${t.tokens} tokens: ${lr.error}`);
      }
    }
  } catch (e) {
    r.error = e instanceof Error ? e.message : String(e);
    log(`failed: ${r.error}`);
    r.consoleTail = opened.console.slice(-20);
  } finally {
    await page.evaluate(pageStatsTerminate).catch(() => undefined);
    r.leaks = [...opened.leaks];
    await opened.context.close();
    r.totalS = (performance.now() - started) / 1000;
  }
  return r;
}

// ---- the report --------------------------------------------------------------------------------

const DASH = '—';
const fmt = (v: number | undefined, digits = 1) => (v === undefined || !Number.isFinite(v) ? DASH : v.toFixed(digits));
const msCell = (v: number) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v.toFixed(1)) : DASH);
const count = (n: number) => n.toLocaleString('en-US');

interface ModeSummary {
  mode: StatsMode;
  n: number;
  ms: number;
  msMin: number;
  msMax: number;
  workerMs: number;
  passes: number;
  logitsCopied: number;
  /** Ratio of medians to the one-row forward and to the chunked full rows (page ms, and worker ms). */
  perOneRow: number;
  perWorker: number;
  workerPerOneRow: number;
  workerPerWorker: number;
  /** Per round: this mode ÷ the one-row forward of the same round (min and max over the rounds). */
  pairedMin: number;
  pairedMax: number;
}

function summarise(lr: LengthResult): ModeSummary[] {
  const of = (mode: StatsMode) => lr.rounds.map((round) => round.find((c) => c.mode === mode)!).filter((c) => c !== undefined);
  const med = (mode: StatsMode, f: (c: StatsCall) => number) => median(of(mode).map(f));
  const oneRow = med('oneRow', (c) => c.ms);
  const worker = med('worker', (c) => c.ms);
  const oneRowW = med('oneRow', (c) => c.workerMs);
  const workerW = med('worker', (c) => c.workerMs);
  return MODE_KEYS.map((mode) => {
    const calls = of(mode);
    const paired = lr.rounds.map((round) => round.find((c) => c.mode === mode)!.ms / round.find((c) => c.mode === 'oneRow')!.ms);
    const ms = med(mode, (c) => c.ms);
    const workerMs = med(mode, (c) => c.workerMs);
    return {
      mode,
      n: calls.length,
      ms,
      msMin: Math.min(...calls.map((c) => c.ms)),
      msMax: Math.max(...calls.map((c) => c.ms)),
      workerMs,
      passes: calls[0]?.forwardPasses ?? Number.NaN,
      logitsCopied: calls[0]?.logitsCopied ?? Number.NaN,
      perOneRow: ms / oneRow,
      perWorker: ms / worker,
      workerPerOneRow: workerMs / oneRowW,
      workerPerWorker: workerMs / workerW,
      pairedMin: Math.min(...paired),
      pairedMax: Math.max(...paired),
    };
  });
}

function configTable(r: ConfigResult, vocab: number): string {
  const header = ['text', 'request', 'rounds', 'ms (median [min–max])', 'worker ms (median)', 'passes', 'logits copied (rows of the vocabulary)', '÷ one-row forward (page ms; worker ms; per-round range)', '÷ chunked full rows (page ms; worker ms)'];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  for (const lr of r.lengths) {
    if (lr.rounds.length === 0) {
      lines.push(`| ${lr.tokens} tokens | ${lr.error ? `ERROR: ${lr.error}` : 'no rounds'} |${' |'.repeat(header.length - 2)}`);
      continue;
    }
    for (const s of summarise(lr)) {
      lines.push(
        `| ${lr.tokens} tokens | ${MODES[s.mode].label} | ${s.n} | ${msCell(s.ms)} [${msCell(s.msMin)}–${msCell(s.msMax)}] | ${msCell(s.workerMs)} | ${s.passes} | ${count(s.logitsCopied)} (${fmt(s.logitsCopied / vocab, 1)}) | ` +
          `${s.mode === 'oneRow' ? '1' : `**${fmt(s.perOneRow, 2)}×**; ${fmt(s.workerPerOneRow, 2)}×; ${fmt(s.pairedMin, 2)}–${fmt(s.pairedMax, 2)}×`} | ${s.mode === 'worker' ? '1' : `**${fmt(s.perWorker, 2)}×**; ${fmt(s.workerPerWorker, 2)}×`} |`,
      );
    }
  }
  return lines.join('\n');
}

function targetLines(r: ConfigResult): string[] {
  const lines: string[] = [];
  for (const lr of r.lengths) {
    if (lr.rounds.length === 0) continue;
    const s = summarise(lr);
    const graph = s.find((x) => x.mode === 'graph')!;
    const oneRow = s.find((x) => x.mode === 'oneRow')!;
    const worker = s.find((x) => x.mode === 'worker')!;
    const target = lr.target >= TARGET_TOKENS ? ` (target ≤ ${TARGET_RATIO}× at ${count(TARGET_TOKENS)} tokens: ${graph.perOneRow <= TARGET_RATIO ? 'met' : 'NOT MET'})` : ' (the target is stated for 1,000 tokens)';
    lines.push(
      `- ${r.backend} ${r.dtype}, ${lr.tokens} tokens: statistics ${msCell(graph.ms)} ms ÷ one-row forward ${msCell(oneRow.ms)} ms = ${fmt(graph.perOneRow, 2)}×${target}; ` +
        `÷ chunked full rows ${msCell(worker.ms)} ms = ${fmt(graph.perWorker, 2)}× (${fmt(1 / graph.perWorker, 2)}× as fast, ${fmt(worker.logitsCopied / graph.logitsCopied, 0)}× fewer logits copied)` +
        (lr.agreement
          ? `; the two paths agree to ${lr.agreement.logprob.toExponential(1)} (log p), ${lr.agreement.mean.toExponential(1)} (μ), ${lr.agreement.std.toExponential(1)} (σ), ${lr.agreement.argmaxMismatches} argmax mismatches of ${lr.agreement.positions}`
          : ''),
    );
  }
  return lines;
}

/**
 * The measured counterpart of the arithmetic's "head row in token-equivalents": what each row beyond
 * the one-row forward's costs on each statistics path, next to what a token costs through the
 * one-row forward (its ms ÷ its tokens: the layers, plus a thousandth of a head row and the overheads).
 */
function rowCostLines(r: ConfigResult): string[] {
  const lines: string[] = [];
  for (const lr of r.lengths) {
    if (lr.rounds.length === 0 || lr.tokens < 3) continue;
    const s = summarise(lr);
    const ms = (mode: StatsMode) => s.find((x) => x.mode === mode)!.ms;
    // Two unknowns from two timings: one-row = n · token + row, statistics = (n − 1) · token + (n − 1) · row'
    // (n − 1 rows over n − 1 tokens); taking row ≈ row' (the statistics ops are a few per cent of a row),
    // a few rounds of substitution settle both. Overheads (messages, tokenising) are left in the token.
    const n = lr.tokens;
    const extraRows = n - 2;
    let perToken = ms('oneRow') / n;
    let graphRow = 0;
    for (let k = 0; k < 5; k++) {
      graphRow = (ms('graph') - ms('oneRow') + perToken) / extraRows;
      perToken = (ms('oneRow') - graphRow) / n;
    }
    const workerRow = (ms('worker') - ms('oneRow') + perToken) / extraRows;
    lines.push(
      `- ${r.backend} ${r.dtype}, ${lr.tokens} tokens, measured: a token through the layers ≈ ${fmt(perToken, 3)} ms ((one-row forward − one row) ÷ tokens); each further row ≈ ${fmt(graphRow, 3)} ms with the statistics graph ` +
        `(head + statistics ops: ${fmt(graphRow / perToken, 1)} token-equivalents), ≈ ${fmt(workerRow, 3)} ms as a full row read out and computed in JavaScript (${fmt(workerRow / perToken, 1)}).`,
    );
  }
  return lines;
}

/**
 * Statistics ÷ one-row forward from multiply-adds alone, for a text of `n` tokens: the one-row
 * forward runs the n tokens through the layers (and attention over the tokens before each) and the
 * head once; the statistics run n − 1 tokens (the last token is only scored, never run) and the head
 * on each of their n − 1 rows (workers/statistics.ts: the first token alone, then the rest but the last).
 * `withStats` also counts the statistics graph's elementwise passes (STATS_PASSES × vocabulary a row)
 * as if they were multiply-adds (they are exp, divisions and reductions: memory-bound, so a rough floor).
 */
function arithmeticRatio(m: Shape, n: number, withStats: boolean): number {
  // Through the layers, a token at position i attending to i positions (itself included).
  const layers = (tokens: number) => tokens * bodyMacs(m) + attentionMacs(m, 1) * ((tokens * (tokens + 1)) / 2);
  const perRow = headMacs(m) + (withStats ? STATS_PASSES * m.vocab : 0);
  return (layers(n - 1) + (n - 1) * perRow) / (layers(n) + headMacs(m));
}

/**
 * The text length (tokens, from 64) past which the arithmetic ratio stays within the target; null when
 * it is still above at 100,000. The ratio first rises with n (one token fewer run, n − 2 more head rows)
 * towards 1 + head ÷ layers, then falls as attention over the context grows; very short texts, where
 * the token saved still counts, are left out.
 */
function breakEven(m: Shape): number | null {
  let lastAbove: number | null = null;
  let n = 64;
  const lengths: number[] = [];
  for (; n <= 100_000; n = Math.ceil(n * 1.02)) lengths.push(n);
  for (const k of lengths) if (arithmeticRatio(m, k, false) > TARGET_RATIO) lastAbove = k;
  if (lastAbove === null) return 64;
  const after = lengths.find((k) => k > lastAbove!);
  return after ?? null;
}

function arithmeticTable(lengths: readonly number[]): { table: string; shapes: Shape[] } {
  const shapes = [...(existsSync(join(projectRoot, '.fixtures', 'models', MODEL, 'config.json')) ? [fixtureShape(MODEL)] : []), ...REAL_SHAPES];
  const header = [
    'model',
    'layers, hidden, heads (kv) × dim, MLP, vocab',
    'layers: MACs / token',
    'head: MACs / row',
    'head row in token-equivalents',
    ...lengths.map((n) => `statistics ÷ one-row, ${n} tokens (+ ${STATS_PASSES} passes / row)`),
    `≤ ${TARGET_RATIO}× for texts of at least (tokens)`,
  ];
  const lines = [`| ${header.join(' | ')} |`, `|${header.map(() => '---').join('|')}|`];
  const mega = (v: number) => `${(v / 1e6).toFixed(1)} M`;
  for (const m of shapes) {
    const even = breakEven(m);
    lines.push(
      `| ${m.name} | ${m.layers}, ${m.hidden}, ${m.heads} (${m.kvHeads}) × ${m.headDim}, ${count(m.intermediate)}, ${count(m.vocab)} | ${mega(bodyMacs(m))} | ${mega(headMacs(m))} | ${fmt(headMacs(m) / bodyMacs(m), 2)} | ` +
        `${lengths.map((n) => `${fmt(arithmeticRatio(m, n, false), 2)}× (${fmt(arithmeticRatio(m, n, true), 2)}×)`).join(' | ')} | ${even === null ? 'never' : `≈ ${count(even)}`} |`,
    );
  }
  return { table: lines.join('\n'), shapes };
}

function modelPresent(dtype: Dtype): boolean {
  const dir = join(projectRoot, '.fixtures', 'models', MODEL);
  return existsSync(join(dir, 'config.json')) && existsSync(join(dir, 'onnx', ONNX_FILE[dtype]));
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const date = new Date();
  const started = performance.now();
  const notes: string[] = [];
  const configs: { backend: Backend; dtype: Dtype; lengths: number[] }[] = options.backends.map((backend) =>
    backend === 'wasm' ? { backend, dtype: 'fp32' as Dtype, lengths: options.lengths } : { backend, dtype: options.webgpuDtype, lengths: options.webgpuLengths },
  );
  const runnable = configs.filter((c) => {
    if (modelPresent(c.dtype)) return true;
    notes.push(`${c.backend} ${c.dtype} skipped: ${MODEL} ${c.dtype} is missing; generate it with \`npm run fixtures:large\` (about 700 MB).`);
    return false;
  });

  // The texts: real test items of the dataset, in file order, a different stretch for each length.
  const data = loadSharedItems(options.dataset);
  const texts: BenchText[] = [];
  if (runnable.length > 0) {
    const tokenizer = await loadNodeTokenizer(MODEL);
    let start = 0;
    for (const target of [...new Set(runnable.flatMap((c) => c.lengths))].sort((a, b) => b - a)) {
      const built = buildText(tokenizer, data.items, start, target);
      texts.push(built.text);
      start = built.next;
    }
    for (const t of texts) console.error(`[bench statistics] text of ${t.tokens} tokens (${t.chars} characters, ${t.itemIds.length} item${t.itemIds.length === 1 ? '' : 's'} from ${t.itemIds[0]}), encoded in Node in ${t.encodeMs.toFixed(1)} ms`);
  }

  const results: ConfigResult[] = [];
  const chromium =
    runnable.length === 0
      ? 'not started'
      : await withChromium({ webgpu: runnable.some((c) => c.backend === 'webgpu') }, async (siteUrl, browser) => {
          for (const c of runnable) {
            const own = texts.filter((t) => c.lengths.includes(t.target));
            results.push(await measureConfig(browser, siteUrl, c.backend, c.dtype, own, options, (line) => console.error(`[bench statistics] ${MODEL} ${c.backend} ${c.dtype}: ${line}`)));
          }
          return browser.version();
        });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);

  const vocab = results.find((r) => r.loads.plain?.result)?.loads.plain?.result?.vocabSize ?? 151_669;
  for (const r of results) {
    const plain = r.loads.plain;
    const stats = r.loads.stats;
    const threads = plain?.result?.backendInfo.wasmThreads ?? '?';
    console.log('');
    console.log(`### Statistics vs a one-row forward (${MODEL}, ${r.backend.toUpperCase()} ${r.dtype}, ${threads} threads; ${r.backend === 'webgpu' ? `adapter ${plain?.result?.backendInfo.adapter?.architecture ?? '?'}` : 'CPU'})`);
    console.log('');
    console.log(configTable(r, vocab));
    console.log('');
    console.log(`Targets (reported, not enforced):`);
    for (const line of targetLines(r)) console.log(line);
    for (const line of rowCostLines(r)) console.log(line);
    const check = stats?.result?.statisticsPath?.check;
    console.log(
      `- loads: statistics: false ${msCell(plain?.wallMs ?? Number.NaN)} ms; statistics: true ${msCell(stats?.wallMs ?? Number.NaN)} ms (the rewrite and its load check${check ? ` on ${check.tokens} tokens, max |Δ| ${check.maxAbsDiff.toExponential(1)}` : ''} included); ` +
        `rows per statistics pass and per chunk: ${plain?.result?.prefillRows ?? `from maxLogitsBytes (${options.maxLogitsMib ?? 64} MiB)`}.`,
    );
    if (r.error) notes.push(`${r.backend} ${r.dtype} failed: ${r.error}`);
    if (r.leaks.length > 0) notes.push(`${r.backend} ${r.dtype}: ${r.leaks.length} request(s) tried to leave 127.0.0.1: ${r.leaks.slice(0, 3).join(', ')}`);
  }

  const lengths = [...new Set([TARGET_TOKENS, ...texts.map((t) => t.tokens)])].sort((a, b) => b - a);
  const arithmetic = arithmeticTable(lengths);
  console.log('');
  console.log('### The same ratio from arithmetic alone (multiply-adds; an estimate, not a measurement)');
  console.log('');
  console.log(arithmetic.table);
  console.log('');
  console.log(
    '- The one-row forward runs the n tokens through the layers (q, k, v, o projections, the gated MLP, and attention over the tokens before each, ' +
      "summed over the text) and the head once; the statistics run n − 1 tokens (the last is only scored) and the head on each of their n − 1 rows. A head row's token-equivalents = head ÷ layers per token (attention left out). " +
      `In brackets, the statistics graph's ~${STATS_PASSES} elementwise passes over each row (stats-rewrite.ts) counted as multiply-adds: exp, divisions and reductions are memory-bound, so that is a floor. ` +
      'Norms, RoPE, the embedding lookup, copies and the worker are left out.',
  );
  const large = arithmetic.shapes.find((m) => m.name === MODEL);
  if (large) console.log(
    `- ${MODEL}: its head is ${fmt(headMacs(large) / bodyMacs(large), 1)} tokens' worth of layers a row, so statistics over ${count(TARGET_TOKENS)} tokens cost ≈ ${fmt(arithmeticRatio(large, TARGET_TOKENS, false), 1)}× a one-row forward in arithmetic alone: ` +
      `the fixture cannot meet ${TARGET_RATIO}× by any implementation (the statistics need every row's full-vocabulary log-softmax, so the head over every row). ` +
      `Real models of the Qwen vocabulary have heads of ${REAL_SHAPES.map((m) => `${fmt(headMacs(m) / bodyMacs(m), 2)} (${m.name})`).join(' and ')} token-equivalents: ` +
      `at ${count(TARGET_TOKENS)} tokens ${REAL_SHAPES.map((m) => {
        const ratio = arithmeticRatio(m, TARGET_TOKENS, false);
        const even = breakEven(m);
        return `${fmt(ratio, 2)}× (${m.name}: ${ratio <= TARGET_RATIO ? 'within' : 'above'} ${TARGET_RATIO}×${even === null ? '' : `, within for texts of ${count(even)} tokens or more`})`;
      }).join(', ')}: ` +
      `near the target, not far below it, from arithmetic alone; the ratio falls as texts grow (attention grows with the context, the head per row does not), and a measured ratio also carries ` +
      "the statistics' own passes and what the forward's kernels do better or worse than their multiply-adds (the measured lines above give jiangu-large's).",
  );

  console.log('');
  const textLine = texts.map((t) => `${t.tokens} tokens (${t.chars} characters, ${t.itemIds.length} item${t.itemIds.length === 1 ? '' : 's'} from ${t.itemIds[0]})`).join('; ');
  console.log(
    `Texts: ${data.datasetId} test items from ${data.source}, question and options of each in file order, joined and cut to the target: ${textLine}. ` +
      `Each text: every request once to warm up (the two statistics paths compared value by value there), then rounds of the three requests, the order rotated per round ` +
      `(${options.repeats} rounds at ${count(TARGET_TOKENS)} tokens, ${options.shortRepeats} for shorter texts, fewer when a text's rounds would pass ${options.budgetS} s; at least ${MIN_ROUNDS}). ` +
      "ms: page time of the request (ModelClient → worker → reply); worker ms: the worker's own forwardMs (tokenising and passes, not the messages). " +
      'One-row forward: ModelClient.score({ prompt: text, candidates: ["A"] }) on the plain load, one pass keeping one row (num_logits_to_keep = 1); ' +
      `its tokenising is cached by the worker after the first request (encodeRecent), while textStatistics encodes the text each time (${texts.map((t) => `${fmt(t.encodeMs, 1)} ms for ${t.tokens} tokens`).join(', ')} in Node). ` +
      'Logits copied: values read out of the session (the statistics graph copies one row per pass, jiangu_last_logprobs, and per position four numbers, not counted).',
  );
  const leaks = results.reduce((n, r) => n + r.leaks.length, 0);
  if (leaks === 0 && results.length > 0) notes.push('network guard: no request left 127.0.0.1.');
  notes.push('timings on a shared 2-core machine are noisy (other work, e.g. tests, may run beside the bench): the per-round range shows how much; the ratios are over the same text, modes interleaved.');
  for (const n of notes) console.log(`- ${n}`);
  console.log(machineLines(machine, date, durationS));

  writeBenchRecord(projectRoot, 'statistics-', date, {
    date: date.toISOString(),
    durationS,
    machine,
    options,
    settings: { model: MODEL, targetRatio: TARGET_RATIO, targetTokens: TARGET_TOKENS, dataset: data.datasetId, source: data.source, statsPasses: STATS_PASSES },
    texts: texts.map(({ text: _t, ...rest }) => rest),
    notes,
    arithmetic: arithmetic.shapes.map((m) => ({ shape: m, bodyMacs: bodyMacs(m), headMacs: headMacs(m), ratios: Object.fromEntries(lengths.map((n) => [n, { plain: arithmeticRatio(m, n, false), withStats: arithmeticRatio(m, n, true) }])), breakEven: breakEven(m) })),
    results: results.map((r) => ({ ...r, summary: r.lengths.map((lr) => ({ tokens: lr.tokens, modes: lr.rounds.length > 0 ? summarise(lr) : [] })) })),
  });
  // A missing fixture is a note (as the cloze part has it), not a failure of `npm run bench`.
  if (results.some((r) => r.error || r.lengths.some((l) => l.error))) process.exitCode = 1;
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
