// Fixtures shaped like the hub presets, in the real worker on WASM:
// jiangu-tiny-nokeep (no num_logits_to_keep, so chunked prefill), jiangu-tiny-external (fp32 weights
// in onnx/model.onnx_data, declared in config.json) and jiangu-tiny-external-noflag (the same with the
// config silent, Qwen3's case: it loads only because the worker finds the file). All share
// jiangu-tiny's weights, so their letter log-probabilities must equal jiangu-tiny's. A copy whose
// data file is missing or cut short fails with a message naming the file, and the worker loads
// another model afterwards. And an ACLUE task 5-shot through the Evaluate page on jiangu-tiny-nokeep,
// chunked, predicts as jiangu-tiny does. Their files are found and read before any backend, with the
// same code for WASM and WebGPU (workers/external-data.ts): the chunked path's WebGPU case is
// jiangu-tiny-nokeep's in worker-parity.test.ts, the rewritten one's in logits-rewrite.test.ts.
import { cpSync, mkdtempSync, readFileSync, rmSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUT_ROOT } from '../../scripts/fixtures/generate.ts';
import { encodeFixture, lastLogProbs, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import type { ExternalDataInfo, ScoreResult } from '../../src/lib/engine/messages.ts';
import { readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';
import { harnessReady, useBrowserSession } from './session.ts';
import { letterIds, LETTERS, PREFIX, PROMPTS, SUFFIXES } from './tiny-prompts.ts';

const HUB_SHAPED = ['jiangu-tiny-nokeep', 'jiangu-tiny-external', 'jiangu-tiny-external-noflag'] as const;
/** Rows per forward pass for graphs without num_logits_to_keep: small, so every prompt is chunked. */
const ROWS = 8;

// Broken copies of the external fixtures, served beside the generated ones (JIANGU_MODELS).
const brokenRoot = mkdtempSync(join(tmpdir(), 'jiangu-broken-'));
function makeBrokenCopies(): void {
  const copy = (from: string, to: string) => cpSync(join(DEFAULT_OUT_ROOT, from), join(brokenRoot, to), { recursive: true });
  copy('jiangu-tiny-external', 'jiangu-tiny-external-missing');
  rmSync(join(brokenRoot, 'jiangu-tiny-external-missing', 'onnx', 'model.onnx_data'));
  copy('jiangu-tiny-external-noflag', 'jiangu-tiny-external-noflag-missing');
  rmSync(join(brokenRoot, 'jiangu-tiny-external-noflag-missing', 'onnx', 'model.onnx_data'));
  copy('jiangu-tiny-external', 'jiangu-tiny-external-short');
  const data = join(brokenRoot, 'jiangu-tiny-external-short', 'onnx', 'model.onnx_data');
  truncateSync(data, Math.floor(readFileSync(data).length / 2));
  process.env.JIANGU_MODELS = brokenRoot;
}
afterAll(() => rmSync(brokenRoot, { recursive: true, force: true }));

interface ModelRun {
  inputNames: string[];
  externalData: ExternalDataInfo | null | undefined;
  scores: ScoreResult[];
  prefixed: ScoreResult[];
}

const vocab = loadReferenceModel('jiangu-tiny', 'fp32').vocabSize;

/** The loader's code is the same on both backends: these run on WASM. */
const backend = 'wasm' as const;

describe(`hub-shaped fixtures on ${backend}`, () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady, setup: makeBrokenCopies });

  it('nokeep, external and external-noflag give jiangu-tiny’s letter log-probabilities (fp32, 1e-4), with and without prefix reuse', async () => {
    const { opened } = session;
    const runs = await opened.page
      .evaluate(
        async ({ names, backend, prompts, prefix, suffixes, letters, maxLogitsBytes }) => {
          const out: Record<string, unknown> = {};
          // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
          const client = new window.jiangu.ModelClient();
          try {
            for (const name of names) {
              // The rewrite off: this proves the chunked path (logits-rewrite.test.ts proves the rewritten one).
              const info = await client.load({ source: { kind: 'site', name }, dtype: 'fp32', backend, maxLogitsBytes, logitsRewrite: false });
              const scores = [];
              for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
              const prefixed = [];
              for (const s of suffixes) prefixed.push(await client.score({ prompt: prefix + s, prefix, candidates: letters }));
              out[name] = { inputNames: info.inputNames, externalData: info.externalData, scores, prefixed };
            }
          } finally {
            client.terminate();
          }
          return out;
        },
        { names: ['jiangu-tiny', ...HUB_SHAPED], backend, prompts: PROMPTS, prefix: PREFIX, suffixes: SUFFIXES, letters: LETTERS, maxLogitsBytes: ROWS * vocab * 4 },
      )
      .catch((e: unknown) => {
        throw new Error(`${String(e)}\nconsole:\n${opened.console.join('\n')}`);
      });
    const tiny = runs['jiangu-tiny'] as ModelRun;
    expect(tiny.inputNames).toContain('num_logits_to_keep');
    expect(tiny.externalData).toBeNull();
    const diffs: number[] = [];
    for (const name of HUB_SHAPED) {
      const run = runs[name] as ModelRun;
      expect(run.inputNames, name).not.toContain('num_logits_to_keep');
      // The worker reports where the weights came from: the noflag fixture's file was found by its HEAD.
      const wantExternal = { 'jiangu-tiny-nokeep': null, 'jiangu-tiny-external': { files: ['onnx/model.onnx_data'], how: 'config' }, 'jiangu-tiny-external-noflag': { files: ['onnx/model.onnx_data'], how: 'detected' } }[name];
      expect(run.externalData, name).toEqual(wantExternal);
      const pairs: [ScoreResult, ScoreResult][] = [...run.scores.map((s, i) => [s, tiny.scores[i]] as [ScoreResult, ScoreResult]), ...run.prefixed.map((s, i) => [s, tiny.prefixed[i]] as [ScoreResult, ScoreResult])];
      for (const [got, want] of pairs) {
        expect(got.inputIds).toEqual(want.inputIds);
        expect(got.candidates.map((c) => c.tokenId)).toEqual(letterIds);
        got.candidates.forEach((c, k) => diffs.push(Math.abs(c.logProb - want.candidates[k].logProb)));
        got.candidates.forEach((c, k) => expect(Math.abs(c.logProb - want.candidates[k].logProb), `${name}: ${got.inputIds.length} tokens, ${LETTERS[k]}`).toBeLessThan(1e-4));
        // Without num_logits_to_keep the prompt was prefilled in chunks of at most ROWS rows.
        const fresh = got.inputIds.length - got.reusedPrefixTokens;
        expect(got.logitsCopied).toBeLessThanOrEqual((Math.ceil(got.reusedPrefixTokens / ROWS) + Math.ceil(fresh / ROWS)) * ROWS * vocab);
      }
      expect(run.scores.some((s) => s.forwardPasses > 1), name).toBe(true);
      // Prefix reuse happened: the second item ran only its own tokens on the cached prefix.
      expect(run.prefixed.map((p) => p.reusedPrefixTokens)).toEqual(SUFFIXES.map(() => encodeFixture(PREFIX).length));
    }
    console.log(`${backend}: max |Δ log p| of the hub-shaped fixtures vs jiangu-tiny = ${Math.max(...diffs).toExponential(2)}`);
  });

  it('from a hub (the site’s fixture hub): the silent config’s external data is found at {host}{id}/resolve/{revision}/onnx/', async () => {
    const run = await session.opened.page.evaluate(
      async ({ backend, host, prompt, letters }) => {
        const client = new window.jiangu.ModelClient();
        try {
          const out = [];
          for (const name of ['jiangu-tiny', 'jiangu-tiny-external-noflag']) {
            const info = await client.load({ source: { kind: 'hub', id: `jiangu/${name}`, host, revision: 'main' }, dtype: 'fp32', backend });
            out.push({ externalData: info.externalData, score: await client.score({ prompt, candidates: letters }) });
          }
          return out;
        } finally {
          client.terminate();
        }
      },
      { backend, host: `${session.url}/hub/`, prompt: PROMPTS[1], letters: LETTERS },
    );
    expect(run[0].externalData).toBeNull();
    expect(run[1].externalData).toEqual({ files: ['onnx/model.onnx_data'], how: 'detected' });
    run[1].score.candidates.forEach((c, k) => expect(Math.abs(c.logProb - run[0].score.candidates[k].logProb)).toBeLessThan(1e-4));
  });

  it('an external data file that is missing or cut short fails with a message naming it, and another model loads after', async () => {
    const { opened } = session;
    const results = await opened.page.evaluate(
      async ({ backend }) => {
        const client = new window.jiangu.ModelClient();
        const out: Record<string, { code?: string; notice?: unknown; message?: string; detail?: string } | 'loaded'> = {};
        try {
          for (const name of ['jiangu-tiny-external-missing', 'jiangu-tiny-external-noflag-missing', 'jiangu-tiny-external-short']) {
            try {
              await client.load({ source: { kind: 'site', name }, dtype: 'fp32', backend });
              out[name] = 'loaded';
            } catch (e) {
              const error = e as { code?: string; notice?: unknown; message?: string; detail?: string };
              out[name] = { code: error.code, notice: error.notice, message: error.message, detail: error.detail };
            }
          }
          const after = await client.load({ source: { kind: 'site', name: 'jiangu-tiny-external-noflag' }, dtype: 'fp32', backend }).catch((e: unknown) => {
            throw new Error(`after the failures ${JSON.stringify(out)}, a good model failed: ${(e as { detail?: string }).detail}`);
          });
          const score = await client.score({ prompt: '子曰', candidates: ['A'] });
          return { out, afterExternal: after.externalData, afterScore: score.candidates[0].logProb };
        } finally {
          client.terminate();
        }
      },
      { backend },
    );
    const expectNotice = (name: string, code: string) => {
      const got = results.out[name];
      expect(got, name).not.toBe('loaded');
      if (got === 'loaded') return;
      expect(got.notice, `${name}: ${got.detail}`).toEqual({ code, params: { source: 'site', name, file: 'onnx/model.onnx_data' } });
      expect(got.message).toContain('onnx/model.onnx_data');
      expect(got.message).toContain(`/models/${name}/`);
    };
    expectNotice('jiangu-tiny-external-missing', 'load.external-data-missing');
    expectNotice('jiangu-tiny-external-noflag-missing', 'load.external-data-missing');
    expectNotice('jiangu-tiny-external-short', 'load.external-data-damaged');
    expect(results.afterExternal).toEqual({ files: ['onnx/model.onnx_data'], how: 'detected' });
    expect(Number.isFinite(results.afterScore)).toBe(true);
  });
});

// ---- an ACLUE task 5-shot through the Evaluate page, on the graph the presets have -------------

/**
 * Installed in the page before its scripts: sets `maxLogitsBytes` on every load request the page
 * sends to a model worker (the Evaluate page has no such setting), and keeps the forward-pass count
 * of every scored item the workers answer, so the test sees that the chunked path really ran.
 */
function capLogitsInWorkers(maxLogitsBytes: number): void {
  const post = Worker.prototype.postMessage;
  const passes: number[] = [];
  (window as unknown as { __forwardPasses: number[] }).__forwardPasses = passes;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
    const request = message as { kind?: string; params?: Record<string, unknown> } | null;
    // The rewrite off too: this run proves the chunked path through the page.
    if (request?.kind === 'load' && request.params) request.params = { ...request.params, maxLogitsBytes, logitsRewrite: false };
    if (!(this as Worker & { __counted?: boolean }).__counted) {
      (this as Worker & { __counted?: boolean }).__counted = true;
      this.addEventListener('message', (event: MessageEvent) => {
        const score = (event.data as { kind?: string; result?: { score?: { forwardPasses?: number } } })?.result?.score;
        if ((event.data as { kind?: string }).kind === 'result' && typeof score?.forwardPasses === 'number') passes.push(score.forwardPasses);
      });
    }
    return (post as (...args: unknown[]) => void).call(this, message, ...rest);
  } as typeof Worker.prototype.postMessage;
}

describe('an ACLUE task 5-shot on jiangu-tiny-nokeep through the Evaluate page (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  const readRun = (page: Page, runId: string) => readStoredRun<McRunRecord, McItemResult>(page, runId);

  it('predicts as jiangu-tiny does, chunked with a small maxLogitsBytes, with the reference’s log-probabilities', async () => {
    const page = session.opened.page;
    await page.addInitScript(capLogitsInWorkers, ROWS * vocab * 4);
    await storeSampleAndAclue(page, session.url);
    const task = { dataset: 'aclue', shots: 5, limit: 12, tasks: ['古音学'] };
    const runs: Record<string, { run: McRunRecord; results: McItemResult[]; passes: number[] }> = {};
    for (const model of ['jiangu-tiny', 'jiangu-tiny-nokeep']) {
      await page.reload();
      const runId = await startFixtureRun(page, { ...task, model });
      await waitForStatus(page, 'completed');
      const stored = await readRun(page, runId);
      const passes = await page.evaluate(() => (window as unknown as { __forwardPasses: number[] }).__forwardPasses.slice());
      runs[model] = { ...stored, passes };
      // The page's accuracy is the stored predictions'.
      await page.getByTestId('results').waitFor();
      const scored = stored.results.filter((r) => r.correct !== null);
      expect(await page.getByTestId('acc-overall').textContent()).toBe(((100 * scored.filter((r) => r.correct).length) / scored.length).toFixed(2));
    }
    const tiny = runs['jiangu-tiny'];
    const nokeep = runs['jiangu-tiny-nokeep'];
    expect(nokeep.run.config.model.source).toEqual({ kind: 'site', name: 'jiangu-tiny-nokeep' });
    expect(nokeep.run.environment?.modelInputNames).not.toContain('num_logits_to_keep');
    expect(nokeep.run.environment?.logitsPath).toEqual({ kind: 'chunked', refusal: { code: 'model.logits-rewrite-off', params: {} } });
    expect(nokeep.results).toHaveLength(12);
    expect(nokeep.results.map((r) => r.itemId)).toEqual(tiny.results.map((r) => r.itemId));
    expect(nokeep.results.map((r) => r.prompt)).toEqual(tiny.results.map((r) => r.prompt));
    expect(nokeep.results.map((r) => r.prediction)).toEqual(tiny.results.map((r) => r.prediction));
    expect(nokeep.results.every((r) => r.shotsUsed === 5)).toBe(true);
    expect(nokeep.results.some((r) => r.reusedPrefixTokens > 0)).toBe(true);
    // jiangu-tiny keeps one row per pass; nokeep's 5-shot prompts took several chunks of ROWS rows.
    expect(tiny.passes.every((p) => p <= 2)).toBe(true);
    expect(nokeep.passes.length).toBeGreaterThanOrEqual(12);
    expect(Math.max(...nokeep.passes)).toBeGreaterThan(2);
    const reference = loadReferenceModel('jiangu-tiny-nokeep', 'fp32');
    nokeep.results.forEach((r, i) => {
      const want = lastLogProbs(reference, encodeFixture(r.prompt), r.letters.map((l) => encodeFixture(l)[0]));
      r.logProbs.forEach((lp, k) => {
        expect(Math.abs(lp - tiny.results[i].logProbs[k]), `${r.itemId} ${r.letters[k]}`).toBeLessThan(1e-4);
        expect(Math.abs(lp - want[k]), `${r.itemId} ${r.letters[k]} vs reference`).toBeLessThan(1e-4);
      });
    });
  });
});
