// Where the model looks (issue 45 §4) in the real worker and browser: the attention tap loaded with
// the lens, a passage read once (attentionRead), then every position's weights (attentionAt), per
// head, against the TypeScript reference forward's softmax (scripts/fixtures/reference.ts, run.c's
// loop) for the plain-attention graph (jiangu-tiny, as optimum exports) and the GroupQueryAttention
// graph with rotary fused (jiangu-tiny-gqa, as the model builder writes Qwen3's), on WASM and on
// WebGPU (SwiftShader); and stories260k's against llama2.c's own C runner (run.c's att after its
// softmax, test/fixtures/stories260k-runc-attention.json), an oracle nobody here wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { encodeFixture, forward, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { AttentionAtResult, AttentionReadResult, LoadResult } from '../../src/lib/engine/messages.ts';
import { storiesPresent } from '../unit/stories260k-tokenizer.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const TEXT = '学而时习之不亦说乎有朋自远方来';

interface Measured {
  info: LoadResult;
  read: AttentionReadResult;
  at: AttentionAtResult[];
}

/** Loads `name` with the lens (and so the attention tap), reads `text`, and asks every position's weights. */
async function measure(page: import('playwright-core').Page, name: string, dtype: string, backend: 'wasm' | 'webgpu', text: string): Promise<Measured> {
  const got = await page.evaluate(
    async ({ name, dtype, backend, text }) => {
      const client = new window.jiangu.ModelClient();
      try {
        const info = await client.load({ source: { kind: 'site', name }, dtype: dtype as 'fp32', backend, lens: true });
        const read = await client.attentionRead({ text });
        const at = [];
        for (let p = 0; p < read.tokens; p++) {
          const r = await client.attentionAt({ position: p });
          at.push({ ...r, weights: Array.from(r.weights), averaged: Array.from(r.averaged) });
        }
        return { info, read, at };
      } finally {
        client.terminate();
      }
    },
    { name, dtype, backend, text },
  );
  return got as unknown as Measured;
}

/** The largest difference between the worker's weights and the reference's, over every layer, head and position. */
function worstAgainstReference(got: Measured, weights: Float64Array[], heads: number, total: number): number {
  let worst = 0;
  for (const at of got.at) {
    const span = at.position + 1;
    for (let l = 0; l < at.layers; l++) {
      for (let h = 0; h < heads; h++) {
        for (let j = 0; j < span; j++) worst = Math.max(worst, Math.abs(at.weights[(l * heads + h) * span + j] - weights[l][(at.position * heads + h) * total + j]));
      }
      // The heads averaged are the mean of the heads shown.
      for (let j = 0; j < span; j++) {
        let sum = 0;
        for (let h = 0; h < heads; h++) sum += at.weights[(l * heads + h) * span + j];
        expect(Math.abs(at.averaged[l * span + j] - sum / heads)).toBeLessThan(1e-6);
      }
    }
  }
  return worst;
}

describe('attention on WASM', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  for (const [name, dtype, tolerance] of [['jiangu-tiny', 'fp32', 1e-5], ['jiangu-tiny', 'q4', 1e-4], ['jiangu-tiny-gqa', 'fp32', 1e-5]] as const) {
    it(`${name} ${dtype}: every layer, head and position is the reference's softmax`, async () => {
      const got = await measure(session.opened.page, name, dtype, 'wasm', TEXT);
      expect(got.info.attentionPath?.kind).toBe('graph');
      const model = loadReferenceModel(name, dtype);
      const ids = encodeFixture(TEXT);
      expect(got.read.ids).toEqual(ids);
      const { attentionWeights } = forward(model, ids, undefined, { attentionWeights: true });
      const worst = worstAgainstReference(got, attentionWeights!, got.read.heads, ids.length);
      console.log(`attention ${name} ${dtype} wasm: max |Δ| vs reference = ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(tolerance);
    });
  }

  it.runIf(storiesPresent)('stories260k fp32: every layer, head and position is llama2.c run.c’s own att', async () => {
    const oracle = JSON.parse(readFileSync(join(process.cwd(), 'test/fixtures/stories260k-runc-attention.json'), 'utf8')) as { prompt: string; tokens: number[]; att: number[][][][] };
    const got = await measure(session.opened.page, 'stories260k', 'fp32', 'wasm', oracle.prompt);
    expect(got.read.ids).toEqual(oracle.tokens);
    let worst = 0;
    for (const at of got.at) {
      const span = at.position + 1;
      for (let l = 0; l < at.layers; l++) {
        for (let h = 0; h < at.heads; h++) {
          for (let j = 0; j < span; j++) worst = Math.max(worst, Math.abs(at.weights[(l * at.heads + h) * span + j] - oracle.att[at.position][l][h][j]));
        }
      }
    }
    console.log(`attention stories260k fp32 wasm: max |Δ| vs llama2.c run.c = ${worst.toExponential(2)}`);
    expect(worst).toBeLessThan(1e-5);
  });
});

describe('attention on WebGPU', () => {
  const session = useBrowserSession({ webgpu: true, path: '/harness.html', ready: harnessReady });

  for (const name of ['jiangu-tiny', 'jiangu-tiny-gqa'] as const) {
    it(`${name} q4: every layer, head and position is the reference's softmax`, async () => {
      const got = await measure(session.opened.page, name, 'q4', 'webgpu', TEXT);
      expect(got.info.backendInfo.backend).toBe('webgpu');
      expect(got.info.attentionPath?.kind).toBe('graph');
      const ids = encodeFixture(TEXT);
      const { attentionWeights } = forward(loadReferenceModel(name, 'q4'), ids, undefined, { attentionWeights: true });
      const worst = worstAgainstReference(got, attentionWeights!, got.read.heads, ids.length);
      console.log(`attention ${name} q4 webgpu: max |Δ| vs reference = ${worst.toExponential(2)}`);
      expect(worst).toBeLessThan(1e-3);
    });
  }
});
