// The arithmetic of the memory bench's sampler, apart from the browser so it can be unit-tested: a
// peak over heap samples, and the change of a quantity across one request.

/** One `Runtime.getHeapUsage` answer of the worker's V8 isolate (bytes). */
export interface HeapSample {
  /** Bytes of live JS objects on the V8 heap. */
  usedSize: number;
  /** Bytes the V8 heap has reserved. */
  totalSize: number;
  /**
   * Bytes of ArrayBuffer backing stores outside the heap (typed arrays: tensors' data, and the wasm
   * Memory's SharedArrayBuffer); absent in Chromium versions that do not report it.
   */
  backingStorageSize?: number;
}

export interface HeapPeaks {
  samples: number;
  /** The baseline: the first sample (taken right after a forced GC, before the request). */
  baseline: HeapSample | null;
  peakUsed: number;
  peakTotal: number;
  /** Largest backing store bytes seen; null when no sample reported them. */
  peakBacking: number | null;
  /**
   * Largest used heap + backing stores in one sample. Not the sum of the two peaks: they need not
   * come at the same moment.
   */
  peakUsedPlusBacking: number;
}

/** Keeps the largest values of a stream of samples (a lower bound of the true peaks between them). */
export class PeakTracker {
  private peaks: HeapPeaks = PeakTracker.empty();

  private static empty(): HeapPeaks {
    return { samples: 0, baseline: null, peakUsed: 0, peakTotal: 0, peakBacking: null, peakUsedPlusBacking: 0 };
  }

  add(sample: HeapSample): void {
    const p = this.peaks;
    if (p.samples === 0) p.baseline = { ...sample };
    p.samples++;
    p.peakUsed = Math.max(p.peakUsed, sample.usedSize);
    p.peakTotal = Math.max(p.peakTotal, sample.totalSize);
    const backing = sample.backingStorageSize;
    if (backing !== undefined) p.peakBacking = Math.max(p.peakBacking ?? 0, backing);
    p.peakUsedPlusBacking = Math.max(p.peakUsedPlusBacking, sample.usedSize + (backing ?? 0));
  }

  result(): HeapPeaks {
    return { ...this.peaks, baseline: this.peaks.baseline ? { ...this.peaks.baseline } : null };
  }
}

/** Growth over a request: peak minus baseline, never negative (a GC during it can go below the start). */
export function growth(peak: number, baseline: number): number {
  return Math.max(0, peak - baseline);
}
