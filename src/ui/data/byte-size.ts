// Byte sizes as the interface shows them. lib/store/sizes.ts words sizes for English error messages
// with toFixed; here the number part goes through the interface's number format (pass `fmt.number`),
// so a Chinese or German reader gets their own decimal mark. A unit steps up before its number
// reaches four digits: grouping would otherwise turn "1000.5 KB" into "1,000.5 KB".

/** Formats `x` with exactly `digits` decimals in the interface language (`fmt.number` fits). */
export type NumberFormatter = (x: number, digits: number) => string;

// The largest value shown in a unit: anything that would round to 1000.0 moves to the next unit.
const STEP_UP = 999.95;

/**
 * A byte count for display, e.g. "30.4 KB", "1.7 MB", "2.25 GB" (binary units, as formatBytes).
 *
 * @param bytes A non-negative byte count.
 * @param number The interface's number formatter.
 */
export function byteSize(bytes: number, number: NumberFormatter): string {
  if (bytes < 1000) return `${number(bytes, 0)} B`;
  if (bytes < STEP_UP * 1024) return `${number(bytes / 1024, 1)} KB`;
  if (bytes < STEP_UP * 1024 ** 2) return `${number(bytes / 1024 ** 2, 1)} MB`;
  return `${number(bytes / 1024 ** 3, 2)} GB`;
}
