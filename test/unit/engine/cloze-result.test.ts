// The stored result of a cloze item, from hand-made worker scores: counts of the option text
// (code points and UTF-8 bytes, as the harness), the acc rule's prediction and the options' softmax.
import { describe, expect, it } from 'vitest';
import { clozeResult } from '../../../src/lib/engine/cloze-result.ts';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { ScoreClozeItemResult } from '../../../src/lib/engine/messages.ts';
import { clozePrediction } from '../../../src/lib/core/metrics/cloze-rules.ts';

const item: MultipleChoiceItem = {
  kind: 'multiple-choice', id: 'x1', datasetId: 'aclue', task: '古汉语', split: 'test', order: 0, source: { file: 'f', line: 2 },
  question: '学而时习之', options: ['喜悦', '𠀀说', 'ab', '解说之言'], answer: 'B',
};

function scored(lls: number[], unconditional?: number[]): ScoreClozeItemResult {
  return {
    context: 'ctx', prefix: '', shotsUsed: 0, exemplarIds: [], droppedExemplarIds: [], overLimit: false, text: 'ctx', contextIds: [5, 6, 7],
    options: lls.map((ll, k) => ({ continuation: item.options[k], tokenIds: Array(k + 1).fill(9), logLikelihood: ll, isGreedy: k === 0, contextIsPrefix: k !== 2, ...(unconditional ? { unconditional: unconditional[k] } : {}) })),
    reusedPrefixTokens: 0, logitsCopied: 0, forwardPasses: 4, forwardMs: 3,
  };
}

describe('clozeResult', () => {
  it('keeps per-option sums and the harness counts; predicts by acc with ties to the first', () => {
    const r = clozeResult('run', 0, item, scored([-4, -2, -2, -9], [-1, -1.5, -0.5, -3]), 'hash');
    expect(r.cloze!.charCounts).toEqual([2, 2, 2, 4]); // 𠀀 is one code point (two UTF-16 units)
    expect(r.cloze!.byteCounts).toEqual([6, 7, 2, 12]);
    expect(r.cloze!.tokenCounts).toEqual([1, 2, 3, 4]);
    expect(r.cloze!.isGreedy).toEqual([true, false, false, false]);
    expect(r.cloze!.contextIsPrefix).toEqual([true, true, false, true]);
    expect(r.cloze!.unconditional).toEqual([-1, -1.5, -0.5, -3]);
    expect(r.cloze!.contextTokens).toBe(3);
    expect(r.prediction).toBe('B');
    expect(r.correct).toBe(true);
    const z = Math.exp(-4) + 2 * Math.exp(-2) + Math.exp(-9);
    expect(r.probs[1]).toBeCloseTo(Math.exp(-2) / z, 12);
    expect(r.logProbs).toEqual([-4, -2, -2, -9]);
    // PMI: −4+1, −2+1.5, −2+0.5, −9+3 = −3, −0.5, −1.5, −6 → B.
    expect(clozePrediction(r.cloze!, 'pmi')).toBe(1);
    // acc_bytes: −4/6, −2/7, −2/2, −9/12 → B.
    expect(clozePrediction(r.cloze!, 'acc_bytes')).toBe(1);
  });

  it('leaves unconditional out when the worker was not asked for it, and refuses a count mismatch', () => {
    expect(clozeResult('run', 0, item, scored([-1, -2, -3, -4]), 'h').cloze!.unconditional).toBeUndefined();
    const short = scored([-1, -2, -3]);
    expect(() => clozeResult('run', 0, item, short, 'h')).toThrow(/3 option scores for 4 options/);
  });
});
