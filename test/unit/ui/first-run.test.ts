import { describe, expect, it } from 'vitest';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { FIRST_RUN_LIMIT, firstRunLimit, itemsPerSecond, selectionTotal, speedSource } from '../../../src/ui/evaluate/first-run.ts';

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

function run(id: string, createdAt: string, change: Partial<McRunRecord['config']> = {}, origin = false): McRunRecord {
  return {
    id,
    createdAt,
    updatedAt: createdAt,
    datasetId: 'aclue',
    status: 'completed',
    warnings: [],
    ...(origin ? { origin: { kind: 'jiangu-file', fileName: 'x.json', importedAt: createdAt, originalRunId: null, storedSummary: null, summaryMismatches: [] } } : {}),
    config: {
      kind: 'multiple-choice',
      model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
      protocolId: 'cmmlu',
      protocolVersion: 1,
      templateHash: 'h',
      scoring: 'letter-logits',
      shots: 0,
      contextLimit: 2048,
      chatTemplate: false,
      prefixReuse: true,
      datasetId: 'aclue',
      datasetFiles: [],
      tasks: [],
      limitPerTask: null,
      itemIds: [],
      appVersion: 't',
      ...change,
    },
  };
}

describe('speedSource', () => {
  const key = { source: { kind: 'site', name: 'jiangu-tiny' } as const, dtype: 'fp32', backend: 'wasm', kind: 'multiple-choice' as const, scoring: 'letter-logits' as const, shots: 5 };
  it('takes the newest alike run, preferring the same shots, never an imported one or another backend', () => {
    const runs = [
      run('old-0shot', '2026-11-01T00:00:00Z'),
      run('new-0shot', '2026-11-03T00:00:00Z'),
      run('5shot', '2026-11-02T00:00:00Z', { shots: 5 }),
      run('imported', '2026-11-09T00:00:00Z', { shots: 5 }, true),
      run('webgpu', '2026-11-09T00:00:00Z', { shots: 5, model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'webgpu' } }),
    ];
    expect(speedSource(runs, key)?.id).toBe('5shot');
    expect(speedSource(runs, { ...key, shots: 3 })?.id).toBe('new-0shot');
    expect(speedSource(runs, { ...key, dtype: 'q8' })).toBeNull();
    expect(speedSource(runs, { ...key, scoring: 'generate-extract' })).toBeNull();
  });
});

describe('itemsPerSecond', () => {
  it('divides the items by their model time', () => {
    const timed = (ms: number) => ({ forwardMs: ms }) as McItemResult;
    expect(itemsPerSecond([timed(100), timed(300)])).toBe(5);
    expect(itemsPerSecond([])).toBeNull();
  });
});
