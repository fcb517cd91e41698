import { describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { letterBias, type LetterBiasInput } from '../../../src/lib/core/metrics/letter-bias.ts';

const ABCD: OptionLetter[] = ['A', 'B', 'C', 'D'];
const AB: OptionLetter[] = ['A', 'B'];
const item = (task: string, letters: OptionLetter[], prediction: OptionLetter | null, gold: OptionLetter | null, failure?: unknown): LetterBiasInput =>
  failure === undefined ? { task, letters, prediction, gold } : { task, letters, prediction, gold, failure };

// t1 (four options): predicted C, C, C, A against gold A, B, C, C, plus three items that are not
// counted (failed; no letter named; no key). t2 (two options): predicted A, A against gold B, A.
const results: LetterBiasInput[] = [
  item('t1', ABCD, 'C', 'A'),
  item('t1', ABCD, 'C', 'B'),
  item('t1', ABCD, 'C', 'C'),
  item('t1', ABCD, 'A', 'C'),
  item('t1', [], null, 'D', { code: 'run.item-too-long' }),
  item('t1', ABCD, null, 'B'),
  item('t1', ABCD, 'B', null),
  item('t2', AB, 'A', 'B'),
  item('t2', AB, 'A', 'A'),
];

describe('letterBias', () => {
  const bias = letterBias(results);

  it('counts predicted and gold letters over items with both, per task', () => {
    const [t1, t2] = bias.tasks;
    expect(bias.tasks.map((t) => t.key)).toEqual(['t1', 't2']);
    expect(t1.n).toBe(4);
    expect(t1.letters).toEqual(ABCD);
    expect(t1.predicted).toEqual({ A: 1, B: 0, C: 3, D: 0 });
    expect(t1.gold).toEqual({ A: 1, B: 1, C: 2, D: 0 });
    expect(t2.letters).toEqual(AB);
    expect(t2.predicted).toEqual({ A: 2, B: 0 });
  });

  // The fit is the Stuart–Maxwell test of the gold × predicted table, checked against numpy with the
  // reference functions in marginal-homogeneity.test.ts (reduced, pinv, exact_items).
  it('t1: table, fit, baseline, entropy and top', () => {
    const t1 = bias.tasks[0];
    expect(t1.table).toEqual([
      [0, 0, 1, 0],
      [0, 0, 1, 0],
      [1, 0, 1, 0],
      [0, 0, 0, 0],
    ]);
    // reduced([[0,0,1,0],[0,0,1,0],[1,0,1,0],[0,0,0,0]]) → (1.0, 2, 0.6065306597126334)
    // exact_items(same) → (1.0, 1.0, 0.5): 3 discordant items (A→C, B→C, C→A); pairs {A,C} 2, {B,C} 1: 3 × 2 arrangements.
    expect(t1.fit).toMatchObject({ method: 'exact-permutation', df: 2, discordant: 3, arrangements: 6 });
    expect(t1.fit!.statistic).toBeCloseTo(1, 12);
    expect(t1.fit!.pValue).toBeCloseTo(1, 12);
    expect(t1.fit!.smallestPValue).toBeCloseTo(0.5, 12);
    expect(t1.untestable).toBeNull();
    expect(t1.constantBaseline).toEqual({ letter: 'C', correct: 2, n: 4, accuracy: 0.5 });
    // H(¼, ¾) = ¼·2 + ¾·log2(4/3).
    expect(t1.entropyBits).toBeCloseTo(0.5 + 0.75 * Math.log2(4 / 3), 12);
    expect(t1.maxEntropyBits).toBe(2);
    expect(t1.top).toEqual({ letter: 'C', share: 0.75, goldShare: 0.5 });
  });

  it('t2: two letters, ties go to the first letter', () => {
    const t2 = bias.tasks[1];
    // One discordant item (B→A): McNemar, X² 1, exact p 1. reduced([[1,0],[1,0]]) → (1.0, 1, 0.3173…)
    expect(t2.fit).toMatchObject({ df: 1, method: 'exact-permutation', discordant: 1 });
    expect(t2.fit!.statistic).toBeCloseTo(1, 12);
    expect(t2.fit!.pValue).toBeCloseTo(1, 12);
    expect(t2.constantBaseline).toEqual({ letter: 'A', correct: 1, n: 2, accuracy: 0.5 });
    expect(t2.entropyBits).toBe(0);
    expect(t2.maxEntropyBits).toBe(1);
    expect(t2.top).toEqual({ letter: 'A', share: 1, goldShare: 0.5 });
  });

  it('overall pools every task', () => {
    const o = bias.overall;
    expect(o.key).toBe('overall');
    expect(o.n).toBe(6);
    expect(o.predicted).toEqual({ A: 3, B: 0, C: 3, D: 0 });
    expect(o.gold).toEqual({ A: 2, B: 2, C: 2, D: 0 });
    // reduced([[1,0,1,0],[1,0,1,0],[1,0,1,0],[0,0,0,0]]) → (2.0, 2, 0.3679)
    // exact_items(same) → (2.000000000000001, 0.625, 0.375)
    expect(o.fit).toMatchObject({ df: 2, method: 'exact-permutation', discordant: 4 });
    expect(o.fit!.statistic).toBeCloseTo(2, 12);
    expect(o.fit!.pValue).toBeCloseTo(0.625, 12);
    expect(o.fit!.smallestPValue).toBeCloseTo(0.375, 12);
    expect(o.constantBaseline).toEqual({ letter: 'A', correct: 2, n: 6, accuracy: 2 / 6 });
    expect(o.entropyBits).toBeCloseTo(1, 12);
    expect(o.top).toEqual({ letter: 'A', share: 0.5, goldShare: 2 / 6 });
    expect(bias.signature).toMatch(/^letter-bias\|test:stuart-maxwell\(.*\|p:exact-permutation-within-items<=50000-arrangements-else-chi-square\|.*\|version:2$/);
  });

  it('the walk’s 3 items, a letter chosen that is never gold: p 1 on one discordant item, not ∞ and p = 0', () => {
    // Gold A, A, B; chosen D, A, B. Version 1: X² = ∞, df 1, p = 0.
    // pinv([[1,0,0,1],[0,1,0,0],[0,0,0,0],[0,0,0,0]]) → (0.9999999999999998, 1, …); exact_items → p 1.0
    const o = letterBias([item('t', ABCD, 'D', 'A'), item('t', ABCD, 'A', 'A'), item('t', ABCD, 'B', 'B')]).overall;
    expect(o.fit).toMatchObject({ df: 1, method: 'exact-permutation', discordant: 1, pValue: 1, smallestPValue: 1 });
    expect(o.fit!.statistic).toBeCloseTo(1, 12);
  });

  it('the walk’s 5 items all gold A: df 2 when other letters are chosen, untestable when not, never df 0', () => {
    // reduced([[3,1,1,0],[0,0,0,0],[0,0,0,0],[0,0,0,0]]) → (2.0, 2, 0.3679); exact_items → p 1.0
    const chosen: OptionLetter[] = ['A', 'A', 'A', 'B', 'C'];
    const o = letterBias(chosen.map((c) => item('t', ABCD, c, 'A'))).overall;
    expect(o.fit).toMatchObject({ df: 2, method: 'exact-permutation', discordant: 2 });
    expect(o.fit!.statistic).toBeCloseTo(2, 12);
    expect(o.fit!.pValue).toBeCloseTo(1, 12);
    const allA = letterBias(chosen.map(() => item('t', ABCD, 'A', 'A'))).overall;
    expect(allA).toMatchObject({ n: 5, fit: null, untestable: 'one-letter' });
  });

  it('every letter chosen is its item’s answer: untestable (no discordant item), not p = 1', () => {
    const o = letterBias(ABCD.map((l) => item('t', ABCD, l, l))).overall;
    expect(o).toMatchObject({ n: 4, fit: null, untestable: 'no-discordant' });
  });

  it('a model that always says C over 40 items spread evenly is significantly biased', () => {
    const items = Array.from({ length: 40 }, (_, i) => item('t', ABCD, 'C', ABCD[i % 4]));
    const o = letterBias(items).overall;
    // exact_pairs([[0,0,10,0],[0,0,10,0],[0,0,10,0],[0,0,10,0]]) → p 7.4505805969238165e-09 (8 of 2^30 outcomes)
    expect(o.fit!.method).toBe('exact-permutation');
    expect(Math.abs(o.fit!.pValue - 7.4505805969238165e-9)).toBeLessThan(1e-18);
    expect(o.top).toEqual({ letter: 'C', share: 1, goldShare: 0.25 });
    expect(o.constantBaseline!.accuracy).toBe(0.25);
  });

  it('no counted item: nulls, never zeros', () => {
    const o = letterBias([item('t', ABCD, null, 'A')]).overall;
    expect(o).toMatchObject({ n: 0, fit: null, untestable: null, constantBaseline: null, entropyBits: null, top: null, maxEntropyBits: 2 });
  });
});
