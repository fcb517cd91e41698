// The logit lens in the real worker (issue 37 §3), WASM and WebGPU (SwiftShader): a load with
// `lens: true` rewrites the graph (lens-rewrite.ts), checks its last layer against the model's own
// logits, and every layer's top 5 at every position of a passage equals the TypeScript reference's
// lens (its hidden states through the final norm and the head, float64 softmax) within 1e-4, over
// passes of 8 rows (jiangu-tiny fp32 and q4 on WASM, q4 on WebGPU: the lens's WebGPU case; stories260k
// fp32 on WASM, its WebGPU case being its documented greedy paragraph); a deliberately wrong lens (no
// final norm) is caught at load and not shown; a load without the lens refuses a lens request with a
// message.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { encodeFixture, loadReferenceModel, referenceFromWeights, type ReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { Dtype, LoadResult, LogitLensResult } from '../../src/lib/engine/messages.ts';
import { referenceLens } from '../../scripts/fixtures/reference.ts';
import { harnessReady, useBrowserSession } from './session.ts';
import { generateStories260k, storiesWeights } from '../../scripts/fixtures/stories260k.ts';
import { storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { generateFixtures } from '../../scripts/fixtures/generate.ts';
import { servedBothWays } from './served-both-ways.ts';

const TEXT = '学而时习之不亦说乎有朋自远方来不亦乐乎';

function lensInWorker(page: Page, backend: 'wasm' | 'webgpu', dtype: Dtype, vocab: number, options: { lens?: boolean; lensFault?: 'skip-final-norm' }, name = 'jiangu-tiny', text = TEXT): Promise<{ info: LoadResult; lens: LogitLensResult | null; error: string | null }> {
  return page.evaluate(
    async ({ backend, dtype, vocab, options, text, name }) => {
      const client = window.jiangu.reader();
      const info = await client.load({ source: { kind: 'site', name }, dtype, backend, maxLogitsBytes: 8 * 4 * vocab, ...options });
      try {
        return { info, lens: await client.logitLens({ text }), error: null };
      } catch (e) {
        return { info, lens: null, error: String((e as { notice?: { code: string } }).notice?.code ?? e) };
      }
    },
    { backend, dtype, vocab, options, text, name },
  );
}

/** Every layer's top 5 against the reference's lens; ids must agree except between near-equal probabilities. */
function againstReference(lens: LogitLensResult, model: ReferenceModel, label: string): number {
  const want = referenceLens(model, lens.ids, lens.k);
  expect(lens.layers, label).toBe(model.spec.numLayers);
  let worst = 0;
  for (let i = 0; i < lens.topIds.length; i++) {
    worst = Math.max(worst, Math.abs(lens.topProbs[i] - want.probs[i]));
    if (lens.topIds[i] !== want.ids[i]) expect(Math.abs(want.probs[i] - lens.topProbs[i]), `${label} cell ${i}`).toBeLessThan(1e-4);
  }
  expect(worst, label).toBeLessThan(1e-4);
  return worst;
}

describe('the logit lens in the real worker', () => {
  const session = useBrowserSession({
    webgpu: true,
    path: '/harness.html',
    ready: harnessReady,
    setup: () => {
      if (storiesPresent) generateStories260k();
      generateFixtures({ models: ['jiangu-large-tied', 'jiangu-tiny-tied'] });
    },
  });

  for (const [backend, dtype] of [['wasm', 'fp32'], ['wasm', 'q4'], ['webgpu', 'q4']] as const) {
    it(`jiangu-tiny ${dtype} on ${backend}: passes its load check, and every layer equals the reference's lens (1e-4)`, async () => {
      const model = loadReferenceModel('jiangu-tiny', dtype);
      const { info, lens, error } = await lensInWorker(session.opened.page, backend, dtype, model.vocabSize, { lens: true });
      expect(error).toBeNull();
      expect(info.lensPath?.kind).toBe('graph');
      expect(info.lensPath?.check?.maxProbDiff).toBeLessThan(1e-4);
      expect(lens!.ids).toEqual(encodeFixture(TEXT));
      expect(lens!.passes).toBeGreaterThan(1);
      const worst = againstReference(lens!, model, `${backend} ${dtype}`);
      console.log(`logit lens, jiangu-tiny ${dtype} on ${backend}: max |Δp| vs reference ${worst.toExponential(1)} over ${lens!.layers} layers, ${lens!.passes} passes`);
    });
  }

  for (const backend of ['wasm'] as const) {
    it.runIf(storiesPresent)(`stories260k fp32 on ${backend}: every layer equals the reference lens, its BOS the first position`, async () => {
      const model = referenceFromWeights(storiesWeights(), 'fp32');
      const { info, lens } = await lensInWorker(session.opened.page, backend, 'fp32', model.vocabSize, { lens: true }, 'stories260k', 'Once upon a time, there was a little girl named Lily.');
      expect(info.lensPath?.kind).toBe('graph');
      expect(lens!.pieces[0].special).toBe(true);
      againstReference(lens!, model, `stories260k ${backend}`);
    });
  }

  it('a lens without the final norm fails its load check and is not shown; a load without the lens refuses the request', async () => {
    const model = loadReferenceModel('jiangu-tiny', 'fp32');
    const faulty = await lensInWorker(session.opened.page, 'wasm', 'fp32', model.vocabSize, { lens: true, lensFault: 'skip-final-norm' });
    expect(faulty.info.lensPath?.kind).toBe('unavailable');
    expect(faulty.info.lensPath?.refusal?.code).toBe('model.lens-check-failed');
    expect(faulty.error).toBe('model.lens-not-loaded');
    const plain = await lensInWorker(session.opened.page, 'wasm', 'fp32', model.vocabSize, {});
    expect(plain.info.lensPath).toBeUndefined();
    expect(plain.error).toBe('model.lens-not-loaded');
  });

  // The Reading page's lens view loads the model once more with the lens, in the same worker: that one
  // session must then serve every other view exactly as the plain load did (the lens behind its gate).
  for (const [backend, dtype] of [['wasm', 'fp32'], ['wasm', 'q8'], ['wasm', 'q4f16'], ['webgpu', 'q4']] as const) {
    it(`jiangu-tiny ${dtype} on ${backend}: the session loaded with the lens scores, reads and generates bit for bit as the plain load`, async () => {
      const model = loadReferenceModel('jiangu-tiny', 'fp32');
      const page = session.opened.page;
      const { plain, withExtra: withLens } = await servedBothWays(page, backend, dtype, model.vocabSize, TEXT, 'lens');
      expect(plain.lensPath).toBeNull();
      expect(withLens.lensPath).toBe('graph');
      expect(withLens.lensRows).toBe(encodeFixture(TEXT).length);
      expect(withLens.letters).toEqual(plain.letters);
      expect(withLens.reading).toEqual(plain.reading);
      expect(plain.reading.length).toBeGreaterThan(encodeFixture(TEXT).length);
      expect(withLens.generated).toEqual(plain.generated);
      expect(plain.letters.flat().every(Number.isFinite)).toBe(true);
    });
  }

  // The hub's layouts of a tied model, streamed as the site streams them: q8's head reads the uint8
  // embedding through DequantizeLinear(Transpose) and runs in blocks, q4's is a Gemm on the float32
  // embedding; the lens branch computes its own Transpose, which onnxruntime folds at load, so the
  // streamed embedding must stay until the session exists (foldedInputOffsets).
  // On WebGPU (SwiftShader) jiangu-tiny-tied, the same layouts at jiangu-tiny's size: jiangu-large's takes 100 s there.
  for (const [name, backend, dtype] of [['jiangu-large-tied', 'wasm', 'q8'], ['jiangu-large-tied', 'wasm', 'q4'], ['jiangu-tiny-tied', 'webgpu', 'q4'], ['jiangu-tiny-tied', 'webgpu', 'q8']] as const) {
    it(`${name} ${dtype} on ${backend} (the hub’s tied layout), streamed: loads with the lens, passes its check, and scores as the plain load`, async () => {
      const page = session.opened.page;
      const got = await page.evaluate(
        async ({ name, backend, dtype, text }) => {
          const client = window.jiangu.reader();
          const source = { kind: 'site' as const, name };
          const plain = await client.load({ source, dtype, backend });
          const want = (await client.score({ prompt: text, candidates: ['A', 'B', 'C', 'D'] })).candidates.map((c) => c.logProb);
          const info = await client.load({ source, dtype, backend, lens: true });
          const lens = await client.logitLens({ text });
          const scored = (await client.score({ prompt: text, candidates: ['A', 'B', 'C', 'D'] })).candidates.map((c) => c.logProb);
          return { weights: info.weights?.kind, plainBlocks: plain.headBlocks, blocks: info.headBlocks, lensPath: info.lensPath?.kind, layers: lens.layers, rows: lens.rows, ids: lens.ids.length, want, scored };
        },
        { name, backend, dtype, text: TEXT },
      );
      expect(got.weights).toBe('streamed');
      expect(got.blocks).toBe(got.plainBlocks);
      expect(got.blocks).toBeGreaterThan(0);
      expect(got.lensPath).toBe('graph');
      expect([got.layers, got.rows]).toEqual([name === 'jiangu-large-tied' ? 4 : 2, got.ids]);
      expect(got.scored).toEqual(got.want);
    }, 120_000);
  }
});
