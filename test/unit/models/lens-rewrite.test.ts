/**
 * rewriteForLens on the fixtures, run in onnxruntime-node (q8 on onnxruntime-web's WASM kernels,
 * the site's, whose integer sums are the same on every CPU): every layer's top 5 and probabilities
 * against the TypeScript reference's lens (scripts/fixtures/reference.ts referenceLens: its own
 * hidden states through the final RMSNorm and lm_head, softmax in float64); the last layer's lens
 * against the graph's own logits by the load check's comparison (lastLayerAgreement); the logits
 * bit for bit as before; and the test-only faults caught by that same comparison.
 */
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { encodeFixture, loadReferenceModel, referenceFromWeights, referenceLens, type ReferenceLens, type ReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { LARGE, SPECS, STORIES260K, TINY, type Dtype, type FixtureName, type ModelSpec } from '../../../scripts/fixtures/specs.ts';
import { generateStories260k, storiesWeights } from '../../../scripts/fixtures/stories260k.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import { lastLayerAgreement, lensCheckTolerance, LENS_GATE, LENS_OUTPUTS, rewriteForLens, type LensFault, type LensGrid } from '../../../src/lib/core/models/lens-rewrite.ts';
import { matMulIntegerArithmeticOf } from '../fixtures/q8-arithmetic.ts';
import { loadStories260kTokenizer, storiesPresent } from '../stories260k-tokenizer.ts';
import { bytesOf, floats, keepGraph, kernelsFor, openGraph, pass, type Outputs } from './stats-helpers.ts';
import { blockDequantizedHead } from '../../../src/lib/core/models/head-blocks.ts';

/**
 * Every layer's lens against the reference's, in probability. fp32: 1e-4 (the bound; about
 * 1e-6 seen). q4: the same weights (the reference dequantizes exactly what MatMulNBits holds), only
 * the summation order differs: 1e-4 too. q8: the reference rounds every activation as the WASM
 * kernels do, so the lens agrees like fp32 (jiangu-tiny, jiangu-large and stories260k: under 1e-6
 * seen). jiangu-tiny-gqa's q8 graph is not the reference's model: its packed q|k|v is quantized with
 * one scale where the reference has three, so activations land across quantization steps and the
 * difference propagates through the layers (2.7e-2 seen, ids swapped where probabilities are close):
 * Q8_FLIP_TOLERANCE, ids not compared.
 */
const TOLERANCE: Record<Dtype, number> = { fp32: 1e-4, q4: 1e-4, q8: 1e-4 };
const Q8_FLIP_TOLERANCE = 0.1;

interface Case {
  name: FixtureName | 'stories260k';
  spec: ModelSpec;
  dtypes: readonly Dtype[];
  q8Flips?: boolean;
}
const CASES: readonly Case[] = [
  { name: 'jiangu-tiny', spec: TINY, dtypes: ['fp32', 'q8', 'q4'] },
  { name: 'jiangu-tiny-gqa', spec: SPECS['jiangu-tiny-gqa'], dtypes: ['fp32', 'q8', 'q4'], q8Flips: true },
  { name: 'jiangu-large', spec: LARGE, dtypes: ['fp32', 'q8', 'q4'] },
  ...(storiesPresent ? [{ name: 'stories260k' as const, spec: STORIES260K, dtypes: ['fp32', 'q8', 'q4'] as const }] : []),
];
if (!storiesPresent) console.warn('stories260k lens tests skipped: the checkpoint is absent from ../shared/models');

const dirs: Record<string, string> = {};
let stories: PreTrainedTokenizer | null = null;
beforeAll(async () => {
  for (const g of generateFixtures({ models: ['jiangu-tiny', 'jiangu-tiny-gqa', 'jiangu-large'] })) dirs[g.name] = g.dir;
  if (storiesPresent) {
    dirs.stories260k = generateStories260k().dir;
    stories = await loadStories260kTokenizer();
  }
}, 300_000);

/** A passage as ids: the load check's classical-Chinese sample for the tiny tokenizer, a story for stories260k, spread ids for jiangu-large's Qwen vocabulary. */
function passage(c: Case): number[] {
  if (c.name === 'stories260k') return stories!.encode('Once upon a time, there was a little girl named Lily. She loved to play.');
  if (c.name === 'jiangu-large') return Array.from({ length: 12 }, (_, i) => (i * 40_503 + 977) % 151_000);
  return encodeFixture(sampleCmmluPrompt(24));
}

async function reference(c: Case, dtype: Dtype): Promise<ReferenceModel> {
  const q8Arithmetic = dtype === 'q8' ? await matMulIntegerArithmeticOf(kernelsFor(dtype)) : 'exact';
  return c.name === 'stories260k' ? referenceFromWeights(storiesWeights(), dtype, { q8Arithmetic }) : loadReferenceModel(c.name, dtype, { q8Arithmetic });
}

function gridOf(out: Outputs): LensGrid {
  const ids = out[LENS_OUTPUTS.topIds];
  const [, layers, rows, k] = ids.dims as number[];
  return { layers, rows, k, topIds: Int32Array.from(ids.data as BigInt64Array, Number), topProbs: out[LENS_OUTPUTS.topProbs].data as Float32Array };
}

interface LensDiff {
  maxProbDiff: number;
  idMismatches: number;
  /** Per layer: the largest probability difference. */
  perLayer: number[];
}

/**
 * Every layer's lens against the reference's (taken with k + 1 candidates, so a swap at rank k is
 * seen): probabilities rank by rank, ids identical except where the reference's own neighbours at
 * that rank are within `tolerance` of each other and the graph took the neighbour.
 */
function compareWithReference(grid: LensGrid, ref: ReferenceLens, tolerance: number): LensDiff {
  const { layers, rows, k } = grid;
  const d: LensDiff = { maxProbDiff: 0, idMismatches: 0, perLayer: new Array<number>(layers).fill(0) };
  for (let l = 0; l < layers; l++) {
    for (let r = 0; r < rows; r++) {
      for (let j = 0; j < k; j++) {
        const at = (l * rows + r) * k + j;
        const rat = (l * rows + r) * ref.k;
        const diff = Math.abs(grid.topProbs[at] - ref.probs[rat + j]);
        d.perLayer[l] = Math.max(d.perLayer[l], Number.isNaN(diff) ? Infinity : diff);
        if (grid.topIds[at] === ref.ids[rat + j]) continue;
        const tied = [j - 1, j + 1].some((n) => n >= 0 && n < ref.k && ref.ids[rat + n] === grid.topIds[at] && Math.abs(ref.probs[rat + n] - ref.probs[rat + j]) <= tolerance);
        if (!tied) d.idMismatches++;
      }
    }
  }
  d.maxProbDiff = Math.max(...d.perLayer);
  return d;
}

/** The graph with num_logits_to_keep (the author's, or after the logits rewrite) and the lens. */
function lensGraph(dir: string, dtype: Dtype, lensFault?: LensFault): { bytes: Uint8Array; ms: number; added: number; layers: number; spine: string } {
  const before = keepGraph(dir, dtype);
  const started = performance.now();
  const r = rewriteForLens(before, lensFault ? { lensFault } : {});
  const ms = performance.now() - started;
  if (r.kind !== 'rewritten') throw new Error(`lens rewrite refused: ${r.refusal.detail}`);
  return { bytes: r.bytes, ms, added: r.addedBytes, layers: r.layers, spine: r.spine };
}

const logitsOf = (out: Outputs): Float32Array => floats(out.logits);

describe('rewriteForLens on the fixtures', () => {
  for (const c of CASES) {
    for (const dtype of c.dtypes) {
      it(`${c.name} ${dtype}: every layer's top 5 is the reference's; the last layer's is the logits'; the logits are unchanged`, async () => {
        const dir = dirs[c.name];
        const ids = passage(c);
        const lens = lensGraph(dir, dtype);
        expect(lens.layers).toBe(c.spec.numLayers);
        const before = await openGraph(keepGraph(dir, dtype), dtype);
        const session = await openGraph(lens.bytes, dtype);
        expect(session.inputNames).toEqual([...before.inputNames, LENS_GATE]);
        expect(session.outputNames).toEqual([...before.outputNames, LENS_OUTPUTS.topIds, LENS_OUTPUTS.topProbs]);
        const out = await pass(session, c.spec, [ids], null, 0);
        const out0 = await pass(before, c.spec, [ids], null, 0);
        expect(bytesOf(out.logits).equals(bytesOf(out0.logits))).toBe(true);
        // The gate off: the same logits and cache, and empty grids of the same types.
        const off = await pass(session, c.spec, [ids], null, 0, 0, false);
        expect(bytesOf(off.logits).equals(bytesOf(out0.logits))).toBe(true);
        expect(bytesOf(off['present.0.key']).equals(bytesOf(out0['present.0.key']))).toBe(true);
        expect(off[LENS_OUTPUTS.topIds].dims).toEqual([1, c.spec.numLayers, 0, 5]);
        expect(off[LENS_OUTPUTS.topProbs].dims).toEqual([1, c.spec.numLayers, 0, 5]);
        expect([off[LENS_OUTPUTS.topIds].type, off[LENS_OUTPUTS.topProbs].type]).toEqual(['int64', 'float32']);
        const grid = gridOf(out);
        expect([grid.layers, grid.rows, grid.k]).toEqual([c.spec.numLayers, ids.length, 5]);
        // Probabilities of each row fall with the rank.
        for (let i = 0; i < grid.topProbs.length; i++) if (i % grid.k > 0) expect(grid.topProbs[i]).toBeLessThanOrEqual(grid.topProbs[i - 1]);

        const vocab = out.logits.dims[2];
        const check = lastLayerAgreement(grid, logitsOf(out), vocab, lensCheckTolerance(dtype));
        expect(check.passed, JSON.stringify(check)).toBe(true);

        const ref = referenceLens(await reference(c, dtype), ids, 6);
        const flips = dtype === 'q8' && c.q8Flips === true;
        const tolerance = flips ? Q8_FLIP_TOLERANCE : TOLERANCE[dtype];
        const d = compareWithReference(grid, ref, tolerance);
        console.info(
          `[lens] ${c.name} ${dtype} (${ids.length} tokens, ${lens.spine}): reference max |Δp| ${d.maxProbDiff.toExponential(2)} per layer [${d.perLayer.map((x) => x.toExponential(1)).join(', ')}], id mismatches ${d.idMismatches}; last layer vs logits ${check.maxProbDiff.toExponential(2)}; rewrite ${lens.ms.toFixed(1)} ms, +${lens.added} bytes`,
        );
        expect(d.maxProbDiff).toBeLessThan(tolerance);
        if (!flips) expect(d.idMismatches).toBe(0);
        await session.release();
        await before.release();
      }, 180_000);
    }
  }
});

describe('rewriteForLens on float16 graphs (no float16 reference: the load check and the logits)', () => {
  for (const name of ['jiangu-tiny', 'jiangu-tiny-gqa'] as const) {
    for (const dtype of ['fp16', 'q4f16'] as const) {
      it(`${name} ${dtype}: the last layer's lens is the logits' top 5 within the float16 tolerance; the logits are unchanged`, async () => {
        const spec = SPECS[name];
        const ids = encodeFixture(sampleCmmluPrompt(24));
        const r = rewriteForLens(keepGraph(dirs[name], dtype));
        if (r.kind !== 'rewritten') throw new Error(r.refusal.detail);
        const session = await openGraph(r.bytes, dtype);
        const before = await openGraph(keepGraph(dirs[name], dtype), dtype);
        const out = await pass(session, spec, [ids], null, 0);
        const out0 = await pass(before, spec, [ids], null, 0);
        expect(bytesOf(out.logits).equals(bytesOf(out0.logits))).toBe(true);
        const check = lastLayerAgreement(gridOf(out), logitsOf(out), out.logits.dims[2], lensCheckTolerance(dtype));
        console.info(`[lens] ${name} ${dtype}: last layer vs logits ${JSON.stringify(check)}`);
        expect(check.passed).toBe(true);
        await session.release();
        await before.release();
      });
    }
  }
});

describe('a lens over thousands of head blocks (the hub q8 layout, one row a block)', () => {
  /** How many times `name` occurs in the graph's bytes: one per node so named, in the main graph and its branches. */
  const occurrences = (bytes: Uint8Array, name: string) => Buffer.from(bytes).toString('latin1').split(name).length - 1;

  it('jiangu-tiny-tied q8: rewritten with its heads in 749 blocks a layer, the main head too; in 8-row blocks, the last layer is the logits’ top 5', async () => {
    // Qwen3-0.6B's q8 lens (28 layers × 19 blocks) once overflowed the call stack spreading its pieces:
    // one-row blocks, three times its pieces, must be rewritten whole. ORT takes 13 s to open that
    // graph, so the lens's numbers are checked in blocks of 8 rows (94 a head, the last one short):
    // the same nodes, fewer of them.
    const dir = generateFixtures({ models: ['jiangu-tiny-tied'] })[0].dir;
    const spec = SPECS['jiangu-tiny-tied'];
    const oneRow = 4 * spec.hiddenSize;
    const blockedLens = (rows: number) => {
      const lens = rewriteForLens(keepGraph(dir, 'q8'), { headBlockBytes: rows * oneRow });
      if (lens.kind !== 'rewritten') throw new Error(lens.refusal.detail);
      return { lens: lens.bytes, blocked: blockDequantizedHead(lens.bytes, rows * oneRow) };
    };
    const rows1 = blockedLens(1);
    expect(rows1.blocked?.blocks).toBe(749);
    // Every block of every head dequantizes its rows: the main head's 749 and each layer's 749.
    expect(occurrences(rows1.blocked!.bytes, '/dequantize') - occurrences(rows1.lens, '/dequantize')).toBe(749);
    expect(occurrences(rows1.lens, '/dequantize') - occurrences(keepGraph(dir, 'q8'), '/dequantize')).toBe(749 * spec.numLayers);

    const rows8 = blockedLens(8);
    expect(rows8.blocked?.blocks).toBe(Math.ceil(749 / 8));
    const session = await openGraph(rows8.blocked!.bytes, 'q8');
    const ids = encodeFixture(sampleCmmluPrompt(12));
    const out = await pass(session, spec, [ids], null, 0);
    const check = lastLayerAgreement(gridOf(out), logitsOf(out), out.logits.dims[2], lensCheckTolerance('q8'));
    expect(check.passed, JSON.stringify(check)).toBe(true);
    await session.release();
  }, 120_000);
});

describe('the load check catches a wrong lens', () => {
  for (const fault of ['skip-final-norm', 'previous-layer'] as const) {
    for (const name of ['jiangu-tiny', 'jiangu-tiny-gqa'] as const) {
      it(`${name} fp32 with ${fault}: the last layer disagrees with the logits`, async () => {
        const spec = SPECS[name];
        const ids = encodeFixture(sampleCmmluPrompt(24));
        const session = await openGraph(lensGraph(dirs[name], 'fp32', fault).bytes, 'fp32');
        const out = await pass(session, spec, [ids], null, 0);
        const check = lastLayerAgreement(gridOf(out), logitsOf(out), out.logits.dims[2], lensCheckTolerance('fp32'));
        console.info(`[lens] fault ${fault} on ${name}: ${JSON.stringify(check)}`);
        expect(check.passed).toBe(false);
        expect(check.maxProbDiff).toBeGreaterThan(1e-2);
        await session.release();
      });
    }
  }
});

describe('one lens pass on jiangu-large', () => {
  it('300 tokens in one pass (onnxruntime-node CPU): time and the rewrite', async () => {
    const ids = Array.from({ length: 300 }, (_, i) => (i * 40_503 + 977) % 151_000);
    const lens = lensGraph(dirs['jiangu-large'], 'fp32');
    const session = await openGraph(lens.bytes, 'fp32');
    const plain = await openGraph(keepGraph(dirs['jiangu-large'], 'fp32'), 'fp32');
    const fetches = [LENS_OUTPUTS.topIds, LENS_OUTPUTS.topProbs];
    const timed = async (s: typeof session, names: string[] | null) => {
      const started = performance.now();
      const o = await (names ? passFetching(s, ids, names) : pass(s, LARGE, [ids], null, 0));
      return { ms: performance.now() - started, o };
    };
    await timed(session, fetches); // warm-up
    await timed(plain, null);
    const lensRun = await timed(session, fetches);
    const plainRun = await timed(plain, null);
    // The same session with the gate off (scoring, generation, the other views): what does the lens cost it?
    const started = performance.now();
    const gateOff = await pass(session, LARGE, [ids], null, 0, 0, false);
    const gateOffMs = performance.now() - started;
    expect(gridOf(lensRun.o).rows).toBe(300);
    expect(gateOff[LENS_OUTPUTS.topIds].dims[2]).toBe(0);
    console.info(
      `[lens] jiangu-large fp32: rewrite ${lens.ms.toFixed(1)} ms, +${lens.added} bytes (${(lens.added / 1024).toFixed(1)} KiB); 300-token lens pass ${lensRun.ms.toFixed(0)} ms; plain graph's forward with logits ${plainRun.ms.toFixed(0)} ms; lens graph with the gate off ${gateOffMs.toFixed(0)} ms`,
    );
    await session.release();
    await plain.release();
  }, 300_000);
});

/** pass() fetching only `names`, as the worker's lens pass does (workers/lens.ts installLensFetchControl). */
async function passFetching(session: Awaited<ReturnType<typeof openGraph>>, ids: number[], names: string[]): Promise<Outputs> {
  const run = session.run.bind(session);
  session.run = ((feeds: Parameters<typeof run>[0]) => run(feeds, names)) as typeof session.run;
  try {
    return await pass(session, LARGE, [ids], null, 0);
  } finally {
    session.run = run;
  }
}
