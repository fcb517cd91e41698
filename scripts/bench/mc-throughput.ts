// `npm run bench` (third part): multiple-choice scoring throughput of jiangu-large in real Chromium,
// side by side with jiangu-large-nokeep (the same weights without num_logits_to_keep) rewritten at
// load and chunked (the rewrite off),
// per backend (and dtype): items/s for 0-shot and 5-shot (with and without prefix reuse) through
// the page's ModelClient and worker, against a bare onnxruntime-web session in the same page fed
// the same token ids (the ceiling), plus the logits copied and forward passes per item. Items: the
// AncientBench sample's test items, their task's dev items as exemplars. A measurement, not a test:
// it prints a Markdown table and a line per target, and writes bench-results/mc-<timestamp>.json.
//
//   npx tsx scripts/bench/mc-throughput.ts [--backends wasm,webgpu] [--dtypes fp32,q4] [--webgpu-dtypes q4] [--items 12] [--budget-s 20]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withChromium } from '../browser.ts';
import type { Backend } from '../../src/lib/engine/messages.ts';
import { DTYPES, ONNX_FILE, type Dtype, type ModelName } from '../fixtures/specs.ts';
import { PIPELINE_MODES, type McConfiguration, type PipelineMode } from './mc-measure.ts';
import { projectRoot } from '../site-routes.ts';
import { loadSampleItems, SAMPLE_PATH } from './mc-items.ts';
import { measureMcConfiguration, type McResult, type McSettings } from './mc-measure.ts';
import { markdownTable, summarise, targetLines, TARGETS } from './mc-report.ts';
import { machineInfo, machineLines, writeBenchRecord } from './report.ts';

const MODEL: ModelName = 'jiangu-large';
/**
 * Side by side on the Qwen-vocabulary fixture: the native num_logits_to_keep graph, and the same
 * weights without it (jiangu-large-nokeep, the presets' shape) rewritten at load and chunked (the
 * rewrite off). The bare session of both nokeep rows is jiangu-large's (it needs num_logits_to_keep).
 */
const PATHS: readonly Pick<McConfiguration, 'model' | 'logitsRewrite' | 'bareModel' | 'label'>[] = [
  { model: MODEL, label: `${MODEL} (native keep)` },
  { model: 'jiangu-large-nokeep', logitsRewrite: true, bareModel: MODEL, label: 'jiangu-large-nokeep (rewritten)' },
  { model: 'jiangu-large-nokeep', logitsRewrite: false, bareModel: MODEL, label: 'jiangu-large-nokeep (chunked)' },
];
/** The issue's target: the rewritten graph ≥ this × the native graph's items/s, every mode. */
const REWRITTEN_TO_NATIVE = 0.95;
const BACKENDS: readonly Backend[] = ['wasm', 'webgpu'];
const USAGE = 'Usage: npx tsx scripts/bench/mc-throughput.ts [--backends wasm,webgpu] [--dtypes fp32,q4] [--webgpu-dtypes q4] [--items 12] [--budget-s 20]';

// Budgets that keep the default run (wasm and webgpu, fp32) near 5 minutes on 2 cores: on
// SwiftShader WebGPU jiangu-large fp32 takes seconds per forward, so its modes stop at the budget.
const DEFAULT_ITEMS = 12;
/** Per mode: items stop once the next would likely end past this; at least MIN_ITEMS run. */
const DEFAULT_BUDGET_S = 20;
/** One whole task of the sample (3 test items): its prefix computed once and reused twice. */
const MIN_ITEMS = 3;
/** More rounds of every mode over the same items while they fit in ROUNDS_BUDGET_S (2 cores are noisy). */
const MAX_ROUNDS = 9;
const ROUNDS_BUDGET_S = 30;
const CONTEXT_LIMIT = 2048;
const STEP_TIMEOUT_MS = 180_000;

interface Options {
  backends: Backend[];
  dtypes: Dtype[];
  /** WebGPU's own dtypes: SwiftShader runs jiangu-large fp32 at seconds a forward, so q4 by default. */
  webgpuDtypes: Dtype[];
  items: number;
  budgetS: number;
}

function list<T extends string>(flag: string, value: string | undefined, allowed: readonly T[], fallback: readonly T[]): T[] {
  if (value === undefined) return [...fallback];
  const items = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = items.filter((s) => !(allowed as readonly string[]).includes(s));
  if (bad.length > 0 || items.length === 0) throw new Error(`--${flag}: ${bad.length > 0 ? `unknown ${bad.join(', ')}` : 'empty'}; choose from ${allowed.join(', ')}.\n${USAGE}`);
  return allowed.filter((a) => items.includes(a));
}

function positive(flag: string, value: string | undefined, fallback: number): number {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (!Number.isFinite(n) || n <= 0) throw new Error(`--${flag} must be a positive number, not ${value}.\n${USAGE}`);
  return n;
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: { backends: { type: 'string' }, dtypes: { type: 'string' }, 'webgpu-dtypes': { type: 'string' }, items: { type: 'string' }, 'budget-s': { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const items = positive('items', values.items, DEFAULT_ITEMS);
  if (!Number.isInteger(items)) throw new Error(`--items must be an integer.\n${USAGE}`);
  return {
    backends: list('backends', values.backends, BACKENDS, BACKENDS),
    dtypes: list('dtypes', values.dtypes, DTYPES, ['fp32']),
    webgpuDtypes: list('webgpu-dtypes', values['webgpu-dtypes'], DTYPES, ['q4']),
    items,
    budgetS: positive('budget-s', values['budget-s'], DEFAULT_BUDGET_S),
  };
}

function modelFile(dtype: Dtype, model: string = MODEL): string {
  return join(projectRoot, '.fixtures', 'models', model, 'onnx', ONNX_FILE[dtype]);
}

/** Items/s of the rewritten rows ÷ the native rows, per backend, dtype and pipeline mode. */
function rewrittenLines(results: readonly McResult[]): string[] {
  const lines: string[] = [];
  for (const r of results.filter((x) => x.logitsRewrite === true)) {
    const native = results.find((x) => x.model === MODEL && x.backend === r.backend && x.dtype === r.dtype);
    if (!native) continue;
    const path = r.load?.result.logitsPath;
    const rows = summarise(r);
    const nativeRows = summarise(native);
    for (const mode of Object.keys(PIPELINE_MODES) as PipelineMode[]) {
      const a = rows.find((row) => row.mode === mode);
      const b = nativeRows.find((row) => row.mode === mode);
      if (!a || !b || !(a.itemsPerS > 0) || !(b.itemsPerS > 0)) continue;
      const ratio = a.itemsPerS / b.itemsPerS;
      lines.push(`- ${r.backend} ${r.dtype} ${PIPELINE_MODES[mode].label}: rewritten ${a.itemsPerS.toFixed(2)} ÷ native ${b.itemsPerS.toFixed(2)} items/s = ${ratio.toFixed(2)} (target ≥ ${REWRITTEN_TO_NATIVE}: ${ratio >= REWRITTEN_TO_NATIVE ? 'met' : 'NOT MET'}); path ${path?.kind ?? '?'}${path?.check ? `, load check ${path.check.tokens} tokens, max |Δ log p| ${path.check.maxAbsDiff}` : ''}${r.load?.result.rewriteMs !== undefined ? `, rewrite ${r.load.result.rewriteMs.toFixed(0)} ms` : ''}`);
    }
  }
  return lines;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const notes: string[] = [];
  const data = loadSampleItems();
  const items = Math.min(options.items, data.items.length - 2);
  if (items < options.items) notes.push(`--items ${options.items} lowered to ${items}: the sample has ${data.items.length} test items and the last 2 are the warm-up.`);

  const present = (model: string, dtype: Dtype) => existsSync(join(projectRoot, '.fixtures', 'models', model, 'config.json')) && existsSync(modelFile(dtype, model));
  const wanted = [...new Set([...options.dtypes, ...options.webgpuDtypes])];
  const dtypes = wanted.filter((dtype) => present(MODEL, dtype));
  for (const dtype of wanted.filter((d) => !dtypes.includes(d))) {
    const line = `${MODEL} ${dtype} skipped: ${modelFile(dtype).slice(projectRoot.length)} is missing; generate it with \`npm run fixtures:large\` (about 700 MB).`;
    console.log(line);
    notes.push(line);
  }
  const paths = PATHS.filter((p) => dtypes.every((dtype) => present(p.model, dtype)));
  for (const p of PATHS.filter((x) => !paths.includes(x))) notes.push(`${p.label} skipped: its files are missing; generate them with \`npm run fixtures:large\`.`);

  const settings: McSettings = {
    items,
    modeBudgetMs: options.budgetS * 1000,
    minItems: Math.min(MIN_ITEMS, items),
    maxRounds: MAX_ROUNDS,
    roundsBudgetMs: ROUNDS_BUDGET_S * 1000,
    contextLimit: CONTEXT_LIMIT,
    stepTimeoutMs: STEP_TIMEOUT_MS,
  };
  const date = new Date();
  const started = performance.now();
  const results: McResult[] = [];
  const chromium = await withChromium({ webgpu: true }, async (siteUrl, browser) => {
    for (const backend of options.backends) {
      for (const dtype of dtypes.filter((d) => (backend === 'webgpu' ? options.webgpuDtypes : options.dtypes).includes(d))) {
        for (const path of paths) {
          const name = `${backend} ${path.label} ${dtype}`;
          const log = (line: string) => console.error(`[bench mc] ${name}: ${line}`);
          const result = await measureMcConfiguration(browser, siteUrl, { backend, dtype, ...path }, data, settings, log);
          log(`done in ${result.totalS.toFixed(1)} s`);
          results.push(result);
        }
      }
    }
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);

  const cut = results.flatMap((r) => summarise(r).filter((row) => row.budgetCut).map((row) => `${r.backend} ${r.dtype} ${row.label} (${row.items} of ${row.requested})`));
  if (cut.length > 0) notes.push(`items cut by the per-mode time budget (${options.budgetS} s in round 1; at least ${settings.minItems} items): ${cut.join(', ')}; their bare rows replay the same items.`);
  for (const r of results) {
    if (r.roundMs.length > 0) notes.push(`${r.backend} ${r.dtype}: ${r.roundMs.length} round(s) of ${r.roundMs.map((ms) => (ms / 1000).toFixed(1)).join(', ')} s (more only while they fit in ${ROUNDS_BUDGET_S} s, at most ${MAX_ROUNDS}).`);
  }
  const leaks = results.filter((r) => r.leaks.length > 0);
  for (const r of leaks) notes.push(`${r.backend} ${r.dtype}: ${r.leaks.length} request(s) tried to leave 127.0.0.1: ${r.leaks.slice(0, 3).join(', ')}`);
  if (leaks.length === 0) notes.push('network guard: no request left 127.0.0.1.');
  for (const r of results) {
    const info = r.load?.result.backendInfo;
    if (info?.adapter) notes.push(`${r.backend}: adapter ${info.adapter.vendor} ${info.adapter.architecture}${info.adapter.isFallbackAdapter ? ' (fallback adapter, on the CPU)' : ''}.`);
  }

  console.log('');
  console.log(markdownTable(results));
  console.log('');
  console.log('Targets (reported, not enforced):');
  for (const line of targetLines(results)) console.log(line);
  for (const line of rewrittenLines(results)) console.log(line);
  console.log('');
  console.log(
    `Items: the first ${items} test items of ${SAMPLE_PATH} in file order (3 per task), protocol ancientbench, exemplars = the task's dev items, ` +
      `context limit ${CONTEXT_LIMIT}, no chat template; warm-up: the last 2 test items (0-shot, then 5-shot with reuse), once per pipeline and once per bare session. ` +
      'items/s = items / page time around the sequential requests (scoreItem through the worker; session.run in the page for the bare session), the median of the rounds; ' +
      'round 1 runs every pipeline mode (deciding the items), then every bare mode; later rounds run each pipeline mode followed by its bare mode. ' +
      "The bare session is onnxruntime-web's ort.webgpu.min.mjs (the build the worker bundles) on the page's main thread, the worker idle, fed the pipeline's own token ids: " +
      'one forward per prompt with num_logits_to_keep = 1, fetching only logits (a prefix run fetches only present.*). ' +
      `"ratio to bare": per round, pipeline items/s ÷ the bare mode over the same prompts (from round 2 run right after it), the median round (target ≥ ${TARGETS.ratioToBare}); "cost ÷ 0-shot cost": ms per item ÷ 0-shot ms per item, same kind (target ≤ ${TARGETS.reuseCost} for 5-shot with reuse). ` +
      '"tokens run / item" counts the prefix for the item that computed it. ScoreResult.logitsCopied does not count the last-row logits of a prefix computation (one more row per prefix).',
  );
  for (const n of notes) console.log(`- ${n}`);
  console.log(machineLines(machine, date, durationS));

  const record = {
    date: date.toISOString(),
    durationS,
    machine,
    options,
    settings: { ...settings, model: MODEL, sample: SAMPLE_PATH, targets: TARGETS },
    notes,
    summaries: results.map((r) => ({ backend: r.backend, model: r.model, dtype: r.dtype, rows: summarise(r) })),
    results,
  };
  writeBenchRecord(projectRoot, 'mc-', date, record);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
