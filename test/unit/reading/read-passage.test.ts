// workers/reading.ts' readPassage through transformers.js in Node (onnxruntime-node CPU), in passes of
// 8 rows: jiangu-large (the real Qwen3 tokenizer, 151,936 logits a row; fp32 and q4: a classical
// passage's tokens as Qwen3 cuts it, two-character tokens among them), jiangu-tiny (fp32, q4) and
// stories260k (fp32: its BOS, and a story with a character it spells in bytes). Every row — log p,
// rank, the ten expected, the punctuation mass over the vocabulary's punctuation tokens — against the
// TypeScript reference forward's rows (1e-4). The browser tests run the same requests in the worker.
import { AutoModelForCausalLM, AutoTokenizer, env, type PreTrainedModel } from '@huggingface/transformers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_OUT_ROOT, generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { forward, loadReferenceModel, referenceFromWeights, type ReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { generateStories260k, storiesWeights } from '../../../scripts/fixtures/stories260k.ts';
import { storiesPresent } from '../stories260k-tokenizer.ts';
import type { Dtype } from '../../../scripts/fixtures/specs.ts';
import { punctuationIds } from '../../../src/lib/core/reading/punctuation-tokens.ts';
import { readRow } from '../../../src/lib/core/reading/row-reading.ts';
import type { Loaded } from '../../../workers/loaded-model.ts';
import { readPassage } from '../../../workers/reading.ts';

const PASSAGE = '子曰：学而时习之，不亦说乎？有朋自远方来，不亦乐乎？';
const models: PreTrainedModel[] = [];

beforeAll(() => {
  generateFixtures({ models: ['jiangu-large', 'jiangu-tiny'] });
  if (storiesPresent) generateStories260k();
  env.localModelPath = `${DEFAULT_OUT_ROOT}/`;
  env.allowRemoteModels = false;
}, 600_000);
afterAll(async () => {
  for (const m of models) await m.dispose();
});

const CASES: { name: 'jiangu-large' | 'jiangu-tiny' | 'stories260k'; dtype: Dtype; text: string; reference: () => ReferenceModel }[] = [
  { name: 'jiangu-large', dtype: 'fp32', text: PASSAGE, reference: () => loadReferenceModel('jiangu-large', 'fp32') },
  { name: 'jiangu-large', dtype: 'q4', text: PASSAGE, reference: () => loadReferenceModel('jiangu-large', 'q4') },
  { name: 'jiangu-tiny', dtype: 'fp32', text: PASSAGE, reference: () => loadReferenceModel('jiangu-tiny', 'fp32') },
  { name: 'jiangu-tiny', dtype: 'q4', text: PASSAGE, reference: () => loadReferenceModel('jiangu-tiny', 'q4') },
  { name: 'stories260k', dtype: 'fp32', text: 'Once upon a time, there was a little girl named Lily. 𪚥 She loved to play.', reference: () => referenceFromWeights(storiesWeights(), 'fp32') },
];

describe('readPassage in transformers.js', () => {
  for (const { name, dtype, text, reference: referenceOf } of CASES) {
    it.runIf(name !== 'stories260k' || storiesPresent)(`${name} ${dtype}: every row equals the reference's (1e-4), over passes of 8 rows`, async () => {
      const tokenizer = await AutoTokenizer.from_pretrained(name);
      const model = await AutoModelForCausalLM.from_pretrained(name, { dtype, device: 'cpu' });
      models.push(model);
      const session = (model as unknown as { sessions: Record<string, { inputNames: string[] }> }).sessions.model;
      const vocab = (model.config as unknown as { vocab_size: number }).vocab_size;
      const m = { model, tokenizer, info: { inputNames: session.inputNames, vocabSize: vocab, context: null }, maxLogitsRows: 8, maxPassRows: null } as unknown as Loaded;
      const { reading, forwardPasses, punctuationTokens } = await readPassage(m, { text, punctuation: true });
      expect(reading.ids).toEqual(tokenizer.encode(text, { add_special_tokens: true }));
      expect(reading.chars.join('').trim()).toBe(text);
      // Qwen3 merges some classical pairs: fewer tokens than characters, each ending where it should.
      if (name === 'jiangu-large') expect(reading.ids.length).toBeLessThan([...text].length);
      if (name === 'jiangu-tiny') expect(reading.charEnds).toEqual(reading.ids.map((_, j) => j + 1));
      if (name === 'stories260k') expect(reading.pieces.filter((p) => p.byte).map((p) => p.text).join(' ')).toBe('F0 AA 9A A5');
      expect(forwardPasses).toBe(Math.ceil(reading.ids.length / 8));
      const punctuation = punctuationIds(Array.from({ length: vocab }, (_, id) => tokenizer.decode([id], { skip_special_tokens: true })));
      expect(punctuationTokens).toBe(punctuation.length);
      const reference = referenceOf();
      const { logits } = forward(reference, reading.ids);
      let worst = 0;
      reading.rows.forEach((row, j) => {
        const want = readRow(logits[j], 0, reference.vocabSize, j + 1 < reading.ids.length ? reading.ids[j + 1] : null, 10, punctuation);
        if (want.logprob !== null) worst = Math.max(worst, Math.abs(row.logprob! - want.logprob));
        worst = Math.max(worst, Math.abs(row.punctuationMass! - want.punctuationMass!));
        row.topIds.forEach((id, i) => {
          if (id === want.topIds[i]) worst = Math.max(worst, Math.abs(row.topLogprobs[i] - want.topLogprobs[i]));
          else expect(Math.abs(row.topLogprobs[i] - want.topLogprobs[i]), `row ${j} top ${i}`).toBeLessThan(1e-4);
        });
        if (want.rank !== null) expect(Math.abs(row.rank! - want.rank), `row ${j} rank`).toBeLessThanOrEqual(2);
      });
      expect(worst).toBeLessThan(1e-4);
    }, 300_000);
  }
});
