// Approximate sizes of stored data, for "what to delete" suggestions. Approximate on purpose:
// browsers do not report per-record sizes, so we use the JSON length as UTF-16 (2 bytes a char),
// which is close to how engines store strings and errs high for ASCII.
import type { DatasetId } from '../core/benchmarks/types.ts';

/** A stored dataset and roughly how much room it takes. */
export interface DatasetSize {
  id: DatasetId;
  title: string;
  itemCount: number;
  /** JSON length of the record and its items × 2 (UTF-16); an estimate, not a measurement. */
  approxBytes: number;
}

/**
 * Estimates the bytes a value takes when stored. Called on each record and item when sizes are
 * listed or a save overflows the quota.
 *
 * @param value Anything; values JSON cannot encode (cycles, BigInt) count as 0.
 */
export function approxBytes(value: unknown): number {
  try {
    return (JSON.stringify(value)?.length ?? 0) * 2;
  } catch {
    return 0;
  }
}

/** Byte counts for messages; lives in core so the message catalog words sizes the same way. */
export { formatBytes } from '../core/benchmarks/byte-text.ts';
