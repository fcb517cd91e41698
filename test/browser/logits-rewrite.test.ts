// The load-time rewrite to one logits row (workers/logits-rewrite-hook.ts, workers/logits-path.ts),
// in the real worker on WASM and on WebGPU (SwiftShader). jiangu-tiny-nokeep and jiangu-tiny-gqa
// share jiangu-tiny's weights but declare no num_logits_to_keep: rewritten at load they must give
// jiangu-tiny's letter log-probabilities (fp32, 1e-5) and its q8 predictions while copying ONE
// logits row per prompt; with the rewrite off the chunked path copies a row per token and gives the
// same numbers. jiangu-tiny-oddhead (a head the rewrite does not recognise) falls back to chunks and
// says why in the model check and in the run record. A rewrite made wrong on purpose (the test-only
// logitsRewriteFault) fails its load check, and the worker loads the author's graph again.
import { describe, expect, it } from 'vitest';
import { renderNotice } from '../../src/lib/core/notices/index.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import type { Dtype, LoadResult, ScoreResult } from '../../src/lib/engine/messages.ts';
import { encodeFixture, lastLogProbs, loadReferenceModel } from '../../scripts/fixtures/reference.ts';
import { readStoredRun, startFixtureRun, storeSampleAndAclue, waitForStatus } from './runs.ts';
import { harnessReady, useBrowserSession } from './session.ts';
import { LETTERS, PREFIX, PROMPTS, SUFFIXES } from './tiny-prompts.ts';

const reference = loadReferenceModel('jiangu-tiny', 'fp32');
const vocab = reference.vocabSize;
/** Rows per chunk when the rewrite is off: small, so every prompt but the shortest is chunked. */
const ROWS = 8;

interface Load {
  name: string;
  dtype: Dtype;
  logitsRewrite?: boolean;
}
interface Scored {
  info: Pick<LoadResult, 'inputNames' | 'logitsPath' | 'prefillRows'> & { keepsLastRow?: boolean; checkPath?: unknown };
  scores: ScoreResult[];
  prefixed: ScoreResult[];
}

const logProbs = (s: ScoreResult) => s.candidates.map((c) => c.logProb);
const argmax = (xs: number[]) => xs.indexOf(Math.max(...xs));

for (const backend of ['wasm', 'webgpu'] as const) {
  describe(`the logits rewrite on ${backend}`, () => {
    const session = useBrowserSession({ webgpu: backend === 'webgpu', path: '/harness.html', ready: harnessReady });

    const scoreAll = (loads: Load[]) =>
      session.opened.page
        .evaluate(
          async ({ loads, backend, prompts, prefix, suffixes, letters, maxLogitsBytes }) => {
            const out: Scored[] = [];
            // One worker for these loads: a worker's next load (the playground's and a run's path too) skips a fresh worker's start, about 1.2 s each.
            const client = new window.jiangu.ModelClient();
            try {
              for (const { name, dtype, logitsRewrite } of loads) {
                const info = await client.load({ source: { kind: 'site', name }, dtype, backend, maxLogitsBytes, ...(logitsRewrite === undefined ? {} : { logitsRewrite }) });
                const scores = [];
                for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
                const prefixed = [];
                for (const s of suffixes) prefixed.push(await client.score({ prompt: prefix + s, prefix, candidates: letters }));
                out.push({
                  info: { inputNames: info.inputNames, logitsPath: info.logitsPath, prefillRows: info.prefillRows, keepsLastRow: info.modelCheck?.keepsLastRow, checkPath: info.modelCheck?.logitsPath },
                  scores,
                  prefixed,
                });
              }
            } finally {
              client.terminate();
            }
            return out;
          },
          { loads, backend, prompts: PROMPTS, prefix: PREFIX, suffixes: SUFFIXES, letters: LETTERS, maxLogitsBytes: ROWS * vocab * 4 },
        )
        .catch((e: unknown) => {
          throw new Error(`${String(e)}\nconsole:\n${session.opened.console.join('\n')}`);
        });

    // Off, on WASM: the chunked path is the author's graph, whose WebGPU case is worker-parity's.
    const offToo = backend === 'wasm';
    it(`fp32: rewritten -nokeep and -gqa give jiangu-tiny’s letter log-probs within 1e-5, one row copied per prompt${offToo ? '; off, the chunked path gives them too' : ''}`, async () => {
      const [tiny, nokeep, gqa, off] = await scoreAll([
        { name: 'jiangu-tiny', dtype: 'fp32' },
        { name: 'jiangu-tiny-nokeep', dtype: 'fp32' },
        { name: 'jiangu-tiny-gqa', dtype: 'fp32' },
        ...(offToo ? [{ name: 'jiangu-tiny-nokeep', dtype: 'fp32' as const, logitsRewrite: false }] : []),
      ]);
      expect(tiny.info.logitsPath).toEqual({ kind: 'native' });
      for (const [name, run] of [['nokeep', nokeep], ['gqa', gqa]] as const) {
        expect(run.info.logitsPath?.kind, name).toBe('rewritten');
        // The check ran every row of a short prompt against one row: bit-identical expected.
        expect(run.info.logitsPath?.check?.tokens, name).toBeGreaterThan(1);
        expect(run.info.logitsPath?.check?.maxAbsDiff, name).toBeLessThanOrEqual(1e-5);
        expect(run.info.inputNames, name).toContain('num_logits_to_keep');
        expect(run.info.prefillRows, name).toBe(backend === 'webgpu' && name === 'gqa' ? 16 : null);
        expect(run.info.keepsLastRow, name).toBe(true);
        expect(run.info.checkPath, name).toEqual(run.info.logitsPath);
        const pairs = [...run.scores.map((s, i) => [s, tiny.scores[i]] as const), ...run.prefixed.map((s, i) => [s, tiny.prefixed[i]] as const)];
        for (const [got, want] of pairs) {
          expect(got.inputIds).toEqual(want.inputIds);
          got.candidates.forEach((c, k) => expect(Math.abs(c.logProb - want.candidates[k].logProb), `${name} ${got.inputIds.length} tokens ${LETTERS[k]}`).toBeLessThan(1e-5));
        }
        // One pass and one row per prompt; the prefix's own pass (the first prefixed item) one row more.
        // GroupQueryAttention on WebGPU takes 16 rows a pass (GQA_WEBGPU_PASS_ROWS), each pass one row.
        const passes = (tokens: number) => (backend === 'webgpu' && name === 'gqa' ? Math.ceil(tokens / 16) : 1);
        for (const s of run.scores) expect([s.forwardPasses, s.logitsCopied], name).toEqual([passes(s.inputIds.length), passes(s.inputIds.length) * vocab]);
        const [first, second] = run.prefixed;
        const fresh = (s: ScoreResult) => s.inputIds.length - s.reusedPrefixTokens;
        expect(run.prefixed.map((s) => s.logitsCopied), name).toEqual([(passes(first.reusedPrefixTokens) + passes(fresh(first))) * vocab, passes(fresh(second)) * vocab]);
        expect(run.prefixed.map((s) => s.reusedPrefixTokens > 0), name).toEqual([true, true]);
      }
      if (!offToo) return;
      // Off: the author's graph, chunked, a row for every token run, and the same numbers.
      expect(off.info.logitsPath).toEqual({ kind: 'chunked', refusal: { code: 'model.logits-rewrite-off', params: {} } });
      expect(off.info.inputNames).not.toContain('num_logits_to_keep');
      expect(off.info.prefillRows).toBe(ROWS);
      expect(off.info.keepsLastRow).toBe(false);
      off.scores.forEach((s, i) => {
        expect(s.logitsCopied).toBe(s.inputIds.length * vocab);
        s.candidates.forEach((c, k) => expect(Math.abs(c.logProb - tiny.scores[i].candidates[k].logProb)).toBeLessThan(1e-4));
      });
      expect(Math.max(...off.scores.map((s) => s.forwardPasses))).toBeGreaterThan(1);
    });

    // q8 on WASM alone: WebGPU's q8 is checked in worker-parity (CI time).
    it.runIf(backend === 'wasm')('q8: rewritten -nokeep and -gqa predict what jiangu-tiny’s q8 predicts, one row copied per prompt', async () => {
      const [tiny, nokeep, gqa] = await scoreAll([
        { name: 'jiangu-tiny', dtype: 'q8' },
        { name: 'jiangu-tiny-nokeep', dtype: 'q8' },
        { name: 'jiangu-tiny-gqa', dtype: 'q8' },
      ]);
      for (const [name, run] of [['nokeep', nokeep], ['gqa', gqa]] as const) {
        expect(run.info.logitsPath?.kind, name).toBe('rewritten');
        const all = [...run.scores, ...run.prefixed];
        const want = [...tiny.scores, ...tiny.prefixed];
        expect(all.map((s) => argmax(logProbs(s))), name).toEqual(want.map((s) => argmax(logProbs(s))));
        for (const s of run.scores) expect(s.logitsCopied, name).toBe((backend === 'webgpu' && name === 'gqa' ? Math.ceil(s.inputIds.length / 16) : 1) * vocab);
      }
      // The slice sits after DynamicQuantizeLinear, as in jiangu-tiny's own graph: the same bits.
      expect(nokeep.scores.map(logProbs)).toEqual(tiny.scores.map(logProbs));
    });

    // float16 needs shader-f16, which SwiftShader lacks: WASM only.
    it.runIf(backend === 'wasm')('q4 and q4f16: MatMulNBits rounds one row apart from many, and the load check still passes; jiangu-tiny’s numbers', async () => {
      const runs = await scoreAll([
        { name: 'jiangu-tiny', dtype: 'q4' },
        { name: 'jiangu-tiny-nokeep', dtype: 'q4' },
        { name: 'jiangu-tiny-gqa', dtype: 'q4' },
        { name: 'jiangu-tiny', dtype: 'q4f16' },
        { name: 'jiangu-tiny-nokeep', dtype: 'q4f16' },
        { name: 'jiangu-tiny-gqa', dtype: 'q4f16' },
      ]);
      for (const [at, dtype, within] of [[0, 'q4', 1e-4], [3, 'q4f16', 1e-2]] as const) {
        const tiny = runs[at];
        for (const [name, run] of [['nokeep', runs[at + 1]], ['gqa', runs[at + 2]]] as const) {
          expect(run.info.logitsPath?.kind, `${name} ${dtype}`).toBe('rewritten');
          expect(run.info.logitsPath?.check?.maxAbsDiff, `${name} ${dtype}`).toBeGreaterThanOrEqual(0);
          run.scores.forEach((s, i) => {
            expect(s.logitsCopied, `${name} ${dtype}`).toBe(vocab);
            s.candidates.forEach((c, k) => expect(Math.abs(c.logProb - tiny.scores[i].candidates[k].logProb), `${name} ${dtype} ${LETTERS[k]}`).toBeLessThan(within));
          });
        }
      }
    });
  });
}

describe('a head the rewrite does not recognise (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('falls back to chunked prefill, says why in the model check and the run record, and scores as jiangu-tiny', async () => {
    const page = session.opened.page;
    await storeSampleAndAclue(page, session.url);
    const runId = await startFixtureRun(page, { dataset: 'aclue', shots: 0, limit: 2, tasks: ['古音学'], model: 'jiangu-tiny-oddhead' });
    await waitForStatus(page, 'completed');
    const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    const path = run.environment?.logitsPath;
    expect(path?.kind).toBe('chunked');
    expect(path?.refusal?.code).toBe('model.logits-unrecognised');
    // The reason as plain values, worded where it is shown.
    expect(path?.refusal?.params).toMatchObject({ code: 'head-not-recognised', reason: 'unknown-op', op: 'Einsum', node: expect.stringContaining('lm_head/Einsum') });
    expect(run.modelCheck?.logitsPath).toEqual(path);
    expect(run.modelCheck?.warnings.map((w) => w.code)).toContain('model.logits-unrecognised');
    expect(results).toHaveLength(2);
    for (const r of results) {
      expect(r.failure).toBeUndefined();
      const want = lastLogProbs(reference, encodeFixture(r.prompt), r.letters.map((l) => encodeFixture(l)[0]));
      r.logProbs.forEach((lp, k) => expect(Math.abs(lp - want[k]), `${r.itemId} ${r.letters[k]}`).toBeLessThan(1e-4));
    }
    // The run page shows the stored check, the refusal among its warnings, in the page's words.
    const check = page.getByTestId('run-model-check');
    await check.waitFor();
    expect(await check.getAttribute('data-logits-path')).toBe('chunked');
    const warning = check.locator('[data-testid=model-check-warning][data-code="model.logits-unrecognised"]');
    expect(await warning.textContent()).toContain('did not recognise the part of this graph that makes the logits');
    expect(await warning.textContent()).toContain('the logits come from Einsum node');
    expect(renderNotice(path!.refusal!, 'zh')).toContain('logits 来自 Einsum 节点');
  });
});

describe('a rewrite that fails its load check (WASM)', () => {
  const session = useBrowserSession({ webgpu: false, path: '/harness.html', ready: harnessReady });

  it('loads the author’s graph again: chunked, the check’s numbers in the notice and the model check, jiangu-tiny’s scores with a row copied per token', async () => {
    const [tiny, faulty] = await session.opened.page
      .evaluate(
        async ({ prompts, letters, maxLogitsBytes }) => {
          const out = [];
          for (const params of [
            { source: { kind: 'site' as const, name: 'jiangu-tiny' }, dtype: 'fp32' as const, backend: 'wasm' as const },
            { source: { kind: 'site' as const, name: 'jiangu-tiny-nokeep' }, dtype: 'fp32' as const, backend: 'wasm' as const, maxLogitsBytes, logitsRewriteFault: 'previous-row' as const },
          ]) {
            const client = new window.jiangu.ModelClient();
            try {
              const info = await client.load(params);
              const scores = [];
              for (const prompt of prompts) scores.push(await client.score({ prompt, candidates: letters }));
              out.push({ inputNames: info.inputNames, logitsPath: info.logitsPath, prefillRows: info.prefillRows, modelCheck: info.modelCheck, scores });
            } finally {
              client.terminate();
            }
          }
          return out;
        },
        { prompts: PROMPTS, letters: LETTERS, maxLogitsBytes: ROWS * vocab * 4 },
      )
      .catch((e: unknown) => {
        throw new Error(`${String(e)}\nconsole:\n${session.opened.console.join('\n')}`);
      });
    const path = faulty.logitsPath;
    expect(path?.kind).toBe('chunked');
    expect(path?.refusal?.code).toBe('model.logits-check-failed');
    // The check itself caught the wrong row: real numbers, whole units apart, not a shape mismatch.
    const check = path?.check;
    expect(check?.tokens).toBe(16);
    expect(check?.maxAbsDiff).toBeGreaterThan(1e-5);
    expect(check?.maxAbsDiff).toBeLessThan(Number.MAX_VALUE);
    expect(path?.refusal?.params).toEqual({ tokens: 16, maxAbsDiff: check?.maxAbsDiff, tolerance: 1e-5 });
    // The session scoring is the author's graph: no num_logits_to_keep, prefilled in chunks.
    expect(faulty.inputNames).not.toContain('num_logits_to_keep');
    expect(faulty.prefillRows).toBe(ROWS);
    expect(faulty.modelCheck?.keepsLastRow).toBe(false);
    expect(faulty.modelCheck?.logitsPath).toEqual(path);
    const warning = faulty.modelCheck?.warnings.find((w) => w.code === 'model.logits-check-failed');
    expect(warning).toEqual(path?.refusal);
    const said = { en: renderNotice(warning!, 'en'), zh: renderNotice(warning!, 'zh') };
    expect(said.en).toContain('It loaded the original graph again and prefills prompts in chunks');
    expect(said.en).toContain(check!.maxAbsDiff.toPrecision(3));
    expect(said.zh).toContain('因此重新加载了原计算图，把提示分块预填充');
    expect(said.zh).toContain('16 个词元');
    faulty.scores.forEach((s, i) => {
      const want = tiny.scores[i];
      expect(s.inputIds).toEqual(want.inputIds);
      // The chunked path copies a row for every token of the prompt.
      expect(s.logitsCopied).toBe(s.inputIds.length * vocab);
      s.candidates.forEach((c, k) => expect(Math.abs(c.logProb - want.candidates[k].logProb), `${s.inputIds.length} tokens ${LETTERS[k]}`).toBeLessThan(1e-5));
    });
    // In chunks of ROWS: every prompt but the shortest takes more than one pass.
    expect(faulty.scores.map((s) => s.forwardPasses)).toEqual(faulty.scores.map((s) => Math.ceil(s.inputIds.length / ROWS)));
    expect(Math.max(...faulty.scores.map((s) => s.forwardPasses))).toBeGreaterThan(1);
  });
});
