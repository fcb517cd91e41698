// `npm run bench` (real-shapes part; alone: `npm run bench:real`): what a real model costs in a tab.
// The random-weight models of `npm run fixtures:real` have the exact shapes, graphs and files of the
// presets (Qwen2.5-0.5B, Qwen3-0.6B, SmolLM2-360M), so their speed is the speed users get. Each is
// measured on WASM per dtype, with one thread and with the most the page gets, through the run's own
// worker (real-measure.ts): letter items/s at 0- and 5-shot on CMMLU 古汉语, ACLUE and AncientBench
// prompts, load time, generation, peak memory; and at the deep dtypes also cloze ÷ letters,
// statistics ÷ a one-row forward, and GFLOP/s against a bare onnxruntime-web session doing the same
// MatMuls. Then the minutes a whole benchmark takes. A measurement, not a test: it prints Markdown
// and writes bench-results/real-<timestamp>.json.
//
//   npx tsx scripts/bench/real-shapes.ts [--models real-qwen3-0.6b,…] [--dtypes q4,q8,…]
//     [--threads 1,max] [--deep-dtypes q4,q8] [--items 3] [--gen-tokens 16]
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { withChromium } from '../browser.ts';
import { REAL_OUT_ROOT, REAL_SPECS } from '../fixtures/real-specs.ts';
import { dtypesOf, ONNX_FILE, type FixtureDtype } from '../fixtures/specs.ts';
import { projectRoot } from '../site-routes.ts';
import { loadSharedItems } from './cloze-items.ts';
import { integerOption } from './cli.ts';
import { loadSampleItems } from './mc-items.ts';
import { measureRealConfiguration, type RealConfiguration, type RealResult, type RealSet, type RealSettings } from './real-measure.ts';
import { figures, loadCheckLines, minutesTable, REAL_TARGETS, speedTable, targetLines, threadLines } from './real-report.ts';
import { machineInfo, machineLines, writeBenchRecord } from './report.ts';
import type { MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';

const USAGE = 'Usage: npx tsx scripts/bench/real-shapes.ts [--models a,b] [--dtypes q4,q8] [--threads 1,max] [--deep-dtypes q4,q8] [--items 3] [--gen-tokens 16]';
const ALL_DTYPES: readonly FixtureDtype[] = ['fp32', 'q8', 'q4', 'fp16', 'q4f16'];
const CONTEXT_LIMIT = 4096;
/** One load or request running longer than this fails its step (a 5-shot prefix on one thread takes minutes). */
const STEP_TIMEOUT_MS = 600_000;
const GEN_CAP_MS = 120_000;

interface Options {
  models: string[];
  dtypes: FixtureDtype[] | null;
  /** Thread counts; 'max' is the page's navigator.hardwareConcurrency. */
  threads: (number | 'max')[];
  deepDtypes: FixtureDtype[];
  items: number;
  genTokens: number;
}

function parseOptions(argv: readonly string[]): Options {
  const { values } = parseArgs({
    args: [...argv],
    options: { models: { type: 'string' }, dtypes: { type: 'string' }, threads: { type: 'string' }, 'deep-dtypes': { type: 'string' }, items: { type: 'string' }, 'gen-tokens': { type: 'string' } },
    strict: true,
    allowPositionals: false,
  });
  const names = REAL_SPECS.map((s) => s.name as string);
  const split = (v: string) => v.split(',').map((x) => x.trim()).filter(Boolean);
  const models = values.models === undefined ? names : split(values.models);
  const badModel = models.filter((m) => !names.includes(m));
  if (badModel.length) throw new Error(`--models: unknown ${badModel.join(', ')}; choose from ${names.join(', ')}.\n${USAGE}`);
  const dtypeList = (flag: string, v: string | undefined): FixtureDtype[] | null => {
    if (v === undefined) return null;
    const list = split(v);
    const bad = list.filter((d) => !(ALL_DTYPES as readonly string[]).includes(d));
    if (bad.length || list.length === 0) throw new Error(`--${flag}: ${bad.length ? `unknown ${bad.join(', ')}` : 'empty'}; choose from ${ALL_DTYPES.join(', ')}.\n${USAGE}`);
    return list as FixtureDtype[];
  };
  const threads = (values.threads === undefined ? ['1', 'max'] : split(values.threads)).map((t) => {
    if (t === 'max') return 'max' as const;
    const n = Number(t);
    if (!Number.isInteger(n) || n < 1) throw new Error(`--threads: ${t} is neither a positive integer nor max.\n${USAGE}`);
    return n;
  });
  return {
    models,
    dtypes: dtypeList('dtypes', values.dtypes),
    threads,
    // q4 and q8 differ most where a forward is short (cloze options, generation): onnxruntime-web's
    // wasm MatMulNBits expands q4 weights to fp32 on every run (matmulnbits-wasm.ts).
    deepDtypes: dtypeList('deep-dtypes', values['deep-dtypes']) ?? ['q4', 'q8'],
    items: integerOption('items', values.items, 3, USAGE),
    genTokens: integerOption('gen-tokens', values['gen-tokens'], 16, USAGE),
  };
}

/** A set's timed items: up to `n` test items of its first task with 5 dev items, after the two it primes with. */
function promptSet(name: RealSet['name'], protocolId: RealSet['protocolId'], items: MultipleChoiceItem[], exemplars: Record<string, MultipleChoiceItem[]>, n: number): RealSet {
  const task = items.find((i) => (exemplars[i.task]?.length ?? 0) >= 5)?.task;
  const ofTask = items.filter((i) => i.task === task);
  // The site's AncientBench sample has 3 test items a task: there, one is timed.
  if (ofTask.length < 3) throw new Error(`${name}: its task ${task} has ${ofTask.length} test items; at least 3 are needed`);
  return { name, protocolId, zeroPrime: ofTask[0], fivePrime: ofTask[1], items: ofTask.slice(2, 2 + n), exemplars };
}

function settings(options: Options): RealSettings {
  const cmmlu = loadSharedItems('cmmlu-ancient');
  const aclue = loadSharedItems('aclue');
  const sample = loadSampleItems();
  const sets: RealSet[] = [
    promptSet('cmmlu-ancient', cmmlu.protocolId, cmmlu.items, cmmlu.exemplars, options.items),
    promptSet('aclue', aclue.protocolId, aclue.items, aclue.exemplars, options.items),
    promptSet('ancientbench', 'ancientbench', sample.items, sample.exemplars, options.items),
  ];
  // About 300 characters of the benchmark's own classical text, for the statistics ratio.
  let passage = '';
  for (const item of aclue.items) {
    if (passage.length >= 300) break;
    passage += item.question;
  }
  const first = cmmlu.items[0];
  const genPrompt = `${first.question}\n${first.options.map((o, i) => `${'ABCD'[i]}. ${o}`).join('\n')}\n答案：`;
  return { sets, passage: passage.slice(0, 300), genPrompt, genTokens: options.genTokens, genCapMs: GEN_CAP_MS, contextLimit: CONTEXT_LIMIT, stepTimeoutMs: STEP_TIMEOUT_MS };
}

/** The present real-shaped models and the dtype files each has. */
function present(options: Options): { model: string; dtypes: FixtureDtype[] }[] {
  const out: { model: string; dtypes: FixtureDtype[] }[] = [];
  for (const spec of REAL_SPECS.filter((s) => options.models.includes(s.name))) {
    const dir = join(REAL_OUT_ROOT, spec.name);
    if (!existsSync(join(dir, 'config.json'))) continue;
    const dtypes = dtypesOf(spec).filter((d) => (options.dtypes ?? ALL_DTYPES).includes(d) && existsSync(join(dir, 'onnx', ONNX_FILE[d])));
    if (dtypes.length) out.push({ model: spec.name, dtypes });
  }
  return out;
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  const models = present(options);
  if (models.length === 0) {
    console.log('Real-shapes bench skipped: no real-shaped models in .fixtures/models-real. Generate them with `npm run fixtures:real` (about 3 minutes, 16 GB of disk).');
    return;
  }
  // The site serves .fixtures/models-real beside the fixtures (site-routes.ts reads JIANGU_MODELS).
  process.env.JIANGU_MODELS = [process.env.JIANGU_MODELS, REAL_OUT_ROOT].filter(Boolean).join(':');
  const s = settings(options);
  const date = new Date();
  const started = performance.now();
  const results: RealResult[] = [];
  let cores = 1;
  const chromium = await withChromium({}, async (siteUrl, browser) => {
    const probe = await browser.newPage();
    cores = await probe.evaluate('navigator.hardwareConcurrency').then(Number, () => 1);
    await probe.close();
    const threads = [...new Set(options.threads.map((t) => (t === 'max' ? cores : Math.min(t, cores))))].sort((a, b) => a - b);
    for (const { model, dtypes } of models) {
      for (const dtype of dtypes) {
        for (const t of threads) {
          const config: RealConfiguration = { model, dtype, threads: t, deep: options.deepDtypes.includes(dtype) };
          const name = `${model} ${dtype} ${t} thr`;
          const log = (line: string) => console.error(`[bench real] ${name}: ${line}`);
          const result = await measureRealConfiguration(browser, siteUrl, config, s, log);
          log(`done in ${result.totalS.toFixed(0)} s`);
          results.push(result);
        }
      }
    }
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);
  const rows = results.map((r) => figures(r));

  console.log('');
  console.log('Load checks on the real shapes (the worker\'s own, as a run loads):');
  for (const line of loadCheckLines(results)) console.log(line);
  console.log('');
  console.log(speedTable(rows));
  console.log('');
  console.log('Minutes for whole benchmarks (loading the model comes on top):');
  console.log(minutesTable(rows));
  console.log('');
  console.log(`Targets on real shapes (reported, not enforced): cloze ≤ ${REAL_TARGETS.clozeOverLetter}× letters, statistics ≤ ${REAL_TARGETS.statisticsOverOneRow}× a one-row forward, pipeline ≥ ${REAL_TARGETS.pipelineOverBare}× the bare session:`);
  for (const line of targetLines(rows)) console.log(line);
  const speedUps = threadLines(rows);
  if (speedUps.length) {
    console.log('');
    console.log(`Threads (this page's navigator.hardwareConcurrency: ${cores}):`);
    for (const line of speedUps) console.log(line);
  }
  console.log('');
  console.log(
    `Items: per set, ${options.items} test items of one task (CMMLU 古汉语 and ACLUE from ../shared/data, AncientBench from the site's sample), each set after one untimed item; ` +
      '5-shot: the task\'s dev items as exemplars, prefix reuse on; its first item computes the prefix and is timed apart ("prefix s" = that item less a reusing item). ' +
      `Protocols as runs use them, context limit ${CONTEXT_LIMIT}, no chat template, WASM. items/s = 1000 ÷ mean page ms per item through ModelClient.scoreItem (the next item named, as runs do). ` +
      'cloze ÷ letter: option-text items (a cloze run\'s load, with the statistics outputs) ÷ the same 0-shot CMMLU letter items. statistics ÷ one-row: textStatistics of a 300-character ACLUE passage ÷ scoring the same text as a prompt (the letter load). ' +
      'GFLOP/s: 2 × (tokens × layer multiply-adds + one head row + attention) per 0-shot CMMLU prompt ÷ page time; bare = a plain onnxruntime-web session in the page over the same token ids, on the worker\'s one-row rewrite of the same file. ' +
      '"machine load": the 1-minute load average at the configuration\'s start and end (above the cores\' count, other work shared them and the times are longer than on a quiet machine). ' +
      `Generation: greedy, ${options.genTokens} new tokens; decode tok/s between the first and last streamed token. Peak wasm MB: the largest wasm Memory of the two workers (it only grows). ` +
      'Minutes: items ÷ items/s, plus one prefix per task at 5-shot (CMMLU 古汉语 1 task; ACLUE 15; AncientBench 10).',
  );
  for (const r of results.filter((x) => x.leaks.length > 0)) console.log(`- ${r.model} ${r.dtype}: requests tried to leave 127.0.0.1: ${r.leaks.slice(0, 3).join(', ')}`);
  console.log(machineLines(machine, date, durationS));
  writeBenchRecord(projectRoot, 'real-', date, { date: date.toISOString(), durationS, machine, options, cores, settings: { ...s, sets: s.sets.map((x) => ({ name: x.name, items: x.items.map((i) => i.id) })) }, rows, results });
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
