import { describe, expect, it } from 'vitest';
import { aggregateMultipleChoice, aggregationFor, type McItemResult } from '../../../src/lib/core/metrics/mc-aggregate.ts';

/** `k` correct then `n − k` wrong results for a task, then `unscored` without a key. */
function results(task: string, k: number, n: number, unscored = 0): McItemResult[] {
  return Array.from({ length: n + unscored }, (_, i) => ({ itemId: `${task}/${i}`, task, correct: i < n ? i < k : null }));
}

// Hand-computed: Radical 7/10 (and one unscored), Radical Meaning 1/2, Pronunciation 3/4; Cloze has
// only unscored items. Glyph = (0.7 + 0.5)/2 = 0.6; pronunciation = 0.75; meaning has no results and
// context no scored task, so both are left out. Overall = (0.6 + 0.75)/2 = 0.675; pooled = 11/16 = 0.6875.
const run: McItemResult[] = [
  ...results('Pronunciation', 3, 4),
  ...results('Radical', 7, 10, 1),
  ...results('Cloze', 0, 0, 2),
  ...results('Radical Meaning', 1, 2),
];

describe('aggregateMultipleChoice, AncientBench', () => {
  const { grouping, overallRule } = aggregationFor('ancientbench');
  const agg = aggregateMultipleChoice(run, grouping, overallRule);

  it('gives overall a normal 95% interval from the tasks\' Agresti–Coull variances, weighted as in the mean', () => {
    // Overall = ¼·Radical (7/10) + ¼·Radical Meaning (1/2) + ½·Pronunciation (3/4).
    const z = 1.959963984540054;
    const v = (k: number, n: number) => { const nt = n + z * z; const p = (k + (z * z) / 2) / nt; return (p * (1 - p)) / nt; };
    expect(v(7, 10)).toBeCloseTo(0.016553, 6); // by hand: ñ = 10 + 3.8415 = 13.8415, p̃ = 8.9208/13.8415 = 0.64449
    const half = z * Math.sqrt((v(7, 10) + v(1, 2)) / 16 + v(3, 4) / 4);
    expect(agg.overall.interval!.low).toBeCloseTo(0.675 - half, 12);
    expect(agg.overall.interval!.high).toBeCloseTo(Math.min(1, 0.675 + half), 12);
    expect(agg.overall.interval!.low).toBeCloseTo(0.468, 3); // half-width 0.2071
    expect(agg.overall.interval!.high).toBeLessThan(1);
  });

  it('never gives a task at 0% or 100% an interval of zero width', () => {
    const perfect = aggregateMultipleChoice(results('Radical', 2, 2), grouping, 'mean-of-tasks');
    expect(perfect.overall.accuracy).toBe(1);
    expect(perfect.overall.interval!.low).toBeLessThan(0.8);
    expect(perfect.overall.interval!.high).toBe(1);
  });

  it('counts failed items apart: neither in n nor unscored, and they move no accuracy', () => {
    const failed = [
      { itemId: 'Radical/f1', task: 'Radical', correct: null, failure: { code: 'run.item-too-long', params: {} } },
      { itemId: 'Homophone/f1', task: 'Homophone', correct: null, failure: { code: 'model.failed', params: {} } },
    ];
    const withFailed = aggregateMultipleChoice([...run, ...failed], grouping, overallRule);
    expect(withFailed.tasks.find((t) => t.task === 'Radical')).toMatchObject({ n: 10, correct: 7, unscored: 1, failed: 1 });
    expect(withFailed.tasks.find((t) => t.task === 'Homophone')).toMatchObject({ n: 0, accuracy: null, failed: 1 });
    expect(withFailed.failed).toBe(2);
    expect(withFailed.unscored).toBe(agg.unscored);
    expect(withFailed.overall.accuracy).toBe(agg.overall.accuracy);
    expect(withFailed.pooled).toEqual(agg.pooled);
  });

  it('per task: counts, accuracy, standard error, Wilson interval, unscored', () => {
    expect(agg.tasks.map((t) => t.task)).toEqual(['Radical', 'Radical Meaning', 'Pronunciation', 'Cloze']);
    const radical = agg.tasks[0];
    expect(radical).toMatchObject({ n: 10, correct: 7, accuracy: 0.7, unscored: 1 });
    expect(radical.standardError).toBeCloseTo(0.152753, 6);
    expect(radical.wilson!.low).toBeCloseTo(0.3968, 4);
    expect(radical.wilson!.high).toBeCloseTo(0.8922, 4);
    const pronunciation = agg.tasks[2];
    expect(pronunciation).toMatchObject({ n: 4, correct: 3, accuracy: 0.75, unscored: 0 });
    expect(pronunciation.standardError).toBeCloseTo(0.25, 12);
    expect(pronunciation.wilson!.low).toBeCloseTo(0.3006, 4);
    expect(pronunciation.wilson!.high).toBeCloseTo(0.9544, 4);
  });

  it('reports an empty task with nulls', () => {
    expect(agg.tasks[3]).toEqual({ task: 'Cloze', n: 0, correct: 0, accuracy: null, standardError: null, wilson: null, unscored: 2, failed: 0 });
    expect(agg.unscored).toBe(3);
  });

  it('competency = mean of its tasks\' accuracies; empty ones are null', () => {
    expect(agg.groups).toEqual([
      { key: 'glyph', accuracy: expect.closeTo(0.6, 12), tasks: ['Radical', 'Radical Meaning'], tasksScored: 2 },
      { key: 'pronunciation', accuracy: 0.75, tasks: ['Pronunciation'], tasksScored: 1 },
      { key: 'meaning', accuracy: null, tasks: [], tasksScored: 0 },
      { key: 'context', accuracy: null, tasks: ['Cloze'], tasksScored: 0 },
    ]);
  });

  it('overall = mean of competencies, which is not the pooled accuracy', () => {
    expect(agg.overall.accuracy).toBeCloseTo(0.675, 12);
    expect(agg.overall).toMatchObject({ rule: 'mean-of-groups', of: 2, signature: 'acc|overall:mean-of-competencies|se:sample-n-1|ci:wilson-95|overall-ci:normal-agresti-coull-95|empty:excluded|failed:excluded|version:1' });
    expect(agg.pooled).toMatchObject({ n: 16, correct: 11, accuracy: 0.6875, signature: 'acc|pooled:micro|ci:wilson-95|version:1' });
    expect(agg.pooled.wilson!.low).toBeCloseTo(0.444, 4);
    expect(agg.pooled.wilson!.high).toBeCloseTo(0.8584, 4);
    expect(agg.overall.accuracy).not.toBeCloseTo(agg.pooled.accuracy!, 3);
  });

  it('the same results under mean-of-tasks: (0.7 + 0.5 + 0.75)/3 = 0.65, Cloze left out', () => {
    const byTask = aggregateMultipleChoice(run, grouping, 'mean-of-tasks');
    expect(byTask.overall.accuracy).toBeCloseTo(0.65, 12);
    // Mean of three tasks: Var = (1/9)·Σ v_t.
    const z = 1.959963984540054;
    const v = (k: number, n: number) => { const nt = n + z * z; const p = (k + (z * z) / 2) / nt; return (p * (1 - p)) / nt; };
    const half = z * Math.sqrt((v(7, 10) + v(1, 2) + v(3, 4)) / 9);
    expect(byTask.overall.interval!.low).toBeCloseTo(0.65 - half, 12);
    expect(byTask.overall.interval!.high).toBeCloseTo(0.65 + half, 12);
    expect(byTask.overall).toMatchObject({ of: 3, signature: 'acc|overall:mean-of-tasks|se:sample-n-1|ci:wilson-95|overall-ci:normal-agresti-coull-95|empty:excluded|failed:excluded|version:1' });
  });
});

describe('aggregateMultipleChoice, other cases', () => {
  it('ACLUE: overall = mean of task accuracies, categories shown', () => {
    const { grouping, overallRule } = aggregationFor('aclue');
    const agg = aggregateMultipleChoice([...results('通假字', 1, 4), ...results('古文单字多义', 3, 4), ...results('古音学', 2, 2)], grouping, overallRule);
    // Tasks: 0.25, 0.75, 1 → overall 2/3; Lexical = 0.5, Knowledge = 1; pooled 6/10.
    expect(agg.overall.accuracy).toBeCloseTo(2 / 3, 12);
    expect(agg.overall.signature).toBe('acc|overall:mean-of-tasks|se:sample-n-1|ci:wilson-95|overall-ci:normal-agresti-coull-95|empty:excluded|failed:excluded|version:1');
    expect(agg.tasks.map((t) => t.task)).toEqual(['古文单字多义', '通假字', '古音学']);
    expect(agg.groups.find((g) => g.key === 'Lexical')!.accuracy).toBeCloseTo(0.5, 12);
    expect(agg.groups.find((g) => g.key === 'Knowledge')!.accuracy).toBe(1);
    expect(agg.pooled.accuracy).toBe(0.6);
  });

  it('AC-EVAL test: everything unscored, nothing to average', () => {
    const { grouping, overallRule } = aggregationFor('ac-eval');
    const agg = aggregateMultipleChoice(results('geography', 0, 0, 5), grouping, overallRule);
    expect(agg.overall).toMatchObject({ accuracy: null, of: 0 });
    expect(agg.pooled).toMatchObject({ n: 0, accuracy: null, wilson: null });
    expect(agg.unscored).toBe(5);
  });

  it('without groups, tasks keep their order of appearance', () => {
    const agg = aggregateMultipleChoice([...results('b', 1, 1), ...results('a', 0, 1)], { kind: 'none', groups: [] }, 'mean-of-tasks');
    expect(agg.tasks.map((t) => t.task)).toEqual(['b', 'a']);
    expect(agg.overall.accuracy).toBe(0.5);
    expect(agg.ungroupedTasks).toEqual([]);
  });

  it('lists tasks in no group, left out of a mean of groups', () => {
    const agg = aggregateMultipleChoice([...results('x', 1, 1), ...results('y', 0, 1)], { kind: 'competency', groups: [{ key: 'g', tasks: ['x'] }] }, 'mean-of-groups');
    expect(agg.ungroupedTasks).toEqual(['y']);
    expect(agg.overall).toMatchObject({ accuracy: 1, of: 1 });
    expect(agg.pooled.accuracy).toBe(0.5);
  });

  it('refuses an item counted twice, and mean-of-groups without groups', () => {
    expect(() => aggregateMultipleChoice([...results('x', 1, 1), ...results('x', 1, 1)], { kind: 'none', groups: [] }, 'mean-of-tasks')).toThrow(/two results/);
    expect(() => aggregateMultipleChoice([], { kind: 'none', groups: [] }, 'mean-of-groups')).toThrow(RangeError);
  });
});

describe('aggregationFor', () => {
  it('AncientBench: the four competencies from the catalog, mean of groups', () => {
    expect(aggregationFor('ancientbench')).toEqual({
      grouping: {
        kind: 'competency',
        groups: [
          { key: 'glyph', tasks: ['Radical', 'Radical Meaning'] },
          { key: 'pronunciation', tasks: ['Pronunciation', 'Phonetic Radical', 'Homophone'] },
          { key: 'meaning', tasks: ['ExcDoc Word', 'TraDoc Word'] },
          { key: 'context', tasks: ['Cloze', 'Phonetic Loan Character', 'Translation'] },
        ],
      },
      overallRule: 'mean-of-groups',
    });
  });

  it('ACLUE, CMMLU, AC-EVAL, WenMind: mean of tasks; WenMind keeps only its multiple-choice tasks', () => {
    expect(aggregationFor('aclue')).toMatchObject({ grouping: { kind: 'category' }, overallRule: 'mean-of-tasks' });
    expect(aggregationFor('aclue').grouping.groups).toHaveLength(5);
    expect(aggregationFor('cmmlu-ancient')).toEqual({ grouping: { kind: 'none', groups: [] }, overallRule: 'mean-of-tasks' });
    expect(aggregationFor('ac-eval')).toMatchObject({ grouping: { kind: 'supercategory' }, overallRule: 'mean-of-tasks' });
    const wenmind = aggregationFor('wenmind');
    expect(wenmind.overallRule).toBe('mean-of-tasks');
    expect(wenmind.grouping.groups.flatMap((g) => g.tasks)).toEqual(['虚词', '单字多义', '通假字', '句式', '古诗词赏析', '国学常识问答', '古汉语音韵']);
  });

  it('refuses C3Bench (generation only)', () => {
    expect(() => aggregationFor('c3bench')).toThrow(/no multiple-choice tasks/);
  });
});
