// An lm_eval output folder sent as a zip (what people attach and download): only the harness's own
// files are inflated (results_<date>.json, samples_<task>_<date>.jsonl, in any subfolder), each held
// to the run file limit before it is inflated, and read as the folder's files would be.
import { unzipSync } from 'fflate';
import { RUN_IMPORT_LIMITS, RunImportError, refusal } from './import-validate.ts';
import { resultsDateId, samplesFileParts, type HarnessFileText } from './lm-eval-files.ts';

const MIB = 1024 * 1024;

const baseName = (path: string) => path.slice(path.lastIndexOf('/') + 1);
const isHarnessFile = (path: string) => resultsDateId(baseName(path)) !== null || samplesFileParts(baseName(path)) !== null;

/** The harness files inside `zip` (named by their base name, as in a folder), in archive order. */
export function harnessFilesFromZip(zip: Uint8Array, zipName: string): HarnessFileText[] {
  const tooLarge: { name: string; bytes: number }[] = [];
  let entries: Record<string, Uint8Array>;
  try {
    entries = unzipSync(zip, {
      filter: (file) => {
        if (!isHarnessFile(file.name)) return false;
        // originalSize is the entry's own statement; fflate also stops at it while inflating.
        if (file.originalSize > RUN_IMPORT_LIMITS.bytes) tooLarge.push({ name: baseName(file.name), bytes: file.originalSize });
        return file.originalSize <= RUN_IMPORT_LIMITS.bytes;
      },
    });
  } catch (error) {
    throw new RunImportError(zipName, refusal('import.zip-unreadable', { reason: error instanceof Error ? error.message : String(error) }));
  }
  if (tooLarge.length > 0) {
    const { name, bytes } = tooLarge[0];
    throw new RunImportError(name, refusal('import.file-too-large', { mib: (bytes / MIB).toFixed(1), limitMib: RUN_IMPORT_LIMITS.bytes / MIB }));
  }
  const decoder = new TextDecoder('utf-8', { fatal: false });
  const files = Object.entries(entries).map(([path, bytes]) => ({ name: baseName(path), text: decoder.decode(bytes) }));
  if (files.length === 0) throw new RunImportError(zipName, refusal('import.lm-eval-zip-empty'));
  return files;
}
