// The run page's estimate view model (estimate-view.ts) and its words (estimate-text.ts): a live run
// fed a few results at a time shows what the stored run shows; (a) and (b) are named plainly in both
// languages; a finished run's intervals are its score; a run in file order claims no interval.
import { describe, expect, it } from 'vitest';
import { estimateOfRun } from '../../../src/lib/core/metrics/benchmark-estimate.ts';
import type { McItemResult, McRunConfig, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { detailLines, estimateExact, LIVE_ESTIMATE_MS, LiveEstimateFeed, liveEstimate, overallLines } from '../../../src/ui/evaluate/estimate-view.ts';
import { basisText, legendText, stoppedText, unboundedText } from '../../../src/ui/evaluate/estimate-text.ts';

const TASKS = ['古文单字多义', '对联'];
const POPULATION = { [TASKS[0]]: 30, [TASKS[1]]: 20 };

function run(): McRunRecord {
  const itemIds = TASKS.flatMap((task) => Array.from({ length: POPULATION[task] }, (_, i) => `${task}/${i}`));
  const config = { kind: 'multiple-choice', tasks: TASKS, limitPerTask: null, itemIds, scoring: 'letter-logits', sampling: { draw: 'random', seed: 3, order: 'shuffled', block: 2, population: POPULATION } } as unknown as McRunConfig;
  return { id: 'r', datasetId: 'aclue', status: 'running', config } as McRunRecord;
}

function results(): McItemResult[] {
  const out: McItemResult[] = [];
  for (let k = 0; k < 30; k++)
    for (const task of TASKS)
      if (k < POPULATION[task]) {
        const right = (k * 7 + task.length) % 3 !== 0;
        const p = right ? 0.6 : 0.3;
        out.push({ itemId: `${task}/${k}`, task, index: out.length, correct: right, gold: 'A', letters: ['A', 'B', 'C', 'D'], probs: [p, (1 - p) / 3, (1 - p) / 3, (1 - p) / 3], logProbs: [Math.log(p), -1, -1, -1] } as McItemResult);
      }
  return out;
}

describe('the live estimate', () => {
  it('fed a few results at each draw, equals the estimate of the same results read whole', () => {
    const r = run();
    const all = results();
    let clock = 0;
    const feed = new LiveEstimateFeed(r, () => clock);
    const live: McItemResult[] = [];
    for (const cut of [3, 4, 17, 30]) {
      while (live.length < cut) live.push(all[live.length]);
      clock += LIVE_ESTIMATE_MS;
      expect(feed.update(live)).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, cut)));
    }
    // A result that comes again with its rotations (replaced in place) changes nothing.
    live[0] = { ...live[0], correct: !live[0].correct };
    clock += LIVE_ESTIMATE_MS;
    expect(feed.update(live)).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 30)));
  });

  it('takes every result at once but a new snapshot only once the results grew by 5% or the last is old enough', () => {
    const r = run();
    const all = results();
    let clock = 0;
    const feed = new LiveEstimateFeed(r, () => clock);
    const first = feed.update(all.slice(0, 30));
    // 31 is under 5% more than 30: the last snapshot, however much time passed short of LIVE_ESTIMATE_MS.
    clock += LIVE_ESTIMATE_MS / 2;
    expect(feed.update(all.slice(0, 31))).toBe(first);
    // 32 is: a new one, at once.
    expect(feed.update(all.slice(0, 32))).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 32)));
    const grown = feed.update(all.slice(0, 33));
    expect(grown).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 32)));
    // A slow run: LIVE_ESTIMATE_MS after the last, any new result gives a new one.
    clock += LIVE_ESTIMATE_MS;
    expect(feed.update(all.slice(0, 33))).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 33)));
    // Nothing new: the same snapshot.
    clock += LIVE_ESTIMATE_MS;
    const same = feed.update(all.slice(0, 33));
    expect(feed.update(all.slice(0, 33))).toBe(same);
  });

  it('once the run has ended, a snapshot of every result, whatever the growth and the time', () => {
    const r = run();
    const all = results();
    let clock = 0;
    const feed = new LiveEstimateFeed(r, () => clock);
    const first = feed.update(all.slice(0, 40));
    // 41 of 40 is not 5% more, and no time has passed: still running, the last snapshot.
    expect(feed.update(all.slice(0, 41))).toBe(first);
    // Paused there: every result is in what it shows (a paused run at 30% showed 109 of its 110).
    const ended = feed.update(all.slice(0, 41), true);
    expect(ended).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 41)));
    // Nothing new since: the same snapshot, not another.
    expect(feed.update(all.slice(0, 41), true)).toBe(ended);
    // And through liveEstimate: a record no longer running asks for it.
    const list = { all: all.slice(0, 45) };
    expect(liveEstimate(list, r).estimate).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 45)));
    list.all = all.slice(0, 46);
    expect(liveEstimate(list, r).estimate).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 45)));
    expect(liveEstimate(list, { ...r, status: 'paused' }).estimate).toEqual(estimateOfRun(r.config, 'aclue', all.slice(0, 46)));
  });

  it('draws each measure’s overall line with both intervals, and at the end the score as a point', () => {
    const r = run();
    const all = results();
    const part = estimateOfRun(r.config, 'aclue', all.slice(0, 15));
    const lines = overallLines(part);
    expect(lines.map((l) => l.measure)).toEqual(['accuracy', 'pGold']);
    for (const l of lines) {
      expect(l.fixedN!.low).toBeLessThan(l.estimate!);
      expect(l.sequence!.high).toBeGreaterThan(l.estimate!);
      // (b), valid at any stopping time, is the wider.
      expect(l.sequence!.high - l.sequence!.low).toBeGreaterThan(l.fixedN!.high - l.fixedN!.low);
    }
    expect(estimateExact(part)).toBe(false);
    expect(detailLines(part, 'accuracy').map((l) => l.key)).toEqual(['pooled', ...['group:Lexical', 'group:Semantic'].filter((k) => detailLines(part, 'accuracy').some((l) => l.key === k)), ...TASKS.map((t) => `task:${t}`)]);
    const done = estimateOfRun(r.config, 'aclue', all);
    expect(estimateExact(done)).toBe(true);
    for (const l of overallLines(done)) {
      expect(l.fixedN).toEqual({ low: l.estimate, high: l.estimate });
      expect(l.sequence).toEqual({ low: l.estimate, high: l.estimate });
    }
  });
});

describe('the words', () => {
  it('name (a) and (b) plainly, in both languages', () => {
    const en = legendText(false);
    expect(en.fixedN).toMatch(/^\(a\) if you fixed the sample size before starting/);
    expect(en.sequence).toMatch(/^\(b\) valid whenever you stop/);
    expect(en.both).toMatch(/exact score when every item is done/);
    const zh = legendText(true);
    expect(zh.fixedN).toMatch(/^\(a\) 适用于开始前就定好样本量/);
    expect(zh.sequence).toMatch(/^\(b\) 无论何时停下都成立/);
    expect(unboundedText(false)).toMatch(/\(a\) only/);
  });

  it('say what the numbers describe by how the items were chosen', () => {
    const p = { scored: '15', population: '50', limit: '5', rule: 'the mean of its tasks', done: false, everyItem: false };
    expect(basisText('benchmark', p, false)).toMatch(/random sample of the benchmark's 50 items/);
    expect(basisText('chosen-items', p, false)).toMatch(/not the whole benchmark/);
    expect(basisText('asked-in-file-order', p, false)).toMatch(/not an estimate of the whole benchmark/);
    expect(basisText('asked-in-file-order', { ...p, done: true, everyItem: true }, false)).toMatch(/exact score/);
    expect(basisText('asked-in-file-order', p, true)).toMatch(/不是整个基准的估计/);
    expect(stoppedText({ asked: '120', items: '300', halfWidth: '5.0', reached: '4.8' }, false)).toBe(
      'Stopped by itself after 120 of 300 items, as asked: the benchmark’s score was known within ±4.8 points (asked for ±5.0; 95% confidence sequence, valid at any stopping time).',
    );
    expect(stoppedText({ asked: '120', items: '300', halfWidth: '5.0', reached: '4.8' }, true)).toMatch(/自动停止/);
  });
});
