// The Reading page's worker requests on jiangu-large (4 layers, the real Qwen3 tokenizer and its
// 151,936-row head) in the real worker, q4 as the site loads it: every row of a classical passage
// (log p, rank, top ten, punctuation mass over Qwen3's 2,768 punctuation tokens), a seeded
// continuation and every layer of the logit lens against the TypeScript reference (1e-4), on WASM.
// On WebGPU (SwiftShader) the reading of every row: jiangu-large's one WebGPU case, its real-sized
// head on the GPU. The continuation and the lens have their WebGPU cases on the small models
// (reading.test.ts, logit-lens.test.ts): their WebGPU code is the same whatever the vocabulary, and
// on SwiftShader the lens's load check alone took 78 s here (the whole file 230–290 s).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { forward, loadReferenceModel, referenceLens, type ReferenceModel } from '../../scripts/fixtures/reference.ts';
import { punctuationIds } from '../../src/lib/core/reading/punctuation-tokens.ts';
import { readRow } from '../../src/lib/core/reading/row-reading.ts';
import type { LoadResult, LogitLensResult, ReadPassageResult, SampleStepsResult } from '../../src/lib/engine/messages.ts';
import { loadQwen3Tokenizer } from '../unit/qwen3-tokenizer.ts';
import { referenceContinuation } from '../unit/reading/sampling-reference.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const PASSAGE = '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？';
const SETTING = { temperature: 0.9, topK: 20, seed: 3, maxNewTokens: 6 };
const QWEN_EOS = new Set([151_645]);

interface Measured {
  reading: ReadPassageResult;
  sample?: SampleStepsResult;
  lensInfo?: LoadResult;
  lens?: LogitLensResult;
}

/** The reading on `backend`; with `all`, the seeded continuation and the lens too (a load of its own). */
function measure(page: Page, backend: 'wasm' | 'webgpu', all: boolean): Promise<Measured> {
  return page.evaluate(
    async ({ backend, text, setting, all }) => {
      const source = { kind: 'site' as const, name: 'jiangu-large' };
      // One worker, the lens loaded into it after the plain model (a worker's next load skips its start).
      const client = new window.jiangu.ModelClient();
      try {
        await client.load({ source, dtype: 'q4', backend });
        const reading = await client.readPassage({ text, punctuation: true });
        if (!all) return { reading };
        const sample = await client.sampleSteps({ prompt: text, ...setting, showTop: 5 });
        const lensInfo = await client.load({ source, dtype: 'q4', backend, lens: true });
        return { reading, sample, lensInfo, lens: await client.logitLens({ text }) };
      } finally {
        client.terminate();
      }
    },
    { backend, text: PASSAGE, setting: SETTING, all },
  );
}

describe('the Reading page’s requests on jiangu-large', () => {
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady });

  // The reference's side, computed once for both backends: the tokens, Qwen3's punctuation-only
  // tokens (151,936 decodes) and every row's logits.
  let reference: Promise<{ model: ReferenceModel; ids: number[]; punctuation: number[]; logits: Float32Array[] }> | undefined;
  const referenceReading = () =>
    (reference ??= (async () => {
      const model = loadReferenceModel('jiangu-large', 'q4');
      const tokenizer = await loadQwen3Tokenizer();
      const ids = tokenizer.encode(PASSAGE, { add_special_tokens: true });
      const punctuation = punctuationIds(Array.from({ length: model.vocabSize }, (_, id) => tokenizer.decode([id], { skip_special_tokens: true })));
      return { model, ids, punctuation, logits: forward(model, ids).logits };
    })());

  for (const [backend, all] of [['wasm', true], ['webgpu', false]] as const) {
    it(`q4 on ${backend}: the reading${all ? ', a seeded continuation and every layer of the lens are' : ' is'} the reference's`, async () => {
      const { reading, sample, lensInfo, lens } = await measure(session.opened.page, backend, all);
      const { model, ids: wantIds, punctuation, logits } = await referenceReading();
      const ids = reading.reading.ids;
      expect(ids).toEqual(wantIds);
      expect(reading.punctuationTokens).toBe(punctuation.length);
      let worst = 0;
      reading.reading.rows.forEach((row, j) => {
        const want = readRow(logits[j], 0, model.vocabSize, j + 1 < ids.length ? ids[j + 1] : null, 10, punctuation);
        if (want.logprob !== null) worst = Math.max(worst, Math.abs(row.logprob! - want.logprob));
        worst = Math.max(worst, Math.abs(row.punctuationMass! - want.punctuationMass!));
        row.topIds.forEach((id, i) => {
          if (id === want.topIds[i]) worst = Math.max(worst, Math.abs(row.topLogprobs[i] - want.topLogprobs[i]));
          else expect(Math.abs(row.topLogprobs[i] - want.topLogprobs[i]), `row ${j} top ${i}`).toBeLessThan(1e-4);
        });
      });
      expect(worst).toBeLessThan(1e-4);
      if (!all) {
        console.log(`jiangu-large q4 on ${backend}: reading max |Δ| ${worst.toExponential(1)} over ${ids.length} tokens`);
        return;
      }
      if (!sample || !lensInfo || !lens) throw new Error('the continuation and the lens were not measured');

      const continuation = referenceContinuation(model, ids, SETTING, SETTING.seed, SETTING.maxNewTokens, QWEN_EOS);
      expect(sample.steps.map((s) => s.token)).toEqual(continuation.map((s) => s.token));
      sample.steps.forEach((s, i) => expect(Math.abs(s.chosenProb - continuation[i].chosenProb)).toBeLessThan(1e-4));

      expect(lensInfo.lensPath?.kind).toBe('graph');
      const want = referenceLens(model, lens.ids, lens.k);
      expect(lens.ids).toEqual(ids);
      let lensWorst = 0;
      for (let i = 0; i < lens.topIds.length; i++) {
        lensWorst = Math.max(lensWorst, Math.abs(lens.topProbs[i] - want.probs[i]));
        if (lens.topIds[i] !== want.ids[i]) expect(Math.abs(want.probs[i] - lens.topProbs[i]), `lens cell ${i}`).toBeLessThan(1e-4);
      }
      expect(lensWorst).toBeLessThan(1e-4);
      console.log(`jiangu-large q4 on ${backend}: reading max |Δ| ${worst.toExponential(1)}, lens ${lensWorst.toExponential(1)} over ${lens.layers} layers, ${ids.length} tokens`);
    }, 600_000);
  }
});
