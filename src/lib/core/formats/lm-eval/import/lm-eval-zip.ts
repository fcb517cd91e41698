// An lm_eval output folder sent as a zip (what people attach and download): only the harness's own
// files are inflated (results_<date>.json, samples_<task>_<date>.jsonl, in any subfolder) and read
// as the folder's files would be.
//
// Limits before work (issue 22): the central directory is read first, without inflating anything,
// and the archive is refused when it lists more than ZIP_LIMITS.entries entries, when one harness
// entry says it is larger than a run file may be, or when the harness entries say they add up to
// more than ZIP_LIMITS.inflatedBytes. The sizes an archive states are its own word: while inflating,
// the bytes actually produced are counted, and an entry that grows past what it stated (a zip bomb
// whose header says 100 bytes) is stopped there and refused.
import { Unzip, UnzipInflate, UnzipPassThrough, unzipSync } from 'fflate';
import { concatBytes } from '../../../bytes.ts';
import { RUN_IMPORT_LIMITS, RunImportError, refusal } from '../../import-validate.ts';
import { resultsDateId, samplesFileParts, type HarnessFileText } from './lm-eval-files.ts';

const MIB = 1024 * 1024;

export const ZIP_LIMITS = {
  /** Entries in the central directory (an output folder of every ACLUE and CMMLU task has a few hundred). */
  entries: 10_000,
  /** The harness files' inflated bytes together (each is also held to RUN_IMPORT_LIMITS.bytes). */
  inflatedBytes: 256 * MIB,
} as const;

/** Compressed bytes fed to the inflater at a time: one step inflates at most about 1,032 times as much. */
const CHUNK = 16 * 1024;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const isHarnessFile = (path: string) => resultsDateId(baseName(path)) !== null || samplesFileParts(baseName(path)) !== null;

const unreadable = (zipName: string, error: unknown) =>
  new RunImportError(zipName, refusal('import.zip-unreadable', { reason: error instanceof Error ? error.message : String(error) }));

/** What the central directory says of each harness entry, by path: its stated inflated size. */
function centralDirectory(zip: Uint8Array, zipName: string): Map<string, number> {
  const stated = new Map<string, number>();
  let entries = 0;
  let total = 0;
  try {
    // The filter sees every central directory record; returning false inflates nothing.
    unzipSync(zip, {
      filter: (file) => {
        entries++;
        if (isHarnessFile(file.name)) {
          stated.set(file.name, Math.max(stated.get(file.name) ?? 0, file.originalSize));
          total += file.originalSize;
        }
        return false;
      },
    });
  } catch (error) {
    throw unreadable(zipName, error);
  }
  if (entries > ZIP_LIMITS.entries) throw new RunImportError(zipName, refusal('import.zip-too-many-entries', { entries, limit: ZIP_LIMITS.entries }));
  for (const [path, bytes] of stated) {
    if (bytes > RUN_IMPORT_LIMITS.bytes) throw new RunImportError(baseName(path), refusal('import.file-too-large', { mib: (bytes / MIB).toFixed(1), limitMib: RUN_IMPORT_LIMITS.bytes / MIB }));
  }
  if (total > ZIP_LIMITS.inflatedBytes) throw new RunImportError(zipName, refusal('import.zip-too-large', { mib: (total / MIB).toFixed(1), limitMib: ZIP_LIMITS.inflatedBytes / MIB }));
  return stated;
}

/**
 * The harness files inside `zip` (named by their base name, as in a folder), in archive order.
 * `onProgress`: compressed bytes read so far, of the archive's.
 */
export function harnessFilesFromZip(zip: Uint8Array, zipName: string, onProgress?: (read: number, total: number) => void): HarnessFileText[] {
  const stated = centralDirectory(zip, zipName);
  const inflated: { path: string; chunks: Uint8Array[] }[] = [];
  let overrun: { path: string; stated: number; bytes: number } | null = null;
  let failure: unknown = null;
  const unzip = new Unzip((file) => {
    const declared = stated.get(file.name);
    if (declared === undefined) return; // not a harness file (or not in the central directory): never inflated
    const entry = { path: file.name, chunks: [] as Uint8Array[] };
    inflated.push(entry);
    let bytes = 0;
    file.ondata = (error, chunk) => {
      if (error) {
        failure ??= error;
        return;
      }
      bytes += chunk.length;
      if (bytes > declared && overrun === null) {
        overrun = { path: file.name, stated: declared, bytes };
        file.terminate();
        return;
      }
      entry.chunks.push(chunk);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    for (let at = 0; at < zip.length && overrun === null && failure === null; at += CHUNK) {
      unzip.push(zip.subarray(at, at + CHUNK), at + CHUNK >= zip.length);
      onProgress?.(Math.min(zip.length, at + CHUNK), zip.length);
    }
  } catch (error) {
    failure ??= error;
  }
  const over = overrun as { path: string; stated: number; bytes: number } | null;
  if (over) {
    throw new RunImportError(baseName(over.path), refusal('import.zip-entry-overrun', { zipName, stated: over.stated, inflatedAtLeast: over.bytes }));
  }
  if (failure !== null) throw unreadable(zipName, failure);
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const files = inflated.map(({ path, chunks }) => ({ name: baseName(path), text: decoder.decode(concatBytes(chunks)) }));
  if (files.length === 0) throw new RunImportError(zipName, refusal('import.lm-eval-zip-empty'));
  return files;
}
