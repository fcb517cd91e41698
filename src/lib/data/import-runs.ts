// Reading run files into the store: a Jiangu run file, or what lm-evaluation-harness wrote (its
// results_<date>.json and samples_….jsonl, a folder of them, or a zip of the folder). Runs in the
// run-import worker (workers/run-import.worker.ts), off the page's thread: a 60 MiB file with
// 110,000 results took the page 9 s to read (issue 22). Limits come before work: each file's size
// from File.size before a byte is read, a zip's central directory before anything is inflated.
// All or nothing: when one run of a choice cannot be stored, those stored before it go again.
import { checkRunFileSize, parseRunFile, type ImportedRun } from '../core/formats/import-record.ts';
import { isHarnessFileSet, readLmEvalFiles, resultsDateId, samplesFileParts, type HarnessFileText, type HarnessRun } from '../core/formats/lm-eval/import/lm-eval-files.ts';
import { RunImportError, refusal } from '../core/formats/import-validate.ts';
import { checkSampleDocs } from '../core/formats/lm-eval/import/lm-eval-docs.ts';
import { harnessFilesFromZip } from '../core/formats/lm-eval/import/lm-eval-zip.ts';
import { getDataset, loadItems } from '../store/datasets.ts';
import { deleteRun, importRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { looksLikeMemorizationRun } from '../core/formats/memorization-run/export.ts';
import { importProbeRunFile } from './import-probe-run.ts';
import { noticeOf } from '../core/notices/index.ts';
import { checkRunSample } from './run-sample-check.ts';

/** Whether an import stopped because its run is stored here already (the notice names the stored copy). */
export const isAlreadyStored = (error: unknown) => noticeOf(error).code === 'run.already-stored';

/** What the import is doing, for a page that shows it (a step can take seconds on a large file). */
export type RunImportProgress =
  | { step: 'reading'; file: string; done: number; total: number }
  | { step: 'inflating'; file: string; read: number; total: number }
  | { step: 'parsing' }
  | { step: 'checking' }
  | { step: 'storing'; done: number; total: number };

/** The harness's own files in a folder the user picked (its other files are never read). */
export const isHarnessFileName = (name: string) => resultsDateId(name) !== null || samplesFileParts(name) !== null;

const isZip = (f: File) => f.name.toLowerCase().endsWith('.zip');

async function bytesOf(file: File): Promise<Uint8Array> {
  try {
    return new Uint8Array(await file.arrayBuffer());
  } catch (error) {
    // A file moved, locked or too large for the browser to hand over ("NotReadableError").
    throw new RunImportError(file.name, refusal('import.unreadable', { detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) }));
  }
}

async function textOf(file: File): Promise<string> {
  return new TextDecoder('utf-8', { fatal: false }).decode(await bytesOf(file));
}

/** Harness runs' docs against the stored items (where stored), before anything is stored. */
async function checkDocs(db: JianguDatabase, runs: readonly HarnessRun[]): Promise<void> {
  for (const r of runs) {
    // A benchmark not stored here has nothing to check against (the run page says its key is unchecked).
    if (!(await getDataset(db, r.run.datasetId))) continue;
    const items = new Map((await loadItems(db, r.run.datasetId)).map((item) => [item.id, item]));
    checkSampleDocs(r, r.docs, items);
  }
}

/**
 * Reads `picked` and stores the runs they hold; returns their ids, in the order stored.
 * `folder`: the files of a picked folder (lm_eval's --output_path): only the harness's own are read.
 * @throws RunImportError naming the file and what is wrong; nothing is stored then.
 */
export async function importRunFiles(db: JianguDatabase, picked: readonly File[], folder: boolean, onProgress?: (p: RunImportProgress) => void): Promise<string[]> {
  const files = folder ? picked.filter((f) => isHarnessFileName(f.name)) : [...picked];
  if (files.length === 0) {
    const first = picked[0] as (File & { webkitRelativePath?: string }) | undefined;
    const name = first?.webkitRelativePath?.split('/')[0] || first?.name || 'folder';
    throw new RunImportError(name, refusal('import.lm-eval-folder-empty', { files: picked.length }));
  }
  // Every size from File.size before any file is read.
  for (const file of files) checkRunFileSize(file.name, file.size);
  const names = files.map((f) => f.name);
  let runs: ImportedRun[];
  if (folder || files.some(isZip) || isHarnessFileSet(names)) {
    // A zip stands for the folder it holds; files chosen beside it are read with its files.
    const texts: HarnessFileText[] = [];
    for (const [i, f] of files.entries()) {
      onProgress?.({ step: 'reading', file: f.name, done: i, total: files.length });
      if (isZip(f)) texts.push(...harnessFilesFromZip(await bytesOf(f), f.name, (read, total) => onProgress?.({ step: 'inflating', file: f.name, read, total })));
      else texts.push({ name: f.name, text: await textOf(f) });
    }
    onProgress?.({ step: 'parsing' });
    const harness = await readLmEvalFiles(texts, new Date().toISOString());
    onProgress?.({ step: 'checking' });
    await checkDocs(db, harness);
    runs = harness.map(({ run, results }) => ({ run, results }));
  } else {
    onProgress?.({ step: 'reading', file: files[0].name, done: 0, total: 1 });
    const text = await textOf(files[0]);
    onProgress?.({ step: 'parsing' });
    // A memorization run file goes to its own reader and store (data/import-probe-run.ts).
    if (looksLikeMemorizationRun(text)) return [await importProbeRunFile(db, text, files[0].name)];
    const one = await parseRunFile(text, files[0].name);
    // An lm-eval file alone (a dumped dict, one samples file) carries its docs too.
    onProgress?.({ step: 'checking' });
    if ('docs' in one) await checkDocs(db, [one as HarnessRun]);
    runs = [{ run: one.run, results: one.results }];
  }
  // A recorded sample must be what its seed draws from this browser's copy (where it holds the same files).
  for (const r of runs) await checkRunSample(db, r.run);
  const stored: string[] = [];
  // Runs of a folder already stored here are passed by (the others are stored); when every one is, the first is said.
  let alreadyStored: unknown = null;
  try {
    for (const [i, run] of runs.entries()) {
      onProgress?.({ step: 'storing', done: i, total: runs.length });
      try {
        stored.push((await importRun(db, run)).id);
      } catch (error) {
        if (!isAlreadyStored(error)) throw error;
        alreadyStored ??= error;
      }
    }
    if (stored.length === 0 && alreadyStored) throw alreadyStored;
  } catch (error) {
    // All or nothing: the runs of this choice already stored go again.
    for (const id of stored) await deleteRun(db, id);
    throw error;
  }
  return stored;
}
