// Coverage of the whole-benchmark estimate, by simulation (issue 36): populations with the real task
// sizes of ACLUE, CMMLU 古汉语, AC-EVAL and AncientBench (28,707 items; a documented split, see
// sample-estimate-sim.ts), per-task accuracies from chance (0.25) to 0.9, asked in a run's order
// (each task shuffled, tasks taking turns in blocks of 4, 8, …, 64), by the benchmark's own weights.
//  - (b), the confidence sequence, must hold the true score at every check of a path on ≥ 95% of
//    paths: after every item for the first 60 (every task's first block), then at the end of every
//    task's turn (a combine after each of 2,000 items on every path would take minutes; CMMLU's one
//    task is checked after every item). Paths run to 2,000 items (CMMLU: all 164).
//  - each task's own sequence must hold the task's mean after every item on ≥ 95% of (path, task) pairs;
//  - (a), the fixed-n interval, must hold it at each fixed n (100, 500, 2,000) on ≥ 94.5% of paths
//    (extra paths with (a) only, which costs no grid work).
// Accuracy (0/1), continuous scores (Beta-distributed, mean from 0.25 to 0.9: p(gold)-like), and
// paired differences of two models' accuracies in [−1, 1] (Compare's B − A).
// Seeded (mulberry32): the same numbers every run. Timings are for scripts/bench/sample-widths.ts.
import { describe, expect, it } from 'vitest';
import { aggregationFor } from '../../../src/lib/core/metrics/mc-aggregate.ts';
import { scoreWeights } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import type { DatasetId } from '../../../src/lib/core/benchmarks/types.ts';
import { ACLUE_SIZES, AC_EVAL_SIZES, ANCIENTBENCH_SIZES, CMMLU_ANCIENT_SIZES, simulateCoverage, type CoverageResult, type ValueKind } from './sample-estimate-sim.ts';

interface Case {
  name: string;
  id: DatasetId;
  sizes: Record<string, number>;
  kind: ValueKind;
  /** Paths checking (b) and (a); then paths checking (a) only. */
  sequencePaths: number;
  fixedPaths: number;
  horizon: number;
  everyItemUntil: number;
}

const CASES: Case[] = [
  { name: 'ACLUE, accuracy', id: 'aclue', sizes: ACLUE_SIZES, kind: 'binary', sequencePaths: 160, fixedPaths: 8000, horizon: 2000, everyItemUntil: 60 },
  { name: 'AC-EVAL, accuracy', id: 'ac-eval', sizes: AC_EVAL_SIZES, kind: 'binary', sequencePaths: 160, fixedPaths: 8000, horizon: 2000, everyItemUntil: 60 },
  { name: 'AncientBench (28,707 items), accuracy', id: 'ancientbench', sizes: ANCIENTBENCH_SIZES, kind: 'binary', sequencePaths: 120, fixedPaths: 8000, horizon: 2000, everyItemUntil: 60 },
  { name: 'CMMLU 古汉语, accuracy, every item', id: 'cmmlu-ancient', sizes: CMMLU_ANCIENT_SIZES, kind: 'binary', sequencePaths: 600, fixedPaths: 4000, horizon: 164, everyItemUntil: 164 },
  { name: 'ACLUE, continuous scores', id: 'aclue', sizes: ACLUE_SIZES, kind: 'continuous', sequencePaths: 120, fixedPaths: 2000, horizon: 2000, everyItemUntil: 60 },
  { name: 'ACLUE, paired differences B − A in [−1, 1] (Compare)', id: 'aclue', sizes: ACLUE_SIZES, kind: 'paired', sequencePaths: 80, fixedPaths: 1000, horizon: 2000, everyItemUntil: 60 },
  { name: 'CMMLU 古汉语, continuous scores, every item', id: 'cmmlu-ancient', sizes: CMMLU_ANCIENT_SIZES, kind: 'continuous', sequencePaths: 400, fixedPaths: 3000, horizon: 164, everyItemUntil: 164 },
];

const POPULATIONS = 10;
const FIXED_AT = [100, 500, 2000];

function run(c: Case, seed: number): { sequence: CoverageResult; fixed: CoverageResult } {
  const weights = scoreWeights(aggregationFor(c.id), Object.keys(c.sizes), c.sizes).overall;
  const common = { sizes: c.sizes, weights, kind: c.kind, populations: POPULATIONS, horizon: c.horizon, fixedAt: FIXED_AT };
  return {
    sequence: simulateCoverage({ ...common, pathsPerPopulation: c.sequencePaths / POPULATIONS, seed, sequence: true, everyItemUntil: c.everyItemUntil }),
    fixed: simulateCoverage({ ...common, pathsPerPopulation: c.fixedPaths / POPULATIONS, seed: seed + 1, sequence: false }),
  };
}

describe('coverage by simulation', () => {
  CASES.forEach((c, i) => {
    it(`${c.name}: (b) at every time on ≥ 95% of paths, each task's own too; (a) at each fixed n on ≥ 94.5%`, () => {
      const { sequence, fixed } = run(c, 1000 + 17 * i);
      expect(sequence.paths).toBe(c.sequencePaths);
      expect(sequence.checksPerPath).toBeGreaterThanOrEqual(Math.min(c.horizon, 100));
      expect(sequence.sequenceCovered / sequence.paths).toBeGreaterThanOrEqual(0.95);
      expect(sequence.strataCovered / sequence.strataPaths).toBeGreaterThanOrEqual(0.95);
      const checked = FIXED_AT.filter((n) => n <= c.horizon);
      expect(fixed.fixed.map((f) => f.n)).toEqual(checked);
      for (let f = 0; f < checked.length; f++) {
        const covered = fixed.fixed[f].covered + sequence.fixed[f].covered;
        const paths = fixed.paths + sequence.paths;
        expect(covered / paths, `(a) at n = ${checked[f]}`).toBeGreaterThanOrEqual(0.945);
      }
    });
  });
});
