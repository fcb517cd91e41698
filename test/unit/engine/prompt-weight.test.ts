// A prompt's expected cost before it is asked (the unit of the time-left estimate): its own text,
// and the k exemplars where the model reads them: once per task when the prefix is reused (the
// first item asked of the task), on every item otherwise; a rotation follows its item's prefix.
import { describe, expect, it } from 'vitest';
import type { MultipleChoiceItem } from '../../../src/lib/core/benchmarks/types.ts';
import type { RunRecord } from '../../../src/lib/core/record/run.ts';
import { promptWeigher } from '../../../src/lib/engine/prompt-weight.ts';

const item = (id: string, task: string, question: string): MultipleChoiceItem =>
  ({ id, task, kind: 'multiple-choice', question, options: ['甲', '乙', '丙', '丁'], answer: 'A', split: 'test' }) as unknown as MultipleChoiceItem;
const dev = new Map([
  ['t1', [item('d1', 't1', '一二三四五六'), item('d2', 't1', '一二')]],
  ['t2', [item('d3', 't2', '一')]],
]);
const config = (shots: number, prefixReuse: boolean) => ({ kind: 'multiple-choice', shots, prefixReuse }) as unknown as RunRecord['config'];

describe('promptWeigher', () => {
  it('is an item’s own characters at 0 shots', () => {
    const weigh = promptWeigher(config(0, true), dev);
    expect(weigh(item('a', 't1', '問題'), 0)).toBe(2 + 4);
  });

  it('adds the exemplars once per task with prefix reuse, to every prompt without', () => {
    const reuse = promptWeigher(config(2, true), dev);
    // Exemplars of t1: (6 + 4 + 8) + (2 + 4 + 8) = 32 characters.
    expect([reuse(item('a', 't1', '問'), 0), reuse(item('a', 't1', '問'), 1), reuse(item('b', 't1', '問'), 0), reuse(item('c', 't2', '問'), 0), reuse(item('d', 't2', '問'), 0)]).toEqual([5 + 32, 5, 5, 5 + 13, 5]);
    const again = promptWeigher(config(2, false), dev);
    expect([again(item('a', 't1', '問'), 0), again(item('a', 't1', '問'), 1), again(item('b', 't1', '問'), 0)]).toEqual([37, 37, 37]);
  });
});
