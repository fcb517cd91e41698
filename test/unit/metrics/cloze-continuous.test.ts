/**
 * The cloze prediction rules and the continuous scores: hand-worked on a small table (ties, 2, 3
 * and 4 options, an unscored and a failed item), then against continuous_reference.py, an
 * independent numpy implementation written from the definitions, on a random table.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import { clozePrediction, resultsUnderRule, CLOZE_RULES } from '../../../src/lib/core/metrics/cloze-rules.ts';
import { aggregateContinuous, continuousOf } from '../../../src/lib/core/metrics/continuous.ts';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { renormalize } from '../../../src/lib/core/logprobs.ts';
import type { ClozeScores, McItemResult } from '../../../src/lib/core/record/run.ts';

const HERE = dirname(fileURLToPath(import.meta.url));
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

function scores(lls: number[], chars: number[], bytes: number[], unconditional?: number[]): ClozeScores {
  return {
    logLikelihoods: lls,
    tokenCounts: lls.map(() => 1),
    charCounts: chars,
    byteCounts: bytes,
    isGreedy: lls.map(() => false),
    ...(unconditional ? { unconditional } : {}),
    contextTokens: 10,
    contextIsPrefix: lls.map(() => true),
  };
}

type Row = Pick<McItemResult, 'itemId' | 'task' | 'gold' | 'letters' | 'logProbs' | 'probs' | 'cloze' | 'failure' | 'correct' | 'prediction'>;

function row(itemId: string, task: string, cloze: ClozeScores, gold: OptionLetter | null): Row {
  const letters = LETTERS.slice(0, cloze.logLikelihoods.length);
  const prediction = letters[clozePrediction(cloze, 'acc')!];
  return { itemId, task, gold, letters, logProbs: cloze.logLikelihoods, probs: renormalize(cloze.logLikelihoods), cloze, correct: gold === null ? null : prediction === gold, prediction };
}

describe('cloze rules, hand-worked', () => {
  // Option texts 甲 (1 char, 3 bytes), 乙乙 (2, 6), "A甲" (2, 4), 丁 (1, 3).
  const four = scores([-4, -6, -5, -4], [1, 2, 2, 1], [3, 6, 4, 3], [-3, -1, -2, -5]);
  it('acc: the largest sum, a tie to the first option', () => {
    // −4 (A) and −4 (D) tie: A, as numpy.argmax.
    expect(clozePrediction(four, 'acc')).toBe(0);
  });
  it('acc_norm: sum ÷ characters', () => {
    // −4, −3, −2.5, −4 → C
    expect(clozePrediction(four, 'acc_norm')).toBe(2);
  });
  it('acc_bytes: sum ÷ UTF-8 bytes', () => {
    // −1.333, −1, −1.25, −1.333 → B
    expect(clozePrediction(four, 'acc_bytes')).toBe(1);
  });
  it('pmi: sum − the sum after the answer cue alone', () => {
    // −1, −5, −3, +1 → D
    expect(clozePrediction(four, 'pmi')).toBe(3);
  });
  it('two and three options', () => {
    expect(clozePrediction(scores([-2, -1], [1, 4], [3, 12]), 'acc')).toBe(1);
    expect(clozePrediction(scores([-2, -3], [1, 4], [3, 12]), 'acc_norm')).toBe(1); // −2 vs −0.75
    expect(clozePrediction(scores([-3, -3, -3], [3, 1, 1], [9, 3, 3]), 'acc_norm')).toBe(0); // −1, −3, −3
    expect(clozePrediction(scores([-3, -3, -3], [1, 1, 1], [3, 3, 3]), 'acc_bytes')).toBe(0); // all tied → first
  });
  it('PMI is unavailable without the unconditional sums (a harness import)', () => {
    expect(clozePrediction(scores([-1, -2], [1, 1], [3, 3]), 'pmi')).toBeNull();
    expect(resultsUnderRule([row('x', 't', scores([-1, -2], [1, 1], [3, 3]), 'A')], 'pmi')).toBeNull();
  });
  it('rescoring keeps unscored items unscored and failed items failed', () => {
    const results: Row[] = [
      row('a', 't', four, 'C'),
      row('b', 't', four, null),
      { ...row('c', 't', four, 'A'), cloze: undefined, failure: { code: 'run.item-too-long', params: {} } as never, prediction: null, correct: null },
    ];
    const norm = resultsUnderRule(results, 'acc_norm')!;
    expect(norm.map((r) => [r.prediction, r.correct])).toEqual([['C', true], ['C', null], [null, null]]);
    const acc = resultsUnderRule(results, 'acc')!;
    expect(acc[0].correct).toBe(false);
  });
});

describe('continuous scores, hand-worked', () => {
  it('p(gold) normalised over the options, log p(gold) unnormalised, bits per byte of the gold text', () => {
    const c = continuousOf(row('a', 't', scores([Math.log(0.2), Math.log(0.05)], [1, 1], [3, 3]), 'A'))!;
    expect(c.pGold).toBeCloseTo(0.8, 12);
    expect(c.logPGold).toBeCloseTo(Math.log(0.2), 12);
    // −log₂ 0.2 ÷ 3 bytes
    expect(c.bitsPerByte).toBeCloseTo(-Math.log2(0.2) / 3, 12);
  });
  it('letter runs have no bits per byte; unscored and failed items have no score', () => {
    const letter: Row = { itemId: 'l', task: 't', gold: 'B', letters: ['A', 'B'], logProbs: [-1, -2], probs: renormalize([-1, -2]), correct: false, prediction: 'A' };
    expect(continuousOf(letter)).toEqual({ itemId: 'l', task: 't', pGold: renormalize([-1, -2])[1], logPGold: -2, bitsPerByte: null });
    expect(continuousOf({ ...letter, gold: null, correct: null })).toBeNull();
    expect(continuousOf({ ...letter, failure: { code: 'x', params: {} } as never })).toBeNull();
  });
  it('a task mean and the mean of task means', () => {
    const items = [
      { itemId: '1', task: 'a', pGold: 0.2, logPGold: 0, bitsPerByte: null },
      { itemId: '2', task: 'a', pGold: 0.4, logPGold: 0, bitsPerByte: null },
      { itemId: '3', task: 'b', pGold: 0.9, logPGold: 0, bitsPerByte: null },
    ];
    const agg = aggregateContinuous('aclue', items, 'pGold', ['a', 'b']);
    expect(agg.tasks.map((t) => [t.task, t.n, t.estimate!.estimate])).toEqual([['a', 2, expect.closeTo(0.3, 12)], ['b', 1, expect.closeTo(0.9, 12)]]);
    expect(agg.overall.estimate!.estimate).toBeCloseTo(0.6, 12);
    expect(agg.overall.of).toBe(2);
    // One item: every resample draws it, so its interval is the point.
    expect(agg.tasks[1].estimate!.low).toBeCloseTo(0.9, 12);
    expect(agg.tasks[1].estimate!.high).toBeCloseTo(0.9, 12);
    expect(aggregateContinuous('aclue', items, 'bitsPerByte', ['a', 'b']).overall.estimate).toBeNull();
  });
});

describe('against continuous_reference.py (numpy)', () => {
  it('the four rules, p(gold), log p(gold), bits per byte and their bootstrap intervals', () => {
    const random = mulberry32(2024);
    const tasks = ['t1', 't2', 't3'];
    const rows: Row[] = [];
    const input: unknown[] = [];
    for (let i = 0; i < 90; i++) {
      const task = tasks[i % 3];
      const k = 2 + (i % 3);
      // Sums rounded to quarters, so ties happen and must go to the first option in both.
      const lls = Array.from({ length: k }, () => -Math.round(random() * 40) / 4 - 0.25);
      const chars = Array.from({ length: k }, () => 1 + Math.floor(random() * 6));
      const bytes = chars.map((c) => 3 * c - (random() < 0.3 ? 2 : 0));
      const unconditional = Array.from({ length: k }, () => -Math.round(random() * 40) / 4 - 0.25);
      const gold = LETTERS[Math.floor(random() * k)];
      rows.push(row(`i${i}`, task, scores(lls, chars, bytes, unconditional), gold));
      input.push({ task, gold: LETTERS.indexOf(gold), lls, chars, bytes, unconditional });
    }
    const resamples = 300;
    const seed = 77;
    const weights = { t1: 1 / 3, t2: 1 / 3, t3: 1 / 3 };
    const out = JSON.parse(execFileSync('python3', [join(HERE, 'continuous_reference.py')], { input: JSON.stringify({ items: input, weights, resamples, seed }), encoding: 'utf8' })) as {
      rules: Record<string, number[]>;
      items: { pGold: number; logPGold: number; bitsPerByte: number }[];
      metrics: Record<'pGold' | 'bitsPerByte', { estimate: number; low: number; high: number; taskMeans: number[] }>;
    };
    for (const rule of CLOZE_RULES) expect(rows.map((r) => clozePrediction(r.cloze!, rule)), rule).toEqual(out.rules[rule]);
    const items = rows.map((r) => continuousOf(r)!);
    items.forEach((c, i) => {
      expect(c.pGold).toBeCloseTo(out.items[i].pGold, 12);
      expect(c.logPGold).toBeCloseTo(out.items[i].logPGold, 12);
      expect(c.bitsPerByte!).toBeCloseTo(out.items[i].bitsPerByte, 12);
    });
    for (const metric of ['pGold', 'bitsPerByte'] as const) {
      const agg = aggregateContinuous('aclue', items, metric, tasks, { resamples, seed });
      const ref = out.metrics[metric];
      expect(agg.tasks.map((t) => t.estimate!.estimate)).toEqual(ref.taskMeans.map((m) => expect.closeTo(m, 12)));
      expect(agg.overall.estimate!.estimate).toBeCloseTo(ref.estimate, 12);
      expect(agg.overall.estimate!.low).toBeCloseTo(ref.low, 12);
      expect(agg.overall.estimate!.high).toBeCloseTo(ref.high, 12);
      expect(agg.overall.estimate!.high - agg.overall.estimate!.low).toBeGreaterThan(0);
    }
  });
});
