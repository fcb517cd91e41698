// The run page's headline (issue 44): which interval leads for how the run was stopped ((a) for a
// run that asked all it planned, (b) for one whose stop depended on its results or that is still
// going, the exact score when every item is done, none for a run asked in file order), the fixed-n
// intervals the task table and charts show, what a stop saved, and the words in both languages.
import { describe, expect, it } from 'vitest';
import { estimateOfRun } from '../../../src/lib/core/metrics/benchmark-estimate.ts';
import type { McItemResult, McRunConfig } from '../../../src/lib/core/record/run.ts';
import { fixedIntervalsOf, headlineOf, overallRow, type HeadlineInput } from '../../../src/ui/evaluate/run-headline.ts';
import { coversText, intervalText, noFixedText, savedText } from '../../../src/ui/evaluate/headline-text.ts';
import { PAUSE_SECONDS, runSeconds, stopSavedOf } from '../../../src/ui/evaluate/stop-saved.ts';

const TASKS = ['古文单字多义', '对联'];
const POPULATION = { [TASKS[0]]: 30, [TASKS[1]]: 20 };

function config(sampling: 'shuffled' | 'file-order' = 'shuffled'): McRunConfig {
  const itemIds = TASKS.flatMap((task) => Array.from({ length: POPULATION[task] }, (_, i) => `${task}/${i}`));
  return {
    kind: 'multiple-choice',
    tasks: TASKS,
    limitPerTask: null,
    itemIds,
    scoring: 'letter-logits',
    ...(sampling === 'shuffled' ? { sampling: { draw: 'random', seed: 3, order: 'shuffled', block: 2, population: POPULATION } } : {}),
  } as unknown as McRunConfig;
}

/** The first `count` results, round robin over the tasks. */
function results(count: number): McItemResult[] {
  const out: McItemResult[] = [];
  for (let k = 0; k < 30; k++)
    for (const task of TASKS)
      if (k < POPULATION[task] && out.length < count) out.push({ itemId: `${task}/${k}`, task, index: out.length, correct: (k * 7 + task.length) % 3 !== 0, gold: 'A', letters: ['A', 'B', 'C', 'D'], probs: [0.4, 0.2, 0.2, 0.2], logProbs: [-1, -2, -2, -2] } as McItemResult);
  return out;
}

const input = (over: Partial<HeadlineInput>): HeadlineInput => ({ estimate: null, status: 'completed', live: false, stopRule: false, asked: 20, planned: 50, everyItem: true, aggregateScore: 0.5, ...over });

describe('the headline’s interval', () => {
  const partial = estimateOfRun(config(), 'aclue', results(20));
  const row = overallRow(partial)!.estimate;

  it('is (a) for a run that asked every item it planned, with no stop rule', () => {
    const h = headlineOf(input({ estimate: partial, asked: 20, planned: 20 }));
    expect(h).toMatchObject({ kind: 'fixed', why: 'finished', score: row.estimate, interval: row.fixedN, population: 50, scored: 20 });
  });

  it('is (b) for a run its rule stopped, one paused early, and one still running', () => {
    expect(headlineOf(input({ estimate: partial, stopRule: true }))).toMatchObject({ kind: 'sequence', why: 'stop-rule', interval: row.sequence });
    // A stop rule that never fired still looked after every item: (b), even at the planned size.
    expect(headlineOf(input({ estimate: partial, stopRule: true, asked: 20, planned: 20 })).kind).toBe('sequence');
    expect(headlineOf(input({ estimate: partial, status: 'paused' }))).toMatchObject({ kind: 'sequence', why: 'stopped-early' });
    expect(headlineOf(input({ estimate: partial, status: 'running', live: true, asked: 20, planned: 20 }))).toMatchObject({ kind: 'sequence', why: 'running' });
    expect(row.sequence!.high - row.sequence!.low).toBeGreaterThan(row.fixedN!.high - row.fixedN!.low);
  });

  it('is the exact score when every item is done', () => {
    const all = estimateOfRun(config(), 'aclue', results(50));
    const e = overallRow(all)!.estimate.estimate!;
    expect(headlineOf(input({ estimate: all, asked: 50, planned: 50 }))).toMatchObject({ kind: 'exact', why: 'every-item', score: e, interval: { low: e, high: e } });
  });

  it('is none for a run asked in file order, unless it asked every item; none while the estimate is computed', () => {
    const older = estimateOfRun(config('file-order'), 'aclue', results(20));
    expect(headlineOf(input({ estimate: older }))).toMatchObject({ kind: 'none', why: 'not-sampled', interval: null, score: 0.5 });
    expect(headlineOf(input({ estimate: older, asked: 50, planned: 50 }))).toMatchObject({ kind: 'exact', why: 'every-item', interval: { low: 0.5, high: 0.5 } });
    expect(headlineOf(input({ estimate: null }))).toMatchObject({ kind: 'none', why: 'waiting' });
    // One task without a value yet: no score by the benchmark's rule.
    expect(headlineOf(input({ estimate: estimateOfRun(config(), 'aclue', results(1)) }))).toMatchObject({ kind: 'none', why: 'waiting', score: null });
  });
});

describe('the fixed-n intervals beside tasks and groups', () => {
  it('are (a) of every row of accuracy, the exact score as a point once a task is done', () => {
    const estimate = estimateOfRun(config(), 'aclue', results(45));
    const fixed = fixedIntervalsOf(estimate);
    expect(fixed.none).toBeNull();
    const rows = estimate.measures[0].rows;
    const overall = rows.find((r) => r.key === 'overall')!.estimate;
    expect(fixed.byRow.get('overall')).toEqual(overall.fixedN);
    // 对联's 20 items are all done: its interval is its score.
    const done = rows.find((r) => r.key === 'task:对联')!.estimate;
    expect(done.exact).toBe(true);
    expect(fixed.byRow.get('task:对联')).toEqual({ low: done.estimate, high: done.estimate });
    expect(fixed.byRow.get(`task:${TASKS[0]}`)).toEqual(rows.find((r) => r.key === `task:${TASKS[0]}`)!.estimate.fixedN);
    expect([...fixed.byRow.keys()]).toEqual(rows.map((r) => r.key));
  });

  it('are none, with the reason, for a run asked in file order, and pending before the estimate', () => {
    expect(fixedIntervalsOf(estimateOfRun(config('file-order'), 'aclue', results(10))).none).toBe('not-sampled');
    expect(fixedIntervalsOf(null).none).toBe('pending');
  });
});

describe('what a stop saved', () => {
  it('times a run by its results, a pause counted as a typical item', () => {
    const t0 = Date.UTC(2026, 0, 1);
    const times = [0, 2, 4, 6, 8].map((s) => t0 + s * 1000);
    expect(runSeconds(times)).toEqual({ seconds: 10, perItem: 2 });
    // Paused for an hour after the third: the hour is not the run's.
    const paused = [0, 2, 4, 3604, 3606].map((s) => t0 + s * 1000);
    expect(runSeconds(paused)).toEqual({ seconds: 10, perItem: 2 });
    // Slow items are not pauses: 50 s apart stays 50 s.
    expect(runSeconds([0, 50, 100].map((s) => t0 + s * 1000))!.seconds).toBe(150);
    expect(PAUSE_SECONDS).toBe(60);
    expect(runSeconds([t0])).toBeNull();
  });

  it('says the items, the share and both times', () => {
    const saved = stopSavedOf({ halfWidth: 0.03, asked: 1180, population: 4966, perItemSeconds: 0.8 });
    expect(saved.share).toBeCloseTo(1180 / 4966, 12);
    expect(saved.seconds).toBeCloseTo(944, 9);
    expect(saved.wholeSeconds).toBeCloseTo(3972.8, 9);
    expect(stopSavedOf({ halfWidth: 0.03, asked: 10, population: 100, perItemSeconds: null })).toMatchObject({ seconds: null, wholeSeconds: null });
  });
});

describe('the words', () => {
  const p = { interval: '21.8 to 28.0', asked: '1,180', planned: '4,966' };
  it('name the interval and why, in both languages', () => {
    expect(intervalText('finished', p, false)).toBe('95% interval 21.8 to 28.0, for a sample size fixed before the run: it asked all 4,966 items it planned, so its size never depended on its results.');
    expect(intervalText('stop-rule', p, false)).toContain('95% confidence sequence 21.8 to 28.0, valid at any stopping time: the run stopped by its own rule after 1,180 items');
    expect(intervalText('stopped-early', p, true)).toContain('本次评测在计划的 4,966 题中的第 1,180 题停下');
    expect(intervalText('every-item', p, true)).toBe('确切得分：全部题目都已完成，没有需要估计的了。');
    expect(intervalText('not-sampled', p, false)).toMatch(/^No interval: /);
    expect(noFixedText('not-sampled', true)).toMatch(/^没有区间/);
  });

  it('say what the score covers', () => {
    const c = { dataset: 'ACLUE', population: '4,966', scored: '105', limit: '7', rule: 'the mean of its tasks' };
    expect(coversText('benchmark', c, false)).toBe('ACLUE’s score over all 4,966 items of the tasks run, the mean of its tasks, estimated from 105 scored items drawn at random.');
    expect(coversText('chosen-items', c, false)).toContain('not ACLUE’s');
    expect(coversText('chosen-items', c, true)).toContain('每个任务文件中的前 7 题');
  });

  it('say what the stop saved, after the run and before it', () => {
    const s = { halfWidth: '3.0', asked: '1,180', share: '24%', of: 'ACLUE', population: '4,966', spent: 'about 16 min', whole: 'about 66 min', before: false };
    expect(savedText(s, false)).toBe('Known within ±3.0 points after 1,180 items (24% of ACLUE’s 4,966), about 16 min on this device; all 4,966 would take about 66 min.');
    expect(savedText({ ...s, spent: '约 16 分钟', whole: '约 66 分钟' }, true)).toBe('1,180 题后已确定在 ±3.0 个百分点之内（ACLUE 4,966 题的 24%），在本设备上用时约 16 分钟；全部 4,966 题需约 66 分钟。');
    expect(savedText({ ...s, before: true }, false)).toBe('Known within ±3.0 points after about 1,180 items (24% of ACLUE’s 4,966), about 16 min at the pace measured on this device; all 4,966 would take about 66 min.');
    expect(savedText({ ...s, before: true, spent: null, whole: null, of: null }, false)).toBe('Known within ±3.0 points after about 1,180 items (24% of the 4,966 items chosen); its time is known once a pace is measured here.');
  });
});
