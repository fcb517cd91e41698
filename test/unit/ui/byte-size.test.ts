// byteSize must print what formatBytes printed for en-US (browser tests match "30.4 KB", "1.7 MB"),
// use the interface's number format for the number, and never show a four-digit number before a unit.
import { describe, expect, it } from 'vitest';
import { byteSize, type NumberFormatter } from '../../../src/ui/data/byte-size.ts';
import { formatBytes } from '../../../src/lib/store/sizes.ts';
import { getDataset } from '../../../src/lib/core/benchmarks/catalog.ts';

// What fmt.number does, for a fixed tag (fmt itself needs the Svelte compiler).
const formatter = (tag: string): NumberFormatter => (x, digits) =>
  new Intl.NumberFormat(tag, { minimumFractionDigits: digits, maximumFractionDigits: digits }).format(x);
const en = formatter('en-US');

const KB = 1024;
const MB = 1024 ** 2;
const GB = 1024 ** 3;

describe('byteSize', () => {
  it('prints the sizes the Data page showed before, in en-US', () => {
    expect(byteSize(0, en)).toBe('0 B');
    expect(byteSize(999, en)).toBe('999 B');
    expect(byteSize(1024, en)).toBe('1.0 KB');
    expect(byteSize(Math.round(30.4 * KB), en)).toBe('30.4 KB');
    expect(byteSize(512 * MB, en)).toBe('512.0 MB');
    expect(byteSize(GB, en)).toBe('1.00 GB');
    // ACLUE's pinned files: the download progress test expects "of 1.7 MB".
    const aclueBytes = getDataset('aclue').files.reduce((n, f) => n + (f.bytes ?? 0), 0);
    expect(byteSize(aclueBytes, en)).toBe('1.7 MB');
    expect(byteSize(aclueBytes, en)).toBe(formatBytes(aclueBytes));
  });

  it('agrees with formatBytes in en-US everywhere except where a unit steps up early', () => {
    const stepsUp = (b: number) => (b >= 1000 && b < KB) || (b >= 999.95 * KB && b < MB) || (b >= 999.95 * MB && b < GB) || b >= 1000 * GB;
    let compared = 0;
    // Spread over every unit: 1.37^k from 1 B to past 1000 GB, plus each unit's edges.
    const sizes = [...Array.from({ length: 100 }, (_, k) => Math.floor(1.37 ** k)), KB - 1, KB, MB - 1, MB, GB - 1, GB];
    for (const bytes of sizes) {
      if (stepsUp(bytes)) continue;
      expect(byteSize(bytes, en), String(bytes)).toBe(formatBytes(bytes));
      compared++;
    }
    expect(compared).toBeGreaterThan(60);
  });

  it('steps up a unit rather than print "1,000.0"', () => {
    expect(byteSize(1000, en)).toBe('1.0 KB');
    expect(byteSize(1023, en)).toBe('1.0 KB');
    expect(byteSize(Math.round(999.9 * KB), en)).toBe('999.9 KB');
    expect(byteSize(Math.round(1000.5 * KB), en)).toBe('1.0 MB');
    expect(byteSize(1000.5 * MB, en)).toBe('0.98 GB');
    for (let bytes = 1; bytes < 1000 * GB; bytes = Math.ceil(bytes * 1.013)) {
      expect(byteSize(bytes, en), String(bytes)).not.toContain(',');
    }
    // Beyond the last unit the number simply grows, grouped.
    expect(byteSize(2048 * GB, en)).toBe('2,048.00 GB');
  });

  it('formats the number part with the formatter it is given', () => {
    const de = formatter('de-DE');
    expect(byteSize(Math.round(30.4 * KB), de)).toBe('30,4 KB');
    expect(byteSize(1.7 * MB, de)).toBe('1,7 MB');
    expect(byteSize(2.25 * GB, de)).toBe('2,25 GB');
    expect(byteSize(Math.round(30.4 * KB), formatter('zh-CN'))).toBe('30.4 KB');
  });
});
