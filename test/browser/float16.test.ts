// float16 fixtures (model_fp16.onnx, model_q4f16.onnx: float16 weights, KV cache and logits) in the
// real worker. On WASM, twice: as Chromium is (onnxruntime-common hands float16 logits back as a
// Float16Array) and with Float16Array taken away inside the worker, as in a browser that lacks it
// (they come back as the raw half bits in a Uint16Array, which the worker must convert). Letter
// log-probabilities of jiangu-tiny, jiangu-tiny-nokeep and jiangu-tiny-gqa (both chunked prefill) must stay within the
// float16 tolerance of the fp32 / q4 reference, with and without prefix reuse, and greedy generation
// on fp16 must follow fp32 wherever fp32's choice is clear. On WebGPU (SwiftShader, no shader-f16):
// Auto falls back to WASM and says why, an explicit WebGPU gets the shader-f16 message, in English
// and in Chinese.
import { basename, join } from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { FLOAT16_LOGPROB_TOLERANCE } from '../../scripts/fixtures/float16.ts';
import { encodeFixture, forward, lastLogProbs, loadReferenceModel, type ReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { Dtype } from '../../scripts/fixtures/specs.ts';
import type { GenerateResult, LoadResult, ScoreResult } from '../../src/lib/engine/messages.ts';
import { openPage } from '../../scripts/browser.ts';
import { encodeModel } from '../../scripts/fixtures/onnx-proto.ts';
import { projectRoot } from '../../scripts/site-routes.ts';
import { NO_FLOAT16_KERNEL, PROBES, probeModel } from '../unit/fixtures/float16-probes.ts';
import { MODEL_LOAD_MS, harnessReady, useBrowserSession } from './session.ts';
import { letterIds, LETTERS, PREFIX, PROMPTS, SUFFIXES } from './tiny-prompts.ts';

const GEN_PROMPTS = ['子曰', '学而时习之，', '有朋自远方来，不亦'];
const GEN_TOKENS = 12;
const EOS = 2;
/** Rows per forward pass for the graphs without num_logits_to_keep: small, so every prompt is prefilled in chunks. */
const ROWS = 8;
const PAIRS: readonly (readonly ['fp16' | 'q4f16', Dtype])[] = [['fp16', 'fp32'], ['q4f16', 'q4']];
const FIXTURES = ['jiangu-tiny', 'jiangu-tiny-nokeep', 'jiangu-tiny-gqa'] as const;
const vocab = loadReferenceModel('jiangu-tiny', 'fp32').vocabSize;
const references: Record<string, ReferenceModel> = { fp32: loadReferenceModel('jiangu-tiny', 'fp32'), q4: loadReferenceModel('jiangu-tiny', 'q4') };

const NO_FLOAT16ARRAY = 'delete globalThis.Float16Array; console.info(`[float16 test] Float16Array in this worker: ${typeof Float16Array}`);\n';

/** Serves the model worker with Float16Array deleted before anything in it runs (it is one bundle, no imports). */
async function withoutFloat16Array(page: Page): Promise<void> {
  await page.context().route('**/assets/model.worker-*.js', async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, body: NO_FLOAT16ARRAY + (await response.text()) });
  });
}

interface FixtureRun {
  info: LoadResult;
  scores: ScoreResult[];
  prefixed: ScoreResult[];
  generations: GenerateResult[];
}

async function runAll(page: Page, console: string[]): Promise<Record<string, FixtureRun>> {
  return page
    .evaluate(
      async ({ names, dtypes, prompts, prefix, suffixes, letters, genPrompts, genTokens, maxLogitsBytes }) => {
        const out: Record<string, unknown> = {};
        for (const name of names) {
          // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
          const client = new window.jiangu.ModelClient();
          try {
            for (const dtype of dtypes) {
              const info = await client.load({ source: { kind: 'site', name }, dtype, backend: 'wasm', maxLogitsBytes, logitsRewrite: false });
              const scores = [];
              for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
              const prefixed = [];
              for (const s of suffixes) prefixed.push(await client.score({ prompt: prefix + s, prefix, candidates: letters }));
              const generations = [];
              if (dtype === 'fp16') for (const prompt of genPrompts) generations.push(await client.generate({ prompt, maxNewTokens: genTokens }));
              out[`${name} ${dtype}`] = { info, scores, prefixed, generations };
            }
          } finally {
            client.terminate();
          }
        }
        return out;
      },
      { names: FIXTURES, dtypes: PAIRS.map(([d]) => d), prompts: PROMPTS, prefix: PREFIX, suffixes: SUFFIXES, letters: LETTERS, genPrompts: GEN_PROMPTS, genTokens: GEN_TOKENS, maxLogitsBytes: ROWS * vocab * 4 },
    )
    .catch((e: unknown) => {
      throw new Error(`${String(e)}\nconsole:\n${console.join('\n')}`);
    }) as Promise<Record<string, FixtureRun>>;
}

/**
 * fp32's greedy tokens after `ids`, as far as each choice is clear: the step whose top-2 margin is
 * within the float16 tolerance (twice: both logits may move) and everything after it are left out,
 * since float16 may pick the other token there and go its own way.
 */
function clearGreedyPrefix(ids: readonly number[], maxNew: number): { tokens: number[]; stoppedAt: number | null } {
  const seq = [...ids];
  const tokens: number[] = [];
  for (let i = 0; i < maxNew; i++) {
    const row = forward(references.fp32, seq).logits[seq.length - 1];
    const order = Array.from(row.keys()).sort((a, b) => row[b] - row[a] || a - b);
    if (row[order[0]] - row[order[1]] <= 2 * FLOAT16_LOGPROB_TOLERANCE) return { tokens, stoppedAt: i };
    tokens.push(order[0]);
    if (order[0] === EOS) break;
    seq.push(order[0]);
  }
  return { tokens, stoppedAt: null };
}

for (const halves of ['Float16Array', 'raw half bits'] as const) {
  describe(`float16 fixtures on WASM (logits as ${halves})`, () => {
    const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

    it(`fp16 and q4f16 letter log-probs of jiangu-tiny, -nokeep and -gqa within ${FLOAT16_LOGPROB_TOLERANCE} of fp32 / q4, with and without prefix reuse; greedy fp16 follows fp32`, async () => {
      const { opened } = session;
      if (halves === 'raw half bits') await withoutFloat16Array(opened.page);
      const runs = await runAll(opened.page, opened.console);
      const removed = opened.console.filter((l) => l.includes('[float16 test]'));
      if (halves === 'raw half bits') expect(removed.length).toBeGreaterThan(0);
      for (const line of removed) expect(line).toContain('Float16Array in this worker: undefined');

      const diffs: Record<string, number> = {};
      let compared = 0;
      for (const name of FIXTURES) {
        for (const [half, full] of PAIRS) {
          const run = runs[`${name} ${half}`];
          const where = `${name} ${half}`;
          expect(run.info.backendInfo.backend, where).toBe('wasm');
          expect(run.info.inputNames.includes('num_logits_to_keep'), where).toBe(name === 'jiangu-tiny');
          let worst = 0;
          for (const s of [...run.scores, ...run.prefixed]) {
            expect(s.candidates.map((c) => c.tokenId), where).toEqual(letterIds);
            const want = lastLogProbs(references[full], s.inputIds, letterIds);
            s.candidates.forEach((c, k) => {
              const d = Math.abs(c.logProb - want[k]);
              worst = Math.max(worst, d);
              expect(d, `${where}: ${s.inputIds.length} tokens (${s.reusedPrefixTokens} reused), ${LETTERS[k]}`).toBeLessThan(FLOAT16_LOGPROB_TOLERANCE);
            });
          }
          diffs[where] = worst;
          // The graph computed in float16: not the float32 numbers exactly.
          expect(worst, where).toBeGreaterThan(0);
          expect(run.prefixed.map((p) => p.reusedPrefixTokens), where).toEqual(SUFFIXES.map(() => encodeFixture(PREFIX).length));
          if (name !== 'jiangu-tiny') expect(run.scores.some((s) => s.forwardPasses > 1), `${where} chunked`).toBe(true);

          run.generations.forEach((g, i) => {
            const { tokens, stoppedAt } = clearGreedyPrefix(g.inputIds, GEN_TOKENS);
            expect(g.tokenIds.slice(0, tokens.length), `${where} generation from ${GEN_PROMPTS[i]} (fp32 clear for ${tokens.length} tokens, then ${stoppedAt ?? 'end'})`).toEqual(tokens);
            compared += tokens.length;
          });
        }
      }
      // The margin rule left enough tokens to compare (about GEN_TOKENS per prompt on these weights).
      expect(compared).toBeGreaterThanOrEqual(GEN_PROMPTS.length * FIXTURES.length * 4);
      console.log(`[float16] WASM (${halves}): max |Δ log p(ABCD)| vs fp32 / q4: ${JSON.stringify(Object.fromEntries(Object.entries(diffs).map(([k, v]) => [k, v.toExponential(2)])))}; greedy tokens compared ${compared}`);
    });
  });
}

describe('float16 fixtures on WebGPU without shader-f16 (SwiftShader)', () => {
  const session = useBrowserSession({ webgpu: true, path: '/' });

  async function load(page: Page, dtype: string, backend: string): Promise<void> {
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption(dtype);
    await page.getByTestId('backend').selectOption(backend);
    await page.getByTestId('load').click();
    // The button is disabled while loading, in either language.
    await page.waitForFunction(() => !(document.querySelector('[data-testid=load]') as HTMLButtonElement | null)?.disabled, null, { polling: 100, timeout: MODEL_LOAD_MS });
  }

  it('Auto loads fp16 and q4f16 on WASM and says why; the scores are float16’s', async () => {
    const { page } = session.opened;
    await expect.poll(() => page.getByTestId('model-choice').inputValue()).toBe('site:jiangu-tiny');
    for (const [half, full] of PAIRS) {
      await load(page, half, 'auto');
      expect(await page.getByTestId('model-error').count()).toBe(0);
      expect(await page.getByTestId('backend-used').textContent()).toBe('WASM');
      expect(await page.getByTestId('adapter').count()).toBe(0);
      expect(await page.getByTestId('fallback-reason').textContent()).toBe(`this GPU has no shader-f16, which ${half} needs on WebGPU`);
      // The reason is a notice: a language switch rewords it.
      await page.getByTestId('lang-zh').click();
      expect(await page.getByTestId('fallback-reason').textContent()).toBe(`这块 GPU 没有 shader-f16 功能，而 ${half} 在 WebGPU 上需要它`);
      await page.getByTestId('lang-en').click();
      await page.getByTestId('score').click();
      await page.getByTestId('letter-bars').waitFor();
      const prompt = (await page.getByTestId('prompt').textContent()) ?? '';
      const want = lastLogProbs(references[full], encodeFixture(prompt), letterIds);
      for (const [k, letter] of LETTERS.entries()) {
        const shown = Number(await page.getByTestId(`logprob-${letter}`).textContent());
        expect(Math.abs(shown - want[k]), `${half} ${letter}`).toBeLessThan(FLOAT16_LOGPROB_TOLERANCE);
      }
    }
  });

  it('an explicit WebGPU gets the shader-f16 message for fp16 and q4f16, in the page’s language', async () => {
    const { page } = session.opened;
    for (const dtype of ['fp16', 'q4f16']) {
      await load(page, dtype, 'webgpu');
      expect(await page.getByTestId('model-error').textContent()).toContain(`This GPU cannot run ${dtype} (it lacks the shader-f16 feature). Use fp32, q8 or q4, or the WASM backend.`);
    }
    const zh = await openPage(page.context().browser()!, `${session.url}/`, { locale: 'zh-CN' });
    try {
      await expect.poll(() => zh.page.getByTestId('model-choice').inputValue()).toBe('site:jiangu-tiny');
      await load(zh.page, 'q4f16', 'webgpu');
      expect(await zh.page.getByTestId('model-error').textContent()).toContain('这块 GPU 不能运行 q4f16（缺少 shader-f16 功能）。请改用 fp32、q8 或 q4，或 WASM 后端。');
      expect(zh.leaks).toEqual([]);
    } finally {
      await zh.context.close();
    }
  });
});

describe('float16 kernels in the WASM build the site serves', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  /**
   * The one-node float16 graphs of float16-probes.ts, in onnxruntime-web's own API (the package
   * transformers.js bundles) on the site's wasm binary, with verbose logs: a node with no float16
   * kernel comes back wrapped in Casts, so its session has more than one node.
   */
  it('lists the fixture graphs’ ops that have no float16 kernel on WASM (they run in float32 between Casts)', async () => {
    const { page, context } = session.opened;
    const ortDist = join(projectRoot, 'node_modules', 'onnxruntime-web', 'dist');
    await context.route('**/__ort/*', (route) => route.fulfill({ path: join(ortDist, basename(new URL(route.request().url()).pathname)), contentType: 'text/javascript' }));
    await page.evaluate((models) => ((window as unknown as { probeModels: unknown }).probeModels = models), PROBES.map((p) => ({ op: p.op, bytes: Array.from(encodeModel(probeModel(p)).toBytes()) })));
    const from = opened().length;
    // A string, so the test runner's transform never touches the dynamic import.
    const refused = (await page.evaluate(`(async () => {
      const ort = await import('/__ort/ort.webgpu.mjs');
      ort.env.wasm.wasmPaths = { mjs: '/ort/ort-wasm-simd-threaded.asyncify.mjs', wasm: '/ort/ort-wasm-simd-threaded.asyncify.wasm' };
      ort.env.wasm.numThreads = 1;
      ort.env.logLevel = 'verbose';
      const refused = {};
      for (const m of window.probeModels) {
        console.log('[probe] ' + m.op);
        try {
          await ort.InferenceSession.create(new Uint8Array(m.bytes), { executionProviders: ['wasm'], graphOptimizationLevel: 'disabled', logSeverityLevel: 0, logVerbosityLevel: 0 });
        } catch (e) {
          refused[m.op] = String(e).slice(0, 200);
        }
      }
      console.log('[probe] end');
      return refused;
    })()`)) as Record<string, string>;
    const lines = opened().slice(from);
    const nodes: Record<string, number> = {};
    let current = '';
    for (const line of lines) {
      const probe = /\[probe\] (\S+)/.exec(line);
      if (probe) current = probe[1];
      const count = /Number of nodes: (\d+)/.exec(line);
      if (count && current) nodes[current] = Number(count[1]);
    }
    const float32 = PROBES.map((p) => p.op).filter((op) => (nodes[op] ?? 0) > 1);
    const float16 = PROBES.map((p) => p.op).filter((op) => nodes[op] === 1);
    console.log(`[float16] onnxruntime-web WASM, no float16 kernel (run in float32): ${float32.join(', ')}; float16 kernel: ${float16.join(', ')}; refused: ${JSON.stringify(refused)}`);
    expect(refused).toEqual({});
    // Every probe was seen, and the probe can tell the two apart.
    expect(float32.length + float16.length, lines.slice(0, 40).join('\n')).toBe(PROBES.length);
    expect(float32).toEqual(NO_FLOAT16_KERNEL);
  });

  const opened = () => session.opened.console;
});
