// The whole-benchmark estimate from a stratified sample (issue 36): exactness when every item is
// done, determinism, edge cases, the benchmark's weights, paired differences, the quantiles.
// Coverage by simulation is in sample-estimate-coverage.test.ts.
import { describe, expect, it } from 'vitest';
import { aggregateFromCounts, aggregationFor, type TaskCounts } from '../../../src/lib/core/metrics/mc-aggregate.ts';
import { combineStrata, pairedTracker, scoreWeights, stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import { normalQuantile, studentQuantile } from '../../../src/lib/core/metrics/sample-estimate/quantiles.ts';
import { ACLUE_SIZES, ANCIENTBENCH_SIZES, mulberry32, population, shuffle } from './sample-estimate-sim.ts';

const meanOf = (values: ArrayLike<number>) => Array.from(values).reduce((a, b) => a + b, 0) / values.length;

describe('stratumTracker', () => {
  it('is the exact score, both intervals a point, once every item is done (0/1, continuous, [−1, 1])', () => {
    const random = mulberry32(11);
    for (const [kind, range] of [
      ['binary', [0, 1]],
      ['continuous', [0, 1]],
      ['continuous', [-1, 1]],
    ] as const) {
      const values = population(137, 0.4, kind, random).map((u) => range[0] + (range[1] - range[0]) * u);
      const tracker = stratumTracker(values.length, { range });
      for (const v of values) tracker.push(v);
      const truth = meanOf(values);
      expect(tracker.mean()).toBeCloseTo(truth, 12);
      for (const interval of [tracker.fixedN()!, tracker.sequence()!]) {
        expect(interval.low).toBeCloseTo(truth, 12);
        expect(interval.high).toBeCloseTo(truth, 12);
      }
    }
  });

  it('narrows as values come, the sequence nested (a running intersection), each holding the mean', () => {
    const random = mulberry32(5);
    const values = shuffle(population(400, 0.7, 'binary', random), random);
    const tracker = stratumTracker(values.length);
    let last = { low: 0, high: 1 };
    const truth = meanOf(values);
    for (const v of values) {
      tracker.push(v);
      const s = tracker.sequence()!;
      expect(s.low).toBeGreaterThanOrEqual(last.low - 1e-12);
      expect(s.high).toBeLessThanOrEqual(last.high + 1e-12);
      expect(s.low).toBeLessThanOrEqual(truth + 1e-12);
      expect(s.high).toBeGreaterThanOrEqual(truth - 1e-12);
      last = s;
    }
    expect(last.high - last.low).toBeLessThan(1e-12);
  });

  it('gives the same numbers whenever (b) is asked for: the grid catches up in push order', () => {
    const random = mulberry32(9);
    const values = shuffle(population(300, 0.55, 'continuous', random), random);
    const eager = stratumTracker(300);
    const lazy = stratumTracker(300);
    for (let i = 0; i < 180; i++) {
      eager.push(values[i]);
      eager.sequence();
      lazy.push(values[i]);
    }
    expect(lazy.sequence()).toEqual(eager.sequence());
    expect(lazy.fixedN()).toEqual(eager.fixedN());
    const again = stratumTracker(300);
    for (let i = 0; i < 180; i++) again.push(values[i]);
    expect(again.sequence()).toEqual(eager.sequence());
  });

  it('before any value: no mean, no fixed-n interval, the whole range as the sequence', () => {
    const tracker = stratumTracker(50, { range: [-1, 1] });
    expect(tracker.n).toBe(0);
    expect(tracker.mean()).toBeNull();
    expect(tracker.fixedN()).toBeNull();
    expect(tracker.sequence()).toEqual({ low: -1, high: 1 });
  });

  it('never calls a task at 0% or 100% exact before its last item (Agresti–Coull, not s² = 0)', () => {
    for (const value of [0, 1]) {
      const tracker = stratumTracker(40);
      for (let i = 0; i < 10; i++) tracker.push(value);
      const a = tracker.fixedN()!;
      expect(a.high - a.low).toBeGreaterThan(0.05);
      expect(value === 0 ? a.low : a.high).toBe(value);
      const b = tracker.sequence()!;
      expect(b.high - b.low).toBeGreaterThan(a.high - a.low);
      for (let i = 10; i < 40; i++) tracker.push(value);
      expect(tracker.fixedN()).toEqual({ low: value, high: value });
      expect(tracker.sequence()).toEqual({ low: value, high: value });
    }
  });

  it('a one-item stratum is exact after its item; a value too many, out of range or not finite is refused', () => {
    const one = stratumTracker(1);
    one.push(1);
    expect(one.fixedN()).toEqual({ low: 1, high: 1 });
    expect(one.sequence()).toEqual({ low: 1, high: 1 });
    expect(() => one.push(0)).toThrow(RangeError);
    const t = stratumTracker(5);
    expect(() => t.push(1.5)).toThrow(RangeError);
    expect(() => t.push(Number.NaN)).toThrow(RangeError);
    expect(() => stratumTracker(0)).toThrow(RangeError);
    expect(() => stratumTracker(3, { range: [1, 0] })).toThrow(RangeError);
  });

  it('unbounded values (bits per byte): fixed-n only, Student t with the FPC, exact at n = N', () => {
    const tracker = stratumTracker(6, { bounded: false });
    tracker.push(1.2);
    expect(tracker.fixedN()).toBeNull();
    expect(tracker.sequence()).toBeNull();
    for (const v of [0.8, 1.0, 1.4]) tracker.push(v);
    const values = [1.2, 0.8, 1.0, 1.4];
    const m = meanOf(values);
    const s2 = values.reduce((sum, v) => sum + (v - m) ** 2, 0) / 3;
    const half = studentQuantile(0.975, 3) * Math.sqrt((s2 / 4) * (1 - 4 / 6));
    expect(tracker.fixedN()!.low).toBeCloseTo(m - half, 12);
    expect(tracker.fixedN()!.high).toBeCloseTo(m + half, 12);
    tracker.push(1.1);
    tracker.push(0.9);
    const all = meanOf([...values, 1.1, 0.9]);
    expect(tracker.fixedN()!.low).toBeCloseTo(all, 12);
    expect(tracker.fixedN()!.high).toBeCloseTo(all, 12);
  });
});

describe('combineStrata', () => {
  it('is Σ w·mean, and exact when every weighted stratum is done', () => {
    const random = mulberry32(3);
    const sizes = [30, 1, 77];
    const pops = sizes.map((n) => population(n, random(), 'continuous', random));
    const trackers = sizes.map((n) => stratumTracker(n));
    const weights = [0.5, 0.2, 0.3];
    pops.forEach((values, s) => values.forEach((v) => trackers[s].push(v)));
    const truth = pops.reduce((sum, values, s) => sum + weights[s] * meanOf(values), 0);
    const e = combineStrata(trackers.map((tracker, s) => ({ weight: weights[s], tracker })));
    expect(e.exact).toBe(true);
    expect(e.n).toBe(108);
    expect(e.population).toBe(108);
    expect(e.estimate).toBeCloseTo(truth, 12);
    for (const interval of [e.fixedN!, e.sequence!]) {
      expect(interval.low).toBeCloseTo(truth, 9);
      expect(interval.high).toBeCloseTo(truth, 9);
    }
  });

  it('a stratum with no value yet: no estimate, and its whole range in both intervals', () => {
    const done = stratumTracker(4);
    for (const v of [1, 0, 1, 0]) done.push(v);
    const empty = stratumTracker(10);
    const e = combineStrata([
      { weight: 0.5, tracker: done },
      { weight: 0.5, tracker: empty },
    ]);
    expect(e.estimate).toBeNull();
    expect(e.exact).toBe(false);
    expect(e.fixedN!.low).toBeCloseTo(0.25, 12);
    expect(e.fixedN!.high).toBeCloseTo(0.75, 12);
    expect(e.sequence!.low).toBeCloseTo(0.25, 9);
    expect(e.sequence!.high).toBeCloseTo(0.75, 9);
  });

  it('leaves weight-0 strata out; no strata: nothing; unbounded strata: no sequence', () => {
    const a = stratumTracker(3);
    a.push(1);
    const b = stratumTracker(3);
    expect(combineStrata([{ weight: 1, tracker: a }, { weight: 0, tracker: b }]).estimate).toBe(1);
    expect(combineStrata([])).toEqual({ estimate: null, fixedN: null, sequence: null, n: 0, population: 0, exact: false });
    const u = stratumTracker(4, { bounded: false });
    for (const v of [1, 2, 3]) u.push(v);
    const e = combineStrata([{ weight: 1, tracker: u }]);
    expect(e.sequence).toBeNull();
    expect(e.fixedN!.low).toBeLessThan(2);
    expect(() => combineStrata([{ weight: -1, tracker: a }])).toThrow(RangeError);
    expect(() => combineStrata([{ weight: 1, tracker: { ...a } }])).toThrow(RangeError);
  });

  it('(a) of unbounded strata (bits per byte): Student t at Welch–Satterthwaite degrees of freedom, with the FPC', () => {
    const a = stratumTracker(10, { bounded: false });
    const b = stratumTracker(40, { bounded: false });
    const av = [1.1, 0.9, 1.3, 1.0];
    const bv = [2.0, 2.4, 1.8, 2.2, 2.1, 1.9];
    av.forEach((v) => a.push(v));
    bv.forEach((v) => b.push(v));
    const term = (values: number[], N: number, w: number) => {
      const m = meanOf(values);
      const s2 = values.reduce((sum, v) => sum + (v - m) ** 2, 0) / (values.length - 1);
      return { v: w * w * (s2 / values.length) * (1 - values.length / N), n: values.length };
    };
    const terms = [term(av, 10, 0.5), term(bv, 40, 0.5)];
    const variance = terms[0].v + terms[1].v;
    const df = variance ** 2 / (terms[0].v ** 2 / 3 + terms[1].v ** 2 / 5);
    const e = combineStrata([
      { weight: 0.5, tracker: a },
      { weight: 0.5, tracker: b },
    ]);
    const center = 0.5 * meanOf(av) + 0.5 * meanOf(bv);
    expect(e.estimate).toBeCloseTo(center, 12);
    expect(e.fixedN!.high - center).toBeCloseTo(studentQuantile(0.975, df) * Math.sqrt(variance), 9);
    expect(e.sequence).toBeNull();
  });

  it('a larger α gives narrower intervals; sequence: false leaves (b) out', () => {
    const random = mulberry32(4);
    const trackers = [200, 300].map((n) => stratumTracker(n, { alpha: 0.2 }));
    for (let i = 0; i < 60; i++) trackers.forEach((t) => t.push(random() < 0.6 ? 1 : 0));
    const strata = trackers.map((tracker) => ({ weight: 0.5, tracker }));
    const wide = combineStrata(strata, { alpha: 0.05 });
    const narrow = combineStrata(strata, { alpha: 0.2 });
    expect(narrow.fixedN!.high - narrow.fixedN!.low).toBeLessThan(wide.fixedN!.high - wide.fixedN!.low);
    expect(narrow.sequence!.high - narrow.sequence!.low).toBeLessThan(wide.sequence!.high - wide.sequence!.low);
    expect(combineStrata(strata, { sequence: false }).sequence).toBeNull();
  });

  it('is deterministic: the same values give the same estimate, whatever was asked before', () => {
    const random = mulberry32(21);
    const pops = [120, 80, 200].map((n) => shuffle(population(n, 0.3 + 0.5 * random(), 'binary', random), random));
    const run = (peek: boolean) => {
      const trackers = pops.map((p) => stratumTracker(p.length));
      for (let i = 0; i < 60; i++) {
        pops.forEach((p, s) => trackers[s].push(p[i]));
        if (peek && i % 7 === 0) combineStrata(trackers.map((tracker) => ({ weight: 1 / 3, tracker })));
      }
      return combineStrata(trackers.map((tracker) => ({ weight: 1 / 3, tracker })));
    };
    expect(run(true)).toEqual(run(false));
  });
});

describe('scoreWeights', () => {
  it("follows the benchmark's own rule: the weighted sum of task accuracies is mc-aggregate's overall", () => {
    const random = mulberry32(1);
    for (const [id, sizes] of [
      ['aclue', ACLUE_SIZES],
      ['ancientbench', ANCIENTBENCH_SIZES],
    ] as const) {
      const tasks = Object.keys(sizes);
      const w = scoreWeights(aggregationFor(id), tasks, sizes);
      const counts = new Map<string, TaskCounts>(tasks.map((task) => [task, { n: 50, correct: Math.floor(random() * 51), unscored: 0, failed: 0 }]));
      const aggregate = aggregateFromCounts(counts, aggregationFor(id).grouping, aggregationFor(id).overallRule);
      const weighted = tasks.reduce((sum, task) => sum + (w.overall.get(task) ?? 0) * (counts.get(task)!.correct / 50), 0);
      expect(weighted).toBeCloseTo(aggregate.overall.accuracy!, 12);
      for (const group of aggregate.groups) {
        const inGroup = [...w.groups.get(group.key)!].reduce((sum, [task, g]) => sum + g * (counts.get(task)!.correct / 50), 0);
        expect(inGroup).toBeCloseTo(group.accuracy!, 12);
      }
      const total = tasks.reduce((sum, task) => sum + sizes[task], 0);
      for (const task of tasks) expect(w.pooled.get(task)).toBeCloseTo(sizes[task] / total, 15);
    }
  });

  it('mean of groups: 1/(G·T_g); a task in no group, or with no items, is left out', () => {
    const aggregation = {
      grouping: { kind: 'competency' as const, groups: [{ key: 'g1', tasks: ['a', 'b'] }, { key: 'g2', tasks: ['c', 'd'] }] },
      overallRule: 'mean-of-groups' as const,
    };
    const w = scoreWeights(aggregation, ['a', 'b', 'c', 'd', 'loose'], { a: 10, b: 20, c: 30, d: 0, loose: 5 });
    expect(Object.fromEntries(w.overall)).toEqual({ a: 0.25, b: 0.25, c: 0.5 });
    expect(Object.fromEntries(w.groups.get('g2')!)).toEqual({ c: 1 });
    expect(w.pooled.get('loose')).toBeCloseTo(5 / 65, 15);
    expect(w.pooled.has('d')).toBe(false);
    const tasksOnly = scoreWeights({ ...aggregation, overallRule: 'mean-of-tasks' }, ['a', 'b', 'loose'], { a: 1, b: 1, loose: 1 });
    expect(Object.fromEntries(tasksOnly.overall)).toEqual({ a: 1 / 3, b: 1 / 3, loose: 1 / 3 });
  });
});

describe('pairedTracker', () => {
  it('tracks B − A in [−1, 1]: the difference of the two task scores, exact at the end', () => {
    const random = mulberry32(8);
    const a = population(90, 0.6, 'binary', random);
    const b = population(90, 0.45, 'binary', random);
    const paired = pairedTracker(90);
    for (let i = 0; i < 90; i++) {
      paired.pushPair(a[i], b[i]);
      const s = paired.sequence()!;
      expect(s.low).toBeGreaterThanOrEqual(-1);
      expect(s.high).toBeLessThanOrEqual(1);
    }
    const truth = meanOf(a) - meanOf(b);
    expect(paired.mean()).toBeCloseTo(truth, 12);
    expect(paired.sequence()!.low).toBeCloseTo(truth, 12);
    const e = combineStrata([{ weight: 1, tracker: paired }]);
    expect(e.sequence!.high).toBeCloseTo(truth, 9);
  });
});

describe('quantiles', () => {
  it('match the tables', () => {
    expect(normalQuantile(0.975)).toBeCloseTo(1.959963984540054, 8);
    expect(normalQuantile(0.005)).toBeCloseTo(-2.5758293035489, 8);
    const table: [number, number][] = [
      [1, 12.7062],
      [2, 4.3027],
      [3, 3.1824],
      [5, 2.5706],
      [10, 2.2281],
      [30, 2.0423],
    ];
    for (const [nu, t] of table) expect(studentQuantile(0.975, nu)).toBeCloseTo(t, 2);
  });
});
