import { describe, expect, it } from 'vitest';
import { FIRST_RUN_LIMIT, firstRunLimit, selectionTotal } from '../../../src/ui/evaluate/first-run.ts';

describe('selectionTotal', () => {
  const counts = { 古音学: 100, 医古文: 7, 诗词: 40 };
  it('adds the chosen tasks’ test items, each at most the per-task limit', () => {
    expect(selectionTotal(counts, ['古音学', '医古文', '诗词'], null)).toBe(147);
    expect(selectionTotal(counts, ['古音学', '医古文', '诗词'], 20)).toBe(20 + 7 + 20);
    expect(selectionTotal(counts, ['医古文'], 20)).toBe(7);
    expect(selectionTotal(counts, [], 20)).toBe(0);
    expect(selectionTotal(counts, ['unknown'], null)).toBe(0);
    expect(selectionTotal(counts, ['古音学'], 0)).toBe(100); // 0 and empty mean all, as the page treats them
  });
});

describe('firstRunLimit', () => {
  it('suggests a small limit only for a first run of a large selection', () => {
    expect(firstRunLimit(false, 5041)).toBe(FIRST_RUN_LIMIT);
    expect(firstRunLimit(true, 5041)).toBeNull();
    expect(firstRunLimit(false, 280)).toBeNull();
  });
});
