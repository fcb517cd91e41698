// `npm run bench`: load time, first and warm forward, logits copied and greedy generation speed of
// the fixture models in real Chromium, per backend × model × dtype. A measurement, not a test: it
// prints a Markdown table and writes the full record to bench-results/<timestamp>.json.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { withChromium } from '../browser.ts';
import { projectRoot } from '../site-routes.ts';
import type { ModelName } from '../fixtures/specs.ts';
import { parseOptions } from './cli.ts';
import { measureConfiguration, type ConfigResult, type MeasureSettings } from './measure.ts';
import { machineInfo, machineLines, markdownTable, writeBenchRecord } from './report.ts';
import { CANDIDATES, checkTinyPrompt, PROMPTS } from './prompts.ts';

// Time budgets that keep the default run near 5 minutes on 2 cores: only the slow configurations
// (jiangu-large on SwiftShader WebGPU, seconds per forward) reach them, and the table says so.
/** Per configuration: warm forwards stop once the next would end past this (at least MIN_REPEATS run). */
const WARM_BUDGET_MS = 12_000;
const MIN_REPEATS = 2;
const GEN_TOKENS = 32;
/** Each generation (warm-up and timed) is cancelled after this long; it stops after the token in progress. */
const GEN_BUDGET_MS = 15_000;
/** One load, score or generation that runs longer than this fails its configuration. */
const STEP_TIMEOUT_MS = 180_000;

function largeAvailable(): boolean {
  return existsSync(join(projectRoot, '.fixtures', 'models', 'jiangu-large', 'config.json'));
}

async function main(): Promise<void> {
  const options = parseOptions(process.argv.slice(2));
  checkTinyPrompt(PROMPTS['jiangu-tiny']);
  const notes: string[] = [];
  let models: ModelName[] = options.models;
  if (models.includes('jiangu-large') && !largeAvailable()) {
    models = models.filter((m) => m !== 'jiangu-large');
    const line = 'jiangu-large skipped: .fixtures/models/jiangu-large/config.json is missing; generate it with `npm run fixtures:large` (about 700 MB).';
    console.log(line);
    notes.push(line);
  }

  const date = new Date();
  const started = performance.now();
  const results: ConfigResult[] = [];
  const chromium = await withChromium({ webgpu: true }, async (siteUrl, browser) => {
    for (const backend of options.backends) {
      for (const model of models) {
        for (const dtype of options.dtypes) {
          const name = `${backend} ${model} ${dtype}`;
          const settings: MeasureSettings = {
            prompt: PROMPTS[model],
            candidates: CANDIDATES,
            repeats: options.repeats,
            warmBudgetMs: WARM_BUDGET_MS,
            minRepeats: Math.min(MIN_REPEATS, options.repeats),
            genTokens: GEN_TOKENS,
            genBudgetMs: GEN_BUDGET_MS,
            stepTimeoutMs: STEP_TIMEOUT_MS,
          };
          const log = (line: string) => console.error(`[bench] ${name}: ${line}`);
          const result = await measureConfiguration(browser, siteUrl, { backend, model, dtype }, settings, log);
          log(`done in ${result.totalS.toFixed(1)} s`);
          results.push(result);
        }
      }
    }
    return browser.version();
  });
  const durationS = (performance.now() - started) / 1000;
  const machine = machineInfo(chromium);

  const cut = results.filter((r) => r.measurement.warm?.budgetCut);
  if (cut.length > 0) {
    const which = cut.map((r) => `${r.backend} ${r.model} ${r.dtype}`).join(', ');
    notes.push(`repeats reduced by the time budget (warm forwards stop once the next would end past ${WARM_BUDGET_MS / 1000} s, at least ${MIN_REPEATS} run): ${which}.`);
  }
  const genCut = results.filter((r) => r.measurement.generation?.stoppedBy === 'cancelled');
  if (genCut.length > 0) {
    const which = genCut.map((r) => `${r.backend} ${r.model} ${r.dtype}`).join(', ');
    notes.push(`generations cancelled after ${GEN_BUDGET_MS / 1000} s (fewer than ${GEN_TOKENS} tokens; tok/s is over the tokens produced): ${which}.`);
  }
  console.log('');
  console.log(markdownTable(results));
  console.log('');
  console.log(`Score: ${CANDIDATES.join('/')} as the next token after a CMMLU-style item. Generation: greedy from the same prompt, maxNewTokens ${GEN_TOKENS}, timed after one warm-up generation; tok/s = tokens / GenerateResult.ms (prompt forward included), decode tok/s = tokens after the first / time between first and last streamed token. Times in ms, taken in the page.`);
  for (const n of notes) console.log(`- ${n}`);
  console.log(machineLines(machine, date, durationS));

  const record = {
    date: date.toISOString(),
    durationS,
    machine,
    options,
    settings: { warmBudgetMs: WARM_BUDGET_MS, minRepeats: MIN_REPEATS, genTokens: GEN_TOKENS, genBudgetMs: GEN_BUDGET_MS, stepTimeoutMs: STEP_TIMEOUT_MS, candidates: CANDIDATES, prompts: PROMPTS },
    notes,
    results,
  };
  writeBenchRecord(projectRoot, '', date, record);
}

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
