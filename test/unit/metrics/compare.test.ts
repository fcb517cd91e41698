import { describe, expect, it } from 'vitest';
import {
  compareRuns,
  comparisonSeries,
  type ComparableGenResult,
  type ComparableMcItem,
  type ComparableRun,
  type CompareRow,
} from '../../../src/lib/core/metrics/compare.ts';
import { newcombePaired, newcombeUnpaired } from '../../../src/lib/core/metrics/difference-intervals.ts';
import { pairedBootstrap } from '../../../src/lib/core/metrics/paired-bootstrap.ts';
import { mcnemarExactFromCounts } from '../../../src/lib/core/metrics/mcnemar.ts';
import { scoreGenerationRun } from '../../../src/lib/core/metrics/generation-run.ts';
import { wilsonInterval } from '../../../src/lib/core/metrics/accuracy.ts';
import type { DatasetId } from '../../../src/lib/core/benchmarks/types.ts';
import { aggregateForDataset } from '../../../src/lib/core/metrics/mc-aggregate.ts';

/** Items `${prefix}${i}` of a task with the given outcomes (null = no answer key). */
function items(task: string, outcomes: readonly (boolean | null)[], prefix = `${task}/`): ComparableMcItem[] {
  return outcomes.map((correct, i) => ({ itemId: `${prefix}${i}`, task, correct, prediction: correct === null ? null : correct ? 'A' : 'B' }));
}

/**
 * Two outcome lists over the same items with a given 2×2 table, in the order
 * both right, only first right, only second right, both wrong.
 */
function pairedOutcomes(both: number, onlyFirst: number, onlySecond: number, neither: number): [boolean[], boolean[]] {
  const first = [...Array(both).fill(true), ...Array(onlyFirst).fill(true), ...Array(onlySecond).fill(false), ...Array(neither).fill(false)];
  const second = [...Array(both).fill(true), ...Array(onlyFirst).fill(false), ...Array(onlySecond).fill(true), ...Array(neither).fill(false)];
  return [first, second];
}

const repeat = (right: number, wrong: number): boolean[] => [...Array(right).fill(true), ...Array(wrong).fill(false)];

function mcRun(id: string, mcItems: ComparableMcItem[], datasetId: DatasetId = 'aclue'): ComparableRun {
  return { id, label: `model ${id}`, origin: 'local', datasetId, kind: 'multiple-choice', mcItems };
}

const row = (rows: readonly CompareRow[], key: string): CompareRow => {
  const found = rows.find((r) => r.key === key);
  if (!found) throw new Error(`no row ${key}; rows: ${rows.map((r) => r.key).join(', ')}`);
  return found;
};

// ACLUE tasks: 古文单字多义 (Lexical), 通假字 (Lexical), 古文断句 (Syntactic).
const T1 = '古文单字多义';
const T2 = '通假字';
const T3 = '古文断句';

describe('compareRuns: two multiple-choice runs on the same items', () => {
  // T1 carries Newcombe (1998b)'s worked example: both right 20, only this run right 12, only the
  // baseline right 2, both wrong 16 → this run − baseline = +20 points, 95% 5.62 to 32.92 points.
  const [thisT1, baseT1] = pairedOutcomes(20, 12, 2, 16);
  // T2: both 3, only this 1, only baseline 4, neither 2.
  const [thisT2, baseT2] = pairedOutcomes(3, 1, 4, 2);
  const baseline = mcRun('base', [...items(T1, baseT1), ...items(T2, baseT2)]);
  const other = mcRun('other', [...items(T1, thisT1), ...items(T2, thisT2)]);
  const c = compareRuns([baseline, other]);

  it('rows: tasks in catalog order, then groups, overall, pooled', () => {
    expect(c.rows.map((r) => r.key)).toEqual([T1, T2, 'group:Lexical', 'overall', 'pooled']);
    expect(row(c.rows, T1).name).toEqual({ zh: '古文单字多义', en: 'Polysemy Resolution' });
    expect(row(c.rows, 'group:Lexical').name).toEqual({ zh: '词汇', en: 'Lexical' });
    expect(c.runs.map((r) => r.id)).toEqual(['base', 'other']);
  });

  it('cells: accuracy in percent, with no interval of its own when the run has no estimate', () => {
    const cell = row(c.rows, T1).cells[1];
    expect(cell.n).toBe(50);
    expect(cell.correct).toBe(32);
    expect(cell.score).toBeCloseTo(64, 10);
    // One fixed-n interval everywhere (issue 44): a cell shows only its run's (a), never a Wilson interval of its own.
    expect(cell.interval).toBeNull();
    expect(row(c.rows, 'group:Lexical').cells[0].interval).toBeNull();
    expect(row(c.rows, 'overall').cells[0].interval).toBeNull();
    // Baseline: T1 22/50 = 44%, T2 7/10 = 70% → overall (mean of tasks) 57, pooled 29/60.
    expect(row(c.rows, 'overall').cells[0].score).toBeCloseTo(57, 10);
    expect(row(c.rows, 'pooled').cells[0].score).toBeCloseTo((100 * 29) / 60, 10);
    // The pooled row is one test: not adjusted.
    expect(row(c.rows, 'pooled').differences[1]!.mcnemar!.holm).toBeUndefined();
  });

  it('cells: the run’s fixed-n intervals (a) by row, in percent; a run with none says why', () => {
    const fixedN = { none: null, byRow: { [`task:${T1}`]: { low: 0.5, high: 0.77 }, [`task:${T2}`]: { low: 0.4, high: 0.9 }, 'group:Lexical': { low: 0.48, high: 0.8 }, overall: { low: 0.45, high: 0.8 } } };
    const withFixed = compareRuns([baseline, { ...other, fixedN }]);
    expect(row(withFixed.rows, T1).cells[1].interval).toEqual({ low: 50, high: 77 });
    expect(row(withFixed.rows, 'group:Lexical').cells[1].interval).toEqual({ low: 48, high: 80 });
    expect(row(withFixed.rows, 'overall').cells[1].interval).toEqual({ low: 45, high: 80 });
    // Pooled describes the items scored: (a) is of the benchmark's item average, another number.
    expect(row(withFixed.rows, 'pooled').cells[1].interval).toBeNull();
    const fileOrder = compareRuns([{ ...baseline, fixedN: { none: 'not-sampled', byRow: {} } }, other]);
    expect(row(fileOrder.rows, T1).cells[0]).toMatchObject({ interval: null, noInterval: 'not-sampled' });
    expect(row(fileOrder.rows, 'overall').cells[0]).toMatchObject({ interval: null, noInterval: 'not-sampled' });
  });

  it('a signature that names the interval methods and the test', () => {
    expect(c.signature).toContain('ci:sample-estimate-fixed-n-95');
    expect(c.signature).toContain('newcombe-1998b-method10-phi');
    expect(c.signature).toContain('newcombe-1998a-method10');
    expect(c.signature).toContain('mcnemar|exact-binomial');
    expect(c.signature).toContain('overall:[acc|overall:mean-of-tasks');
    expect(c.signature).toContain('task-p:holm-1979-step-down');
    expect(c.signature).toContain('paired-bootstrap(strata:task');
    expect(c.signature).toContain('bs:10000,seed:12345');
    expect(c.signature).toContain('version:2');
  });

  it('unscored items (no answer key) neither count nor pair', () => {
    const withKeyless = compareRuns([
      mcRun('a', [...items(T1, [true, false, null])]),
      mcRun('b', [...items(T1, [false, false, null])]),
    ]);
    const d = row(withKeyless.rows, T1).differences[1]!;
    expect(row(withKeyless.rows, T1).cells[0].n).toBe(2);
    expect(d.pairing).toBe('paired');
    expect(d.mcnemar).toMatchObject({ b: 1, c: 0, paired: 2 });
  });
});

describe('compareRuns: different items', () => {
  it("no common items → unpaired: Newcombe 1998a's example (a), 56/70 − 48/80 → 5.24 to 33.39 points", () => {
    const c = compareRuns([mcRun('base', items(T1, repeat(48, 32), 'x')), mcRun('other', items(T1, repeat(56, 14), 'y'))]);
    const d = row(c.rows, T1).differences[1]!;
    expect(d.pairing).toBe('unpaired');
    expect(d.intervalMethod).toBe('newcombe-unpaired');
    expect(d.points).toBeCloseTo(100 * (56 / 70 - 48 / 80), 10);
    expect(Math.round(d.interval!.low * 100) / 100).toBe(5.24);
    expect(Math.round(d.interval!.high * 100) / 100).toBe(33.39);
    expect(d.mcnemar).toBeNull();
  });

  it('overlapping items → partly paired: difference, paired interval and McNemar all on the shared items', () => {
    // Baseline items 0..9, the other run 5..14 (ids shared: 5..9).
    const base = items(T1, repeat(6, 4));
    const other = items(T1, repeat(3, 7)).map((item, i) => ({ ...item, itemId: `${T1}/${i + 5}` }));
    const c = compareRuns([mcRun('base', base), mcRun('other', other)]);
    const t1 = row(c.rows, T1);
    // The cells stay each run's own accuracy: 60 and 30.
    expect(t1.cells.map((x) => x.score)).toEqual([60, 30]);
    const d = t1.differences[1]!;
    expect(d.pairing).toBe('partly-paired');
    // Shared items 5..9: baseline has item 5 right, 6..9 wrong; the other run has 5..9 = its 0..4: 3 right, 2 wrong.
    // → both right 1 (5), only other right 2 (6, 7), neither 2: 20% against 60% on those five.
    expect(d.common).toEqual({ n: 5, baseline: 20, other: 60 });
    expect(d.beyond).toEqual({ thisRun: 5, baseline: 5 });
    expect(d.points).toBeCloseTo(40, 10);
    const expected = newcombePaired(1, 2, 0, 2)!;
    expect(d.intervalMethod).toBe('newcombe-paired');
    expect(d.interval!.low).toBeCloseTo(100 * expected.low, 10);
    expect(d.interval!.high).toBeCloseTo(100 * expected.high, 10);
    expect(d.mcnemar).toMatchObject({ ...mcnemarExactFromCounts(0, 2), paired: 5 });
  });

  it("the walk's case: the first 10 and the first 20 items, the 10 common ones predicted alike, read 0 on those 10", () => {
    // 古音学 (Ancient Phonetics): the baseline's 10 items all wrong; the other run the same on them
    // and 5 right of its 10 more: cells 0.00 and 25.00, but on the common items 0.00 against 0.00.
    const task = '古音学';
    const c = compareRuns([mcRun('first-10', items(task, repeat(0, 10))), mcRun('first-20', items(task, [...repeat(0, 10), ...repeat(5, 5)]))]);
    const r = row(c.rows, task);
    expect(r.cells.map((x) => x.score)).toEqual([0, 25]);
    const d = r.differences[1]!;
    expect(d.pairing).toBe('partly-paired');
    expect(d.points).toBe(0);
    expect(d.common).toEqual({ n: 10, baseline: 0, other: 0 });
    expect(d.beyond).toEqual({ thisRun: 10, baseline: 0 });
    // Paired Newcombe on a = b = c = 0, d = 10: phi = 0 (a margin is 0), so ± the Wilson upper bound of 0/10,
    // python3 -c "z=1.959963984540054; n=10; print(z*z/(n+z*z))" → 0.2775327998628892
    expect(d.intervalMethod).toBe('newcombe-paired');
    expect(d.interval!.low).toBeCloseTo(-27.75327998628892, 10);
    expect(d.interval!.high).toBeCloseTo(27.75327998628892, 10);
    expect(d.mcnemar).toMatchObject({ b: 0, c: 0, pValue: 1, paired: 10 });
  });

  it('a task only one run has: the other cell is empty and there is no difference', () => {
    const c = compareRuns([mcRun('base', items(T1, [true, false])), mcRun('other', [...items(T1, [true, true]), ...items(T3, [true])])]);
    expect(c.rows.map((r) => r.key)).toEqual([T1, T3, 'group:Lexical', 'group:Syntactic', 'overall', 'pooled']);
    const t3 = row(c.rows, T3);
    expect(t3.cells[0]).toEqual({ score: null, interval: null, n: 0, correct: null });
    expect(t3.differences[1]!.points).toBeNull();
    expect(t3.differences[1]!.interval).toBeNull();
    expect(t3.differences[1]!.pairing).toBe('unpaired');
    // Overall differs in its task set: partly paired, and measured on the common coverage (T1's two items).
    const overall = row(c.rows, 'overall');
    expect(overall.differences[1]!.pairing).toBe('partly-paired');
    expect(overall.cells.map((x) => x.coverage)).toEqual([{ of: 1, total: 15 }, { of: 2, total: 15 }]);
    expect(overall.differences[1]!.common).toEqual({ n: 2, baseline: 50, other: 100, of: 1 });
    expect(overall.differences[1]!.points).toBeCloseTo(50, 10);
    expect(overall.differences[1]!.beyond).toEqual({ thisRun: 1, baseline: 0 });
  });

  it('no common items and a different coverage: no Overall difference; the same coverage: the cells’ difference, no interval', () => {
    const other = compareRuns([mcRun('a', items(T1, [true, false], 'x')), mcRun('b', [...items(T1, [true, true], 'y'), ...items(T3, [true], 'y')])]);
    const withheld = row(other.rows, 'overall').differences[1]!;
    expect(withheld).toMatchObject({ points: null, pairing: 'unpaired', interval: null, withheld: 'coverage-differs' });
    const same = compareRuns([mcRun('a', items(T1, [true, false], 'x')), mcRun('b', items(T1, [true, true], 'y'))]);
    expect(row(same.rows, 'overall').differences[1]).toMatchObject({ points: 50, pairing: 'unpaired', interval: null });
    expect(row(same.rows, 'overall').differences[1]!.withheld).toBeUndefined();
  });
});

describe('compareRuns: three runs', () => {
  const [b, a] = pairedOutcomes(5, 3, 1, 1);
  const runs = [mcRun('r0', items(T1, a)), mcRun('r1', items(T1, b)), mcRun('r2', items(T1, repeat(0, 10)))];
  const c = compareRuns(runs);

  it('one cell per run; each later run against the first', () => {
    const t1 = row(c.rows, T1);
    expect(t1.cells.map((x) => x.score)).toEqual([60, 80, 0]);
    expect(t1.differences[0]).toBeNull();
    expect(t1.differences[1]!.points).toBeCloseTo(20, 10);
    expect(t1.differences[2]!.points).toBeCloseTo(-60, 10);
    // r0 vs r1: only r0 right 1, only r1 right 3; r0 vs r2: only r0 right 6.
    expect(t1.differences[1]!.mcnemar).toMatchObject({ b: 1, c: 3, paired: 10 });
    expect(t1.differences[2]!.mcnemar).toMatchObject({ b: 6, c: 0, paired: 10 });
    expect(t1.differences[2]!.mcnemar!.pValue).toBeCloseTo(2 / 64, 14);
  });

  it('the baseline is whichever run comes first', () => {
    const swapped = compareRuns([runs[1], runs[0], runs[2]]);
    const d = row(swapped.rows, T1).differences[1]!;
    expect(d.points).toBeCloseTo(-20, 10);
    expect(d.mcnemar).toMatchObject({ b: 3, c: 1 });
  });

  it('comparisonSeries gives the per-task scores and intervals per run', () => {
    const s = comparisonSeries(c);
    expect(s.rowKeys).toEqual([T1]);
    expect(s.runs.map((r) => r.scores[0])).toEqual([60, 80, 0]);
    // A run's interval is its estimate's (a) (none given here), never one computed in the comparison.
    expect(s.runs[1].intervals[0]).toBeNull();
    const fixed = comparisonSeries(compareRuns([runs[0], { ...runs[1], fixedN: { none: null, byRow: { [`task:${T1}`]: { low: 0.6, high: 0.95 } } } }]));
    expect(fixed.runs[1].intervals[0]).toEqual({ low: 60, high: 95 });
    expect(comparisonSeries(c, ['group']).rowKeys).toEqual(['group:Lexical']);
  });
});

describe('compareRuns: a summary-only run', () => {
  const local = mcRun('local', [...items(T1, repeat(3, 1)), ...items(T2, repeat(1, 1)), ...items(T3, repeat(2, 2))]);
  const shared: ComparableRun = {
    id: 'shared-1',
    label: 'shared: model x',
    origin: 'shared',
    datasetId: 'aclue',
    kind: 'multiple-choice',
    summaryOnly: { overall: 55, pooled: 60, items: 30, [`task:${T1}`]: 40, [`task:${T2}`]: 80, [`task:${T3}`]: null },
  };
  const c = compareRuns([local, shared]);

  it('cells show the summary numbers, with no interval and no n', () => {
    expect(row(c.rows, T1).cells[1]).toEqual({ score: 40, interval: null, n: null, correct: null });
    expect(row(c.rows, 'overall').cells[1].score).toBe(55);
    expect(row(c.rows, 'pooled').cells[1].score).toBe(60);
    // Lexical = mean of its tasks' numbers (40 + 80)/2; Syntactic has none.
    expect(row(c.rows, 'group:Lexical').cells[1].score).toBeCloseTo(60, 10);
    expect(row(c.rows, 'group:Syntactic').cells[1].score).toBeNull();
    expect(c.runs[1]).toMatchObject({ id: 'shared-1', origin: 'shared', summaryOnly: true });
  });

  it('differences are points only, marked summary-only', () => {
    const d = row(c.rows, T1).differences[1]!;
    expect(d).toEqual({ points: 40 - 75, interval: null, intervalMethod: null, pairing: 'summary-only', mcnemar: null });
    expect(row(c.rows, 'pooled').differences[1]!.pairing).toBe('summary-only');
  });

  it('an Overall over other tasks than the link’s is not differenced; a group over the same tasks is', () => {
    // The local run covers T1, T2, T3; the link's summary T1 and T2 only (T3 null).
    const overall = row(c.rows, 'overall');
    expect(overall.cells.map((x) => x.coverage)).toEqual([{ of: 3, total: 15 }, { of: 2, total: 15 }]);
    expect(overall.differences[1]).toMatchObject({ points: null, pairing: 'summary-only', withheld: 'coverage-differs' });
    // Lexical: local (75 + 50)/2 = 62.5, the link (40 + 80)/2 = 60, both over T1 and T2.
    expect(row(c.rows, 'group:Lexical').differences[1]!.points).toBeCloseTo(-2.5, 10);
    expect(row(c.rows, 'group:Syntactic').differences[1]!.points).toBeNull();
  });
});

describe('compareRuns: generation', () => {
  const gen = (task: string, generationTask: ComparableGenResult['generationTask'], rows: [string, string][], prefix = ''): ComparableGenResult[] =>
    rows.map(([output, reference], i) => ({ itemId: `${prefix}${task}/${i}`, task, generationTask, output, references: [reference] }));
  const a = [...gen('classification', 'classification', [['诗', '诗'], ['史', '儒'], ['道', '道'], ['佛', '佛']])];
  const b = [...gen('classification', 'classification', [['诗', '诗'], ['儒', '儒'], ['儒', '道'], ['兵', '佛']])];
  const run = (id: string, genResults: ComparableGenResult[]): ComparableRun => ({ id, label: id, origin: 'local', datasetId: 'c3bench', kind: 'generation', genResults });
  const c = compareRuns([run('a', a), run('b', b)]);

  it('task rows scored with scoreGenerationRun, with the metric and its own interval', () => {
    const expected = scoreGenerationRun('c3bench', a).tasks[0];
    const cls = row(c.rows, 'classification');
    expect(cls.metric).toBe('accuracy');
    expect(cls.cells[0]).toEqual({ score: expected.score, interval: expected.interval, n: 4, correct: null });
    expect(cls.cells[0].score).toBe(75);
    expect(cls.cells[1].score).toBe(50);
    expect(cls.name).toEqual({ zh: '分类', en: 'Classification' });
  });

  it('differences in points, paired by item id, without interval or test', () => {
    expect(row(c.rows, 'classification').differences[1]).toEqual({ points: -25, interval: null, intervalMethod: null, pairing: 'paired', mcnemar: null });
    // Overall (the paper's average) needs all five tasks: null here.
    expect(row(c.rows, 'overall').cells.map((x) => x.score)).toEqual([null, null]);
    expect(c.rows.map((r) => r.key)).toEqual(['classification', 'overall']);
    expect(c.signature).toContain('kind:generation');
  });

  it("C3Bench's published rows appear as the paper's columns, on the rows they name", () => {
    expect(c.published.length).toBeGreaterThan(0);
    const gpt4 = c.published.find((p) => p.row.model === 'GPT-4')!;
    expect(gpt4.scores).toEqual({ classification: 53.88, overall: 42.17 });
    expect(gpt4.label).toContain('as published');
    expect(gpt4.label).toContain('C3Bench');
  });
});

describe('compareRuns: published columns and refusals', () => {
  it("AncientBench: the paper's overall and competencies, mapped to overall and group rows", () => {
    const abRun = (id: string) => mcRun(id, [...items('Radical', [true, false]), ...items('TraDoc Word', [true, true])], 'ancientbench');
    const c = compareRuns([abRun('a'), abRun('b')]);
    expect(c.rows.map((r) => r.key)).toEqual(['Radical', 'TraDoc Word', 'group:glyph', 'group:meaning', 'overall', 'pooled']);
    expect(row(c.rows, 'overall').metric).toBe('mean of competencies');
    expect(c.published).toHaveLength(6);
    const glm = c.published.find((p) => p.row.model === 'GLM4-9b-chat')!;
    expect(glm.scores).toEqual({ Radical: null, 'TraDoc Word': null, 'group:glyph': null, 'group:meaning': 69.71, overall: 49.29, pooled: null });
    const yi = c.published.find((p) => p.row.model === 'Yi1.5-9B-Ancient' && p.row.setting === 'zero-shot')!;
    // Pronunciation (32.3) has no row here, so it is not shown.
    expect(yi.scores).toMatchObject({ 'group:glyph': 50.77, 'group:meaning': 67.12, overall: 50.28 });
    expect(Object.keys(yi.scores)).not.toContain('group:pronunciation');
  });

  it('no published columns for any other benchmark (ACLUE)', () => {
    const c = compareRuns([mcRun('a', items(T1, [true])), mcRun('b', items(T1, [false]))]);
    expect(c.published).toEqual([]);
  });

  it('refuses runs of two datasets, naming the run that differs', () => {
    const runs = [mcRun('a', items(T1, [true])), mcRun('b', items('Radical', [true]), 'ancientbench')];
    expect(() => compareRuns(runs)).toThrow(RangeError);
    expect(() => compareRuns(runs)).toThrow(/"model b" \(b\) is a multiple-choice run on ancientbench.*first run "model a" \(a\).*aclue/);
  });

  it('refuses runs of two kinds, an empty list, and a run with no data', () => {
    const genRun: ComparableRun = { id: 'g', label: 'g', origin: 'local', datasetId: 'aclue', kind: 'generation', summaryOnly: { overall: 1 } };
    expect(() => compareRuns([mcRun('a', items(T1, [true])), genRun])).toThrow(/"g" \(g\) is a generation run/);
    expect(() => compareRuns([])).toThrow(RangeError);
    const empty: ComparableRun = { id: 'e', label: 'e', origin: 'imported', datasetId: 'aclue', kind: 'multiple-choice' };
    expect(() => compareRuns([empty])).toThrow(/neither per-item results nor a summary/);
  });

  it('one run alone: its cells, no differences', () => {
    const c = compareRuns([mcRun('a', items(T1, [true, false]))]);
    expect(row(c.rows, T1).cells[0].score).toBe(50);
    expect(row(c.rows, T1).differences).toEqual([null]);
  });
});

describe('compareRuns: robustness rows (circular, PriDe, letter bias)', () => {
  /** Items of T1 with a plain outcome and an all-rotations-right outcome (undefined: asked in one order). */
  function circularItems(plain: readonly boolean[], all: readonly (boolean | null | undefined)[]): ComparableMcItem[] {
    return items(T1, plain).map((item, i) => (all[i] === undefined ? item : { ...item, allRotationsCorrect: all[i] }));
  }

  it('none when no run has rotations or robustness numbers', () => {
    const c = compareRuns([mcRun('a', items(T1, [true, false])), mcRun('b', items(T1, [false, false]))]);
    expect(c.rows.some((r) => r.kind === 'robustness')).toBe(false);
  });

  it('perf of a circular run against a plain run: the plain run enters with its one-order outcome, McNemar over the common items', () => {
    // Circular baseline: all rotations right on item 0 only; item 4 incomplete (null) is left out → 1/5.
    const circular = mcRun('circ', circularItems([true, true, false, false, true, false], [true, false, false, false, null, false]));
    // Plain run on the same six items: right on 0, 1, 2, 4 → 4/6, asked in one order only.
    const plain = mcRun('plain', items(T1, [true, true, true, false, true, false]));
    const perf = row(compareRuns([circular, plain]).rows, 'circular:perf');
    expect(perf.kind).toBe('robustness');
    expect(perf.cells[0]).toMatchObject({ n: 5, correct: 1, oneOrderOnly: false });
    expect(perf.cells[0].score).toBeCloseTo(20, 10);
    expect(perf.cells[1]).toMatchObject({ n: 6, correct: 4, oneOrderOnly: true });
    const w = wilsonInterval(1, 5)!;
    expect(perf.cells[0].interval!.low).toBeCloseTo(100 * w.low, 10);
    expect(perf.cells[0].interval!.high).toBeCloseTo(100 * w.high, 10);
    const d = perf.differences[1]!;
    // Five common items out of 5 and 6: partly paired, so everything is on those five.
    // Common items 0, 1, 2, 3, 5: both right on 0; only the plain run right on 1 and 2 → b = 0, c = 2,
    // p = 2 · P(X ≤ 0 | n = 2, ½) = 2 · ¼ = ½; 20% against 60%.
    expect(d.pairing).toBe('partly-paired');
    expect(d.common).toEqual({ n: 5, baseline: 20, other: 60 });
    expect(d.beyond).toEqual({ thisRun: 1, baseline: 0 });
    expect(d.points).toBeCloseTo(40, 10);
    const paired = newcombePaired(1, 2, 0, 2)!;
    expect(d.intervalMethod).toBe('newcombe-paired');
    expect(d.interval!.low).toBeCloseTo(100 * paired.low, 10);
    expect(d.interval!.high).toBeCloseTo(100 * paired.high, 10);
    expect(d.mcnemar).toMatchObject({ b: 0, c: 2, paired: 5 });
    expect(d.mcnemar!.pValue).toBeCloseTo(0.5, 14);
  });

  it('perf of two circular runs on the same items: paired Newcombe and McNemar on the all-rotations-right table', () => {
    const base = mcRun('a', circularItems([true, true, true, true], [true, true, false, false]));
    const other = mcRun('b', circularItems([true, true, true, true], [true, false, true, true]));
    const d = row(compareRuns([base, other]).rows, 'circular:perf').differences[1]!;
    // both right 1, only this run 2, only the baseline 1, neither 0.
    const expected = newcombePaired(1, 2, 1, 0)!;
    expect(d.pairing).toBe('paired');
    expect(d.points).toBeCloseTo(25, 10);
    expect(d.interval!.low).toBeCloseTo(100 * expected.low, 10);
    expect(d.interval!.high).toBeCloseTo(100 * expected.high, 10);
    expect(d.mcnemar).toMatchObject({ ...mcnemarExactFromCounts(1, 2), paired: 4 });
  });

  it('mean circular, PriDe and letter-bias rows carry the runs’ own numbers in percent, differences in points only', () => {
    const base: ComparableRun = {
      ...mcRun('a', circularItems([true, false], [false, false])),
      robustness: {
        circularMean: { accuracy: 0.25, interval: { low: 0.1, high: 0.5 }, n: 2 },
        pride: { k: 1, n: 4, accuracy: 0.25, wilson: { low: 0.05, high: 0.7 } },
        letterBias: { n: 2, letter: 'C', share: 1, pValue: 0.0123 },
      },
    };
    const other: ComparableRun = { ...mcRun('b', items(T1, [true, true])), robustness: { letterBias: { n: 2, letter: 'A', share: 0.5, pValue: 0.8 } } };
    const c = compareRuns([base, other]);
    expect(c.rows.filter((r) => r.kind === 'robustness').map((r) => r.key)).toEqual(['circular:perf', 'circular:mean', 'pride:debiased', 'bias:top-share', 'bias:p-value']);
    const mean = row(c.rows, 'circular:mean');
    expect(mean.cells[0]).toMatchObject({ score: 25, interval: { low: 10, high: 50 }, n: 2 });
    expect(mean.cells[1].score).toBeNull();
    expect(mean.differences[1]).toMatchObject({ points: null, interval: null, mcnemar: null });
    expect(row(c.rows, 'pride:debiased').cells[0]).toMatchObject({ score: 25, correct: 1, n: 4, interval: { low: 5, high: 70 } });
    const share = row(c.rows, 'bias:top-share');
    expect(share.cells.map((x) => [x.score, x.letter])).toEqual([[100, 'C'], [50, 'A']]);
    // A share of C less a share of A: no difference.
    expect(share.differences[1]).toMatchObject({ points: null, interval: null, mcnemar: null, pairing: 'paired', withheld: 'letters-differ' });
    const p = row(c.rows, 'bias:p-value');
    expect(p.cells.map((x) => x.score)).toEqual([0.0123, 0.8]);
    expect(p.differences[1]!.points).toBeNull();
    expect(c.signature).toContain('robustness:perf(all-rotations-right');
  });

  it('the top-letter share is differenced when both runs most often predict the same letter', () => {
    const bias = (letter: string, share: number): ComparableRun['robustness'] => ({ letterBias: { n: 4, letter, share, pValue: 0.5 } });
    const c = compareRuns([{ ...mcRun('a', items(T1, [true])), robustness: bias('B', 0.9) }, { ...mcRun('b', items(T1, [true])), robustness: bias('B', 0.75) }]);
    const d = row(c.rows, 'bias:top-share').differences[1]!;
    expect(d.points).toBeCloseTo(-15, 10);
    expect(d.withheld).toBeUndefined();
  });

  it('the runs’ own numbers get no difference when the runs share only some items: each is over different items', () => {
    const bias = (share: number): ComparableRun['robustness'] => ({ letterBias: { n: 4, letter: 'B', share, pValue: 0.5 }, circularMean: { accuracy: share, interval: null, n: 4 } });
    // The baseline has items 0–1, the other 0–2: partly paired.
    const c = compareRuns([{ ...mcRun('a', items(T1, [true, false])), robustness: bias(0.9) }, { ...mcRun('b', items(T1, [true, false, true])), robustness: bias(0.75) }]);
    for (const key of ['bias:top-share', 'circular:mean']) {
      expect(row(c.rows, key).differences[1]).toMatchObject({ points: null, interval: null, pairing: 'partly-paired', withheld: 'items-differ' });
    }
    // The cells stay: each run's own number is shown.
    expect(row(c.rows, 'bias:top-share').cells.map((x) => x.score)).toEqual([90, 75]);
  });

  it('a summary-only run has empty robustness cells, marked summary-only', () => {
    const circular = mcRun('circ', circularItems([true, false], [true, false]));
    const link: ComparableRun = { id: 'link', label: 'link', origin: 'shared', datasetId: 'aclue', kind: 'multiple-choice', summaryOnly: { [`task:${T1}`]: 50 } };
    const perf = row(compareRuns([circular, link]).rows, 'circular:perf');
    expect(perf.cells[1]).toEqual({ score: null, interval: null, n: null, correct: null });
    expect(perf.differences[1]).toMatchObject({ pairing: 'summary-only', points: null, mcnemar: null });
  });
});

describe('compareRuns: Overall on the common coverage (AncientBench, mean of competencies)', () => {
  const ab = (id: string, mcItems: ComparableMcItem[]) => mcRun(id, mcItems, 'ancientbench');

  it('a paused run over one competency against a complete one: each cell says what it covers, the difference is on the common items', () => {
    const complete = ab('complete', [
      ...items('Radical', [true, true, false, true, false, false]),
      ...items('Radical Meaning', [true, false, true, false]),
      ...items('Pronunciation', [true, false, false, false]),
      ...items('TraDoc Word', [true, true, true, false]),
      ...items('Cloze', [true, false, true, false]),
    ]);
    // Paused in Glyph: the first four Radical items, all right.
    const paused = ab('paused', items('Radical', [true, true, true, true]));
    const c = compareRuns([complete, paused]);
    const overall = row(c.rows, 'overall');
    expect(overall.cells.map((x) => x.coverage)).toEqual([{ of: 4, total: 4 }, { of: 1, total: 4 }]);
    // The paused run's own Overall is its Glyph: 100.
    expect(overall.cells[1].score).toBe(100);
    const d = overall.differences[1]!;
    // Common: Radical items 0..3, the complete run right on 0, 1, 3 → 75 against 100, over one competency.
    expect(d.pairing).toBe('partly-paired');
    expect(d.common).toEqual({ n: 4, baseline: 75, other: 100, of: 1 });
    expect(d.points).toBeCloseTo(25, 10);
    expect(d.beyond).toEqual({ thisRun: 0, baseline: 18 });
    expect(d.intervalMethod).toBe('paired-bootstrap');
    // The baseline's score on the common items is what the benchmark's own aggregation gives on them.
    const common = complete.mcItems!.filter((i) => i.task === 'Radical' && Number(i.itemId.split('/')[1]) < 4);
    expect(d.common!.baseline).toBeCloseTo(100 * aggregateForDataset('ancientbench', common).overall.accuracy!, 10);
    // Competencies the paused run has no item of have no difference (no common items, other coverage).
    expect(row(c.rows, 'group:pronunciation').differences[1]).toMatchObject({ points: null, pairing: 'unpaired' });
  });

  it('the paired bootstrap of Overall and each competency agrees with a numpy bootstrap of the same items', () => {
    // Per task: both right, only this run right, only the baseline right, both wrong.
    const tables: Record<string, [number, number, number, number]> = {
      Radical: [30, 12, 5, 13],
      'Radical Meaning': [20, 4, 9, 7],
      Pronunciation: [10, 8, 3, 29],
      Homophone: [25, 5, 5, 15],
      'TraDoc Word': [40, 6, 2, 12],
      Cloze: [15, 9, 4, 12],
    };
    const base: ComparableMcItem[] = [];
    const other: ComparableMcItem[] = [];
    for (const [task, [both, onlyThis, onlyBaseline, neither]] of Object.entries(tables)) {
      const [o, b] = pairedOutcomes(both, onlyThis, onlyBaseline, neither);
      base.push(...items(task, b));
      other.push(...items(task, o));
    }
    const c = compareRuns([ab('base', base), ab('other', other)]);
    // Items resampled with replacement within each task, both runs' outcomes kept together; the
    // Overall is the mean of the four competencies' means of tasks; B = 200,000:
    // python3 -c "
    // import numpy as np
    // T={'Radical':(30,12,5,13),'Radical Meaning':(20,4,9,7),'Pronunciation':(10,8,3,29),'Homophone':(25,5,5,15),'TraDoc Word':(40,6,2,12),'Cloze':(15,9,4,12)}
    // G={'glyph':['Radical','Radical Meaning'],'pronunciation':['Pronunciation','Homophone'],'meaning':['TraDoc Word'],'context':['Cloze']}
    // rng=np.random.default_rng(20240601); B=200000; d={}
    // for t,(a,b,c,z) in T.items():
    //     other=np.r_[np.ones(a),np.ones(b),np.zeros(c),np.zeros(z)]; base=np.r_[np.ones(a),np.zeros(b),np.ones(c),np.zeros(z)]
    //     n=len(base); idx=rng.integers(0,n,size=(B,n)); d[t]=other[idx].mean(1)-base[idx].mean(1)
    // g={k:np.mean([d[t] for t in v],0) for k,v in G.items()}; o=np.mean(list(g.values()),0)
    // def rep(name,x):
    //     lo,hi=np.percentile(x,[2.5,97.5]); p=min(1,2*(1+min((x<=1e-12).sum(),(x>=-1e-12).sum()))/(B+1))
    //     print(name, round(100*lo,3), round(100*hi,3), round(p,4))
    // [rep(k,v) for k,v in g.items()]; rep('overall',o)"
    // glyph -11.25 10.417 0.9697
    // pronunciation -4.0 14.0 0.3176
    // meaning -1.667 16.667 0.1974
    // context -5.0 30.0 0.2
    // overall -0.063 11.979 0.0528
    const numpy: Record<string, [number, number, number]> = {
      'group:glyph': [-11.25, 10.417, 0.9697],
      'group:pronunciation': [-4.0, 14.0, 0.3176],
      'group:meaning': [-1.667, 16.667, 0.1974],
      'group:context': [-5.0, 30.0, 0.2],
      overall: [-0.063, 11.979, 0.0528],
    };
    for (const [key, [low, high, p]] of Object.entries(numpy)) {
      const d = row(c.rows, key).differences[1]!;
      expect(d.intervalMethod, key).toBe('paired-bootstrap');
      // Monte Carlo error of a 2.5% quantile at B = 10,000 is about 0.1 point here; of p near 0.05, 0.002.
      expect(Math.abs(d.interval!.low - low), `${key} low`).toBeLessThan(0.5);
      expect(Math.abs(d.interval!.high - high), `${key} high`).toBeLessThan(0.5);
      expect(Math.abs(d.bootstrap!.pValue - p), `${key} p`).toBeLessThan(0.012);
    }
    // The point estimate by hand: glyph (12−5)/60 and (4−9)/40, pronunciation 5/50 and 0, meaning 4/60,
    // context 5/40 → mean of the four competencies' means = 5.9375 points.
    expect(row(c.rows, 'overall').differences[1]!.points).toBeCloseTo(5.9375, 10);
  });
});
