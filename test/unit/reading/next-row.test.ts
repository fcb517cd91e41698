// workers/next-row.ts' nextTokenRow through transformers.js in Node (onnxruntime-node CPU) on the
// jiangu-tiny fixture: the row after a passage (or its first n tokens) is readPassage's last row (row
// n − 1), and the row after a prompt
// and a continuation's first i tokens is the one sampleContinuation drew step i from, bit for bit
// (each computed by the same passes as the view beside it), for the graph that keeps one logits row
// and the one that returns every row (prompts then prefilled in chunks of 3).
import { AutoModelForCausalLM, AutoTokenizer, DynamicCache, env, type PreTrainedModel, type PreTrainedTokenizer } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { DEFAULT_OUT_ROOT } from '../../../scripts/fixtures/generate.ts';
import { readRow } from '../../../src/lib/core/reading/row-reading.ts';
import { sampleStep } from '../../../src/lib/core/reading/sampling.ts';
import { temperatureDistribution } from '../../../src/lib/core/reading/temperature.ts';
import type { Loaded } from '../../../workers/loaded-model.ts';
import { nextTokenRow, ROW_TEXTS } from '../../../workers/next-row.ts';
import { readPassage, tokenText } from '../../../workers/reading.ts';
import { sampleContinuation } from '../../../workers/sample-steps.ts';
import { ensureTinyFixture, ensureTinyNokeepFixture } from '../fixtures/ort-helpers.ts';
import { PROMPTS } from '../fixtures/prompts.ts';

const PASSAGE = '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？';
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

/** What the worker holds after a load, with the fields these requests read; forward passes counted. */
async function loaded(name: 'jiangu-tiny' | 'jiangu-tiny-nokeep', positions: number | null = null): Promise<Loaded & { forwards: number }> {
  const model = await AutoModelForCausalLM.from_pretrained(name, { dtype: 'fp32', device: 'cpu' });
  models.push(model);
  const session = (model as unknown as { sessions: Record<string, { inputNames: string[] }> }).sessions.model;
  const counted = { forwards: 0 };
  const forwardOf = model.forward.bind(model);
  (model as unknown as { forward: typeof model.forward }).forward = (inputs) => {
    counted.forwards++;
    return forwardOf(inputs);
  };
  const vocabSize = (model.config as unknown as { vocab_size: number }).vocab_size;
  return Object.assign(counted, {
    model,
    tokenizer,
    info: { inputNames: session.inputNames, vocabSize, context: positions === null ? null : { tokens: positions, key: 'max_position_embeddings' } },
    // 3 rows a pass: readPassage reads the passage in several passes, the nokeep graph's prompt is prefilled in chunks.
    maxLogitsRows: 3,
    maxPassRows: null,
    prefixCache: null,
    answerCueCache: null,
    mergeChecks: new Map(),
    recentEncodings: new Map(),
  }) as unknown as Loaded & { forwards: number };
}

/** Runs `body`, returning how many caches it disposed (each once) beside its result. */
async function countingDisposals<T>(body: () => Promise<T>): Promise<{ result: T; disposed: number; distinct: number }> {
  const disposed: object[] = [];
  const original = DynamicCache.prototype.dispose;
  const spy = vi.spyOn(DynamicCache.prototype, 'dispose').mockImplementation(function (this: DynamicCache) {
    disposed.push(this);
    return original.call(this);
  });
  try {
    const result = await body();
    return { result, disposed: disposed.length, distinct: new Set(disposed).size };
  } finally {
    spy.mockRestore();
  }
}

const same = (a: ArrayLike<number>, b: ArrayLike<number>) => a.length === b.length && Array.from(a).every((x, i) => Object.is(x, b[i]));

describe('nextTokenRow on jiangu-tiny fp32 (transformers.js, Node CPU)', () => {
  for (const name of ['jiangu-tiny', 'jiangu-tiny-nokeep'] as const) {
    it(`${name}: the row after a passage, or its first n tokens, is readPassage's (top ten and log-probs, bit for bit)`, async () => {
      const m = await loaded(name);
      const { reading } = await readPassage(m, { text: PASSAGE, punctuation: false });
      const last = reading.rows[reading.rows.length - 1];
      m.forwards = 0;
      const { result, disposed, distinct } = await countingDisposals(() => nextTokenRow(m, { text: PASSAGE }));
      expect(m.forwards).toBe(Math.ceil(reading.ids.length / 3));
      // Every pass but the last made a cache, and each was disposed once.
      expect([disposed, distinct]).toEqual([m.forwards - 1, m.forwards - 1]);
      const { logits, vocab, texts } = result;
      expect(vocab).toBe(m.info.vocabSize);
      expect(logits.length).toBe(vocab);
      expect([logits.byteOffset, logits.byteLength]).toEqual([0, logits.buffer.byteLength]);
      const mine = readRow(logits, 0, vocab, null, 10, null);
      expect(mine.topIds).toEqual(last.topIds);
      expect(same(mine.topLogprobs, last.topLogprobs), `${mine.topLogprobs} vs ${last.topLogprobs}`).toBe(true);
      // The 100 largest ids' texts, as the other views write tokens.
      const hundred = readRow(logits, 0, vocab, null, ROW_TEXTS, null).topIds;
      expect(Object.keys(texts).map(Number).sort((a, b) => a - b)).toEqual([...hundred].sort((a, b) => a - b));
      for (const id of hundred) expect(texts[id]).toBe(tokenText(tokenizer, id).text);
      // Inside the passage: the row after its first n tokens is reading.rows[n − 1], across pass boundaries.
      for (const n of [1, 2, 3, 4, 7, reading.ids.length - 1, reading.ids.length]) {
        m.forwards = 0;
        const { result: inside, disposed: gone } = await countingDisposals(() => nextTokenRow(m, { text: PASSAGE, after: n }));
        expect(m.forwards, `after ${n}`).toBe(Math.ceil(n / 3));
        expect(gone).toBe(m.forwards - 1);
        const want = reading.rows[n - 1];
        const got = readRow(inside.logits, 0, inside.vocab, null, 10, null);
        expect(got.topIds, `after ${n}`).toEqual(want.topIds);
        expect(same(got.topLogprobs, want.topLogprobs), `after ${n}`).toBe(true);
        if (n < reading.ids.length) expect(Object.is(readRow(inside.logits, 0, inside.vocab, reading.ids[n], 10, null).logprob, want.logprob), `after ${n}`).toBe(true);
      }
    }, 120_000);

    it(`${name}: the row after the prompt and i tokens is the one sampleSteps drew step i from`, async () => {
      const m = await loaded(name);
      for (const [prompt, options, seed] of [
        [PROMPTS[4], { temperature: 1, topK: 0 }, 12345],
        [PROMPTS[3], { temperature: 0.7, topK: 5 }, 7],
      ] as const) {
        const got = await sampleContinuation(m, { prompt, ...options, seed, maxNewTokens: 6, showTop: 10 });
        const tokens = got.steps.map((s) => s.token);
        for (let i = 0; i < got.steps.length; i++) {
          const step = got.steps[i];
          m.forwards = 0;
          const { result, disposed, distinct } = await countingDisposals(() => nextTokenRow(m, { text: got.promptText, tokens: tokens.slice(0, i) }));
          const promptPasses = name === 'jiangu-tiny' ? 1 : Math.ceil(got.inputIds.length / 3);
          expect(m.forwards).toBe(promptPasses + i);
          expect([disposed, distinct]).toEqual([m.forwards, m.forwards]);
          const at = temperatureDistribution(result.logits, options, 10);
          expect(at.top.map((c) => c.id), `step ${i}`).toEqual(step.top.map((c) => c.id));
          expect(same(at.top.map((c) => c.p), step.top.map((c) => c.prob)), `step ${i}`).toBe(true);
          expect(at.candidates).toBe(step.candidates);
          const again = sampleStep(result.logits, options, step.draw);
          expect([again.token, again.from, again.to, again.modelProb]).toEqual([step.token, step.from, step.to, step.modelProb]);
        }
      }
    }, 120_000);
  }

  it('refuses an empty text, an id outside the vocabulary and more tokens than the model has positions', async () => {
    const m = await loaded('jiangu-tiny', 8);
    await expect(nextTokenRow(m, { text: '' })).rejects.toMatchObject({ info: { code: 'bad-request' } });
    await expect(nextTokenRow(m, { text: '子曰', tokens: [m.info.vocabSize] })).rejects.toMatchObject({ info: { code: 'bad-request' } });
    await expect(nextTokenRow(m, { text: '子曰', tokens: [1.5] })).rejects.toMatchObject({ info: { code: 'bad-request' } });
    await expect(nextTokenRow(m, { text: PASSAGE })).rejects.toMatchObject({ info: { code: 'too-long' } });
    for (const after of [0, 1.5, 99]) await expect(nextTokenRow(m, { text: '子曰', after })).rejects.toMatchObject({ info: { code: 'bad-request' } });
    await expect(nextTokenRow(m, { text: '子曰', after: 1, tokens: [] })).rejects.toMatchObject({ info: { code: 'bad-request' } });
    const ids = tokenizer.encode('子曰', { add_special_tokens: true });
    const fits = await nextTokenRow(m, { text: '子曰', tokens: Array.from({ length: 8 - ids.length }, () => ids[ids.length - 1]) });
    expect(fits.vocab).toBe(m.info.vocabSize);
  }, 120_000);
});
