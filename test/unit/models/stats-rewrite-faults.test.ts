/**
 * The test-only faults of rewriteForStatistics: each gives a graph that runs and looks plausible,
 * and the comparison a load check makes (the statistics of a short text against rowStatistics of
 * the same graph's logits rows, stats-rewrite.test.ts) misses none of them in any dtype, by a
 * margin far above the dtype's tolerance; the correct graph passes the same comparison.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { generateFixtures } from '../../../scripts/fixtures/generate.ts';
import { encodeFixture } from '../../../scripts/fixtures/reference.ts';
import { TINY_NOKEEP, type FixtureDtype } from '../../../scripts/fixtures/specs.ts';
import { sampleCmmluPrompt } from '../../../src/lib/core/models/model-check.ts';
import type { StatsRewriteFault } from '../../../src/lib/core/models/stats-rewrite.ts';
import { compareStats, logitsRows, openGraph, pass, statsGraph, worst, type StatsDiff } from './stats-helpers.ts';

const DTYPES: readonly FixtureDtype[] = ['fp32', 'q8', 'q4', 'fp16', 'q4f16'];
/** stats-rewrite.test.ts's largest tolerance (fp16's); every fault must exceed it many times over. */
const LARGEST_TOLERANCE = 1.5e-2;
/** The statistic each fault spoils. */
const SPOILS: Record<StatsRewriteFault, keyof StatsDiff> = {
  'target-from-next-row': 'logprob',
  'mean-without-probabilities': 'mean',
  'variance-as-std': 'std',
};

let dir = '';
beforeAll(() => {
  dir = generateFixtures({ models: ['jiangu-tiny-nokeep'] })[0].dir;
});

describe('rewriteForStatistics with a deliberate fault', () => {
  const ids = encodeFixture(sampleCmmluPrompt(16));
  for (const dtype of DTYPES) {
    it(`jiangu-tiny-nokeep ${dtype}: each fault is caught by the comparison with the graph's own rows; the correct graph passes it`, async () => {
      const right = await pass(await openGraph(statsGraph(dir, dtype), dtype), TINY_NOKEEP, [ids], null, 0);
      const rightDiff = compareStats(right, logitsRows(right.logits), [ids], true);
      expect(worst(rightDiff)).toBeLessThan(LARGEST_TOLERANCE);
      const report: string[] = [];
      for (const fault of Object.keys(SPOILS) as StatsRewriteFault[]) {
        const out = await pass(await openGraph(statsGraph(dir, dtype, fault), dtype), TINY_NOKEEP, [ids], null, 0);
        // The fault leaves the logits alone: only the statistics are wrong.
        expect(Array.from(out.logits.data as Float32Array)).toEqual(Array.from(right.logits.data as Float32Array));
        const d = compareStats(out, logitsRows(out.logits), [ids], true);
        const spoilt = d[SPOILS[fault]] as number;
        report.push(`${fault}: ${SPOILS[fault]} off by ${spoilt.toExponential(2)}`);
        expect(spoilt, fault).toBeGreaterThan(10 * LARGEST_TOLERANCE);
        expect(worst(d)).toBe(spoilt);
      }
      console.info(`[stats faults] ${dtype}: ${report.join('; ')}`);
    });
  }
});
