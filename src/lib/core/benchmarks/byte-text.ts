// Byte counts as messages spell them ("12.3 MB", binary units). Here, in core, so the message catalog
// and the store word sizes the same way; the interface's own display goes through ui/data/byte-size.ts.

/**
 * Formats a byte count for a message, e.g. "12.3 MB".
 *
 * @param bytes A non-negative byte count.
 */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
