// The memory bound on logits, in the real worker (WASM and WebGPU): a generation on a graph without
// num_logits_to_keep prefills its prompt in chunks, so the largest logits tensor any forward pass
// returns stays within `maxLogitsBytes` while the greedy output stays what jiangu-tiny (which keeps
// only the last row) gives; on WebGPU, repeated chunked generations leave no more GPU buffers alive. And q8 letter scores do not depend on `maxLogitsBytes`: q8 graphs
// quantize activations per pass, so the worker prefills them in a fixed number of rows
// (Q8_PREFILL_ROWS) whatever the memory setting, on jiangu-tiny-nokeep and on the trained stories260k
// (rebuilt here without num_logits_to_keep, as stories260k-nokeep, since the fixture declares it).
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUT_ROOT, writeChunks } from '../../scripts/fixtures/generate.ts';
import type { Page } from 'playwright-core';
import { encodeFixture, greedyGenerate, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { ONNX_FILE } from '../../scripts/fixtures/specs.ts';
import { generateStories260k, storiesOnnxChunks, storiesWeights, STORIES260K_GGUF } from '../../scripts/fixtures/stories260k.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import type { GenerateResult, LoadResult, ScoreResult, WorkerStats } from '../../src/lib/engine/messages.ts';
import { readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';
import { harnessReady, useBrowserSession } from './session.ts';

const LETTERS = ['A', 'B', 'C', 'D'];
/** Long enough that every prompt takes several prefill passes, whatever the row limit. */
const LONG_ZH = `${'子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？'.repeat(4)}\n题目：温故而知新\nA. 温\nB. 故\nC. 知\nD. 新\n答案是：`;
const LONG_EN = `${'Once upon a time, there was a little girl named Lily. She loved to play outside in the park. '.repeat(3)}Question: who played?\nA. Lily\nB. Tom\nC. Sam\nD. Max\nAnswer:`;
/** Q8_PREFILL_ROWS of workers/loaded-model.ts (not imported: that module loads transformers.js). */
const Q8_PREFILL_ROWS = 32;
/** Rows per pass in the small memory setting. */
const ROWS = 8;
const tinyVocab = loadReferenceModel('jiangu-tiny', 'fp32').vocabSize;
const storiesPresent = existsSync(STORIES260K_GGUF) || (process.env.CI ?? '') !== '';

// stories260k's trained weights in a graph without num_logits_to_keep, served beside the fixtures.
const extraRoot = mkdtempSync(join(tmpdir(), 'jiangu-bounded-'));
function makeStoriesNokeep(): void {
  generateStories260k();
  const dir = join(extraRoot, 'stories260k-nokeep');
  cpSync(join(DEFAULT_OUT_ROOT, 'stories260k'), dir, { recursive: true });
  const weights = storiesWeights();
  writeChunks(join(dir, 'onnx', ONNX_FILE.q8), storiesOnnxChunks({ ...weights, spec: { ...weights.spec, numLogitsToKeep: false } }, 'q8'));
  process.env.JIANGU_MODELS = extraRoot;
}
afterAll(() => rmSync(extraRoot, { recursive: true, force: true }));

interface Generated {
  info: LoadResult;
  generation: GenerateResult;
  stats: WorkerStats;
  streamed: number[];
  /** WebGPU: the live GPU buffers before and after six more generations on the same session. */
  release?: { before: WorkerStats; after: WorkerStats };
}
const GEN_TOKENS = 12;
const EOS = 2;

for (const backend of ['wasm', 'webgpu'] as const) {
  describe(`generate on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: backend === 'webgpu', path: '/harness.html', ready: harnessReady });
    // On WebGPU the same loaded -nokeep also shows its prefill caches released (the GPU buffers they
    // hold): one session, so SwiftShader compiles its shaders once for both. jiangu-tiny itself, whose
    // WebGPU case is worker-parity's, is the baseline on WASM; on WebGPU -nokeep meets the reference.
    const releaseToo = backend === 'webgpu';
    const names = backend === 'wasm' ? ['jiangu-tiny', 'jiangu-tiny-nokeep'] : ['jiangu-tiny-nokeep'];

    it(`on jiangu-tiny-nokeep never returns a logits block over maxLogitsBytes, and its greedy ids are ${backend === 'wasm' ? 'jiangu-tiny’s and ' : ''}the reference’s${releaseToo ? '; repeated generations leave no more GPU buffers alive (the prefill cache is released)' : ''}`, async () => {
      const { opened } = session;
      const maxLogitsBytes = ROWS * tinyVocab * 4;
      const runs = (await opened.page
        .evaluate(
          async ({ prompt, maxLogitsBytes, backend, tokens, releaseToo, names }) => {
            const out: Record<string, unknown> = {};
            // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
            const client = new window.jiangu.ModelClient();
            try {
              for (const name of names) {
                const info = await client.load({ source: { kind: 'site', name }, dtype: 'fp32', backend, maxLogitsBytes, logitsRewrite: false });
                const streamed: number[] = [];
                const generation = await client.generate({ prompt, maxNewTokens: tokens }, { onToken: (id) => void streamed.push(id) });
                const stats = await client.stats();
                let release: { before: WorkerStats; after: WorkerStats } | undefined;
                if (releaseToo && name === 'jiangu-tiny-nokeep') {
                  for (let i = 0; i < 3; i++) await client.generate({ prompt, maxNewTokens: 4 }); // warm ORT's buffer pool
                  const before = await client.stats();
                  for (let i = 0; i < 6; i++) await client.generate({ prompt, maxNewTokens: 4 });
                  release = { before, after: await client.stats() };
                }
                out[name] = { info, generation, stats, streamed, release };
              }
            } finally {
              client.terminate();
            }
            return out;
          },
          { prompt: LONG_ZH, maxLogitsBytes, backend, tokens: GEN_TOKENS, releaseToo, names },
        )
        .catch((e: unknown) => {
          throw new Error(`${String(e)}\nconsole:\n${opened.console.join('\n')}`);
        })) as Record<string, Generated>;
      const nokeep = runs['jiangu-tiny-nokeep'];
      expect(nokeep.info.backendInfo.backend).toBe(backend);
      expect(nokeep.info.inputNames).not.toContain('num_logits_to_keep');
      expect(nokeep.info.prefillRows).toBe(ROWS);
      // The prompt is many times the row limit: one pass over it would be far over the bound.
      expect(nokeep.generation.inputIds).toEqual(encodeFixture(LONG_ZH));
      expect(nokeep.generation.inputIds.length).toBeGreaterThan(4 * ROWS);
      expect(nokeep.stats.largestLogitsBytes).toBeGreaterThan(0);
      expect(nokeep.stats.largestLogitsBytes).toBeLessThanOrEqual(maxLogitsBytes);
      const want = greedyGenerate(loadReferenceModel('jiangu-tiny-nokeep', 'fp32'), nokeep.generation.inputIds, GEN_TOKENS, EOS);
      expect(nokeep.generation.tokenIds).toEqual(want);
      expect(nokeep.streamed).toEqual(nokeep.generation.tokenIds);
      if (backend === 'wasm') {
        const tiny = runs['jiangu-tiny'];
        expect(tiny.info.prefillRows).toBeNull();
        // jiangu-tiny keeps one row per pass, so its generation is the unchunked greedy one.
        expect(tiny.stats.largestLogitsBytes).toBe(tinyVocab * 4);
        expect(tiny.generation.tokenIds).toEqual(want);
        expect(nokeep.generation.decoding).toEqual(tiny.generation.decoding);
      }
      console.log(`${backend} generate, ${nokeep.generation.inputIds.length}-token prompt: largest logits ${nokeep.stats.largestLogitsBytes} bytes (bound ${maxLogitsBytes})`);
      if (releaseToo) {
        // A prefill cache left alive would add its present.* buffers (4 per generation) to the live count.
        const { before, after } = nokeep.release!;
        const live = (s: WorkerStats) => s.gpuBuffersCreated - s.gpuBuffersDestroyed;
        expect(before.gpuBuffersCreated).toBeGreaterThan(0);
        expect(live(after)).toBe(live(before));
      }
    });
  });
}

describe('q8 scores on wasm', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady, setup: storiesPresent ? makeStoriesNokeep : undefined });

  const q8Models = [{ name: 'jiangu-tiny-nokeep', prompt: LONG_ZH }, ...(storiesPresent ? [{ name: 'stories260k-nokeep', prompt: LONG_EN }] : [])];
  for (const { name, prompt } of q8Models) {
    it(`${name} q8: letter scores are identical with a small and the default maxLogitsBytes`, async () => {
      const { opened } = session;
      const runs = (await opened.page
        .evaluate(
          async ({ name, prompt, letters, settings }) => {
            const out = [];
            // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
            const client = new window.jiangu.ModelClient();
            try {
              for (const maxLogitsBytes of settings) {
                const info = await client.load({ source: { kind: 'site', name }, dtype: 'q8', backend: 'wasm', maxLogitsBytes, logitsRewrite: false });
                const score = await client.score({ prompt, candidates: letters });
                out.push({ info, score, stats: await client.stats() });
              }
            } finally {
              client.terminate();
            }
            return out;
          },
          // 1 row per pass, and the default 64 MiB (one pass for any of these prompts before the fix).
          { name, prompt, letters: LETTERS, settings: [1, 64 * 1024 * 1024] },
        )
        .catch((e: unknown) => {
          throw new Error(`${String(e)}\nconsole:\n${opened.console.join('\n')}`);
        })) as { info: LoadResult; score: ScoreResult; stats: WorkerStats }[];
      const [small, large] = runs;
      expect(small.info.inputNames).not.toContain('num_logits_to_keep');
      expect(small.info.prefillRows).toBe(Q8_PREFILL_ROWS);
      expect(large.info.prefillRows).toBe(Q8_PREFILL_ROWS);
      // The prompt takes more than one fixed-size pass, so chunking is really exercised.
      expect(small.score.inputIds.length).toBeGreaterThan(Q8_PREFILL_ROWS);
      expect(small.score.forwardPasses).toBe(Math.ceil(small.score.inputIds.length / Q8_PREFILL_ROWS));
      expect(large.score.inputIds).toEqual(small.score.inputIds);
      expect(large.score.candidates.map((c) => c.logProb)).toEqual(small.score.candidates.map((c) => c.logProb));
      const vocab = small.info.vocabSize;
      expect(small.stats.largestLogitsBytes).toBeLessThanOrEqual(Q8_PREFILL_ROWS * vocab * 4);
      console.log(`${name} q8, ${small.score.inputIds.length} tokens: log p = ${small.score.candidates.map((c) => c.logProb.toFixed(6)).join(', ')}`);
    });
  }
});

describe('a q8 run through the Evaluate page (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('records the fixed prefill rows its scores depend on (the load-time rewrite off: the chunked path)', async () => {
    const page = session.opened.page;
    // The Evaluate page has no setting for it: every load request its workers get asks for no rewrite.
    await page.addInitScript(() => {
      const post = Worker.prototype.postMessage;
      Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
        const request = message as { kind?: string; params?: Record<string, unknown> } | null;
        if (request?.kind === 'load' && request.params) request.params = { ...request.params, logitsRewrite: false };
        return (post as (...args: unknown[]) => void).call(this, message, ...rest);
      } as typeof Worker.prototype.postMessage;
    });
    await page.reload();
    await storeSampleAndAclue(page, session.url);
    const runId = await startFixtureRun(page, { dataset: 'aclue', shots: 5, limit: 3, tasks: ['古音学'], model: 'jiangu-tiny-nokeep', dtype: 'q8' });
    await waitForStatus(page, 'completed');
    const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(results).toHaveLength(3);
    expect(run.config.model.dtype).toBe('q8');
    expect(run.environment?.modelInputNames).not.toContain('num_logits_to_keep');
    expect(run.environment?.prefillRows).toBe(Q8_PREFILL_ROWS);
    expect(run.environment?.logitsPath?.kind).toBe('chunked');
  });
});
