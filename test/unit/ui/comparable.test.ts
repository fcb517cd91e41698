// What Compare gets from a stored run: a circular run's items carry their all-rotations-right
// outcome and its robustness numbers are its own metric functions' (letterBias, circularSummary,
// prideDebias); a plain run has letter bias only, and no per-item rotation outcome.
import { describe, expect, it } from 'vitest';
import { allRotationsCorrect, circularSummary, letterBias, prideDebias } from '../../../src/lib/core/metrics/index.ts';
import { rotatedLetter, rotationCount } from '../../../src/lib/core/protocols/rotation.ts';
import type { McItemResult, McRotationResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { fromStoredRun } from '../../../src/ui/compare/comparable.ts';
import { makeMcRun } from '../../fixtures/run-records/build.ts';

/** The item asked under each other rotation by a model that ignores the options: the same log-probabilities per position. */
function withRotations(result: McItemResult): McItemResult {
  const n = result.letters.length;
  const rotations = Array.from({ length: rotationCount(n) - 1 }, (_, i): McRotationResult => {
    const rotation = i + 1;
    const gold = result.gold === null ? null : rotatedLetter(result.gold, rotation, n);
    return { ...result, rotation, gold, correct: gold === null ? null : gold === result.prediction };
  });
  return { ...result, rotations };
}

describe('fromStoredRun: robustness', () => {
  it('a circular run: every item’s all-rotations-right outcome, and the run’s circular, PriDe and letter-bias numbers', () => {
    const { run: plain, results: plainResults } = makeMcRun();
    // PriDe needs 20 estimation items: item 0 and 19 copies of it under other ids.
    const copies = Array.from({ length: 19 }, (_, k) => ({ ...plainResults[0], itemId: `${plainResults[0].itemId}-copy${k}`, index: plainResults.length + k }));
    const pride = { share: 0.05, seed: 3, estimationItemIds: [plainResults[0], ...copies].map((r) => r.itemId) };
    const run: McRunRecord = { ...plain, config: { ...plain.config, circular: true, pride } };
    // Item 4 (gold D) raw answers A; the prior from item 0, which likes A, turns it into D.
    const logProbs = [-0.5, -2.2, -2.6, -0.9];
    const total = logProbs.reduce((sum, lp) => sum + Math.exp(lp), 0);
    const probs = logProbs.map((lp) => Math.exp(lp) / total);
    const leaning = [...plainResults, ...copies].map((r, i) => (i === 4 ? { ...r, logProbs, probs, prediction: 'A' as const, correct: false } : r));
    const results = leaning.map(withRotations);
    const comparable = fromStoredRun(run, results);
    expect(comparable.mcItems!.map((i) => i.allRotationsCorrect)).toEqual(results.map((r) => allRotationsCorrect(r)));
    expect(comparable.mcItems!.some((i) => i.allRotationsCorrect === true)).toBe(false);
    const summary = circularSummary(results)!;
    expect(comparable.robustness!.circularMean).toEqual({ accuracy: summary.mean.accuracy, interval: summary.mean.interval, n: summary.scored });
    const debiased = prideDebias(results, pride.estimationItemIds)!;
    expect(debiased.debiased.k).toBe(debiased.raw.k + 1);
    expect(comparable.robustness!.pride).toEqual(debiased.debiased);
    const bias = letterBias(results).overall;
    expect(comparable.robustness!.letterBias).toEqual({ n: bias.n, letter: bias.top!.letter, share: bias.top!.share, pValue: bias.fit!.pValue });
  });

  it('a plain run: no per-item rotation outcome (Compare gives it its one-order outcome), letter bias only', () => {
    const { run, results } = makeMcRun();
    const comparable = fromStoredRun(run, results);
    expect(comparable.mcItems!.every((i) => !('allRotationsCorrect' in i))).toBe(true);
    expect(Object.keys(comparable.robustness!)).toEqual(['letterBias']);
  });
});
