/**
 * The memorization probes on a real model: stories260K (trained on TinyStories, ../shared/models),
 * run by the TypeScript reference forward pass (scripts/fixtures/reference.ts) on its own greedy
 * output, whose first paragraph llama2.c documents. Its per-position rows go to
 * memorization_reference.py, which takes log-softmax, μ and σ itself; and its Min-K%++ on its own
 * sentences must stand clearly apart from the same sentences with their words shuffled.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import type { PreTrainedTokenizer } from '@huggingface/transformers';
import { forward, greedyGenerate, referenceFromWeights, type ReferenceModel } from '../../../scripts/fixtures/reference.ts';
import { storiesWeights } from '../../../scripts/fixtures/stories260k.ts';
import { wilcoxonSignedRank } from '../../../src/lib/core/metrics/compare-continuous.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { minKPlusPlus, minKProb, summarizeScores, type PositionStatistics } from '../../../src/lib/core/metrics/memorization/index.ts';
import { loadStories260kTokenizer, storiesPresent } from '../stories260k-tokenizer.ts';
import { positionStatistics, reference, shuffledWords } from './memorization-helpers.ts';

/** llama2.c's doc/stories260K.md, the first greedy paragraph from bos (../shared/models/stories260K/SOURCE.md). */
const ORACLE = 'Once upon a time, there was a little girl named Lily. She loved to play outside in the park. One day, she saw a big, red ball. She wanted to play with it, but it was too high.';

if (!storiesPresent) console.warn('stories260k memorization tests skipped: the checkpoint is absent');

describe.skipIf(!storiesPresent)('memorization probes on stories260K', () => {
  let model: ReferenceModel;
  let tokenizer: PreTrainedTokenizer;
  let sentences: string[];

  /** A text's ids with bos (the tokenizer's default, as the papers' code encodes) and its full rows. */
  const rowsOf = (text: string): { ids: number[]; logits: Float32Array[] } => {
    const ids = tokenizer.encode(text);
    return { ids, logits: forward(model, ids).logits.slice(0, -1) };
  };
  const positionsOf = (text: string): PositionStatistics[] => {
    const { ids, logits } = rowsOf(text);
    return logits.map((row, i) => positionStatistics(row, ids[i + 1]));
  };

  beforeAll(async () => {
    model = referenceFromWeights(storiesWeights(), 'fp32');
    tokenizer = await loadStories260kTokenizer();
    const text = tokenizer.decode(greedyGenerate(model, [1], 300, 2), { skip_special_tokens: true });
    expect(text.startsWith(ORACLE)).toBe(true);
    // Sentences of four words or more, each once (the story comes back to its opening).
    sentences = [...new Set(text.split(/(?<=[.!?]"?)\s+/).map((s) => s.trim()).filter((s) => s.split(/\s+/).length >= 4))];
  });

  it('real per-position rows: μ, σ, Min-K% and Min-K%++ equal the numpy script', () => {
    const texts = sentences.slice(0, 8).map((s) => {
      const { ids, logits } = rowsOf(s);
      expect(ids[0]).toBe(1);
      return { logits: logits.map((row) => Array.from(row)), next: ids.slice(1) };
    });
    const ks = [0.2, 0.5];
    const out = reference({ texts, ks });
    texts.forEach((text, t) => {
      const ours = text.logits.map((row, i) => positionStatistics(Float32Array.from(row), text.next[i]));
      ours.forEach((p, i) => {
        expect(p.logprob).toBeCloseTo(out.texts[t].positions[i].logprob, 12);
        expect(p.mean).toBeCloseTo(out.texts[t].positions[i].mean, 12);
        expect(p.std).toBeCloseTo(out.texts[t].positions[i].std, 10);
      });
      ks.forEach((k, j) => {
        expect(minKProb(ours.map((p) => p.logprob), k)!.score).toBeCloseTo(out.texts[t].minK[j]!, 10);
        expect(minKPlusPlus(ours, k)!.score).toBeCloseTo(out.texts[t].minKPlusPlus[j]!, 9);
      });
    });
  });

  it("Min-K%++ on its own greedy sentences stands clearly apart from the same words shuffled", () => {
    const random = mulberry32(260);
    const own: number[] = [];
    const shuffled: number[] = [];
    for (const sentence of sentences) {
      own.push(minKPlusPlus(positionsOf(sentence))!.score);
      shuffled.push(minKPlusPlus(positionsOf(shuffledWords(sentence, random)))!.score);
    }
    expect(sentences.length).toBeGreaterThanOrEqual(12);
    const a = summarizeScores(own)!;
    const b = summarizeScores(shuffled)!;
    // Every own sentence above every shuffled one, and the paired differences one-signed enough.
    expect(a.min, `own ${JSON.stringify(a)}, shuffled ${JSON.stringify(b)}`).toBeGreaterThan(b.max);
    expect(wilcoxonSignedRank(own.map((x, i) => x - shuffled[i]))!.pValue).toBeLessThan(0.01);
  });
});
