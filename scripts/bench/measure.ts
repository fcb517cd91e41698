// One configuration (backend × model × dtype) measured in a fresh browser context: the harness
// page's ModelClient loads the fixture, scores one prompt (the first forward, then warm ones) and
// generates greedily. Every time is taken in the page with performance.now(), one request per
// page.evaluate, so Node decides between requests when a slow configuration has had enough.
import type { Browser, Page } from 'playwright-core';
import { openPage, type OpenedPage } from '../browser.ts';
import type {
  Backend,
  BackendInfo,
  GenerateParams,
  GenerateResult,
  LoadParams,
  LoadResult,
  ScoreParams,
  ScoreResult,
} from '../../src/lib/engine/messages.ts';
import type { ModelClient } from '../../src/lib/engine/model-client.ts';
import type { Dtype, ModelName } from '../fixtures/specs.ts';
import { withTimeout } from './steps.ts';

export interface Configuration {
  backend: Backend;
  model: ModelName;
  dtype: Dtype;
}

export interface MeasureSettings {
  prompt: string;
  candidates: readonly string[];
  /** Warm forwards wanted. */
  repeats: number;
  /** Warm forwards stop early (after at least `minRepeats`) when the next would end past this. */
  warmBudgetMs: number;
  minRepeats: number;
  /** maxNewTokens of the greedy generations (one warm-up, one timed). */
  genTokens: number;
  /** Each generation is cancelled once it has run this long (it stops after the token in progress). */
  genBudgetMs: number;
  /** A single request (load, score, generate) running longer fails the configuration. */
  stepTimeoutMs: number;
}

export interface Measurement {
  load?: {
    wallMs: number;
    workerMs: number;
    backendInfo: BackendInfo;
    vocabSize: number;
    numLogitsToKeep: boolean;
    transformersVersion: string;
    ortVersion: string;
  };
  /** Prompt length in tokens. */
  seqLength?: number;
  first?: { wallMs: number; forwardMs: number };
  warm?: { wallMs: number[]; forwardMs: number[]; requested: number; budgetCut: boolean };
  /** ScoreResult.logitsCopied of the first forward (float32 values). */
  logitsCopied?: number;
  generation?: {
    warmupMs: number;
    warmupTokens: number;
    /** GenerateResult.ms and tokenIds.length of the timed generation. */
    ms: number;
    tokens: number;
    stoppedBy: GenerateResult['stoppedBy'];
    /** Page time from the request to the first streamed token (mostly the prompt's forward). */
    firstTokenMs?: number;
    /** Tokens after the first, per second between the first and the last streamed token. */
    decodeTokensPerS?: number;
  };
}

export interface ConfigResult extends Configuration {
  measurement: Measurement;
  /** Why the configuration stopped early; what was measured before stays in `measurement`. */
  error?: string;
  /** The page's and worker's console, when the configuration failed. */
  consoleTail?: string[];
  /** Requests that tried to leave 127.0.0.1 (expected: none). */
  leaks: string[];
  /** Seconds for the whole configuration, page opening and closing included. */
  totalS: number;
}

interface Results {
  load: LoadResult;
  score: ScoreResult;
  generate: GenerateResult;
}
type Call =
  | { kind: 'load'; params: LoadParams }
  | { kind: 'score'; params: ScoreParams }
  | { kind: 'generate'; params: GenerateParams; capMs: number };
interface Reply {
  wallMs: number;
  result?: Results[keyof Results];
  error?: string;
  /** generate: page time of each streamed token since the request. */
  tokenMs: number[];
}
interface Timed<T> {
  wallMs: number;
  result: T;
  tokenMs: number[];
}
/** Where the page keeps its client between two page.evaluate calls. */
interface BenchWindow {
  benchClient?: ModelClient;
}

/**
 * One client request, timed in the page; a generation is cancelled after `capMs`. The evaluated
 * function names no inner function (no `const f = () => …`, no `{ f: () => … }`): tsx compiles
 * with keepNames, whose `__name` helper does not exist in the page.
 */
async function request<K extends keyof Results>(page: Page, call: Extract<Call, { kind: K }>, timeoutMs: number): Promise<Timed<Results[K]>> {
  const reply = await withTimeout(
    page.evaluate(async (c: Call): Promise<Reply> => {
      const w = window as unknown as BenchWindow;
      w.benchClient ??= new window.jiangu.ModelClient();
      const client = w.benchClient;
      const tokenMs: number[] = [];
      const started = performance.now();
      try {
        let result: Results[keyof Results];
        if (c.kind === 'load') result = await client.load(c.params);
        else if (c.kind === 'score') result = await client.score(c.params);
        else {
          const abort = new AbortController();
          const options: { signal: AbortSignal; onToken?: () => void } = { signal: abort.signal };
          options.onToken = () => tokenMs.push(performance.now() - started);
          const timer = setTimeout(() => abort.abort(), c.capMs);
          try {
            result = await client.generate(c.params, options);
          } finally {
            clearTimeout(timer);
          }
        }
        return { wallMs: performance.now() - started, result, tokenMs };
      } catch (e) {
        const err = e as { code?: string; message?: string; detail?: string };
        const parts = [err.code, err.message ?? String(e), err.detail];
        return { wallMs: performance.now() - started, error: parts.filter((p) => p).join(': '), tokenMs };
      }
    }, call),
    timeoutMs,
    call.kind,
  );
  if (reply.error !== undefined || reply.result === undefined) throw new Error(`${call.kind}: ${reply.error ?? 'no result'}`);
  return { wallMs: reply.wallMs, result: reply.result as Results[K], tokenMs: reply.tokenMs };
}

async function measureInPage(page: Page, config: Configuration, s: MeasureSettings, m: Measurement, log: (line: string) => void): Promise<void> {
  const t = s.stepTimeoutMs;
  const load = await request(page, { kind: 'load', params: { source: { kind: 'site', name: config.model }, dtype: config.dtype, backend: config.backend } }, t);
  const info = load.result;
  m.load = {
    wallMs: load.wallMs,
    workerMs: info.loadMs,
    backendInfo: info.backendInfo,
    vocabSize: info.vocabSize,
    numLogitsToKeep: info.inputNames.includes('num_logits_to_keep'),
    transformersVersion: info.transformersVersion,
    ortVersion: info.ortVersion,
  };
  log(`load ${load.wallMs.toFixed(0)} ms`);

  const scoreCall: Extract<Call, { kind: 'score' }> = { kind: 'score', params: { prompt: s.prompt, candidates: [...s.candidates] } };
  const first = await request(page, scoreCall, t);
  m.seqLength = first.result.inputIds.length;
  m.logitsCopied = first.result.logitsCopied;
  m.first = { wallMs: first.wallMs, forwardMs: first.result.forwardMs };
  log(`first forward ${first.wallMs.toFixed(0)} ms`);

  const warm = { wallMs: [] as number[], forwardMs: [] as number[], requested: s.repeats, budgetCut: false };
  m.warm = warm;
  let spent = 0;
  for (let i = 0; i < s.repeats; i++) {
    if (i >= s.minRepeats && spent + spent / i > s.warmBudgetMs) {
      warm.budgetCut = true;
      break;
    }
    const r = await request(page, scoreCall, t);
    warm.wallMs.push(r.wallMs);
    warm.forwardMs.push(r.result.forwardMs);
    spent += r.wallMs;
  }
  log(`${warm.wallMs.length} warm forwards ${spent.toFixed(0)} ms`);

  const genCall: Extract<Call, { kind: 'generate' }> = {
    kind: 'generate',
    params: { prompt: s.prompt, maxNewTokens: s.genTokens },
    capMs: s.genBudgetMs,
  };
  const warmup = await request(page, genCall, t);
  const gen = await request(page, genCall, t);
  const times = gen.tokenMs;
  const n = times.length;
  m.generation = {
    warmupMs: warmup.wallMs,
    warmupTokens: warmup.result.tokenIds.length,
    ms: gen.result.ms,
    tokens: gen.result.tokenIds.length,
    stoppedBy: gen.result.stoppedBy,
    firstTokenMs: n > 0 ? times[0] : undefined,
    decodeTokensPerS: n > 1 ? (n - 1) / ((times[n - 1] - times[0]) / 1000) : undefined,
  };
  log(`generation ${gen.result.tokenIds.length} tokens in ${gen.result.ms.toFixed(0)} ms (${gen.result.stoppedBy})`);
}

/** Measures one configuration in its own browser context; a failure is recorded, never thrown. */
export async function measureConfiguration(
  browser: Browser,
  siteUrl: string,
  config: Configuration,
  settings: MeasureSettings,
  log: (line: string) => void = () => {},
): Promise<ConfigResult> {
  const started = performance.now();
  const measurement: Measurement = {};
  let opened: OpenedPage | undefined;
  let error: string | undefined;
  try {
    opened = await openPage(browser, `${siteUrl}/harness.html`);
    await opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', undefined, { polling: 100, timeout: 30_000 });
    await measureInPage(opened.page, config, settings, measurement, log);
  } catch (e) {
    error = e instanceof Error ? e.message : String(e);
    log(`failed: ${error}`);
  } finally {
    await opened?.context.close().catch(() => {});
  }
  return {
    ...config,
    measurement,
    error,
    consoleTail: error !== undefined ? (opened?.console ?? []).slice(-20) : undefined,
    leaks: opened?.leaks ?? [],
    totalS: (performance.now() - started) / 1000,
  };
}
