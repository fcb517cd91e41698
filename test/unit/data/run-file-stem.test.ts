// A run's downloaded files carry its label, so a folder of exports is told apart as the run list is.
import { describe, expect, it } from 'vitest';
import { runFileStem } from '../../../src/lib/data/export-files.ts';

describe('runFileStem', () => {
  it('is the dataset and the id alone when the run has no label', () => {
    expect(runFileStem('aclue', '0123456789abcdef')).toBe('jiangu-aclue-01234567');
    expect(runFileStem('aclue', '0123456789abcdef', '')).toBe('jiangu-aclue-01234567');
    expect(runFileStem('aclue', '0123456789abcdef', '  / ')).toBe('jiangu-aclue-01234567');
  });

  it('adds the label, CJK kept, other characters one hyphen, no path separators', () => {
    expect(runFileStem('aclue', '0123456789abcdef', 'Qwen3 q4 / 课堂 演示')).toBe('jiangu-aclue-01234567-Qwen3-q4-课堂-演示');
    expect(runFileStem('ac-eval', 'ffff0000', '../../etc/passwd')).toBe('jiangu-ac-eval-ffff0000-etc-passwd');
  });

  it('cuts a long label at 40 code points, never inside a surrogate pair', () => {
    const stem = runFileStem('aclue', '0123456789abcdef', '𠀀'.repeat(50));
    expect(stem).toBe(`jiangu-aclue-01234567-${'𠀀'.repeat(40)}`);
  });
});

describe('memorizationRunFileName', () => {
  it('carries the label as a run file does', async () => {
    const { memorizationRunFileName } = await import('../../../src/lib/core/formats/memorization-run/export.ts');
    expect(memorizationRunFileName({ datasetId: 'aclue', id: '0123456789abcdef' })).toBe('jiangu-memorization-aclue-01234567.json');
    expect(memorizationRunFileName({ datasetId: 'aclue', id: '0123456789abcdef', label: 'fp32 对 q4' })).toBe('jiangu-memorization-aclue-01234567-fp32-对-q4.json');
  });
});
