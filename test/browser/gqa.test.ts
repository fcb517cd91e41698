// jiangu-tiny-gqa (jiangu-tiny's weights as onnxruntime-genai's model builder writes a llama:
// com.microsoft GroupQueryAttention with its rotary, SkipSimplifiedLayerNormalization, no
// position_ids, no num_logits_to_keep) in the real worker on WASM and on WebGPU (SwiftShader):
// letter log-probabilities equal the reference's and, on WASM, jiangu-tiny's (fp32 and q4, 1e-4;
// jiangu-tiny's own WebGPU case is worker-parity's) for prompts prefilled in
// chunks, with and without a reused prefix cache (so every later pass has sequence_length > 1 on
// a past: the case GroupQueryAttention calls a "subsequent prompt"); q8 scores do not depend on
// the memory setting; greedy generation (single-token steps) gives jiangu-tiny's tokens. And an
// ACLUE task 5-shot through the Evaluate page on jiangu-tiny-gqa, its stored numbers, predictions
// and accuracy table recomputed here in Node from the TypeScript reference.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { greedyGenerate, encodeFixture, lastLogProbs, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { EOS_ID } from '../../scripts/fixtures/tokenizer.ts';
import { aggregateForDataset } from '../../src/lib/core/metrics/index.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import type { GenerateResult, ScoreResult } from '../../src/lib/engine/messages.ts';
import { readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';
import { harnessReady, useBrowserSession } from './session.ts';
import { letterIds, LETTERS, PREFIX, PROMPTS, SUFFIXES } from './tiny-prompts.ts';

const GENERATE_PROMPT = '子曰：学而时习之';
const NEW_TOKENS = 12;
/** Rows per forward pass (fp32): small, so every prompt is prefilled in chunks. */
const ROWS = 8;
const GQA = 'jiangu-tiny-gqa';

const reference = loadReferenceModel('jiangu-tiny', 'fp32');
const vocab = reference.vocabSize;

interface ModelRun {
  inputNames: string[];
  scores: ScoreResult[];
  prefixed: ScoreResult[];
  generated: GenerateResult;
  ms: number;
}

interface Load {
  name: string;
  dtype: 'fp32' | 'q8' | 'q4';
  maxLogitsBytes: number;
}

/** Per load, in a fresh worker: the letter scores of PROMPTS, then of PREFIX + each suffix with prefix reuse. */
function scoreEach(page: Page, backend: 'wasm' | 'webgpu', loads: readonly Load[]): Promise<ScoreResult[][]> {
  return page.evaluate(
    async ({ loads, backend, prompts, prefix, suffixes, letters }) => {
      const out: ScoreResult[][] = [];
      // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
      const client = new window.jiangu.ModelClient();
      try {
        for (const { name, dtype, maxLogitsBytes } of loads) {
          await client.load({ source: { kind: 'site', name }, dtype, backend, maxLogitsBytes, logitsRewrite: false });
          const scores = [];
          for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
          for (const s of suffixes) scores.push(await client.score({ prompt: prefix + s, prefix, candidates: letters }));
          out.push(scores);
        }
      } finally {
        client.terminate();
      }
      return out;
    },
    { loads, backend, prompts: PROMPTS, prefix: PREFIX, suffixes: SUFFIXES, letters: LETTERS },
  );
}

for (const backend of ['wasm', 'webgpu'] as const) {
  describe(`jiangu-tiny-gqa on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: backend === 'webgpu', path: '/harness.html', ready: harnessReady });
    const inPage = <T,>(page: Page, run: () => Promise<T>): Promise<T> =>
      run().catch((e: unknown) => {
        throw new Error(`${String(e)}\nconsole:\n${session.opened.console.join('\n')}`);
      });

    // jiangu-tiny, the baseline, on WASM: its WebGPU case is worker-parity's. On WebGPU -gqa meets the reference.
    const baseline = backend === 'wasm';

    it(`fp32: ${baseline ? 'jiangu-tiny’s' : 'the reference’s'} letter log-probabilities (1e-4), chunked, with and without prefix reuse; ${baseline ? 'jiangu-tiny’s' : 'the reference’s'} greedy tokens`, async () => {
      const page = session.opened.page;
      const runs = await inPage(page, () =>
        page.evaluate(
          async ({ names, backend, prompts, prefix, suffixes, letters, maxLogitsBytes, generatePrompt, newTokens }) => {
            const out: Record<string, unknown> = {};
            // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
            const client = new window.jiangu.ModelClient();
            try {
              for (const name of names) {
                const started = performance.now();
                // The rewrite off: this proves the chunked path on GQA (logits-rewrite.test.ts the rewritten one).
                const info = await client.load({ source: { kind: 'site', name }, dtype: 'fp32', backend, maxLogitsBytes, logitsRewrite: false });
                const scores = [];
                for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
                const prefixed = [];
                for (const s of suffixes) prefixed.push(await client.score({ prompt: prefix + s, prefix, candidates: letters }));
                const generated = await client.generate({ prompt: generatePrompt, maxNewTokens: newTokens });
                out[name] = { inputNames: info.inputNames, scores, prefixed, generated, ms: performance.now() - started };
              }
            } finally {
              client.terminate();
            }
            return out;
          },
          { names: baseline ? ['jiangu-tiny', GQA] : [GQA], backend, prompts: PROMPTS, prefix: PREFIX, suffixes: SUFFIXES, letters: LETTERS, maxLogitsBytes: ROWS * vocab * 4, generatePrompt: GENERATE_PROMPT, newTokens: NEW_TOKENS },
        ),
      );
      const tiny = runs['jiangu-tiny'] as ModelRun | undefined;
      const gqa = runs[GQA] as ModelRun;
      expect(gqa.inputNames).toEqual(['input_ids', 'attention_mask', 'past_key_values.0.key', 'past_key_values.0.value', 'past_key_values.1.key', 'past_key_values.1.value']);
      const all = [...gqa.scores, ...gqa.prefixed];
      const wanted = tiny ? [...tiny.scores, ...tiny.prefixed] : null;
      let worst = 0;
      all.forEach((got, i) => {
        expect(got.candidates.map((c) => c.tokenId)).toEqual(letterIds);
        const fromReference = lastLogProbs(reference, got.inputIds, letterIds);
        got.candidates.forEach((c, k) => {
          worst = Math.max(worst, Math.abs(c.logProb - fromReference[k]));
          expect(Math.abs(c.logProb - fromReference[k]), `${got.inputIds.length} tokens, ${LETTERS[k]} vs reference`).toBeLessThan(1e-4);
        });
        if (!wanted) return;
        const want = wanted[i];
        expect(got.inputIds).toEqual(want.inputIds);
        got.candidates.forEach((c, k) => {
          worst = Math.max(worst, Math.abs(c.logProb - want.candidates[k].logProb));
          expect(Math.abs(c.logProb - want.candidates[k].logProb), `${got.inputIds.length} tokens, ${LETTERS[k]}`).toBeLessThan(1e-4);
        });
      });
      // The prompts as jiangu-tiny's tokenizer cuts them (the baseline's ids, on WASM, are the same).
      expect(gqa.scores.map((s) => s.inputIds)).toEqual(PROMPTS.map((p) => encodeFixture(p)));
      // Prefilled in chunks of ROWS: the long prompts took several passes, each on the cache of the last.
      expect(Math.max(...gqa.scores.map((s) => s.forwardPasses))).toBeGreaterThan(2);
      // The prefix's cache was reused: the second and third items ran only their own tokens on it.
      expect(gqa.prefixed.map((p) => p.reusedPrefixTokens)).toEqual(SUFFIXES.map(() => encodeFixture(PREFIX).length));
      expect(gqa.prefixed.every((p) => p.forwardPasses > 1)).toBe(true);
      // Greedy decoding: one token per pass on the growing cache.
      if (tiny) expect(gqa.generated.tokenIds).toEqual(tiny.generated.tokenIds);
      expect(gqa.generated.tokenIds).toEqual(greedyGenerate(reference, gqa.generated.inputIds, NEW_TOKENS, EOS_ID));
      expect(gqa.generated.tokenIds.length).toBeGreaterThan(1);
      console.log(
        `${backend}: jiangu-tiny-gqa vs ${tiny ? 'jiangu-tiny and ' : ''}the reference max |Δ log p| ${worst.toExponential(2)}; passes ${gqa.scores.map((s) => s.forwardPasses).join(',')}; ` +
          `load+score+generate ${gqa.ms.toFixed(0)} ms${tiny ? ` (jiangu-tiny ${tiny.ms.toFixed(0)} ms)` : ''}; generated ${JSON.stringify(gqa.generated.text)}`,
      );
    });

    it(`q4: ${baseline ? 'jiangu-tiny’s' : 'the reference’s'} q4 letter log-probabilities (1e-4), chunked, with prefix reuse`, async () => {
      const page = session.opened.page;
      const gqaLoad = { name: GQA, dtype: 'q4', maxLogitsBytes: ROWS * vocab * 4 } as const;
      const runs = await inPage(page, () => scoreEach(page, backend, baseline ? [{ ...gqaLoad, name: 'jiangu-tiny' }, gqaLoad] : [gqaLoad]));
      const [tiny, gqa] = baseline ? runs : [null, runs[0]];
      const q4Reference = loadReferenceModel('jiangu-tiny', 'q4');
      let worst = 0;
      gqa.forEach((got, i) => {
        const fromReference = lastLogProbs(q4Reference, got.inputIds, letterIds);
        got.candidates.forEach((c, k) => {
          worst = Math.max(worst, Math.abs(c.logProb - fromReference[k]));
          expect(Math.abs(c.logProb - fromReference[k]), `${got.inputIds.length} tokens, ${LETTERS[k]} vs the q4 reference`).toBeLessThan(1e-4);
          if (!tiny) return;
          worst = Math.max(worst, Math.abs(c.logProb - tiny[i].candidates[k].logProb));
          expect(Math.abs(c.logProb - tiny[i].candidates[k].logProb), `${got.inputIds.length} tokens, ${LETTERS[k]}`).toBeLessThan(1e-4);
        });
      });
      expect(Math.max(...gqa.map((s) => s.forwardPasses))).toBeGreaterThan(2);
      console.log(`${backend}: jiangu-tiny-gqa q4 vs ${tiny ? 'jiangu-tiny q4 and ' : ''}the q4 reference max |Δ log p| ${worst.toExponential(2)}`);
    });

    // On WASM alone: the chunking that could change q8's scores is the worker's, the same on WebGPU (CI time).
    it.runIf(backend === 'wasm')('q8: the same scores whatever the memory setting', async () => {
      const page = session.opened.page;
      const settings = [ROWS * vocab * 4, 64 * 1024 * 1024];
      const runs = await inPage(page, () => scoreEach(page, backend, settings.map((maxLogitsBytes) => ({ name: GQA, dtype: 'q8' as const, maxLogitsBytes }))));
      const [small, large] = runs;
      expect(small.map((s) => s.candidates.map((c) => c.logProb))).toEqual(large.map((s) => s.candidates.map((c) => c.logProb)));
      // q8 is still the same model: within a quantization step of fp32's reference.
      for (const s of small) {
        const want = lastLogProbs(reference, s.inputIds, letterIds);
        s.candidates.forEach((c, k) => expect(Math.abs(c.logProb - want[k])).toBeLessThan(0.5));
      }
      expect(small.some((s) => s.forwardPasses > 1)).toBe(true);
    });
  });
}

// ---- an ACLUE task 5-shot through the Evaluate page ------------------------------------------

const argmaxLetter = (letters: readonly string[], logProbs: readonly number[]): string => letters[logProbs.indexOf(Math.max(...logProbs))];

describe('an ACLUE task 5-shot on jiangu-tiny-gqa through the Evaluate page (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('stores the reference’s log-probabilities, its predictions, and the table of them', async () => {
    const page = session.opened.page;
    await storeSampleAndAclue(page, session.url);
    const runId = await startFixtureRun(page, { dataset: 'aclue', shots: 5, limit: 12, tasks: ['古音学'], model: GQA });
    await waitForStatus(page, 'completed');
    const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(run.config.model.source).toEqual({ kind: 'site', name: GQA });
    expect(run.environment?.modelInputNames).not.toContain('position_ids');
    // The page loads with the rewrite on: the record says the rewritten graph scored the run.
    expect(run.environment?.logitsPath?.kind).toBe('rewritten');
    expect(results).toHaveLength(12);
    expect(results.every((r) => r.failure === undefined && r.shotsUsed === 5)).toBe(true);
    expect(results.some((r) => r.reusedPrefixTokens > 0)).toBe(true);
    for (const r of results) {
      const want = lastLogProbs(reference, encodeFixture(r.prompt), r.letters.map((l) => encodeFixture(l)[0]));
      r.logProbs.forEach((lp, k) => expect(Math.abs(lp - want[k]), `${r.itemId} ${r.letters[k]}`).toBeLessThan(1e-4));
      expect(r.prediction, r.itemId).toBe(argmaxLetter(r.letters, want));
      expect(r.correct, r.itemId).toBe(r.gold === null ? null : r.prediction === r.gold);
    }
    const aggregate = aggregateForDataset(
      'aclue',
      results.map((r) => ({ itemId: r.itemId, task: r.task, correct: r.gold === null ? null : argmaxLetter(r.letters, r.logProbs) === r.gold })),
    );
    console.log(`jiangu-tiny-gqa ACLUE 5-shot: predicted ${results.map((r) => r.prediction).join('')}, gold ${results.map((r) => r.gold).join('')}`);
    await page.getByTestId('results').waitFor();
    const pct = (x: number | null) => (x === null ? '—' : (100 * x).toFixed(2));
    for (const task of aggregate.tasks) expect(await page.getByTestId(`acc-${task.task}`).textContent(), task.task).toBe(pct(task.accuracy));
    expect(await page.getByTestId('acc-overall').textContent()).toBe(pct(aggregate.overall.accuracy));
    for (const r of results) {
      expect(await page.locator(`[data-testid=inspector] li[data-item="${r.itemId}"] strong`).textContent(), r.itemId).toBe(r.prediction);
    }
  });
});
