// A run page keeps what it drew when a fresh read of its run found it unchanged (issue 35), and takes
// the fresh read whenever anything it shows may differ.
import { describe, expect, it } from 'vitest';
import type { ItemResult, RunRecord } from '../../../src/lib/core/record/run.ts';
import { sameStoredRun } from '../../../src/ui/evaluate/same-stored-run.ts';

const record = (change: Partial<RunRecord> = {}) => ({ id: 'r1', status: 'completed', datasetId: 'aclue', config: { kind: 'multiple-choice', itemIds: ['a', 'b'] }, ...change }) as unknown as RunRecord;
const result = (itemId: string, change: Partial<Record<string, unknown>> = {}) => ({ runId: 'r1', itemId, promptHash: `h-${itemId}`, completedAt: '2026-12-05T08:00:00.000Z', correct: true, ...change }) as unknown as ItemResult;
const results = () => [result('a'), result('b')];

describe('sameStoredRun', () => {
  it('is true for a fresh read of the same record and results (other objects, the same fields)', () => {
    expect(sameStoredRun({ record: record(), results: results() }, record(), results())).toBe(true);
    expect(sameStoredRun({ record: record(), results: [] }, record(), [])).toBe(true);
  });

  it('is false when the record changed in any field (status, label, a key check)', () => {
    const prior = { record: record(), results: results() };
    expect(sameStoredRun(prior, record({ status: 'running' } as Partial<RunRecord>), results())).toBe(false);
    expect(sameStoredRun(prior, record({ label: 'x' } as Partial<RunRecord>), results())).toBe(false);
    expect(sameStoredRun(prior, record({ id: 'r2' } as Partial<RunRecord>), results())).toBe(false);
  });

  it('is false when a result was added, removed, asked again, reordered or failed', () => {
    const prior = { record: record(), results: results() };
    expect(sameStoredRun(prior, record(), [...results(), result('c')])).toBe(false);
    expect(sameStoredRun(prior, record(), [result('a')])).toBe(false);
    expect(sameStoredRun(prior, record(), [result('a'), result('b', { completedAt: '2026-12-05T09:00:00.000Z' })])).toBe(false);
    expect(sameStoredRun(prior, record(), [result('b'), result('a')])).toBe(false);
    expect(sameStoredRun(prior, record(), [result('a'), result('b', { promptHash: 'other' })])).toBe(false);
    expect(sameStoredRun(prior, record(), [result('a'), result('b', { failure: { code: 'model.failed', params: {} } })])).toBe(false);
  });
});
