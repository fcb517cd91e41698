import { describe, expect, it } from 'vitest';
import type { McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { FIRST_RUN_LIMIT, firstRunLimit, selectionTotal, speedSource, wallPace } from '../../../src/ui/evaluate/first-run.ts';

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

describe('wallPace', () => {
  const at = (seconds: number, rotations = 0) =>
    ({ completedAt: new Date(Date.UTC(2026, 11, 1) + seconds * 1000).toISOString(), forwardMs: 1, ...(rotations ? { rotations: Array.from({ length: rotations }, (_, i) => ({ rotation: i + 1 })) } : {}) }) as unknown as McItemResult;

  it('divides the prompts by the wall-clock time between results, not by the model time', () => {
    // 5 results 0.5 s apart: 4 gaps, 2 s, 4 prompts after the first.
    const pace = wallPace([at(0), at(0.5), at(1), at(1.5), at(2)]);
    expect(pace).toMatchObject({ prompts: 4, seconds: 2, promptsPerSecond: 2, rotations: false });
    // In any order (results are stored by index, not by time).
    expect(wallPace([at(2), at(0), at(1.5), at(0.5), at(1)])?.promptsPerSecond).toBe(2);
  });

  it('leaves out a pause between sessions, and counts rotations as prompts', () => {
    const resumed = [at(0), at(1), at(2), at(3602), at(3603)];
    expect(wallPace(resumed)).toMatchObject({ seconds: 3, prompts: 3 });
    const circular = [at(0, 3), at(2, 3), at(4, 3)];
    expect(wallPace(circular)).toMatchObject({ promptsPerSecond: 2, rotations: true });
  });

  it('is unknown with fewer than two timed results', () => {
    expect(wallPace([])).toBeNull();
    expect(wallPace([at(0)])).toBeNull();
    expect(wallPace([at(0), { ...at(1), completedAt: 'not a date' }])).toBeNull();
  });
});
