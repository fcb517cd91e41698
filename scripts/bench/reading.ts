// `npm run bench`, reading part (issue 37): what the reading view and 断句 cost for a 300-character
// passage in the real worker, WASM, on jiangu-large (4 layers, the real Qwen3 tokenizer: 151,936 logits
// a row), jiangu-tiny and stories260k: the read's time (median of 3 after a warm-up), its passes (rows
// per pass are the memory bound's: 64 MiB of logits by default), and for 断句 the first read's extra
// cost, which finds the vocabulary's punctuation tokens (every id decoded once per model); and the
// logit lens: the same worker loads the model again with the lens (rewrite and load check included),
// reads the passage's lens, and reads its tokens again on that session (the lens gated off).
// A measurement, not a test: it prints a Markdown table and writes bench-results/reading-<timestamp>.json.
//
// On the real-shaped Qwen3-0.6B (random weights, npm run fixtures:real) when it has been generated, q4.
//
//   npx tsx scripts/bench/reading.ts [--models jiangu-large,jiangu-tiny,stories260k] [--dtypes fp32,q4] [--real real-qwen3-0.6b]
// (after `npm run build`, `npm run fixtures` and `npm run fixtures:large`)
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { openPage, withChromium } from '../browser.ts';
import { DEFAULT_OUT_ROOT } from '../fixtures/generate.ts';
import { REAL_OUT_ROOT } from '../fixtures/real-specs.ts';
import { projectRoot } from '../site-routes.ts';
import { machineInfo, machineLines, median, writeBenchRecord } from './report.ts';
import { findChromium } from '../browser.ts';
import { installNameHelper } from './cloze-page.ts';

const { values } = parseArgs({ options: { models: { type: 'string', default: 'jiangu-large,jiangu-tiny,stories260k' }, dtypes: { type: 'string', default: 'fp32,q4' }, real: { type: 'string', default: 'real-qwen3-0.6b' } } });
const models = values.models!.split(',').filter((name) => existsSync(join(DEFAULT_OUT_ROOT, name)));
const dtypes = values.dtypes!.split(',');
// The real-shaped models (npm run fixtures:real: Qwen3-0.6B's shapes, random weights), in q4 as the site
// loads them by default, when generated: served beside the fixtures (site-routes.ts reads JIANGU_MODELS).
const realModels = values.real!.split(',').filter((name) => name !== '' && existsSync(join(REAL_OUT_ROOT, name)));
if (realModels.length > 0) process.env.JIANGU_MODELS = [process.env.JIANGU_MODELS, REAL_OUT_ROOT].filter(Boolean).join(':');
const plan: [string, string][] = [...models.flatMap((model) => (model === 'stories260k' ? ['fp32'] : dtypes).map((dtype): [string, string] => [model, dtype])), ...realModels.map((model): [string, string] => [model, 'q4'])];
// 300 characters of the Analects' opening chapters, repeated: classical text, as a class would paste.
const OPENING = '子曰学而时习之不亦说乎有朋自远方来不亦乐乎人不知而不愠不亦君子乎有子曰其为人也孝弟而好犯上者鲜矣不好犯上而好作乱者未之有也君子务本本立而道生孝弟也者其为仁之本与子曰巧言令色鲜矣仁曾子曰吾日三省吾身为人谋而不忠乎与朋友交而不信乎传不习乎';
const PASSAGE = [...OPENING.repeat(3)].slice(0, 300).join('');
const REPEATS = 3;

interface Row {
  model: string;
  dtype: string;
  tokens: number;
  passes: number;
  tokensMs: number;
  /** The logit lens: its load (the rewrite and its check included) and a read of the passage. */
  lensLoadMs: number | null;
  lensMs: number | null;
  /** The tokens read again on the session loaded with the lens (gated off). */
  tokensOnLensMs: number | null;
  lensLayers: number | null;
  breaksFirstMs: number;
  breaksMs: number;
  punctuationTokens: number | null;
  loadMs: number;
}

const started = new Date();
const rows: Row[] = [];
await withChromium({ webgpu: false }, async (url, browser) => {
  const opened = await openPage(browser, `${url}/harness.html`);
  const page = opened.page;
  await page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { polling: 100 });
  await installNameHelper(page);
  {
    for (const [model, dtype] of plan) {
      process.stderr.write(`reading: ${model} ${dtype}\n`);
      const row = (await page.evaluate(
        async ({ model, dtype, text, repeats }) => {
          const client = new window.jiangu.ModelClient();
          try {
            const info = await client.load({ source: { kind: 'site', name: model }, dtype: dtype as 'fp32', backend: 'wasm' });
            const timed = async (punctuation: boolean) => {
              const t0 = performance.now();
              const r = await client.readPassage({ text, punctuation });
              return { ms: performance.now() - t0, r };
            };
            await timed(false);
            const tokens: number[] = [];
            let last = null;
            for (let i = 0; i < repeats; i++) {
              const t = await timed(false);
              tokens.push(t.ms);
              last = t.r;
            }
            const first = await timed(true);
            const breaks: number[] = [];
            for (let i = 0; i < repeats; i++) breaks.push((await timed(true)).ms);
            // The lens: the same worker, the model loaded again with the lens behind its gate (the
            // Reading page's way), then the passage's lens, then its tokens on that session.
            let lens: { loadMs: number; ms: number[]; layers: number; tokensMs: number[] } | null = null;
            const lensInfo = await client.load({ source: { kind: 'site', name: model }, dtype: dtype as 'fp32', backend: 'wasm', lens: true });
            if (lensInfo.lensPath?.kind === 'graph') {
              const ms: number[] = [];
              let layers = 0;
              for (let i = 0; i <= repeats; i++) {
                const t0 = performance.now();
                layers = (await client.logitLens({ text })).layers;
                if (i > 0) ms.push(performance.now() - t0);
              }
              const tokensMs: number[] = [];
              for (let i = 0; i < repeats; i++) tokensMs.push((await timed(false)).ms);
              lens = { loadMs: lensInfo.loadMs, ms, layers, tokensMs };
            }
            return { tokensMs: tokens, breaksFirstMs: first.ms, breaksMs: breaks, tokens: last!.reading.ids.length, passes: last!.forwardPasses, punctuationTokens: first.r.punctuationTokens, loadMs: info.loadMs, lens };
          } finally {
            client.terminate();
          }
        },
        { model, dtype, text: PASSAGE, repeats: REPEATS },
      )) as { tokensMs: number[]; breaksFirstMs: number; breaksMs: number[]; tokens: number; passes: number; punctuationTokens: number | null; loadMs: number; lens: { loadMs: number; ms: number[]; layers: number; tokensMs: number[] } | null };
      rows.push({ model, dtype, tokens: row.tokens, passes: row.passes, tokensMs: median(row.tokensMs), lensLoadMs: row.lens?.loadMs ?? null, lensMs: row.lens ? median(row.lens.ms) : null, lensLayers: row.lens?.layers ?? null, tokensOnLensMs: row.lens ? median(row.lens.tokensMs) : null, breaksFirstMs: row.breaksFirstMs, breaksMs: median(row.breaksMs), punctuationTokens: row.punctuationTokens, loadMs: row.loadMs });
    }
  }
  await opened.context.close();
});

const seconds = (new Date().getTime() - started.getTime()) / 1000;
console.log(`\n## Reading view: a 300-character passage (WASM)\n`);
console.log(machineLines(machineInfo(findChromium()), started, seconds));
console.log('\n| model | dtype | tokens | passes | read (tokens view) | 断句 first read | 断句 read | punctuation tokens | lens load | lens read (layers) | read on the lens session |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(`| ${r.model} | ${r.dtype} | ${r.tokens} | ${r.passes} | ${r.tokensMs.toFixed(0)} ms | ${r.breaksFirstMs.toFixed(0)} ms | ${r.breaksMs.toFixed(0)} ms | ${r.punctuationTokens ?? '—'} | ${r.lensLoadMs === null ? '—' : `${r.lensLoadMs.toFixed(0)} ms`} | ${r.lensMs === null ? 'not shown' : `${r.lensMs.toFixed(0)} ms (${r.lensLayers})`} | ${r.tokensOnLensMs === null ? '—' : `${r.tokensOnLensMs.toFixed(0)} ms`} |`);
writeBenchRecord(projectRoot, 'reading-', started, { machine: machineInfo(findChromium()), passage: PASSAGE, rows });
