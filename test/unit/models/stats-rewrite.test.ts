/**
 * rewriteForStatistics on the fixtures, run in onnxruntime-node (q8 on onnxruntime-web's WASM
 * kernels, the site's, whose integer sums are the same on every CPU): on a classical-Chinese text
 * (the sample the load check tokenizes) and, through the KV cache, a CMMLU-style continuation,
 * every statistic equals rowStatistics of the same graph's logits rows, and of the TypeScript
 * reference's rows; the logits are the graph's as before, bit for bit.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { encodeFixture, forward, loadReferenceModel, referenceFromWeights, type ReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { SPECS, STORIES260K, TINY, type FixtureDtype, type FixtureName, type ModelSpec } from '../../../scripts/fixtures/specs.ts';
import { generateStories260k, storiesWeights } from '../../../scripts/fixtures/stories260k.ts';
import { rowStatistics } from '../../../src/lib/core/logprobs.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import { STATS_OUTPUTS } from '../../../src/lib/core/models/stats-rewrite.ts';
import { MCQ_PROMPT } from '../fixtures/prompts.ts';
import { matMulIntegerArithmeticOf } from '../fixtures/q8-arithmetic.ts';
import { loadStories260kTokenizer, storiesPresent } from '../stories260k-tokenizer.ts';
import { bytesOf, cacheOf, compareStats, keepGraph, kernelsFor, logitsRows, openGraph, pass, statsGraph, worst, type StatsDiff } from './stats-helpers.ts';

/**
 * Statistics against the same graph's rows. fp16: onnxruntime computes a float16 graph's head in
 * float32 on the CPU and in WASM and, finding Cast(float32 → float16) → Cast(float16 → float32) on
 * the way to the statistics, drops the pair (RemoveDuplicateCastTransformer), so the statistics
 * come from the logits before their float16 rounding. A logit below 16 rounds by up to h = 2^-8:
 * log p moves by up to 2h, μ by up to about h·σ, σ likewise (σ ≤ 3 here); 5e-3 seen. q4f16's
 * MatMulNBits gives float16 itself, and agrees to 1e-6.
 */
const SELF_TOLERANCE: Record<FixtureDtype, number> = { fp32: 1e-4, q8: 1e-4, q4: 1e-4, fp16: 1.5e-2, q4f16: 1e-4 };

/**
 * Against the reference: ort-reference.test.ts's 1e-4 for fp32 and q4, and for q8 where the
 * reference's DynamicQuantizeLinear rounds every activation as the WASM kernels do (jiangu-tiny
 * and -nokeep: 1e-6 seen). Where one activation lands on the other side of a quantization step (a
 * float32 rounding apart), the difference propagates: gqa-graph.test.ts's 0.5 for the
 * GroupQueryAttention graph's fused kernels (0.18 seen), and stories260k's continuation on the
 * cache (0.46 seen; its first pass agrees to 4e-6). The rewrite itself is checked by the
 * comparison with the graph's own rows, 1e-4 in every case.
 */
const REFERENCE_TOLERANCE: Partial<Record<FixtureDtype, number>> = { fp32: 1e-4, q4: 1e-4, q8: 1e-4 };
const Q8_FLIP_TOLERANCE = 0.5;

interface Case {
  name: FixtureName | 'stories260k';
  spec: ModelSpec;
  dtypes: readonly FixtureDtype[];
  /** q8 activations of this case round across a quantization step from the reference's (see above). */
  q8Flips?: boolean;
}
const ALL: readonly FixtureDtype[] = ['fp32', 'q8', 'q4', 'fp16', 'q4f16'];
const CASES: readonly Case[] = [
  { name: 'jiangu-tiny', spec: TINY, dtypes: ALL },
  { name: 'jiangu-tiny-nokeep', spec: SPECS['jiangu-tiny-nokeep'], dtypes: ALL },
  { name: 'jiangu-tiny-gqa', spec: SPECS['jiangu-tiny-gqa'], dtypes: ALL, q8Flips: true },
  ...(storiesPresent ? [{ name: 'stories260k' as const, spec: STORIES260K, dtypes: ['fp32', 'q8', 'q4'] as const, q8Flips: true }] : []),
];
if (!storiesPresent) console.warn('stories260k statistics tests skipped: the checkpoint is absent from ../shared/models');

const dirs: Record<string, string> = {};
let stories: PreTrainedTokenizer | null = null;
beforeAll(async () => {
  for (const g of generateFixtures({ models: ['jiangu-tiny', 'jiangu-tiny-nokeep', 'jiangu-tiny-gqa'] })) dirs[g.name] = g.dir;
  if (storiesPresent) {
    dirs.stories260k = generateStories260k().dir;
    stories = await loadStories260kTokenizer();
  }
});

/** The first pass's text and its continuation, as ids. */
function texts(c: Case): { first: number[]; next: number[] } {
  if (c.name !== 'stories260k') return { first: encodeFixture(sampleCmmluPrompt(40)), next: encodeFixture(MCQ_PROMPT) };
  const tok = stories!;
  return {
    first: tok.encode('Once upon a time, there was a little girl named Lily. She loved to play outside in the park.'),
    next: tok.encode(' One day, she saw a big, red ball. What color was the ball? Answer:', { add_special_tokens: false }),
  };
}

async function reference(c: Case, dtype: FixtureDtype): Promise<ReferenceModel | null> {
  if (dtype !== 'fp32' && dtype !== 'q8' && dtype !== 'q4') return null;
  const q8Arithmetic = dtype === 'q8' ? await matMulIntegerArithmeticOf(kernelsFor(dtype)) : 'exact';
  return c.name === 'stories260k' ? referenceFromWeights(storiesWeights(), dtype, { q8Arithmetic }) : loadReferenceModel(c.name, dtype, { q8Arithmetic });
}

const fmt = (d: StatsDiff) => `logprob ${d.logprob.toExponential(1)} mean ${d.mean.toExponential(1)} std ${d.std.toExponential(1)} last ${d.lastLogprobs.toExponential(1)} argmax ${d.argmax}/${d.rows}`;

describe('rewriteForStatistics on the fixtures', () => {
  for (const c of CASES) {
    for (const dtype of c.dtypes) {
      it(`${c.name} ${dtype}: every statistic is rowStatistics of the graph's own rows and the reference's; the logits are unchanged`, async () => {
        const dir = dirs[c.name];
        const { first, next } = texts(c);
        const before = await openGraph(keepGraph(dir, dtype), dtype);
        const session = await openGraph(statsGraph(dir, dtype), dtype);
        expect(session.inputNames).toEqual(before.inputNames);
        expect(session.outputNames).toEqual([...before.outputNames, ...Object.values(STATS_OUTPUTS)]);
        const float16 = dtype === 'fp16' || dtype === 'q4f16';

        // Every position of the text (num_logits_to_keep = 0), then the continuation on the cache.
        const a = await pass(session, c.spec, [first], null, 0);
        const b = await pass(session, c.spec, [next], cacheOf(a), first.length);
        const a0 = await pass(before, c.spec, [first], null, 0);
        const b0 = await pass(before, c.spec, [next], cacheOf(a0), first.length);
        expect(a.logits.dims).toEqual([1, first.length, c.spec.name === 'stories260k' ? 512 : 749]);
        expect(bytesOf(a.logits).equals(bytesOf(a0.logits))).toBe(true);
        expect(bytesOf(b.logits).equals(bytesOf(b0.logits))).toBe(true);

        const rowsA = logitsRows(a.logits);
        const rowsB = logitsRows(b.logits);
        const selfA = compareStats(a, rowsA, [first], float16);
        const selfB = compareStats(b, rowsB, [next], float16);
        const tolerance = SELF_TOLERANCE[dtype];
        // The boundary: the first pass's last row scores the continuation's first token.
        const lastRow = rowsA[0][first.length - 1];
        const boundary = Math.abs((a[STATS_OUTPUTS.lastLogprobs].data as Float32Array)[next[0]] - rowStatistics(lastRow, 0, lastRow.length, next[0]).logprob);
        const report = [`self ${fmt(selfA)} | cached ${fmt(selfB)} | boundary ${boundary.toExponential(1)} (tolerance ${tolerance.toExponential(1)})`];
        for (const d of [selfA, selfB]) {
          expect(worst(d), fmt(d)).toBeLessThan(tolerance);
          expect(d.argmax).toBe(0);
        }
        expect(boundary).toBeLessThan(tolerance);

        const ref = await reference(c, dtype);
        if (ref !== null) {
          const r1 = forward(ref, first);
          const r2 = forward(ref, next, r1.cache);
          const refA = compareStats(a, [r1.logits], [first]);
          const refB = compareStats(b, [r2.logits], [next]);
          report.push(`reference ${fmt(refA)} | cached ${fmt(refB)}`);
          const flips = dtype === 'q8' && c.q8Flips === true;
          for (const d of [refA, refB]) expect(worst(d), fmt(d)).toBeLessThan(flips ? Q8_FLIP_TOLERANCE : (REFERENCE_TOLERANCE[dtype] ?? 0));
          // An argmax may move where a quantization step moved the logits; elsewhere every one is kept.
          if (!flips) expect(refA.argmax + refB.argmax).toBe(0);
        }
        console.info(`[stats] ${c.name} ${dtype} (${first.length}+${next.length} tokens): ${report.join(' || ')}`);
      });
    }
  }
});

describe('rewriteForStatistics: rows, batches and the empty case', () => {
  it('jiangu-tiny fp32: with num_logits_to_keep = 3 the statistics cover the last 3 positions, with 1 the token log-probs are empty', async () => {
    const session = await openGraph(statsGraph(dirs['jiangu-tiny'], 'fp32'), 'fp32');
    const ids = encodeFixture(MCQ_PROMPT);
    const three = await pass(session, TINY, [ids], null, 0, 3);
    expect(three.logits.dims).toEqual([1, 3, 749]);
    expect(three[STATS_OUTPUTS.tokenLogprob].dims).toEqual([1, 2]);
    expect(worst(compareStats(three, logitsRows(three.logits), [ids]))).toBeLessThan(1e-4);
    // The 2 scored rows are positions n − 3 and n − 2, at the ids that follow them.
    const all = await pass(session, TINY, [ids], null, 0);
    const allLp = all[STATS_OUTPUTS.tokenLogprob].data as Float32Array;
    const n = ids.length;
    expect(Math.abs((three[STATS_OUTPUTS.tokenLogprob].data as Float32Array)[0] - allLp[n - 3])).toBeLessThan(1e-5);
    expect(Math.abs((three[STATS_OUTPUTS.tokenLogprob].data as Float32Array)[1] - allLp[n - 2])).toBeLessThan(1e-5);
    const one = await pass(session, TINY, [ids], null, 0, 1);
    expect(one[STATS_OUTPUTS.tokenLogprob].dims).toEqual([1, 0]);
    expect(one[STATS_OUTPUTS.mean].dims).toEqual([1, 1]);
    expect(worst(compareStats(one, logitsRows(one.logits), [ids]))).toBeLessThan(1e-4);
  });

  it('jiangu-tiny-nokeep fp32: a batch of two keeps the batch axis, and a one-token pass on the cache has no token log-prob', async () => {
    const session = await openGraph(statsGraph(dirs['jiangu-tiny-nokeep'], 'fp32'), 'fp32');
    const ids = encodeFixture(MCQ_PROMPT);
    const batch = [ids, [...ids].reverse()];
    const out = await pass(session, TINY, batch, null, 0);
    expect(out[STATS_OUTPUTS.tokenLogprob].dims).toEqual([2, ids.length - 1]);
    expect(out[STATS_OUTPUTS.lastLogprobs].dims).toEqual([2, 749]);
    expect(worst(compareStats(out, logitsRows(out.logits), batch))).toBeLessThan(1e-4);
    const step = await pass(session, TINY, [[ids[0]], [ids[1]]], cacheOf(out), ids.length);
    expect(step[STATS_OUTPUTS.tokenLogprob].dims).toEqual([2, 0]);
    expect(worst(compareStats(step, logitsRows(step.logits), [[ids[0]], [ids[1]]]))).toBeLessThan(1e-4);
  });
});
