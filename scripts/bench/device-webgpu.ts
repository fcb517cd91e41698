// WebGPU on a real GPU (scripts/bench/device-webgpu.sh checks the prerequisites, then runs this):
// the real-shaped Qwen3-0.6B (npm run fixtures:real) per dtype, q4 and fp16 by default, loaded on
// WebGPU through the run's own worker in the harness page, measured as:
//  - prefill tok/s: the prompt's tokens ÷ page time of one forward over a ~500-token prompt at batch 1
//    (ModelClient.score of the prompt with one candidate, the one-row forward that scoring costs;
//    one untimed call at that length first, then the median of three);
//  - decode tok/s: a greedy generation's streamed tokens, between the first and the last;
//  - letter items/s: CMMLU 古汉语 items 0-shot through ModelClient.scoreItem as a run scores them
//    (the next item named), after one untimed item;
//  - WebGPU ÷ WASM agreement: a real run of the site (Evaluate page, CMMLU 古汉语, 0-shot, 3 items,
//    WebGPU), whose scheduler scores its first items on WASM too and compares with its own tolerance
//    (run-scheduler.ts backendCheck, ExecuteOptions.checkTolerance); the stored run's `check` is read
//    back, so the figure is exactly the check a user's run makes.
// The adapter (vendor, architecture, description, features) is printed first, so a reader can see that
// SwiftShader was not used by mistake: with --gpu hardware (the default) a software adapter stops the
// bench. A dtype that computes in float16 (fp16, q4f16) on an adapter without shader-f16 is reported as
// "not supported by this adapter", not run. A measurement, not a test: it prints Markdown and writes
// bench-results/device-webgpu-<timestamp>.json (and, with --out, a copy of both there).
//
//   npx tsx scripts/bench/device-webgpu.ts [--models-root DIR] [--dtypes q4,fp16] [--items 5]
//     [--layers N] [--gpu hardware|swiftshader] [--chrome-flags "…"] [--prompt-tokens 500]
//     [--gen-tokens 32] [--step-timeout 600] [--out DIR]
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import type { Browser, Page } from 'playwright-core';
import { openPage, withChromium } from '../browser.ts';
import { generateSpecs } from '../fixtures/generate.ts';
import { REAL_OUT_ROOT, REAL_QWEN3, withLayers } from '../fixtures/real-specs.ts';
import { ONNX_FILE, type FixtureDtype } from '../fixtures/specs.ts';
import { projectRoot } from '../site-routes.ts';
import { integerOption } from './cli.ts';
import { loadSharedItems } from './cloze-items.ts';
import { installNameHelper, pageSequence, type SequenceRun } from './cloze-page.ts';
import { pageRealGenerate, pageRealLoad, pageRealTerminate, type RealGeneration, type RealReply } from './real-page.ts';
import { pageStatsCall, type StatsCall } from './statistics-page.ts';
import { machineInfo, machineLines, writeBenchRecord } from './report.ts';
import { adapterLines, decodeFigures, isSoftwareAdapter, prefillFigures, resultsTable, skipReason, type AdapterProbe, type DtypeResult } from './device-webgpu-report.ts';
import { readStoredRun, startFixtureRun } from '../../test/browser/runs.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { McProtocolId } from '../../src/lib/core/protocols/mc-protocols.ts';
import type { McRunRecord } from '../../src/lib/core/record/run.ts';
import { withTimeout, unwrap } from './steps.ts';

const USAGE =
  'Usage: npx tsx scripts/bench/device-webgpu.ts [--models-root DIR] [--dtypes q4,fp16] [--items 5] [--layers N] [--gpu hardware|swiftshader] [--chrome-flags "…"] [--prompt-tokens 500] [--gen-tokens 32] [--step-timeout 600] [--out DIR]';
const ALL_DTYPES: readonly FixtureDtype[] = ['fp32', 'q8', 'q4', 'fp16', 'q4f16'];
const MODEL = REAL_QWEN3.name;
/** Items of the agreement run: the run's own check compares its first 3 (ExecuteOptions.checkItems' default). */
const CHECK_RUN_ITEMS = 3;

/**
 * Chromium flags that put WebGPU on the GPU's Vulkan driver in headless Linux (Chrome's "Supercharge
 * Web AI model testing" guide; gpuweb/gpuweb#5022 for the ANGLE-on-Vulkan features newer builds want;
 * --disable-vulkan-surface: no window system, so no swapchain). --ignore-gpu-blocklist: server GPUs are
 * often on the blocklist. Playwright itself adds --enable-unsafe-swiftshader, so a Chromium that misses
 * the driver quietly falls back to SwiftShader: the adapter check below is what catches that.
 */
export const HARDWARE_FLAGS: readonly string[] = [
  '--enable-features=Vulkan,VulkanFromANGLE,DefaultANGLEVulkan',
  '--use-angle=vulkan',
  '--use-vulkan=native',
  '--disable-vulkan-surface',
  '--ignore-gpu-blocklist',
];

interface Options {
  modelsRoot: string;
  dtypes: FixtureDtype[];
  items: number;
  layers: number | null;
  gpu: 'hardware' | 'swiftshader';
  chromeFlags: string[];
  promptTokens: number;
  genTokens: number;
  stepTimeoutMs: number;
  out: string | null;
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: {
      'models-root': { type: 'string' },
      dtypes: { type: 'string' },
      items: { type: 'string' },
      layers: { type: 'string' },
      gpu: { type: 'string' },
      'chrome-flags': { type: 'string' },
      'prompt-tokens': { type: 'string' },
      'gen-tokens': { type: 'string' },
      'step-timeout': { type: 'string' },
      out: { type: 'string' },
    },
    strict: true,
    allowPositionals: false,
  });
  const dtypes = (values.dtypes ?? 'q4,fp16').split(',').map((d) => d.trim()).filter(Boolean);
  const bad = dtypes.filter((d) => !(ALL_DTYPES as readonly string[]).includes(d));
  if (bad.length || dtypes.length === 0) throw new Error(`--dtypes: ${bad.length ? `unknown ${bad.join(', ')}` : 'empty'}; choose from ${ALL_DTYPES.join(', ')}.\n${USAGE}`);
  const gpu = values.gpu ?? 'hardware';
  if (gpu !== 'hardware' && gpu !== 'swiftshader') throw new Error(`--gpu must be hardware or swiftshader, not ${gpu}.\n${USAGE}`);
  const flags = values['chrome-flags'];
  return {
    modelsRoot: resolve(values['models-root'] ?? REAL_OUT_ROOT),
    dtypes: dtypes as FixtureDtype[],
    items: integerOption('items', values.items, 5, USAGE),
    layers: values.layers === undefined ? null : integerOption('layers', values.layers, 1, USAGE),
    gpu,
    // SwiftShader is what --enable-unsafe-webgpu alone gives headless Chromium (the browser tests' setup).
    chromeFlags: flags !== undefined ? flags.split(/\s+/).filter(Boolean) : gpu === 'hardware' ? [...HARDWARE_FLAGS] : [],
    promptTokens: integerOption('prompt-tokens', values['prompt-tokens'], 500, USAGE),
    genTokens: integerOption('gen-tokens', values['gen-tokens'], 32, USAGE),
    stepTimeoutMs: integerOption('step-timeout', values['step-timeout'], 600, USAGE) * 1000,
    out: values.out === undefined ? null : resolve(values.out),
  };
}

// A string, not a function: tsx's keepNames helper breaks serialised functions (see the preamble of cloze-page.ts).
const PROBE_ADAPTER = `(async () => {
  if (!navigator.gpu) return { error: 'navigator.gpu is missing: WebGPU is off in this browser' };
  const a = await navigator.gpu.requestAdapter();
  if (!a) return { error: 'navigator.gpu.requestAdapter() gave no adapter' };
  const i = a.info || {};
  return { vendor: i.vendor, architecture: i.architecture, device: i.device, description: i.description,
    isFallbackAdapter: Boolean(a.isFallbackAdapter || i.isFallbackAdapter), features: [...a.features].sort(),
    maxBufferSize: a.limits.maxBufferSize, maxStorageBufferBindingSize: a.limits.maxStorageBufferBindingSize };
})()`;

/** Classical text of the benchmark itself, `chars` characters of CMMLU 古汉语 questions and options. */
function promptText(items: MultipleChoiceItem[], chars: number): string {
  let text = '';
  for (let i = 0; text.length < chars; i++) {
    const item = items[i % items.length];
    text += `${item.question}\n${item.options.map((o, k) => `${'ABCD'[k]}. ${o}`).join('\n')}\n`;
  }
  return text.slice(0, chars);
}

async function oneRow(page: Page, text: string, timeoutMs: number): Promise<StatsCall> {
  const reply = await withTimeout(page.evaluate(pageStatsCall, { mode: 'oneRow' as const, slot: 'plain', text, keepValues: false }), timeoutMs, 'prefill forward');
  if (!reply.result) throw new Error(`prefill forward: ${reply.error ?? 'no result'}`);
  return reply.result;
}

/** Runs `body`, recording its failure in `r.errors` and going on. */
async function step(r: DtypeResult, what: string, log: (line: string) => void, body: () => Promise<void>): Promise<boolean> {
  try {
    await body();
    return true;
  } catch (e) {
    r.errors.push(`${what}: ${e instanceof Error ? e.message : String(e)}`);
    log(`ERROR ${r.errors.at(-1)}`);
    return false;
  }
}

/** Load, prefill, decode and letters in one harness page (the run's worker, on WebGPU). */
async function measureHarness(browser: Browser, siteUrl: string, dtype: FixtureDtype, o: Options, set: { items: MultipleChoiceItem[]; protocolId: McProtocolId }, r: DtypeResult, log: (line: string) => void): Promise<void> {
  const opened = await openPage(browser, `${siteUrl}/harness.html`);
  const page = opened.page;
  const t = o.stepTimeoutMs;
  const items = set.items;
  try {
    await installNameHelper(page);
    await page.waitForFunction('window.jiangu !== undefined', null, { polling: 100 });
    const loaded = await step(r, 'load', log, async () => {
      const { wallMs, result } = unwrap(await withTimeout(page.evaluate(pageRealLoad, { slot: 'letters' as const, model: MODEL, dtype, backend: 'webgpu' as const }), t, 'load'), 'load');
      if (result.backendInfo.backend !== 'webgpu') throw new Error(`the worker ran on ${result.backendInfo.backend}, not WebGPU`);
      r.load = { wallMs, backendInfo: result.backendInfo, logitsPath: result.logitsPath ?? null };
      const a = result.backendInfo.adapter;
      log(`loaded on WebGPU in ${(wallMs / 1000).toFixed(1)} s; worker's adapter ${a ? `${a.vendor} / ${a.architecture} / ${a.description}` : '?'}; logits path ${result.logitsPath?.kind ?? '?'}`);
    });
    if (!loaded) return;

    await step(r, 'prefill', log, async () => {
      // Classical Chinese is about a token a character in Qwen's vocabulary; the first (untimed) call
      // says how many it really is, and the text is resized once if that is more than 10% off.
      let text = promptText(items, o.promptTokens);
      let warm = await oneRow(page, text, t);
      if (Math.abs(warm.tokens - o.promptTokens) > o.promptTokens / 10) {
        text = promptText(items, Math.max(1, Math.round((text.length * o.promptTokens) / warm.tokens)));
        warm = await oneRow(page, text, t);
      }
      const runs: StatsCall[] = [];
      for (let i = 0; i < 3; i++) runs.push(await oneRow(page, text, t));
      r.prefill = prefillFigures(runs[0].tokens, runs.map((x) => x.ms), runs[0].forwardPasses);
      log(`prefill: ${r.prefill.tokens} tokens, ${r.prefill.runsMs.map((x) => `${x.toFixed(0)} ms`).join(', ')} (${r.prefill.forwardPasses} forward pass(es))`);
    });

    await step(r, 'decode', log, async () => {
      const first = items[0];
      const prompt = `${first.question}\n${first.options.map((x, k) => `${'ABCD'[k]}. ${x}`).join('\n')}\n答案：`;
      const capMs = t;
      const g: RealGeneration = unwrap(await withTimeout(page.evaluate(pageRealGenerate, { prompt, maxNewTokens: o.genTokens, capMs }), capMs + 30_000, 'generation'), 'generation').result;
      r.decode = decodeFigures(g.tokenMs, g.wallMs, g.result.stoppedBy);
      log(`decode: ${r.decode.tokens} tokens streamed in ${(g.wallMs / 1000).toFixed(2)} s (first after ${((r.decode.firstTokenMs ?? NaN) / 1000).toFixed(2)} s, ${g.result.stoppedBy})`);
    });

    await step(r, 'letters', log, async () => {
      if (items.length < 2) throw new Error('fewer than 2 CMMLU items');
      const timed = items.slice(1, 1 + o.items);
      const args = { formulation: 'letter' as const, protocolId: set.protocolId, items: timed, exemplars: {}, shots: 0, reusePrefix: false, unconditional: false, readAhead: true, contextLimit: 4096, prime: items[0], keepResults: false };
      const run: SequenceRun = await withTimeout(page.evaluate(pageSequence, args), t, 'letters');
      if (run.error) throw new Error(run.error);
      const n = run.items.length;
      r.letters = { items: n, totalMs: run.totalMs, itemsPerS: (n * 1000) / run.totalMs, meanTokens: run.items.reduce((s, i) => s + i.contextTokens, 0) / Math.max(1, n) };
      log(`letters: ${run.items.map((i) => `${i.ms.toFixed(0)} ms/${i.contextTokens} tok`).join(', ')}`);
    });
    await page.evaluate(pageRealTerminate, 'letters' as const).catch(() => {});
  } finally {
    r.pageFaults.push(...opened.errors.take());
    await opened.context.close().catch(() => {});
  }
}

/** Waits until the open run page shows one of `statuses`; returns the one shown. */
async function waitForAnyStatus(page: Page, statuses: readonly string[], timeoutMs: number): Promise<string> {
  const selector = statuses.map((s) => `[data-testid=run][data-status=${s}]`).join(', ');
  const el = await page.locator(selector).first().elementHandle({ timeout: timeoutMs });
  return (await el?.getAttribute('data-status')) ?? '?';
}

/** A real WebGPU run of the site (3 items); its scheduler's own WebGPU-against-WASM check, read back from IndexedDB. */
async function measureAgreement(browser: Browser, siteUrl: string, dtype: FixtureDtype, o: Options, r: DtypeResult, log: (line: string) => void): Promise<void> {
  const opened = await openPage(browser, `${siteUrl}/?mirror=${encodeURIComponent(`${siteUrl}/mirror`)}#/data`);
  const page = opened.page;
  try {
    await step(r, 'agreement', log, async () => {
      await page.locator('[data-testid=catalog][data-loaded=true]').waitFor({ timeout: 60_000 });
      await page.getByTestId('dataset-cmmlu-ancient').getByTestId('download').click();
      await page.locator('[data-testid=dataset-cmmlu-ancient][data-stored=yes]').waitFor({ timeout: 60_000 });
      const runId = await startFixtureRun(page, { dataset: 'cmmlu-ancient', shots: 0, limit: CHECK_RUN_ITEMS, backend: 'webgpu', model: MODEL, dtype });
      // A failed check pauses the run; completed means it passed and the 3 items ran.
      const status = await waitForAnyStatus(page, ['completed', 'paused', 'failed'], 3 * o.stepTimeoutMs);
      await installNameHelper(page); // readStoredRun's page function has a named inner helper
      const { run } = await readStoredRun<McRunRecord>(page, runId);
      r.agreement = { runId, status, check: run.check ?? null, backendInfo: run.environment?.backendInfo ?? null };
      if (status === 'failed') r.agreement.error = JSON.stringify(run.error ?? null).slice(0, 500);
      const c = r.agreement.check;
      log(c ? `agreement: ${c.passed ? 'passed' : 'FAILED'} on ${c.itemIds.length} items, largest |Δ log p| ${c.maxLogProbDiff.toExponential(2)} (tolerance ${c.tolerance}), ${c.mismatchedPredictions.length} different prediction(s); run ${status}` : `agreement: the run ended ${status} with no check`);
    });
  } finally {
    r.pageFaults.push(...opened.errors.take());
    await opened.context.close().catch(() => {});
  }
}

/** The models root to serve: the given one, or with --layers a cut-down Qwen3 of the asked dtypes in a temporary folder. */
function prepareModels(o: Options): { root: string; cleanup: () => void } {
  if (o.layers === null) return { root: o.modelsRoot, cleanup: () => {} };
  const root = mkdtempSync(join(tmpdir(), 'jiangu-device-webgpu-'));
  const cleanup = () => rmSync(root, { recursive: true, force: true });
  // A time limit (device-webgpu.sh's `timeout`) or Ctrl-C must not leave gigabytes behind.
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    process.once(signal, () => {
      cleanup();
      process.exit(128 + (signal === 'SIGTERM' ? 15 : 2));
    });
  }
  try {
    // Only the dtypes measured: the fp32 external-data layout goes with fp32.
    const spec = { ...withLayers(REAL_QWEN3, o.layers), dtypes: o.dtypes, ...(o.dtypes.includes('fp32') ? {} : { externalData: undefined }) };
    const started = performance.now();
    generateSpecs([spec], root, { log: (m) => console.error(`[device-webgpu] ${m}`) });
    console.error(`[device-webgpu] ${o.layers}-layer ${MODEL} (${o.dtypes.join(', ')}) generated in ${((performance.now() - started) / 1000).toFixed(0)} s into ${root}`);
  } catch (e) {
    cleanup();
    throw e;
  }
  return { root, cleanup };
}

async function main(): Promise<void> {
  const o = parseOptions(process.argv.slice(2));
  const cmmlu = loadSharedItems('cmmlu-ancient');
  const { root, cleanup } = prepareModels(o);
  try {
    const dir = join(root, MODEL);
    if (!existsSync(join(dir, 'config.json'))) {
      throw new Error(`No ${MODEL} in ${root}: generate it with \`npm run fixtures:real\` (writes .fixtures/models-real), point --models-root at a folder holding ${MODEL}/, or pass --layers N for a cut-down one.`);
    }
    // Served as /models/<name>/ (site-routes.ts): this root alone, so no other folder of that name is picked.
    process.env.JIANGU_MODELS = root;
    const date = new Date();
    const started = performance.now();
    const results: DtypeResult[] = [];
    let probe: AdapterProbe = {};
    let software = false;
    const chromium = await withChromium({ webgpu: true, extraArgs: o.chromeFlags }, async (siteUrl, browser) => {
      const opened = await openPage(browser, `${siteUrl}/harness.html`);
      probe = (await withTimeout(opened.page.evaluate(PROBE_ADAPTER), 60_000, 'requestAdapter()')) as AdapterProbe;
      await opened.context.close();
      software = !probe.error && isSoftwareAdapter(probe);
      console.error(`[device-webgpu] Chromium ${browser.version()}, flags: --enable-unsafe-webgpu ${o.chromeFlags.join(' ')}`);
      for (const line of adapterLines(probe, software)) console.error(`[device-webgpu] ${line.slice(2)}`);
      if (probe.error) throw new Error(`No WebGPU adapter: ${probe.error}. Check the GPU driver (Vulkan: \`vulkaninfo --summary\`) and the Chromium flags (--chrome-flags).`);
      if (o.gpu === 'hardware' && software) {
        throw new Error('The WebGPU adapter is a software one (SwiftShader or Mesa on the CPU), not the GPU: Chromium did not reach the Vulkan driver. Check `vulkaninfo --summary`, libvulkan1 and the NVIDIA ICD (VK_DRIVER_FILES), or pass --gpu swiftshader to measure the software adapter on purpose.');
      }
      const features = probe.features ?? [];
      for (const dtype of o.dtypes) {
        const r: DtypeResult = { dtype, errors: [], pageFaults: [] };
        results.push(r);
        const log = (line: string) => console.error(`[device-webgpu] ${dtype}: ${line}`);
        const skipped = existsSync(join(dir, 'onnx', ONNX_FILE[dtype])) ? skipReason(dtype, features) : `no onnx/${ONNX_FILE[dtype]} in ${dir}`;
        if (skipped) {
          r.skipped = skipped;
          log(r.skipped);
          continue;
        }
        await measureHarness(browser, siteUrl, dtype, o, cmmlu, r, log);
        if (r.load) await measureAgreement(browser, siteUrl, dtype, o, r, log);
      }
      return browser.version();
    });
    const durationS = (performance.now() - started) / 1000;
    const machine = machineInfo(chromium);
    const md = [
      `WebGPU on this machine's adapter: ${MODEL}${o.layers === null ? '' : o.layers === REAL_QWEN3.numLayers ? ' generated at full size (--layers 28)' : ` cut to ${o.layers} of its ${REAL_QWEN3.numLayers} layers (--layers: NOT the real model's speed)`}, from ${root}`,
      '',
      ...adapterLines(probe, software),
      `- Chromium flags: --enable-unsafe-webgpu ${o.chromeFlags.join(' ')} (--gpu ${o.gpu})`,
      '',
      resultsTable(results),
      '',
      `prefill tok/s: the prompt's tokens ÷ the median page time of 3 forwards over it at batch 1 (ModelClient.score with one candidate, after one untimed call; about ${o.promptTokens} tokens of CMMLU 古汉语 text). ` +
        `decode tok/s: greedy, ${o.genTokens} new tokens at most, between the first and the last streamed token. ` +
        `letter items/s: ${o.items} CMMLU 古汉语 items 0-shot through ModelClient.scoreItem (the next item named, as runs do), after one untimed item. ` +
        `WebGPU ÷ WASM: a run of the site on WebGPU (CMMLU 古汉语, 0-shot, ${CHECK_RUN_ITEMS} items), whose scheduler scores the first items on WASM too and compares (run-scheduler.ts backendCheck, its own tolerance); the stored run's check.`,
      ...results.flatMap((r) => [...r.errors.map((e) => `- ${r.dtype}: ERROR ${e}`), ...r.pageFaults.slice(0, 5).map((f) => `- ${r.dtype}: page fault ${f.slice(0, 300)}`)]),
      machineLines(machine, date, durationS),
    ].join('\n');
    console.log('');
    console.log(md);
    const file = writeBenchRecord(projectRoot, 'device-webgpu-', date, { date: date.toISOString(), durationS, machine, options: o, model: MODEL, modelsRoot: root, adapter: probe, softwareAdapter: software, results });
    if (o.out) {
      mkdirSync(o.out, { recursive: true });
      copyFileSync(file, join(o.out, basename(file)));
      writeFileSync(join(o.out, basename(file).replace(/\.json$/, '.md')), `${md}\n`);
      console.log(`- copies in ${o.out}`);
    }
    // Non-zero when a step of a dtype that should have run did not, so a script around it notices (a
    // check that ran and failed is a finding, in the table, not a failure of the bench).
    const failed = results.filter((r) => !r.skipped && (r.errors.length > 0 || !r.agreement?.check));
    if (failed.length) process.exitCode = 1;
  } finally {
    cleanup();
  }
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
