// The tuned looks (core/metrics/sample-estimate/planned-looks.ts) held to their definition, computed
// here from the formulas in the file's header without its code: the bets λ_{s,j} = θ w_s g_j / G_s
// (g_j = min(a_j, 8), a_j = N/(N − j + 1)), Hoeffding's θ in closed form √(8L/Q) (the file searches
// for it), each look's process log(π/2) ± θ(Ŷ − Y) − Ψ, and the interval as the set of scores whose
// mixture stays under 1/α, found by scanning. And the property the bets are built for: at a look the
// process is the same for every vector of task means with the same score. Where the looks fall
// (look-plan.ts countsAt) is checked against the order a run really asks (run-sampling.ts).
import { describe, expect, it } from 'vitest';
import { plannedInterval, anticipatedHalfWidth } from '../../../src/lib/core/metrics/sample-estimate/planned-looks.ts';
import { countsAt } from '../../../src/lib/core/metrics/sample-estimate/look-plan.ts';
import { internalsOf } from '../../../src/lib/core/metrics/sample-estimate/stratum.ts';
import { stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import { newRunSampling, orderRun, drawSample, type RunSampling } from '../../../src/lib/core/protocols/run-sampling.ts';
import { mulberry32 } from './sample-estimate-sim.ts';

interface Case {
  weight: number;
  N: number;
  xs: number[];
  looks: number[];
}

const shape = (N: number, j: number) => Math.min(N / (N - j + 1), 8);

/** One reached look by definition: θ, Ŷ and Ψ (Hoeffding's bets). */
function lookByDefinition(cases: Case[], k: number, mass: number, alpha: number) {
  const L = Math.log(2 / (alpha * mass));
  const partial = cases.filter((c) => c.looks[k] < c.N);
  let known = 0;
  for (const c of cases) if (c.looks[k] >= c.N) known += (c.weight * c.xs.slice(0, c.N).reduce((a, b) => a + b, 0)) / c.N;
  const G = partial.map((c) => Array.from({ length: c.looks[k] }, (_, i) => shape(c.N, i + 1) * (c.N / (c.N - i))).reduce((a, b) => a + b, 0));
  const Q = partial.reduce((sum, c, s) => sum + (c.weight / G[s]) ** 2 * Array.from({ length: c.looks[k] }, (_, i) => shape(c.N, i + 1) ** 2).reduce((a, b) => a + b, 0), 0);
  const cap = Math.min(...partial.map((c, s) => (0.5 * G[s]) / (c.weight * shape(c.N, c.looks[k]))));
  const theta = Math.min(cap, Math.sqrt((8 * L) / Q));
  let A = 0;
  let psi = 0;
  partial.forEach((c, s) => {
    let S = 0;
    for (let j = 1; j <= c.looks[k]; j++) {
      const lambda = (theta * c.weight * shape(c.N, j)) / G[s];
      A += lambda * (c.xs[j - 1] + S / (c.N - j + 1));
      psi += (lambda * lambda) / 8;
      S += c.xs[j - 1];
    }
  });
  return { theta, center: known + A / theta, logWeight: Math.log(mass / 2) - psi };
}

/** The kept scores' ends by scanning Y in steps of 1e-5. */
function intervalByDefinition(cases: Case[], masses: number[], alpha: number): { low: number; high: number } {
  const looks = masses.map((mass, k) => (cases.every((c) => c.xs.length >= c.looks[k]) ? lookByDefinition(cases, k, mass, alpha) : null)).filter((l) => l !== null);
  const kept: number[] = [];
  for (let i = 0; i <= 100_000; i++) {
    const y = i / 100_000;
    const terms = looks.flatMap((l) => [l!.logWeight + l!.theta * (l!.center - y), l!.logWeight - l!.theta * (l!.center - y)]);
    const top = Math.max(...terms);
    if (top + Math.log(terms.reduce((sum, t) => sum + Math.exp(t - top), 0)) < Math.log(1 / alpha)) kept.push(y);
  }
  return { low: kept[0], high: kept[kept.length - 1] };
}

function makeCases(seed: number): Case[] {
  const random = mulberry32(seed);
  const spec = [
    { weight: 0.5, N: 60, p: 0.7, looks: [20, 60] },
    { weight: 0.3, N: 150, p: 0.4, looks: [30, 90] },
    { weight: 0.2, N: 400, p: 0.55, looks: [40, 200] },
  ];
  return spec.map(({ weight, N, p, looks }) => ({ weight, N, looks, xs: Array.from({ length: N }, () => (random() < p ? 1 : 0)) }));
}

function library(cases: Case[], masses: number[], alpha: number, fed: (c: Case) => number) {
  const strata = cases.map((c) => {
    const tracker = stratumTracker(c.N);
    for (const x of c.xs.slice(0, fed(c))) tracker.push(x);
    return { weight: c.weight, inner: internalsOf(tracker)!, looks: c.looks };
  });
  return plannedInterval(strata, { masses, bound: 'hoeffding', variance: 0.25, share: 0.8 }, alpha);
}

describe('planned looks', () => {
  const masses = [0.6, 0.3];

  it('is the definition’s interval at each look, a census task counted as known', () => {
    for (const seed of [1, 2, 3]) {
      const cases = makeCases(seed);
      // Before the first look: nothing said.
      expect(library(cases, masses, 0.04, (c) => c.looks[0] - 1)).toBeNull();
      for (const k of [0, 1]) {
        const truncated = cases.map((c) => ({ ...c, xs: c.xs.slice(0, c.looks[k]) }));
        const got = library(cases, masses, 0.04, (c) => c.looks[k])!;
        const want = intervalByDefinition(truncated, masses, 0.04);
        expect(got.low).toBeCloseTo(want.low, 4);
        expect(got.high).toBeCloseTo(want.high, 4);
      }
    }
  });

  it('would fail a doubled α (what the coverage simulation cannot see)', () => {
    const cases = makeCases(4);
    const want = intervalByDefinition(cases.map((c) => ({ ...c, xs: c.xs.slice(0, c.looks[1]) })), masses, 0.04);
    const doubled = library(cases, masses, 0.08, (c) => c.looks[1])!;
    expect(Math.abs(doubled.high - doubled.low - (want.high - want.low))).toBeGreaterThan(1e-3);
  });

  it('at a look, its process depends on the task means only through the score', () => {
    const cases = makeCases(5);
    const k = 0;
    const { theta, logWeight } = lookByDefinition(cases, k, 1, 0.04);
    void logWeight;
    const partial = cases.filter((c) => c.looks[k] < c.N);
    const G = partial.map((c) => Array.from({ length: c.looks[k] }, (_, i) => shape(c.N, i + 1) * (c.N / (c.N - i))).reduce((a, b) => a + b, 0));
    // Σ λ (X − μ_j), μ_j the without-replacement conditional mean (N μ − S_{j−1}) / (N − j + 1), summed item by item.
    const logProcess = (means: number[]) =>
      partial.reduce((sum, c, s) => {
        let S = 0;
        for (let j = 1; j <= c.looks[k]; j++) {
          const lambda = (theta * c.weight * shape(c.N, j)) / G[s];
          sum += lambda * (c.xs[j - 1] - (c.N * means[s] - S) / (c.N - j + 1));
          S += c.xs[j - 1];
        }
        return sum;
      }, 0);
    const score = (means: number[]) => means.reduce((sum, m, s) => sum + partial[s].weight * m, 0);
    const a = [0.6, 0.5, 0.5];
    // Another vector with the same score: move 0.1 of task 0's weight-share to task 1.
    const b = [0.6 - 0.1 * (0.3 / 0.5), 0.6, 0.5];
    expect(score(b)).toBeCloseTo(score(a), 12);
    expect(logProcess(b)).toBeCloseTo(logProcess(a), 9);
    expect(Math.abs(logProcess([0.7, 0.5, 0.5]) - logProcess(a))).toBeGreaterThan(1e-3);
  });

  it('has a width at a look that the answers do not change (Hoeffding’s; away from the ends of [0, 1]), the one the plan counts on', () => {
    const widths = [0.4, 0.5, 0.65].map((p) => {
      const random = mulberry32(Math.round(p * 100));
      const cases = makeCases(6).map((c) => ({ ...c, xs: c.xs.map(() => (random() < p ? 1 : 0)) }));
      const got = library(cases, [1], 0.04, (c) => c.looks[0])!;
      return got.high - got.low;
    });
    const shapes = makeCases(6).map((c) => ({ coefficient: c.weight, population: c.N, count: c.looks[0] }));
    // The same to 1e-4: the plan reads one side's process, the interval the two sides' mixture.
    for (const w of widths) expect(w / 2).toBeCloseTo(anticipatedHalfWidth(shapes, 'hoeffding', 0.25, Math.log(2 / 0.04)), 4);
    expect(Math.max(...widths) - Math.min(...widths)).toBeLessThan(1e-9);
  });

  it('places each look at the counts the run’s real order has then', () => {
    const sizes: Record<string, number> = { a: 500, b: 101, c: 37, d: 250 };
    const population = Object.entries(sizes).map(([task, n]) => ({ task, itemIds: Array.from({ length: n }, (_, i) => `${task}/${i}`) }));
    const rules: [number | null, RunSampling][] = [
      [null, newRunSampling('random', 99, sizes)],
      [120, newRunSampling('first', 7, sizes)],
      // An older record: blocks of 5 every round.
      [null, { draw: 'random', seed: 3, order: 'shuffled', block: 5, population: sizes }],
    ];
    for (const [limit, rule] of rules) {
      const chosen = drawSample(population, limit, rule);
      const order = orderRun(chosen, rule);
      const asked = Object.fromEntries(chosen.map((c) => [c.task, c.itemIds.length]));
      for (const at of [1, 7, 60, 61, 333, order.length - 1, order.length]) {
        const counts: Record<string, number> = { a: 0, b: 0, c: 0, d: 0 };
        for (const id of order.slice(0, at)) counts[id.split('/')[0]]++;
        expect(countsAt({ tasks: Object.keys(sizes), asked, rule }, at)).toEqual(counts);
      }
    }
  });
});
