// Per-position statistics in the real worker (issue 26, item 1), WASM and WebGPU on SwiftShader: a
// model loaded with Jiangu's statistics outputs (stats-rewrite.ts) passes its load check and gives,
// for every token of a text, log p, the argmax, and μ and σ of log p that equal the same model's
// whole-row path (loaded without them: rows read out and computed in the worker) and the TypeScript
// reference within 1e-4: jiangu-tiny (native num_logits_to_keep), jiangu-tiny-nokeep (rewritten at
// load, then given the statistics), jiangu-tiny-gqa (GroupQueryAttention) and stories260k, with
// passes of 8 rows so a text takes several; a deliberately wrong statistics graph is caught at load
// and the worker's whole rows take over with the right numbers; and on stories260k's own greedy
// sentences the engine's Min-K%++ stands clearly apart from the same words shuffled.
// The matrix: WASM runs every model in fp32 and q4; WebGPU runs jiangu-tiny, -nokeep and -gqa in q4
// (the statistics graph's WebGPU case, on each graph kind it goes on) and stories260k in q4 (its q4
// WebGPU case; its fp32 one is the documented greedy paragraph, stories260k.test.ts), each
// statistics graph against the reference.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encodeFixture, forward, greedyGenerate, loadReferenceModel, referenceFromWeights, type ReferenceModel } from '../../scripts/fixtures/reference.ts';
import { generateStories260k, storiesWeights } from '../../scripts/fixtures/stories260k.ts';
import { rowStatistics } from '../../src/lib/core/logprobs.ts';
import { minKPlusPlus, summarizeScores } from '../../src/lib/core/metrics/memorization/index.ts';
import { mulberry32 } from '../../src/lib/core/metrics/generation/bootstrap.ts';
import type { Dtype, TextStatisticsResult } from '../../src/lib/engine/messages.ts';
import { loadStories260kTokenizer, storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { harnessReady, useBrowserSession } from './session.ts';
import { shuffledWords } from '../unit/metrics/memorization-helpers.ts';

/** 40-odd characters of jiangu-tiny's vocabulary: several 8-row passes. */
const TINY_TEXT = '学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？';
const STORY_TEXT = 'Once upon a time, there was a little girl named Lily. She loved to play outside in the park.';

interface Load {
  name: string;
  statistics: boolean;
  logitsRewrite?: boolean;
  fault?: 'target-from-next-row' | 'mean-without-probabilities' | 'variance-as-std';
}

interface Measured {
  load: Load;
  statisticsPath: { kind: string; refusal?: { code: string } } | null;
  results: TextStatisticsResult[];
}

function measure(page: Page, backend: 'wasm' | 'webgpu', dtype: Dtype, loads: readonly Load[], texts: readonly string[], vocab: number): Promise<Measured[]> {
  return page.evaluate(
    async ({ backend, dtype, loads, texts, vocab }) => {
      const out: Measured[] = [];
      // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
      const client = new window.jiangu.ModelClient();
      try {
        for (const load of loads) {
          const info = await client.load({
            source: { kind: 'site', name: load.name },
            dtype,
            backend,
            // 8 rows a pass: a text takes several, each continuing the last one's cache.
            maxLogitsBytes: 8 * 4 * vocab,
            logitsRewrite: load.logitsRewrite,
            statistics: load.statistics,
            ...(load.fault ? { statisticsFault: load.fault } : {}),
          });
          const results: TextStatisticsResult[] = [];
          for (const text of texts) results.push(await client.textStatistics({ text, moments: true }));
          out.push({ load, statisticsPath: (info.statisticsPath as Measured['statisticsPath']) ?? null, results });
        }
      } finally {
        client.terminate();
      }
      return out;
    },
    { backend, dtype, loads, texts, vocab },
  );
}

/** The largest difference of every statistic from the reference forward over the text (its own ids); argmax must agree. */
function againstReference(result: TextStatisticsResult, model: ReferenceModel, label: string): number {
  const { logits } = forward(model, result.ids);
  let worst = 0;
  for (let j = 0; j < result.ids.length - 1; j++) {
    const want = rowStatistics(logits[j], 0, model.vocabSize, result.ids[j + 1]);
    expect(result.argmax[j], `${label} position ${j} argmax`).toBe(want.argmax);
    worst = Math.max(worst, Math.abs(result.logprob[j] - want.logprob), Math.abs(result.mean![j] - want.mean), Math.abs(result.std![j] - want.std));
  }
  expect(worst, label).toBeLessThan(1e-4);
  return worst;
}

const TINY_LOADS: Load[] = [
  { name: 'jiangu-tiny', statistics: true },
  { name: 'jiangu-tiny', statistics: false },
  { name: 'jiangu-tiny-nokeep', statistics: true },
  { name: 'jiangu-tiny-gqa', statistics: true },
];

for (const backend of ['wasm', 'webgpu'] as const) {
  describe(`per-position statistics on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: backend === 'webgpu', path: '/harness.html', ready: harnessReady, setup: () => void (storiesPresent && generateStories260k()) });
    const inPage = <T,>(run: () => Promise<T>): Promise<T> =>
      run().catch((e: unknown) => {
        throw new Error(`${String(e)}\nconsole:\n${session.opened.console.join('\n')}`);
      });

    // q4 on WebGPU: the statistics graph's WebGPU case; both dtypes on WASM.
    for (const dtype of backend === 'wasm' ? (['fp32', 'q4'] as const) : (['q4'] as const)) {
      it(`${dtype}: the statistics graph equals ${backend === 'wasm' ? 'the whole-row path and ' : ''}the reference (1e-4), jiangu-tiny, -nokeep, -gqa`, async () => {
        const model = loadReferenceModel('jiangu-tiny', dtype);
        // The whole-row path is the worker's JavaScript over rows any backend returns: compared on WASM;
        // on WebGPU each statistics graph against the reference.
        const loads = backend === 'wasm' ? TINY_LOADS : TINY_LOADS.filter((l) => l.statistics);
        const measured = await inPage(() => measure(session.opened.page, backend, dtype, loads, [TINY_TEXT], model.vocabSize));
        const worst: string[] = [];
        for (const m of measured) {
          const [result] = m.results;
          expect(result.ids).toEqual(encodeFixture(TINY_TEXT));
          expect(m.statisticsPath?.kind ?? null, m.load.name).toBe(m.load.statistics ? 'graph' : null);
          expect(result.path).toBe(m.load.statistics ? 'graph' : 'worker');
          // Several passes of 8 rows; the graph path copies one row a pass, the whole-row path 8.
          expect(result.forwardPasses).toBeGreaterThan(4);
          if (m.load.statistics) expect(result.logitsCopied).toBeLessThan(result.forwardPasses * 2 * model.vocabSize);
          worst.push(`${m.load.name}${m.load.statistics ? ' (graph)' : ' (rows)'} ${againstReference(result, model, `${backend} ${dtype} ${m.load.name}`).toExponential(1)}`);
        }
        // The two paths of one model agree with each other as closely.
        if (backend === 'wasm') {
          const [graph, rows] = measured;
          expect(rows.load.statistics).toBe(false);
          graph.results[0].logprob.forEach((x, j) => expect(Math.abs(x - rows.results[0].logprob[j])).toBeLessThan(1e-4));
        }
        console.log(`${backend} ${dtype} statistics max |Δ| vs reference: ${worst.join(', ')}`);
      });
    }

    // The check compares in JavaScript whatever the backend computed: on WASM.
    it.skipIf(backend === 'webgpu')('a wrong statistics graph is caught at load: the whole-row path takes over, with the right numbers', async () => {
      const model = loadReferenceModel('jiangu-tiny', 'fp32');
      const measured = await inPage(() => measure(session.opened.page, backend, 'fp32', [{ name: 'jiangu-tiny', statistics: true, fault: 'mean-without-probabilities' }], [TINY_TEXT], model.vocabSize));
      const [m] = measured;
      expect(m.statisticsPath?.kind).toBe('worker');
      expect(m.statisticsPath?.refusal?.code).toBe('model.statistics-check-failed');
      expect(m.results[0].path).toBe('worker');
      againstReference(m.results[0], model, `${backend} fault`);
    });

    // On WebGPU one text, in q4; the separation (JavaScript over the same numbers) on WASM.
    const separation = backend === 'wasm';
    const storyDtypes = backend === 'wasm' ? (['fp32', 'q4'] as const) : (['q4'] as const);
    it.skipIf(!storiesPresent)(`stories260k ${storyDtypes.join(' and ')}: the statistics graph equals the reference${separation ? '; its own greedy sentences stand apart from their shuffles on Min-K%++' : ''}`, async () => {
      const tokenizer = await loadStories260kTokenizer();
      const reference = referenceFromWeights(storiesWeights(), 'fp32');
      const story = tokenizer.decode(greedyGenerate(reference, [1], 300, 2), { skip_special_tokens: true });
      const sentences = [...new Set(story.split(/(?<=[.!?]"?)\s+/).map((s) => s.trim()).filter((s) => s.split(/\s+/).length >= 4))];
      const random = mulberry32(260);
      const shuffled = sentences.map((sentence) => shuffledWords(sentence, random));
      for (const dtype of storyDtypes) {
        const model = referenceFromWeights(storiesWeights(), dtype);
        const texts = dtype === 'fp32' && separation ? [STORY_TEXT, ...sentences, ...shuffled] : [STORY_TEXT];
        const [m] = await inPage(() => measure(session.opened.page, backend, dtype, [{ name: 'stories260k', statistics: true }], texts, model.vocabSize));
        expect(m.statisticsPath?.kind).toBe('graph');
        expect(m.results[0].ids).toEqual(tokenizer.encode(STORY_TEXT));
        againstReference(m.results[0], model, `${backend} stories260k ${dtype}`);
        if (dtype !== 'fp32' || !separation) continue;
        const score = (r: TextStatisticsResult) => minKPlusPlus(Array.from(r.logprob, (logprob, j) => ({ logprob, mean: r.mean![j], std: r.std![j] })))!.score;
        const own = m.results.slice(1, 1 + sentences.length).map(score);
        const moved = m.results.slice(1 + sentences.length).map(score);
        const a = summarizeScores(own)!;
        const b = summarizeScores(moved)!;
        console.log(`stories260k Min-K%++ (k 20%), ${sentences.length} own greedy sentences: ${JSON.stringify(a)}; the same words shuffled: ${JSON.stringify(b)}`);
        expect(sentences.length).toBeGreaterThanOrEqual(12);
        expect(a.min, 'every own sentence above every shuffle').toBeGreaterThan(b.max);
      }
    });
  });
}
