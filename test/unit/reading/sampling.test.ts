// Sampling, seen (issue 37 §4): the seeded sampler (core/reading/sampling.ts) against an independent
// float64 computation on rows of the TypeScript reference forward of jiangu-tiny, greedy against the
// reference's greedyGenerate, the draws' frequencies against the distribution (chi-square), and the
// worker's sampleContinuation (workers/sample-steps.ts) on the fixture ONNX model in transformers.js
// (Node, onnxruntime-node CPU) against the reference stepped by the same sampler.
import { AutoModelForCausalLM, AutoTokenizer, DynamicCache, env, type PreTrainedModel, type PreTrainedTokenizer, type Tensor } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OUT_ROOT } from '../../../scripts/fixtures/generate.ts';
import { encodeFixture, forward, greedyGenerate, loadReferenceModel, type KVCache, type ReferenceModel } from '../../../scripts/fixtures/reference.ts';
import type { Dtype } from '../../../scripts/fixtures/specs.ts';
import { EOS_ID } from '../../../scripts/fixtures/tokenizer.ts';
import { describeSampling, describeStep, sampler, sampleStep, samplingProblem, type SampledStep, type SamplingOptions } from '../../../src/lib/core/reading/sampling.ts';
import { chiSquareSurvival } from '../../../src/lib/core/metrics/goodness-of-fit.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import type { Loaded } from '../../../workers/loaded-model.ts';
import { sampleContinuation } from '../../../workers/sample-steps.ts';
import { ensureTinyFixture, ensureTinyNokeepFixture } from '../fixtures/ort-helpers.ts';
import { referenceContinuation } from './sampling-reference.ts';
import { PROMPTS } from '../fixtures/prompts.ts';
import { referenceOn } from '../fixtures/q8-arithmetic.ts';

let ref: ReferenceModel;
beforeAll(() => {
  ref = loadReferenceModel('jiangu-tiny', 'fp32');
});

/** Every row of the reference's forward over a few prompts: 60-odd real next-token distributions. */
function referenceRows(): Float32Array[] {
  return [PROMPTS[3], PROMPTS[4], PROMPTS[6]].flatMap((p) => forward(ref, encodeFixture(p)).logits);
}

/** The definition written out the plain way: sort, cut, softmax(ℓ / T) with the max subtracted. */
function expectedDistribution(row: ArrayLike<number>, { temperature, topK }: SamplingOptions) {
  const order = Array.from({ length: row.length }, (_, v) => v).sort((a, b) => (row[a] !== row[b] ? (row[b] > row[a] ? 1 : -1) : a - b));
  if (temperature === 0) return { ids: [order[0]], probs: [1] };
  const kept = topK === 0 ? order : order.slice(0, topK);
  const scaled = kept.map((v) => row[v] / temperature);
  const top = Math.max(...scaled);
  const weights = scaled.map((z) => Math.exp(z - top));
  const total = weights.reduce((a, b) => a + b, 0);
  return { ids: kept, probs: weights.map((w) => w / total) };
}

/** The first candidate whose running sum passes the draw (the last one if rounding never lets it). */
function expectedPick({ ids, probs }: { ids: number[]; probs: number[] }, draw: number): number {
  let c = 0;
  for (let j = 0; j < ids.length; j++) {
    c += probs[j];
    if (c > draw) return ids[j];
  }
  return ids[ids.length - 1];
}

function expected(row: ArrayLike<number>, options: SamplingOptions, draw: number) {
  const distribution = expectedDistribution(row, options);
  return { ...distribution, token: expectedPick(distribution, draw) };
}

const SETTINGS: SamplingOptions[] = [
  { temperature: 0, topK: 0 },
  { temperature: 1, topK: 0 },
  { temperature: 0.7, topK: 0 },
  { temperature: 1.5, topK: 5 },
  { temperature: 1, topK: 40 },
  { temperature: 0.3, topK: 1 },
  { temperature: 2, topK: 100_000 },
];

describe('sampleStep against the definition on reference rows', () => {
  it('gives the same candidates, probabilities (1e-12) and token for every setting and 20 draws a row', () => {
    const rows = referenceRows();
    expect(rows.length).toBeGreaterThan(50);
    const draws = mulberry32(2024);
    let picks = 0;
    let notFirst = 0;
    for (const row of rows) {
      for (const setting of SETTINGS) {
        const want = expectedDistribution(row, setting);
        for (let d = 0; d < 20; d++) {
          const u = draws();
          const got = sampleStep(row, setting, u);
          expect(Array.from(got.distribution.ids)).toEqual(want.ids);
          let worst = 0;
          got.distribution.probs.forEach((p, j) => (worst = Math.max(worst, Math.abs(p - want.probs[j]))));
          expect(worst).toBeLessThan(1e-12);
          expect(got.token).toBe(expectedPick(want, u));
          picks++;
          if (got.chosenRank > 1) notFirst++;
          // The draw lies in the chosen token's interval, whose width is its probability.
          expect(u).toBeGreaterThanOrEqual(got.from);
          expect(u).toBeLessThan(got.to);
          expect(Math.abs(got.to - got.from - got.chosenProb)).toBeLessThan(1e-12);
          // Rank over the whole vocabulary: 1 + the tokens with a larger logit.
          let larger = 0;
          for (const x of row) if (x > row[got.token]) larger++;
          expect(got.chosenRank).toBe(1 + larger);
        }
      }
    }
    // The draws were not all taking the first candidate: sampling really sampled.
    expect(notFirst / picks).toBeGreaterThan(0.2);
  });

  it('keptMass is the candidates’ share of softmax(ℓ / T) over the vocabulary; modelProb the token’s softmax(ℓ) probability', () => {
    for (const row of referenceRows().slice(0, 10)) {
      const plain = expected(row, { temperature: 1, topK: 0 }, 0);
      const plainOf = new Map(plain.ids.map((v, j) => [v, plain.probs[j]]));
      const tempered = expected(row, { temperature: 1.5, topK: 0 }, 0);
      const got = sampleStep(row, { temperature: 1.5, topK: 5 }, 0.5);
      const share = tempered.probs.slice(0, 5).reduce((a, b) => a + b, 0);
      expect(Math.abs(got.keptMass - share)).toBeLessThan(1e-12);
      expect(Math.abs(got.modelProb - plainOf.get(got.token)!)).toBeLessThan(1e-12);
      const greedy = sampleStep(row, { temperature: 0, topK: 0 }, 0.5);
      expect(Math.abs(greedy.modelProb - plain.probs[0])).toBeLessThan(1e-12);
    }
  });

  it('temperature 0 stepped on the reference forward is greedyGenerate exactly', () => {
    for (const prompt of [PROMPTS[1], PROMPTS[3], PROMPTS[4], PROMPTS[6]]) {
      const ids = encodeFixture(prompt);
      const steps = referenceContinuation(ref, ids, { temperature: 0, topK: 0 }, 99, 24);
      expect(steps.map((s) => s.token)).toEqual(greedyGenerate(ref, ids, 24, EOS_ID));
    }
  });
});

describe('sampleStep’s order and ties', () => {
  it('keeps exactly K at a tie on the boundary (the lower ids), and greedy takes the lowest id of equal maxima', () => {
    const row = Float32Array.of(1, 3, 3, 3, 0);
    expect(Array.from(sampleStep(row, { temperature: 1, topK: 2 }, 0).distribution.ids)).toEqual([1, 2]);
    expect(sampleStep(row, { temperature: 0, topK: 0 }, 0.99).token).toBe(1);
    // Equal logits share the better rank, as row-reading.ts ranks.
    const last = sampleStep(row, { temperature: 1, topK: 3 }, 0.999);
    expect([last.token, last.chosenRank]).toEqual([3, 1]);
  });

  it('orders −0, +0, negatives and −∞ as the definition does, float32 rows (packed sort) and float64 rows (comparator) alike', () => {
    const values = [-0, 0, -1.5, 2, -Infinity, 2, 0.25, -Infinity, -1.5, 7];
    const f32 = Float32Array.from(values);
    const f64 = Float64Array.from(values, (x, i) => (Number.isFinite(x) && x !== 0 ? x + i * 1e-12 : x));
    for (const row of [f32, f64]) {
      for (const draw of [0, 0.3, 0.9999]) {
        const got = sampleStep(row, { temperature: 1, topK: 0 }, draw);
        const want = expected(row, { temperature: 1, topK: 0 }, draw);
        expect(Array.from(got.distribution.ids)).toEqual(want.ids);
        expect(got.token).toBe(want.token);
      }
      // −∞ has probability 0 and is never drawn, even by the largest draw below 1.
      const tail = sampleStep(row, { temperature: 1, topK: 0 }, 1 - 2 ** -53);
      expect(row[tail.token]).toBeGreaterThan(-Infinity);
    }
  });

  it('a large vocabulary sorts the same by either path and a tiny temperature is greedy', () => {
    const draws = mulberry32(5);
    const row = Float32Array.from({ length: 20_000 }, () => Math.round((draws() - 0.5) * 64) / 4); // many equal logits
    for (const topK of [0, 3000, 50]) {
      const got = sampleStep(row, { temperature: 0.9, topK }, 0.42);
      const want = expected(row, { temperature: 0.9, topK }, 0.42);
      expect(Array.from(got.distribution.ids)).toEqual(want.ids);
      expect(got.token).toBe(want.token);
    }
    const cold = sampleStep(Float32Array.of(1, 1.0001, 0.5), { temperature: 1e-300, topK: 0 }, 0.7);
    expect([cold.token, cold.chosenProb]).toEqual([1, 1]);
  });

  it('refuses what has no distribution: bad settings, draws outside [0, 1), NaN, +∞, all −∞', () => {
    expect(samplingProblem({ temperature: -1, topK: 0 })).toEqual({ code: 'sampling.temperature', value: -1 });
    expect(samplingProblem({ temperature: 1, topK: 2.5 })).toEqual({ code: 'sampling.top-k', value: 2.5 });
    expect(samplingProblem({ temperature: 1, topK: 0 }, 2 ** 32)).toEqual({ code: 'sampling.seed', value: 2 ** 32 });
    expect(samplingProblem({ temperature: 1, topK: 0 }, 2 ** 32 - 1)).toBeNull();
    const row = Float32Array.of(0, 1);
    expect(() => sampleStep(row, { temperature: 1, topK: 0 }, 1)).toThrow(RangeError);
    expect(() => sampleStep(row, { temperature: Number.NaN, topK: 0 }, 0)).toThrow(RangeError);
    expect(() => sampleStep(Float32Array.of(0, Number.NaN), { temperature: 1, topK: 0 }, 0)).toThrow(RangeError);
    expect(() => sampleStep(Float32Array.of(0, Infinity), { temperature: 1, topK: 0 }, 0)).toThrow(RangeError);
    expect(() => sampleStep(Float32Array.of(-Infinity, -Infinity), { temperature: 1, topK: 0 }, 0)).toThrow(RangeError);
  });

  it('describes a setting and a step in numbers', () => {
    expect(describeSampling({ temperature: 0.8, topK: 40 }, 7, 749)).toEqual({ mode: 'sample', temperature: 0.8, candidates: 40, truncated: true, seed: 7, rng: 'mulberry32', signature: 'sample|t:0.8|k:40|seed:7|rng:mulberry32|pick:cumulative-sorted' });
    expect(describeSampling({ temperature: 1, topK: 0 }, 7, 749)).toMatchObject({ candidates: 749, truncated: false, signature: 'sample|t:1|k:all|seed:7|rng:mulberry32|pick:cumulative-sorted' });
    expect(describeSampling({ temperature: 0, topK: 40 }, 7, 749)).toMatchObject({ mode: 'greedy', candidates: 1, seed: null, signature: 'greedy|t:0|argmax:lowest-id' });
    const step = sampleStep(Float32Array.of(0, 0, 0, 0), { temperature: 1, topK: 0 }, 0.6);
    expect(describeStep(step)).toEqual({ entropyBits: 2, surpriseBits: 2, modelSurpriseBits: 2, live: 4 });
  });
});

describe('seeded continuations on the reference', () => {
  const ids = () => encodeFixture(PROMPTS[4]);
  const tokens = (seed: number, options: SamplingOptions = { temperature: 1, topK: 0 }) => referenceContinuation(ref, ids(), options, seed, 24, new Set()).map((s) => s.token);

  it('the same seed gives the same continuation; other seeds other ones', () => {
    const a = tokens(12345);
    expect(tokens(12345)).toEqual(a);
    const others = [1, 2, 3, 4, 5].map((seed) => tokens(seed));
    for (const other of others) expect(other).not.toEqual(a);
    // Not merely one different token: the continuations part ways early.
    expect(others.filter((o) => o.slice(0, 8).join() === a.slice(0, 8).join()).length).toBeLessThan(2);
  });

  it('the same draws at a lower temperature choose more probable tokens', () => {
    const surprise = (options: SamplingOptions) => referenceContinuation(ref, ids(), options, 77, 24, new Set()).reduce((s, step) => s - Math.log(step.modelProb), 0);
    expect(surprise({ temperature: 0.3, topK: 0 })).toBeLessThan(surprise({ temperature: 1.5, topK: 0 }));
  });
});

describe('draws follow the distribution (chi-square over seeds)', () => {
  /** Pearson X² of `counts` against `n · probs` and its p-value. */
  const pearson = (counts: number[], probs: ArrayLike<number>, n: number) => {
    let x2 = 0;
    counts.forEach((c, j) => (x2 += (c - n * probs[j]) ** 2 / (n * probs[j])));
    return chiSquareSurvival(x2, counts.length - 1);
  };

  it('the first draw of seeds 1 … 20,000 picks each candidate as often as its probability, and a wrong distribution is rejected', () => {
    const row = forward(ref, encodeFixture(PROMPTS[3])).logits.at(-1)!;
    const options = { temperature: 1.3, topK: 8 };
    const { ids, probs } = sampleStep(row, options, 0).distribution;
    expect(Math.min(...probs) * 20_000).toBeGreaterThan(20); // every cell expects enough draws
    const counts = new Array<number>(ids.length).fill(0);
    const n = 20_000;
    for (let seed = 1; seed <= n; seed++) {
      const step = sampleStep(row, options, sampler(seed)());
      counts[Array.from(ids).indexOf(step.token)]++;
    }
    expect(pearson(counts, probs, n)).toBeGreaterThan(1e-3);
    // The test can fail: the same counts against the distribution at another temperature are far off.
    const other = sampleStep(row, { temperature: 1, topK: 8 }, 0).distribution;
    expect(Array.from(other.ids)).toEqual(Array.from(ids));
    expect(pearson(counts, other.probs, n)).toBeLessThan(1e-6);
  });

  it('consecutive draws of one seed over 20,000 steps do too', () => {
    const row = forward(ref, encodeFixture(PROMPTS[6])).logits.at(-1)!;
    const options = { temperature: 1, topK: 6 };
    const { ids, probs } = sampleStep(row, options, 0).distribution;
    const draws = sampler(31337);
    const counts = new Array<number>(ids.length).fill(0);
    for (let i = 0; i < 20_000; i++) counts[Array.from(ids).indexOf(sampleStep(row, options, draws()).token)]++;
    expect(pearson(counts, probs, 20_000)).toBeGreaterThan(1e-3);
  });
});

describe('the worker’s sampleContinuation on the fixture ONNX model (transformers.js, Node CPU)', () => {
  let tokenizer: PreTrainedTokenizer;
  const models: PreTrainedModel[] = [];

  beforeAll(async () => {
    ensureTinyFixture();
    ensureTinyNokeepFixture();
    env.localModelPath = `${DEFAULT_OUT_ROOT}/`;
    env.allowRemoteModels = false;
    tokenizer = await AutoTokenizer.from_pretrained('jiangu-tiny');
  }, 120_000);
  afterAll(async () => {
    for (const model of models) await model.dispose();
  });

  /** What the worker holds after a load, with only the fields these requests read. */
  async function loaded(name: 'jiangu-tiny' | 'jiangu-tiny-nokeep', positions: number | null = null, dtype: Dtype = 'fp32'): Promise<Loaded & { forwards: number }> {
    const model = await AutoModelForCausalLM.from_pretrained(name, { dtype, device: 'cpu' });
    models.push(model);
    const session = (model as unknown as { sessions: Record<string, { inputNames: string[] }> }).sessions.model;
    const counted = { forwards: 0 };
    const forwardOf = model.forward.bind(model);
    (model as unknown as { forward: typeof model.forward }).forward = (inputs) => {
      counted.forwards++;
      return forwardOf(inputs);
    };
    return Object.assign(counted, {
      model,
      tokenizer,
      info: { inputNames: session.inputNames, context: positions === null ? null : { tokens: positions, key: 'max_position_embeddings' } },
      // 3 rows a pass: the nokeep graph's prompt is prefilled in several chunks.
      maxLogitsRows: 3,
      maxPassRows: null,
      prefixCache: null,
      answerCueCache: null,
      mergeChecks: new Map(),
      recentEncodings: new Map(),
    }) as unknown as Loaded & { forwards: number };
  }

  const CASES: { prompt: string; options: SamplingOptions; seed: number }[] = [
    { prompt: PROMPTS[4], options: { temperature: 1, topK: 0 }, seed: 12345 },
    { prompt: PROMPTS[3], options: { temperature: 1.5, topK: 5 }, seed: 7 },
    { prompt: PROMPTS[6], options: { temperature: 0.7, topK: 40 }, seed: 2 ** 32 - 1 },
    { prompt: PROMPTS[1], options: { temperature: 0, topK: 0 }, seed: 1 },
  ];

  const RUNS: { name: 'jiangu-tiny' | 'jiangu-tiny-nokeep'; dtype: Dtype }[] = [
    { name: 'jiangu-tiny', dtype: 'fp32' },
    { name: 'jiangu-tiny-nokeep', dtype: 'fp32' },
    { name: 'jiangu-tiny', dtype: 'q4' },
    // q8 quantizes each pass's activations as a whole: the worker's one prompt pass (the graph keeps
    // one row) and one pass a token are what the reference continuation computes too.
    { name: 'jiangu-tiny', dtype: 'q8' },
  ];
  for (const { name, dtype } of RUNS) {
    it(`${name} ${dtype}: the same tokens as the reference stepped by the same sampler, probabilities within 1e-5`, async () => {
      const m = await loaded(name, null, dtype);
      const reference = dtype === 'fp32' ? ref : await referenceOn('native', 'jiangu-tiny', dtype);
      for (const { prompt, options, seed } of CASES) {
        const heard: number[] = [];
        m.forwards = 0;
        const disposed: object[] = [];
        const original = DynamicCache.prototype.dispose;
        const spy = vi.spyOn(DynamicCache.prototype, 'dispose').mockImplementation(function (this: DynamicCache) {
          disposed.push(this);
          return original.call(this);
        });
        let got: Awaited<ReturnType<typeof sampleContinuation>>;
        try {
          got = await sampleContinuation(m, { prompt, ...options, seed, maxNewTokens: 16, showTop: 5 }, (step, i) => heard.push(i, step.token));
        } finally {
          spy.mockRestore();
        }
        // Every pass made one cache, and each was disposed once: nothing is left behind.
        expect(disposed.length).toBe(m.forwards);
        expect(new Set(disposed).size).toBe(disposed.length);
        const want = referenceContinuation(reference, encodeFixture(prompt), options, seed, 16);
        expect(got.inputIds).toEqual(encodeFixture(prompt));
        expect(got.steps.map((s) => s.token)).toEqual(want.map((s) => s.token));
        expect(heard).toEqual(got.steps.flatMap((s, i) => [i, s.token]));
        got.steps.forEach((s, i) => {
          const w = want[i];
          expect(s.draw).toBeGreaterThanOrEqual(s.from);
          expect(s.draw).toBeLessThan(s.to);
          expect(Math.abs(s.from - w.from) + Math.abs(s.to - w.to)).toBeLessThan(1e-5);
          expect(Math.abs(s.chosenProb - w.chosenProb)).toBeLessThan(1e-5);
          expect(Math.abs(s.modelProb - w.modelProb)).toBeLessThan(1e-5);
          expect(s.chosenRank).toBe(w.chosenRank);
          expect(s.candidates).toBe(w.distribution.ids.length);
          expect(s.top.map((t) => t.id)).toEqual(Array.from(w.distribution.ids.subarray(0, 5)));
          s.top.forEach((t, j) => expect(Math.abs(t.prob - w.distribution.probs[j])).toBeLessThan(1e-5));
          expect(s.text).toBe(tokenizer.decode([s.token], { skip_special_tokens: false }));
        });
        expect(got.text).toBe(tokenizer.decode(got.steps.map((s) => s.token), { skip_special_tokens: true }));
        expect(got.stoppedBy).toBe(got.steps.at(-1)!.token === EOS_ID ? 'eos' : 'max-tokens');
        expect(got.sampling).toEqual(describeSampling(options, seed, ref.vocabSize));
        // One pass a token after the prompt's, none for the last token.
        expect(got.forwardPasses).toBe(m.forwards);
        const promptPasses = name === 'jiangu-tiny' ? 1 : Math.ceil(got.inputIds.length / 3);
        expect(m.forwards).toBe(promptPasses + got.steps.length - 1);
      }
    });
  }

  it('stops at an eos id from generation_config, at the model’s last position, and when cancelled', async () => {
    const m = await loaded('jiangu-tiny');
    const params = { prompt: PROMPTS[4], temperature: 1, topK: 0, seed: 12345, maxNewTokens: 16, showTop: 3 };
    const free = await sampleContinuation(m, params);
    // A token that first comes at step 4 made an end of text: the continuation stops there.
    const at = free.steps.findIndex((s, i) => i >= 3 && free.steps.findIndex((t) => t.token === s.token) === i);
    expect(at).toBeGreaterThanOrEqual(3);
    const config = m.model.generation_config as unknown as { eos_token_id: number | number[] | null };
    const saved = config.eos_token_id;
    config.eos_token_id = [free.steps[at].token];
    try {
      const stopped = await sampleContinuation(m, params);
      expect(stopped.stoppedBy).toBe('eos');
      expect(stopped.steps.map((s) => s.token)).toEqual(free.steps.slice(0, at + 1).map((s) => s.token));
    } finally {
      config.eos_token_id = saved;
    }
    const short = await loaded('jiangu-tiny', encodeFixture(PROMPTS[4]).length + 3);
    const clipped = await sampleContinuation(short, params);
    expect([clipped.steps.length, clipped.stoppedBy]).toEqual([3, 'max-tokens']);
    let asked = 0;
    const cancelled = await sampleContinuation(m, params, undefined, () => ++asked > 2);
    expect([cancelled.steps.length, cancelled.stoppedBy]).toEqual([3, 'cancelled']);
    expect(cancelled.steps.map((s) => s.token)).toEqual(free.steps.slice(0, 3).map((s) => s.token));
  });

  it('at temperature 0 gives what transformers.js generate() gives greedily', async () => {
    const m = await loaded('jiangu-tiny');
    for (const prompt of [PROMPTS[3], PROMPTS[6]]) {
      const got = await sampleContinuation(m, { prompt, temperature: 0, topK: 0, seed: 1, maxNewTokens: 12, showTop: 1 });
      const inputs = tokenizer(prompt);
      const sequences = (await m.model.generate({ ...inputs, max_new_tokens: 12, do_sample: false })) as Tensor;
      const generated = Array.from(sequences.data as BigInt64Array, Number).slice(got.inputIds.length);
      expect(got.steps.map((s) => s.token)).toEqual(generated);
    }
  });

  it('refuses an empty prompt and a bad setting as request errors', async () => {
    const m = await loaded('jiangu-tiny');
    await expect(sampleContinuation(m, { prompt: '', temperature: 1, topK: 0, seed: 1, maxNewTokens: 4, showTop: 3 })).rejects.toMatchObject({ info: { code: 'bad-request' } });
    await expect(sampleContinuation(m, { prompt: '子曰', temperature: -1, topK: 0, seed: 1, maxNewTokens: 4, showTop: 3 })).rejects.toMatchObject({ info: { code: 'bad-request' } });
  });
});
