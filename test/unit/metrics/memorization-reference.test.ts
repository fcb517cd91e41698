/**
 * The memorization probes against memorization_reference.py, an independent numpy script written
 * from the papers' formulas: Min-K% and Min-K%++ on a few hundred synthetic per-token rows (full
 * logits rows, from which the script takes log-softmax, μ and σ itself), the t-test over shards, the
 * t tail from a closed series rather than the incomplete beta function, and the summaries.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import {
  exchangeabilityTest,
  minKPlusPlus,
  minKProb,
  studentTSurvival,
  summarizeScores,
  type ShardLogLikelihoods,
} from '../../../src/lib/core/metrics/memorization/index.ts';
import { positionStatistics, reference } from './memorization-helpers.ts';

const KS = [0.2, 0.05, 0.5, 1];

describe('against memorization_reference.py (numpy)', () => {
  it('Min-K% and Min-K%++ on synthetic rows, from flat to peaked, texts of 0 to 40 positions', () => {
    const random = mulberry32(26);
    const vocab = 64;
    const texts: { logits: number[][]; next: number[] }[] = [];
    for (let t = 0; t < 30; t++) {
      const n = t < 5 ? t : 5 + Math.floor(random() * 36);
      const logits: number[][] = [];
      const next: number[] = [];
      for (let i = 0; i < n; i++) {
        const scale = 0.3 + 8 * random() ** 2;
        // A sum of three uniforms is near enough to normal for logits; rounded to float32 as a model's are.
        const row = Array.from({ length: vocab }, () => Math.fround(scale * (random() + random() + random() - 1.5)));
        logits.push(row);
        // The next token drawn from the row's own softmax half the time, any token otherwise.
        if (random() < 0.5) {
          const max = Math.max(...row);
          const w = row.map((x) => Math.exp(x - max));
          let u = random() * w.reduce((a, b) => a + b, 0);
          let j = 0;
          while (j < vocab - 1 && (u -= w[j]) > 0) j++;
          next.push(j);
        } else next.push(Math.floor(random() * vocab));
      }
      texts.push({ logits, next });
    }
    const rows = texts.reduce((s, t) => s + t.next.length, 0);
    expect(rows).toBeGreaterThan(300);
    const out = reference({ texts, ks: KS });
    texts.forEach((text, t) => {
      const ours = text.logits.map((row, i) => positionStatistics(Float32Array.from(row), text.next[i]));
      const ref = out.texts[t];
      ours.forEach((p, i) => {
        expect(p.logprob).toBeCloseTo(ref.positions[i].logprob, 12);
        expect(p.mean).toBeCloseTo(ref.positions[i].mean, 12);
        expect(p.std).toBeCloseTo(ref.positions[i].std, 10);
      });
      KS.forEach((k, j) => {
        const plain = minKProb(ours.map((p) => p.logprob), k);
        const plus = minKPlusPlus(ours, k);
        if (ref.minK[j] === null) expect(plain).toBeNull();
        else expect(plain!.score, `text ${t}, k ${k}`).toBeCloseTo(ref.minK[j]!, 10);
        if (ref.minKPlusPlus[j] === null) expect(plus).toBeNull();
        else expect(plus!.score, `text ${t}, k ${k}`).toBeCloseTo(ref.minKPlusPlus[j]!, 9);
        // From the script's own μ and σ: the selection alone.
        if (ref.minKPlusPlus[j] !== null) expect(minKPlusPlus(ref.positions, k)!.score).toBeCloseTo(ref.minKPlusPlus[j]!, 12);
      });
    });
  });

  it("the t-test over shards, and the reference script's statistic as t · √(m/(m − 1))", () => {
    const random = mulberry32(2310);
    const sets: ShardLogLikelihoods[][] = [];
    for (const [m, r, shift] of [[2, 1, 0.3], [3, 3, 0], [5, 25, 1], [10, 3, -0.5], [50, 25, 0.2], [120, 2, 0.05], [7, 1, 3]] as const) {
      sets.push(
        Array.from({ length: m }, () => {
          const base = -200 - 100 * random();
          return { canonical: base + shift + 2 * (random() - 0.5), permuted: Array.from({ length: r }, () => base + 2 * (random() - 0.5)) };
        }),
      );
    }
    const out = reference({ ks: [], shardSets: sets });
    sets.forEach((shards, i) => {
      const m = shards.length;
      const design = { itemCount: 2 * m, shardCount: m, permutations: shards[0].permuted.length, seed: 0 };
      const r = exchangeabilityTest(design, shards);
      const ref = out.shardSets[i];
      expect(r.meanDifference).toBeCloseTo(ref.mean, 10);
      expect(r.sdDifference).toBeCloseTo(ref.sd, 10);
      expect(r.statistic! / ref.t).toBeCloseTo(1, 10);
      expect(r.pValue!).toBeCloseTo(ref.p, 9);
      expect(r.statistic! * Math.sqrt(m / (m - 1))).toBeCloseTo(ref.upstreamStatistic, 9);
    });
  });

  it('the t tail from the incomplete beta function equals A&S 26.7.3/26.7.4 over t and ν', () => {
    const cases: [number, number][] = [];
    for (const nu of [1, 2, 3, 4, 5, 9, 10, 24, 49, 60, 119, 199]) for (const t of [-4, -1.3, -0.2, 0, 0.05, 0.7, 1.645, 2.2, 3.1, 4.5, 6]) cases.push([t, nu]);
    const out = reference({ ks: [], tValues: cases });
    cases.forEach(([t, nu], i) => expect(studentTSurvival(t, nu), `t ${t}, ν ${nu}`).toBeCloseTo(out.tValues[i], 9));
  });

  it('summaries: numpy percentile, min, max, mean', () => {
    const random = mulberry32(5);
    const samples = Array.from({ length: 12 }, (_, i) => Array.from({ length: 1 + i * 4 }, () => Math.round(random() * 40) / 8 - 3));
    const out = reference({ ks: [], summaries: samples });
    samples.forEach((values, i) => {
      const ours = summarizeScores(values)!;
      for (const field of ['n', 'min', 'q1', 'median', 'q3', 'max', 'mean'] as const) expect(ours[field], field).toBeCloseTo(out.summaries[i][field], 12);
    });
  });
});
