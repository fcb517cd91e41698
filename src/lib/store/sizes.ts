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

/**
 * Formats a byte count for a message, e.g. "12.3 MB". Called when building error messages.
 *
 * @param bytes A non-negative byte count.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
