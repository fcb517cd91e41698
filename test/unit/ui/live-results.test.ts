// The run page's results while a run goes on: one per item (an item that comes again replaces
// itself in place), a view built without reading them all, and a generation copy taken at intervals
// that grow with the results, so its cost per result stays bounded.
import { describe, expect, it } from 'vitest';
import { aggregateForDataset } from '../../../src/lib/core/metrics/index.ts';
import type { GenItemResult, McItemResult } from '../../../src/lib/core/record/run.ts';
import { LiveResults, RECENT_RESULTS } from '../../../src/ui/evaluate/live-results.ts';

const mc = (i: number, correct: boolean | null, failure?: boolean) =>
  ({ itemId: `i${i}`, task: '古音学', correct, prediction: 'A', ...(failure ? { failure: { code: 'model.failed', params: {} } } : {}) }) as unknown as McItemResult;
const gen = (i: number) => ({ itemId: `g${i}`, task: '主题分类', output: 'x', references: ['x'] }) as unknown as GenItemResult;

describe('LiveResults', () => {
  it('keeps one result per item in first-come order, and its view is the aggregate of them', () => {
    const live = new LiveResults('multiple-choice', 'aclue', [mc(0, true), mc(1, false, true)]);
    for (let i = 2; i < 120; i++) live.set(mc(i, i % 3 === 0));
    live.set(mc(1, true)); // the failed item, run again
    const view = live.view();
    expect(view.count).toBe(120);
    expect(live.all.map((r) => r.itemId).slice(0, 3)).toEqual(['i0', 'i1', 'i2']);
    expect(view.failed).toBe(0);
    expect(view.mc!.aggregate).toEqual(aggregateForDataset('aclue', live.all as McItemResult[]));
    expect(view.recent).toHaveLength(RECENT_RESULTS);
    expect(view.recent.at(-1)!.itemId).toBe('i119');
  });

  it('copies generation results again only after as many ms as there are results (at least a second)', () => {
    let clock = 0;
    const live = new LiveResults('generation', 'c3bench', [], () => clock);
    for (let i = 0; i < 3000; i++) live.set(gen(i));
    expect(live.view().generation).toHaveLength(3000);
    live.set(gen(3000));
    clock = 2000;
    expect(live.view().generation).toHaveLength(3000);
    clock = 3001;
    expect(live.view().generation).toHaveLength(3001);
    live.set(gen(3001));
    expect(live.view(true).generation).toHaveLength(3002);
    expect(live.view().mc).toBeNull();
  });
});
