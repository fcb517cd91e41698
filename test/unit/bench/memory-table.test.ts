import { describe, expect, it } from 'vitest';
import { memoryRow, memoryTable, mib, TABLE_HEADER, type MemoryResult } from '../../../scripts/bench/memory-table.ts';

const MiB = 2 ** 20;
const heap = (used: number, backing: number, baseUsed: number, baseBacking: number) => ({
  samples: 10,
  baseline: { usedSize: baseUsed, totalSize: baseUsed, backingStorageSize: baseBacking },
  peakUsed: used,
  peakTotal: used,
  peakBacking: backing,
  peakUsedPlusBacking: used + backing,
});

const before: MemoryResult = {
  backend: 'webgpu',
  dtype: 'fp32',
  mode: 'before',
  workload: 'item',
  prefillRows: 1_808_813,
  promptTokens: 437,
  requestMs: 196_300,
  largestLogitsBytes: 437 * 151_936 * 4,
  wasmAfterLoad: 962 * MiB,
  wasmPeak: 962 * MiB,
  gpuAfterLoad: 306 * MiB,
  gpuPeak: 837 * MiB,
  heap: heap(35 * MiB, 280 * MiB, 33 * MiB, 27 * MiB),
};

describe('mib', () => {
  it('prints MiB with fewer decimals as the value grows, and a dash for nothing', () => {
    expect(mib(437 * 151_936 * 4)).toBe('253 MiB');
    expect(mib(63.6 * MiB)).toBe('63.6 MiB');
    expect(mib(1.934 * MiB)).toBe('1.93 MiB');
    expect(mib(undefined)).toBe('—');
    expect(mib(null)).toBe('—');
  });
});

describe('memoryRow', () => {
  it('gives every column, with growth over the starting values', () => {
    const row = memoryRow(before);
    expect(row).toHaveLength(TABLE_HEADER.length);
    expect(row).toEqual([
      'webgpu',
      'fp32',
      '5-shot item, 437 tokens',
      'before',
      'all (1 pass)',
      '253 MiB',
      '35.0 MiB (+2.00 MiB)',
      '280 MiB (+253 MiB)',
      '962 MiB (+0.00 MiB)',
      '837 MiB (+531 MiB)',
      '196.3 s',
    ]);
  });

  it('shows the row limit when the prompt takes several passes, and no GPU column on WASM', () => {
    const row = memoryRow({ ...before, backend: 'wasm', mode: 'after', prefillRows: 110 });
    expect(row[4]).toBe('110');
    expect(row[9]).toBe('—');
  });

  it('names a generation by the tokens it made and says why it stopped short', () => {
    const gen: MemoryResult = { ...before, workload: 'generation', promptTokens: 58, newTokens: 37, stoppedBy: 'cancelled' };
    expect(memoryRow(gen)[2]).toBe('generate 37 tokens (cancelled), prompt 58');
    expect(memoryRow({ ...gen, newTokens: 1000, stoppedBy: 'max-tokens' })[2]).toBe('generate 1000 tokens, prompt 58');
    expect(memoryRow({ ...gen, workload: 'item-generation', promptTokens: 437, newTokens: 8 })[2]).toBe('generate 8 tokens from the 5-shot item, 437 tokens');
  });

  it('says a failed configuration failed, in one line, keeping the columns', () => {
    const row = memoryRow({ backend: 'webgpu', dtype: 'q4', mode: 'before', workload: 'item', error: 'score: out of\nmemory' });
    expect(row).toHaveLength(TABLE_HEADER.length);
    expect(row[5]).toBe('failed: score: out of memory');
  });
});

describe('memoryTable', () => {
  it('is a Markdown table: header, separator, one line per result, pipes in cells escaped', () => {
    const lines = memoryTable([before, { ...before, mode: 'after', error: 'a|b' }]).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[0]).toBe(`| ${TABLE_HEADER.join(' | ')} |`);
    expect(lines[1]).toBe(`| ${TABLE_HEADER.map(() => '---').join(' | ')} |`);
    expect(lines[2].split(' | ')).toHaveLength(TABLE_HEADER.length);
    expect(lines[3]).toContain('failed: a\\|b');
  });
});
