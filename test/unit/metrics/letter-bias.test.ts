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

  it('t1: fit, baseline, entropy and top worked by hand', () => {
    const t1 = bias.tasks[0];
    // Expected = gold counts (1, 1, 2, 0); D has none expected and none observed, so cells A, B, C, df 2.
    // X² = 0²/1 + 1²/1 + 1²/2 = 1.5. Exact: the 15 compositions of 4 into p = (¼, ¼, ½);
    // P(obs = 1,0,3) = 4·¼·⅛ = 0.125; only (1,1,2) is more likely (12·¼·¼·¼ = 0.1875): p = 1 − 0.1875.
    expect(t1.fit!.method).toBe('exact-multinomial');
    expect(t1.fit!.df).toBe(2);
    expect(t1.fit!.statistic).toBeCloseTo(1.5, 12);
    expect(t1.fit!.pValue).toBeCloseTo(0.8125, 12);
    expect(t1.constantBaseline).toEqual({ letter: 'C', correct: 2, n: 4, accuracy: 0.5 });
    // H(¼, ¾) = ¼·2 + ¾·log2(4/3).
    expect(t1.entropyBits).toBeCloseTo(0.5 + 0.75 * Math.log2(4 / 3), 12);
    expect(t1.maxEntropyBits).toBe(2);
    expect(t1.top).toEqual({ letter: 'C', share: 0.75, goldShare: 0.5 });
  });

  it('t2: two letters, ties go to the first letter', () => {
    const t2 = bias.tasks[1];
    // Observed (2, 0) against (1, 1): P(2,0) = P(0,2) = ¼ ≤ P(obs) = ¼, P(1,1) = ½: p = 0.5; X² = 2.
    expect(t2.fit).toMatchObject({ statistic: 2, df: 1, method: 'exact-multinomial' });
    expect(t2.fit!.pValue).toBeCloseTo(0.5, 12);
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
    // Observed (3, 0, 3) against thirds: X² = ½ + 2 + ½ = 3. P(x) = 6!/(a!b!c!)/3⁶; P(obs) = 20/729;
    // outcomes with coefficient ≤ 20: 3 × 1 + 6 × 6 + 6 × 15 + 3 × 20 = 189: p = 189/729.
    expect(o.fit!.statistic).toBeCloseTo(3, 12);
    expect(o.fit!.pValue).toBeCloseTo(189 / 729, 12);
    expect(o.constantBaseline).toEqual({ letter: 'A', correct: 2, n: 6, accuracy: 2 / 6 });
    expect(o.entropyBits).toBeCloseTo(1, 12);
    expect(o.top).toEqual({ letter: 'A', share: 0.5, goldShare: 2 / 6 });
    expect(bias.signature).toMatch(/^letter-bias\|fit:/);
  });

  it('a letter predicted that is never gold: p = 0, X² = Infinity', () => {
    const fit = letterBias([item('t', ABCD, 'D', 'A'), item('t', ABCD, 'A', 'A'), item('t', ABCD, 'B', 'B')]).overall.fit!;
    expect(fit.statistic).toBe(Infinity);
    expect(fit.pValue).toBe(0);
  });

  it('a model that always says C over 40 items spread evenly is significantly biased', () => {
    const items = Array.from({ length: 40 }, (_, i) => item('t', ABCD, 'C', ABCD[i % 4]));
    const o = letterBias(items).overall;
    expect(o.fit!.pValue).toBeLessThan(1e-20);
    expect(o.top).toEqual({ letter: 'C', share: 1, goldShare: 0.25 });
    expect(o.constantBaseline!.accuracy).toBe(0.25);
  });

  it('no counted item: nulls, never zeros', () => {
    const o = letterBias([item('t', ABCD, null, 'A')]).overall;
    expect(o).toMatchObject({ n: 0, fit: null, constantBaseline: null, entropyBits: null, top: null, maxEntropyBits: 2 });
  });
});
