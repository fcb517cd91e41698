// The real-shapes bench's arithmetic (scripts/bench/real-report.ts): the FLOPs it divides by, the
// prefix it sets apart, and the minutes it promises a user, against sums written out by hand.
import { describe, expect, it } from 'vitest';
import { benchmarkMinutes, BENCHMARK_SIZES, figures, forwardFlops, prefixMs } from '../../../scripts/bench/real-report.ts';
import type { RealResult } from '../../../scripts/bench/real-measure.ts';
import type { SequenceItem, SequenceRun } from '../../../scripts/bench/cloze-page.ts';
import type { Shape } from '../../../scripts/bench/model-shapes.ts';

const shape: Shape = { name: 'toy', layers: 2, hidden: 4, heads: 2, kvHeads: 1, headDim: 2, intermediate: 8, vocab: 10 };

function item(ms: number, contextTokens: number): SequenceItem {
  return { id: `i${ms}`, task: 't', ms, workerMs: ms, logitsCopied: 4, forwardPasses: 1, reusedPrefixTokens: 0, contextTokens };
}
const run = (items: SequenceItem[], primeMs?: number): SequenceRun => ({ totalMs: items.reduce((a, b) => a + b.ms, 0), primeMs, items });

describe('real-shapes bench arithmetic', () => {
  it('counts a forward as layers, one head row and causal attention', () => {
    // Per token through the layers: q,k,v = 4×(2+2)×2 = 32, o = 2×2×4 = 16, MLP = 3×4×8 = 96; two layers: 288.
    // Head row: 4 × 10 = 40. Attention per attended position: 2 layers × 2 × 2 heads × 2 = 16.
    // Three new tokens after two cached ones attend to 3 + 4 + 5 = 12 positions.
    expect(forwardFlops(shape, 3, 2)).toBe(2 * (3 * 288 + 40 + 16 * 12));
    expect(forwardFlops(shape, 1, 0)).toBe(2 * (288 + 40 + 16));
    // A mistake in any term moves the count.
    expect(forwardFlops(shape, 3, 0)).not.toBe(forwardFlops(shape, 3, 2));
  });

  it('sets the exemplar prefix apart from the items that reuse it', () => {
    expect(prefixMs(run([item(2000, 10), item(4000, 12)], 23_000))).toBe(20_000);
    expect(prefixMs(run([item(2000, 10)]))).toBeNaN();
  });

  it('turns the measured pace into minutes for whole benchmarks, one prefix per task at 5-shot', () => {
    const result: RealResult = {
      model: 'toy',
      dtype: 'q4',
      threads: 1,
      deep: false,
      letters: { aclue: { zero: run([item(2000, 60), item(4000, 70)]), five: run([item(5000, 300)], 65_000) } },
      errors: [],
      consoleTail: [],
      leaks: [],
      totalS: 1,
      machineLoad: [0.5, 0.7],
    };
    const x = figures(result, shape);
    expect(x.zeroPerS.aclue).toBeCloseTo(1 / 3, 12);
    expect(x.prefixS.aclue).toBe(60);
    const all = BENCHMARK_SIZES.find((s) => s.label === 'all of ACLUE')!;
    const m = benchmarkMinutes(x, all);
    expect(m.zero).toBeCloseTo((4966 * 3) / 60, 9);
    expect(m.five).toBeCloseTo((15 * 60 + 4966 * 5) / 60, 9);
    // No CMMLU items were measured: its minutes are unknown, never zero.
    expect(benchmarkMinutes(x, BENCHMARK_SIZES[0]).zero).toBeNaN();
  });
});
