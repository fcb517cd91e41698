import { describe, expect, it } from 'vitest';
import { growth, PeakTracker } from '../../../scripts/bench/memory-peaks.ts';

describe('PeakTracker', () => {
  it('keeps the first sample as the baseline and the largest of each quantity', () => {
    const t = new PeakTracker();
    t.add({ usedSize: 30, totalSize: 40, backingStorageSize: 10 });
    t.add({ usedSize: 35, totalSize: 38, backingStorageSize: 300 });
    t.add({ usedSize: 50, totalSize: 60, backingStorageSize: 20 });
    const p = t.result();
    expect(p.samples).toBe(3);
    expect(p.baseline).toEqual({ usedSize: 30, totalSize: 40, backingStorageSize: 10 });
    expect(p.peakUsed).toBe(50);
    expect(p.peakTotal).toBe(60);
    expect(p.peakBacking).toBe(300);
  });

  it('takes the peak of used + backing within one sample, not the sum of the two peaks', () => {
    const t = new PeakTracker();
    t.add({ usedSize: 100, totalSize: 100, backingStorageSize: 0 });
    t.add({ usedSize: 10, totalSize: 100, backingStorageSize: 50 });
    // Sum of peaks would be 150; no single moment held more than 100.
    expect(t.result().peakUsedPlusBacking).toBe(100);
  });

  it('reports no backing peak when no sample had one', () => {
    const t = new PeakTracker();
    t.add({ usedSize: 5, totalSize: 8 });
    expect(t.result().peakBacking).toBeNull();
    expect(t.result().peakUsedPlusBacking).toBe(5);
  });

  it('hands out a copy: later samples do not change an earlier result', () => {
    const t = new PeakTracker();
    t.add({ usedSize: 5, totalSize: 8 });
    const first = t.result();
    t.add({ usedSize: 50, totalSize: 80 });
    expect(first.peakUsed).toBe(5);
    expect(first.samples).toBe(1);
  });

  it('starts empty', () => {
    expect(new PeakTracker().result()).toEqual({ samples: 0, baseline: null, peakUsed: 0, peakTotal: 0, peakBacking: null, peakUsedPlusBacking: 0 });
  });
});

describe('growth', () => {
  it('is peak minus baseline, and never negative', () => {
    expect(growth(300, 100)).toBe(200);
    expect(growth(90, 100)).toBe(0);
  });
});
