// The scheduler's progress: what a resumed run already has counts as done, each prompt stored moves
// the counts and the time left (remaining-time.ts, by the weights of the prompts left), and a failed
// item's rotations leave the prompts to ask.
import { describe, expect, it } from 'vitest';
import type { Item } from '../../../src/lib/core/benchmarks/types.ts';
import type { ItemResult, McRotationResult } from '../../../src/lib/core/record/run.ts';
import { RunProgressCount } from '../../../src/lib/engine/run-progress.ts';

const item = (id: string, task: string) => ({ id, task, kind: 'multiple-choice' }) as unknown as Item;
const result = (id: string, forwardMs: number, extra: Partial<ItemResult> = {}) => ({ itemId: id, forwardMs, ...extra }) as unknown as ItemResult;

describe('RunProgressCount', () => {
  it('counts stored items as done and estimates the rest by the weights left', () => {
    const items = new Map(['a', 'b', 'c', 'd'].map((id, i) => [id, item(id, i < 2 ? 't1' : 't2')]));
    let now = 0;
    // Item d's prompt weighs three times the others.
    const weigh = (x: Item) => (x.id === 'd' ? 30 : 10);
    const progress = new RunProgressCount(['a', 'b', 'c', 'd'], items, new Map([['a', result('a', 5)]]), () => 0, () => 0, weigh, () => now);
    expect(progress.progress()).toMatchObject({ done: 1, total: 4, prompts: { done: 1, total: 4 }, etaSeconds: null, perTask: { t1: { done: 1, total: 2 }, t2: { done: 0, total: 2 } } });
    now = 100;
    progress.itemStored(result('b', 40), items.get('b')!);
    // 60 ms a prompt besides the model, 4 ms a unit of weight: c (10) and d (30) left.
    expect(progress.progress().etaSeconds).toBeCloseTo((2 * 60 + 4 * 40) / 1000, 6);
    expect(progress.progress()).toMatchObject({ done: 2, prompts: { done: 2, total: 4 }, perTask: { t1: { done: 2, total: 2 } } });
  });

  it('takes a failed item’s rotations off the prompts left, and completes an item with its last rotation', () => {
    const items = new Map([['a', item('a', 't')], ['b', item('b', 't')]]);
    let now = 0;
    const missing = (r: ItemResult) => (r.failure ? 0 : 2 - ('rotations' in r ? (r.rotations?.length ?? 0) : 0));
    const progress = new RunProgressCount(['a', 'b'], items, new Map(), () => 2, missing, () => 10, () => now);
    expect(progress.progress().prompts).toEqual({ done: 0, total: 6 });
    now = 50;
    const failed = result('a', 0, { failure: { code: 'model.failed', params: {} } } as Partial<ItemResult>);
    progress.itemStored(failed, items.get('a')!);
    expect(progress.progress()).toMatchObject({ done: 1, prompts: { done: 1, total: 4 } });
    now = 100;
    const first = result('b', 20);
    progress.itemStored(first, items.get('b')!);
    expect(progress.progress()).toMatchObject({ done: 1, prompts: { done: 2, total: 4 } });
    now = 150;
    const rotations = [{ forwardMs: 20 }, { forwardMs: 20 }] as McRotationResult[];
    progress.rotationsStored({ ...first, rotations } as unknown as ItemResult, items.get('b')!, rotations);
    expect(progress.progress()).toMatchObject({ done: 2, prompts: { done: 4, total: 4 }, etaSeconds: 0 });
  });
});
