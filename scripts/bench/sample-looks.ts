// What an answer in a fraction of the benchmark costs (issue 44): simulated runs on the real task
// sizes (test/unit/metrics/look-sim.ts: the run's order, the benchmark's weights, per-task accuracy
// drawn from 0.25 to 0.6), stopped by "stop at the first ±X" against the fixed plan's (a):
//  - per benchmark and target: items until the stop (median, 10th, 90th percentile), the fixed
//    plan's items, their ratio, (b) ÷ (a) at the stop, coverage at every look and at the stop, and
//    the minutes both take at the real-shape pace (Qwen3-0.6B q8, WASM, 2 threads: the README's
//    1.26 items/s; --pace to change);
//  - paired: items until the sign settles, against a fixed-n test's 80%-power items;
//  - what the α split costs each part: the all-times sequence at 0.01 against 0.05, the tuned look
//    at 0.04 against 0.05.
// The all-times sequence is read at the end of every task's turn as well as at the looks (--full,
// the default here; slower). A measurement: it prints tables; nothing fails.
//
//   npx tsx scripts/bench/sample-looks.ts [--paths 200] [--pace 1.26]
import { parseArgs } from 'node:util';
import { firstMomentWithin, boundFor, PRIMARY_MASS, LOOK_SHARE } from '../../src/lib/core/metrics/sample-estimate/look-plan.ts';
import { ACLUE_SIZES } from '../../test/unit/metrics/sample-estimate-sim.ts';
import { BLOCKS, LOOK_BENCHMARKS, fixedItemsForPower, quantile, simulateLooks, weightsOf, wilson } from '../../test/unit/metrics/look-sim.ts';

const { values } = parseArgs({ options: { paths: { type: 'string', default: '200' }, pace: { type: 'string', default: '1.26' } } });
const paths = Number(values.paths);
const pace = Number(values.pace);

const BENCHMARKS = LOOK_BENCHMARKS;
const pad = (s: string, n: number) => s + ' '.repeat(Math.max(0, n - [...s].length));
const items = (n: number) => (Number.isFinite(n) ? String(n) : 'never');
const minutes = (n: number) => (Number.isFinite(n) ? `${(n / pace / 60).toFixed(0)} min` : '—');
const pct = (k: number, n: number) => {
  const bars = wilson(k, n);
  return `${((100 * k) / n).toFixed(1)}% (${(100 * bars.low).toFixed(1)}–${(100 * bars.high).toFixed(1)})`;
};

console.log(`Stop at the first ±X: items (median [10th–90th percentile]) over ${paths} paths; fixed plan: the first item (a) is within ±X; minutes at ${pace} items/s.`);
console.log(`${pad('benchmark', 30)}${pad('±X', 5)}${pad('items to stop', 22)}${pad('fixed plan', 18)}${pad('ratio', 7)}${pad('(b)/(a)', 9)}${pad('min stop / fixed / all', 27)}${pad('covered, every look', 24)}covered at the stop`);
for (const b of BENCHMARKS) {
  const total = Object.values(b.sizes).reduce((a, c) => a + c, 0);
  for (const halfWidth of [0.03, 0.05]) {
    const r = simulateLooks({ sizes: b.sizes, weights: weightsOf(b.id, b.sizes), kind: { kind: 'precision', halfWidth }, paths, seed: 44, values: { kind: 'accuracy', low: 0.25, high: 0.6 }, full: true, fixedN: true });
    const stop = quantile(r.stops, 0.5);
    const fixed = quantile(r.fixedStops, 0.5);
    console.log(
      `${pad(b.name, 30)}${pad(`±${halfWidth * 100}`, 5)}${pad(`${items(stop)} [${items(quantile(r.stops, 0.1))}–${items(quantile(r.stops, 0.9))}]`, 22)}${pad(`${items(fixed)} [${items(quantile(r.fixedStops, 0.1))}–${items(quantile(r.fixedStops, 0.9))}]`, 18)}${pad(Number.isFinite(stop) && Number.isFinite(fixed) ? `${(stop / fixed).toFixed(2)}×` : '—', 7)}${pad(r.ratios.length ? quantile(r.ratios, 0.5).toFixed(2) : '—', 9)}${pad(`${minutes(stop)} / ${minutes(fixed)} / ${minutes(total)}`, 27)}${pad(pct(r.covered, r.paths), 24)}${pct(r.coveredAtStop, r.paths)}`,
    );
  }
}

console.log(`\nPaired B − A on ACLUE: items until the sign settles (median [10th–90th]) against the fewest items after which (a) excludes 0 on 80% of paths; ${paths} paths.`);
console.log(`${pad('difference', 12)}${pad('discordant', 12)}${pad('settles', 24)}${pad('fixed 80%', 11)}${pad('ratio', 8)}${pad('wrong sign', 12)}any sign settled`);
const aclueWeights = weightsOf('aclue', ACLUE_SIZES);
for (const [difference, discordance] of [[0.05, 0.2], [0.05, 0.4], [0.1, 0.2], [0.02, 0.2], [0, 0.2], [0, 0.4]] as const) {
  const r = simulateLooks({ sizes: ACLUE_SIZES, weights: aclueWeights, kind: { kind: 'paired' }, paths, seed: 45, values: { kind: 'paired', difference, discordance }, full: true, fixedN: difference > 0 });
  const settled = r.stops.filter((s) => Number.isFinite(s)).length;
  const fixed = difference > 0 ? fixedItemsForPower(r.fixedLows, 0.8) : Infinity;
  const stop = quantile(r.stops, 0.5);
  console.log(
    `${pad(`+${difference * 100}`, 12)}${pad(`${discordance * 100}%`, 12)}${pad(`${items(stop)} [${items(quantile(r.stops, 0.1))}–${items(quantile(r.stops, 0.9))}]`, 24)}${pad(items(fixed), 11)}${pad(Number.isFinite(stop) && Number.isFinite(fixed) ? `${(stop / fixed).toFixed(2)}×` : '—', 8)}${pad(String(r.wrongSign), 12)}${settled} of ${r.paths}`,
  );
}

console.log('\nWhat the α split costs (ACLUE, the plan computed as before a run):');
const input = { tasks: Object.keys(ACLUE_SIZES), asked: ACLUE_SIZES, populations: ACLUE_SIZES, weights: aclueWeights, rule: BLOCKS, span: 1, alpha: 0.05 };
for (const halfWidth of [0.03, 0.05]) {
  const at = (alpha: number, mass: number) => firstMomentWithin(input, halfWidth, boundFor('accuracy'), Math.log(2 / (alpha * mass)));
  console.log(`  ±${halfWidth * 100}: tuned look at 0.04 × ${PRIMARY_MASS} (as built) ${at(0.05 * LOOK_SHARE, PRIMARY_MASS)} items; at 0.05 × ${PRIMARY_MASS} ${at(0.05, PRIMARY_MASS)}; all of 0.05 on one look ${at(0.05, 1)}`);
}
