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
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady, setup: () => void (storiesPresent && generateStories260k()) });

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
});
