import { describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { wilsonInterval } from '../../../src/lib/core/metrics/accuracy.ts';
import { allRotationsCorrect, circularSummary } from '../../../src/lib/core/metrics/circular.ts';
import { letterBias } from '../../../src/lib/core/metrics/letter-bias.ts';
import { itemPrior, prideDebias, type PrideInput } from '../../../src/lib/core/metrics/pride.ts';
import { drawEstimationSet } from '../../../src/lib/core/protocols/estimation-set.ts';
import { rotatedLetter } from '../../../src/lib/core/protocols/rotation.ts';
import type { McItemResult } from '../../../src/lib/core/record/run.ts';

const ABCD: OptionLetter[] = ['A', 'B', 'C', 'D'];
const argmax = (probs: readonly number[]): number => probs.indexOf(Math.max(...probs));

/** A letter-logits result: prediction = argmax of probs; rotations' probs given in order 1, 2, …. */
function result(itemId: string, probs: number[], gold: OptionLetter | null, rotations?: number[][], letters = ABCD): PrideInput {
  const prediction = letters[argmax(probs)];
  return {
    itemId,
    letters: letters.slice(0, probs.length),
    probs,
    prediction,
    gold,
    correct: gold === null ? null : prediction === gold,
    ...(rotations ? { rotations: rotations.map((p, i) => ({ rotation: i + 1, probs: p })) } : {}),
  };
}

// The hand-worked 3-item, 4-option example.
// The model's position prior is π = (½, ¼, ⅛, ⅛); the estimation item e1's options have content
// weights c = (1, 2, 1, 1) (option B, as the benchmark orders them, is liked twice as much). Rotation k
// shows at position j the option originally at (j + k) mod 4, and observed_k[j] = π_j·c_(j+k)/Z_k:
//   k = 0: c = (1,2,1,1): (½, ½, ⅛, ⅛)/1.25   = (0.4, 0.4, 0.1, 0.1)
//   k = 1: c = (2,1,1,1): (1, ¼, ⅛, ⅛)/1.5    = (2/3, 1/6, 1/12, 1/12)
//   k = 2: c = (1,1,1,2): (½, ¼, ⅛, ¼)/1.125  = (4/9, 2/9, 1/9, 2/9)
//   k = 3: c = (1,1,2,1): (½, ¼, ¼, ⅛)/1.125  = (4/9, 2/9, 2/9, 1/9)
// Mean over k of log observed_k[j] = log π_j + ¼·log 2 − ¼·Σ_k log Z_k: the last two terms are the
// same for every j, so the softmax over j gives back π exactly: prior = (0.5, 0.25, 0.125, 0.125).
// x1: probs (0.4, 0.3, 0.2, 0.1), gold C: raw A (wrong); p/π = (0.8, 1.2, 1.6, 0.8): debiased C (right).
// x2: probs (0.6, 0.2, 0.1, 0.1), gold A: raw A; p/π = (1.2, 0.8, 0.8, 0.8): debiased A (right).
// Raw accuracy 1/2, debiased 2/2, one prediction changed.
const e1 = result('e1', [0.4, 0.4, 0.1, 0.1], 'B', [
  [2 / 3, 1 / 6, 1 / 12, 1 / 12],
  [4 / 9, 2 / 9, 1 / 9, 2 / 9],
  [4 / 9, 2 / 9, 2 / 9, 1 / 9],
]);
const x1 = result('x1', [0.4, 0.3, 0.2, 0.1], 'C');
const x2 = result('x2', [0.6, 0.2, 0.1, 0.1], 'A');

describe('prideDebias', () => {
  it('the hand-worked example: prior, predictions, accuracies', () => {
    const pride = prideDebias([e1, x1, x2], ['e1'])!;
    expect(pride.priors).toHaveLength(1);
    expect(pride.priors[0].optionCount).toBe(4);
    expect(pride.priors[0].estimationItems).toBe(1);
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo([0.5, 0.25, 0.125, 0.125][j], 12));
    expect(pride.predictions).toEqual({ x1: 'C', x2: 'A' });
    expect(pride.evaluated).toBe(2);
    expect(pride.withoutPrior).toBe(0);
    expect(pride.raw).toEqual({ k: 1, n: 2, accuracy: 0.5, wilson: wilsonInterval(1, 2) });
    expect(pride.debiased).toEqual({ k: 2, n: 2, accuracy: 1, wilson: wilsonInterval(2, 2) });
    expect(pride.changed).toBe(1);
    expect(pride.signature).toMatch(/^pride\|/);
  });

  it('the prior is the mean over estimation items', () => {
    // e2 ignores content and position: uniform under every rotation, prior ¼ each. Mean with e1:
    // (3/8, 1/4, 3/16, 3/16); x1's p/prior = (1.067, 1.2, 1.067, 0.533): debiased B.
    const uniform = [0.25, 0.25, 0.25, 0.25];
    const e2 = result('e2', uniform, 'D', [uniform, uniform, uniform]);
    const pride = prideDebias([e1, e2, x1, x2], ['e1', 'e2'])!;
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo([3 / 8, 1 / 4, 3 / 16, 3 / 16][j], 12));
    expect(pride.priors[0].estimationItems).toBe(2);
    expect(pride.predictions.x1).toBe('B');
  });

  it('a prior per option count; an item whose count has none keeps its raw prediction', () => {
    // Three options, prior (0.2, 0.2, 0.6) (the model likes C): every rotation shows it.
    const t = [0.2, 0.2, 0.6];
    const e3 = result('e3', t, 'A', [t, t]);
    const y3 = result('y3', [0.3, 0.3, 0.4], 'A'); // p/prior = (1.5, 1.5, 0.67): A (tie of A and B goes to A)
    const z2 = result('z2', [0.3, 0.7], 'A'); // two options: no two-option prior
    const pride = prideDebias([e1, e3, x1, y3, z2], ['e1', 'e3'])!;
    expect(pride.priors.map((p) => [p.optionCount, p.estimationItems])).toEqual([
      [3, 1],
      [4, 1],
    ]);
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo(t[j], 12));
    expect(pride.predictions).toEqual({ x1: 'C', y3: 'A', z2: 'B' });
    expect(pride.withoutPrior).toBe(1);
    expect(pride.evaluated).toBe(3);
    expect(pride.changed).toBe(2);
    expect(pride.debiased.k).toBe(2);
  });

  it('leaves out failed, unkeyed and generated items, and estimation items from the evaluation', () => {
    const failed = { ...result('f', [0.1, 0.2, 0.3, 0.4], 'A'), failure: { code: 'model.failed' } };
    const unkeyed = result('u', [0.4, 0.3, 0.2, 0.1], null);
    const generated: PrideInput = { itemId: 'g', letters: ABCD, probs: [], prediction: 'B', gold: 'B', correct: true };
    const pride = prideDebias([e1, x1, failed, unkeyed, generated], ['e1'])!;
    expect(pride.evaluated).toBe(1);
    expect(Object.keys(pride.predictions)).toEqual(['x1']);
  });

  it('null when no estimation item is complete; incomplete or failed ones give no prior', () => {
    const incomplete = result('e1', [0.4, 0.4, 0.1, 0.1], 'B', [[0.25, 0.25, 0.25, 0.25]]);
    expect(prideDebias([incomplete, x1], ['e1'])).toBeNull();
    expect(prideDebias([e1, x1], [])).toBeNull();
    const failedRotation = { ...e1, rotations: e1.rotations!.map((r, i) => (i === 1 ? { ...r, failure: { code: 'model.failed' } } : r)) };
    expect(itemPrior(failedRotation)).toBeNull();
  });

  it('full-vocabulary log-probs would give the same prior: a constant per rotation cancels', () => {
    // Scaling every rotation's probabilities by its own factor (log-probs shifted by a constant).
    const scaled = { ...e1, probs: e1.probs.map((p) => p * 0.3), rotations: e1.rotations!.map((r, i) => ({ ...r, probs: r.probs.map((p) => p * (0.05 + 0.2 * i)) })) };
    itemPrior(scaled)!.forEach((p, j) => expect(p).toBeCloseTo(itemPrior(e1)![j], 12));
  });
});

describe('the three robustness metrics on stored McItemResult records', () => {
  // A model that answers C whatever the prompt (as the browser tests' fixture model does), with the
  // same letter probabilities under every rotation, on 40 four-option items whose gold letters cycle
  // A, B, C, D, A, …, plus two more gold A (so raw and debiased accuracy differ), in one circular run.
  const probs = [0.2, 0.2, 0.4, 0.2];
  const golds: OptionLetter[] = [...Array.from({ length: 40 }, (_, i) => ABCD[i % 4]), 'A', 'A'];
  const base = { runId: 'r', prompt: 'p', promptHash: 'h', tokenCount: 10, shotsUsed: 0, exemplarIds: [], tokenIds: [1, 2, 3, 4], reusedPrefixTokens: 0, forwardMs: 1, completedAt: '2026-01-01T00:00:00.000Z' };
  const records: McItemResult[] = golds.map((gold, index) => ({
    ...base,
    itemId: `i${index}`,
    task: index % 2 === 0 ? 'even' : 'odd',
    index,
    letters: ABCD,
    logProbs: probs.map((p) => Math.log(p) - 3),
    probs,
    prediction: 'C',
    gold,
    correct: gold === 'C',
    rotations: [1, 2, 3].map((rotation) => {
      const moved = rotatedLetter(gold, rotation, 4);
      return { ...base, rotation, letters: ABCD, logProbs: probs.map((p) => Math.log(p) - 3), probs, prediction: 'C' as const, gold: moved, correct: moved === 'C' };
    }),
  }));
  const estimation = drawEstimationSet(
    records.map((r) => r.itemId),
    0.05,
    1,
  );

  it('a significant letter bias, perf 0, and a debiased accuracy that differs from the raw one', () => {
    const bias = letterBias(records).overall;
    expect(bias.top).toMatchObject({ letter: 'C', share: 1 });
    expect(bias.fit!.pValue).toBeLessThan(0.001);
    const circular = circularSummary(records)!;
    expect(circular.perf.accuracy).toBe(0);
    // Each item is right under exactly the one rotation that shows its gold at C.
    expect(circular.mean.accuracy).toBeCloseTo(0.25, 12);
    expect(circular.atLeast.map((a) => a.k)).toEqual([42, 0, 0, 0]);
    expect(records.map(allRotationsCorrect).every((x) => x === false)).toBe(true);
    const pride = prideDebias(records, estimation)!;
    // The prior is the model's constant distribution; log p − log prior is 0 everywhere, so every
    // prediction goes to the lowest position, A.
    pride.priors[0].prior.forEach((p, j) => expect(p).toBeCloseTo(probs[j], 12));
    expect(Object.values(pride.predictions).every((l) => l === 'A')).toBe(true);
    expect(pride.evaluated).toBe(42 - estimation.length);
    const goldC = records.filter((r) => !estimation.includes(r.itemId) && r.gold === 'C').length;
    const goldA = records.filter((r) => !estimation.includes(r.itemId) && r.gold === 'A').length;
    expect(pride.raw.k).toBe(goldC);
    expect(pride.debiased.k).toBe(goldA);
    expect(pride.debiased.k).not.toBe(pride.raw.k);
  });
});
