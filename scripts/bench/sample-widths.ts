// The price of stopping when one likes (issue 36): the half-widths of (a) the fixed-n interval and
// (b) the confidence sequence of a benchmark's score at 100, 500 and 2,000 items (CMMLU 古汉语: 100
// and all 164), averaged over simulated runs, with the coverage the simulations measured, and the
// time to feed a whole 28,707-item AncientBench run through the trackers (values pushed one by one,
// the sequence read after each: what a live run page does at worst).
// Populations and order as in test/unit/metrics/sample-estimate-sim.ts: real task sizes, per-task
// accuracy from chance (0.25) to 0.9, each task shuffled, tasks in turns of 4, 8, …, 64 items; the
// benchmark's own weights. A measurement, not a test: it prints tables; nothing fails.
//
//   npx tsx scripts/bench/sample-widths.ts [--paths 200] [--kind binary|continuous]
import { parseArgs } from 'node:util';
import type { DatasetId } from '../../src/lib/core/benchmarks/types.ts';
import { aggregationFor } from '../../src/lib/core/metrics/mc-aggregate.ts';
import { combineStrata, scoreWeights, stratumTracker } from '../../src/lib/core/metrics/sample-estimate/index.ts';
import { ACLUE_SIZES, AC_EVAL_SIZES, ANCIENTBENCH_SIZES, CMMLU_ANCIENT_SIZES, mulberry32, population, runSchedule, simulateCoverage } from '../../test/unit/metrics/sample-estimate-sim.ts';

const { values } = parseArgs({ options: { paths: { type: 'string', default: '200' }, kind: { type: 'string', default: 'binary' } } });
const paths = Number(values.paths);
const kind = values.kind === 'continuous' ? 'continuous' : 'binary';

const BENCHMARKS: { name: string; id: DatasetId; sizes: Record<string, number>; at: number[] }[] = [
  { name: 'CMMLU 古汉语 (1 task, 164)', id: 'cmmlu-ancient', sizes: CMMLU_ANCIENT_SIZES, at: [100, 164] },
  { name: 'ACLUE (15 tasks, 4,966)', id: 'aclue', sizes: ACLUE_SIZES, at: [100, 500, 2000] },
  { name: 'AC-EVAL (13 tasks, 3,180)', id: 'ac-eval', sizes: AC_EVAL_SIZES, at: [100, 500, 2000] },
  { name: 'AncientBench (10 tasks, 28,707)', id: 'ancientbench', sizes: ANCIENTBENCH_SIZES, at: [100, 500, 2000] },
];

const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - [...s].length));
const pct = (k: number, n: number) => `${((100 * k) / n).toFixed(1)}%`;

console.log(`Half-widths in points (score × 100), ${kind} scores, mean over ${paths} simulated runs, 95%:`);
console.log(`${pad('benchmark', 34)}${pad('items', 7)}${pad('(a) fixed n', 13)}${pad('(b) any time', 14)}${pad('(b)/(a)', 9)}${pad('(a) covered', 13)}(b) covered at every check`);
for (const b of BENCHMARKS) {
  const weights = scoreWeights(aggregationFor(b.id), Object.keys(b.sizes), b.sizes).overall;
  const horizon = Math.max(...b.at);
  const r = simulateCoverage({ sizes: b.sizes, weights, kind, populations: 10, pathsPerPopulation: Math.max(1, Math.round(paths / 10)), seed: 7, horizon, fixedAt: b.at, sequence: true, everyItemUntil: 60 });
  for (const f of r.fixed) {
    console.log(
      `${pad(b.name, 34)}${pad(String(f.n), 7)}${pad(`±${f.fixedHalf.toFixed(2)}`, 13)}${pad(`±${f.sequenceHalf.toFixed(2)}`, 14)}${pad(f.fixedHalf > 1e-9 ? `${(f.sequenceHalf / f.fixedHalf).toFixed(1)}×` : 'exact', 9)}${pad(pct(f.covered, r.paths), 13)}${pct(r.sequenceCovered, r.paths)}`,
    );
  }
}

// A whole AncientBench run: 28,707 values pushed in the run's order, each task's sequence read
// after each value (which brings its grid up to date), the benchmark's estimate at the end.
const sizes = Object.values(ANCIENTBENCH_SIZES);
const random = mulberry32(3);
const pops = sizes.map((size) => population(size, 0.25 + 0.65 * random(), 'binary', random));
const schedule = runSchedule(sizes);
const weights = scoreWeights(aggregationFor('ancientbench'), Object.keys(ANCIENTBENCH_SIZES), ANCIENTBENCH_SIZES).overall;
const times: number[] = [];
const cpu: number[] = [];
for (let round = 0; round < 5; round++) {
  const started = performance.now();
  const cpuStarted = process.cpuUsage();
  const trackers = sizes.map((size) => stratumTracker(size));
  const asked = new Array<number>(sizes.length).fill(0);
  for (const t of schedule) {
    trackers[t].push(pops[t][asked[t]++]);
    trackers[t].sequence();
  }
  const e = combineStrata(Object.keys(ANCIENTBENCH_SIZES).map((task, t) => ({ weight: weights.get(task)!, tracker: trackers[t] })));
  times.push(performance.now() - started);
  cpu.push(process.cpuUsage(cpuStarted).user / 1000);
  if (!e.exact) throw new Error('the whole run should be exact');
}
times.sort((a, b) => a - b);
cpu.sort((a, b) => a - b);
console.log(
  `\nFeeding a whole AncientBench run (28,707 values, sequence read after each): median ${times[2].toFixed(0)} ms wall of 5 (min ${times[0].toFixed(0)}, max ${times[4].toFixed(0)}); CPU median ${cpu[2].toFixed(0)} ms (min ${cpu[0].toFixed(0)}).`,
);
