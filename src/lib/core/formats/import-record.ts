// Importing a run from a file: one this site exported (runJson), or what lm-evaluation-harness
// wrote with per-sample records. The format is told from the content (and, for a samples file
// alone, its name); the run comes back checked, with `origin` saying where it came from and how its
// stated summary compares with the one recomputed from its items. Nothing is stored here (see
// store/runs.ts importRun).
import { readJianguRun } from './jiangu-run/import-jiangu.ts';
import { readLmEvalResults, readLmEvalSamplesFile, taskFromSamplesFileName } from './lm-eval/import/import-lm-eval.ts';
import type { Found } from '../notices/catalog-import-fields.ts';
import { FieldProblem, RUN_IMPORT_LIMITS, RunImportError, describe, parseJson, problem, refusal, type ImportedRun, type Obj } from './import-validate.ts';

export { RunImportError, RUN_IMPORT_LIMITS, refusal, type ImportedRun, type Refusal, type RefusalCode } from './import-validate.ts';
export { LM_EVAL_TASKS, taskFromSamplesFileName, type HarnessTask } from './lm-eval/import/import-lm-eval.ts';
export { LM_EVAL_TEMPLATE_HASH } from './jiangu-run/import-jiangu.ts';

import { utf8Bytes } from '../bytes.ts';

const MIB = 1024 * 1024;

/**
 * Refuses a file over the size limit before it is read. Called by the page with File.size, so a
 * huge file is never loaded into memory; parseRunFile checks the text again.
 *
 * @param fileName For the message.
 * @param bytes The file's size.
 * @throws RunImportError when bytes exceed RUN_IMPORT_LIMITS.bytes.
 */
export function checkRunFileSize(fileName: string, bytes: number): void {
  if (bytes > RUN_IMPORT_LIMITS.bytes) {
    throw new RunImportError(fileName, refusal('import.file-too-large', { mib: (bytes / MIB).toFixed(1), limitMib: RUN_IMPORT_LIMITS.bytes / MIB }));
  }
}

function describeRoot(root: unknown): Found {
  if (typeof root !== 'object' || root === null || Array.isArray(root)) return describe(root);
  const keys = Object.keys(root);
  return { found: 'fields', fields: keys.slice(0, 8).map((k) => JSON.stringify(k.slice(0, 40))), moreFields: keys.length > 8 };
}

async function read(text: string, fileName: string, importedAt: string): Promise<ImportedRun> {
  // A samples file is JSON Lines, told by its extension (or, renamed .json, by the harness's name
  // for it, which also names its task).
  const samplesName = taskFromSamplesFileName(fileName) !== null;
  if (/\.(jsonl|ndjson)$/i.test(fileName)) return readLmEvalSamplesFile(text, fileName, importedAt);
  let root: unknown;
  try {
    root = parseJson(text);
  } catch (error) {
    if (samplesName && error instanceof FieldProblem) return readLmEvalSamplesFile(text, fileName, importedAt);
    throw error;
  }
  if (typeof root !== 'object' || root === null || Array.isArray(root)) throw problem('import.unknown-format', { path: null, ...describeRoot(root) });
  const o = root as Obj;
  if (samplesName && o.doc_id !== undefined) return readLmEvalSamplesFile(text, fileName, importedAt);
  if (o.format !== undefined) {
    if (o.format !== 'jiangu-run') throw problem('import.unknown-format', { path: 'format', ...describe(o.format) });
    if (o.formatVersion !== 1) throw problem('import.format-version', describe(o.formatVersion));
    return readJianguRun(o, fileName, importedAt);
  }
  if (o.samples !== undefined || (o.results !== undefined && (o.versions !== undefined || o.configs !== undefined || o['n-shot'] !== undefined))) {
    return readLmEvalResults(o, fileName, importedAt);
  }
  throw problem('import.unknown-format', { path: null, ...describeRoot(root) });
}

/**
 * Reads a run file into a run and its results, checked as untrusted input, with `run.origin` set.
 * Jiangu files keep their run id here (results refer to it); lm-eval files get a fresh one. The
 * store gives the run a new local id when it is saved (importRun).
 *
 * @param text The file's text.
 * @param fileName The file's name: recorded in the origin, starts every error message, and names
 *   the task of an lm-eval samples file (`samples_<task>_<timestamp>.jsonl`).
 * @throws RunImportError for anything wrong, its message starting with the file name and naming the
 *   field (e.g. `results[12].prediction: expected one of A, B, C, D or null, got "E"`).
 */
export async function parseRunFile(text: string, fileName: string): Promise<ImportedRun> {
  try {
    if (text.length > RUN_IMPORT_LIMITS.bytes) checkRunFileSize(fileName, text.length);
    else if (text.length * 3 > RUN_IMPORT_LIMITS.bytes) checkRunFileSize(fileName, utf8Bytes(text));
    // Some editors on Windows start a UTF-8 file with a byte-order mark, which JSON.parse refuses.
    return await read(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text, fileName, new Date().toISOString());
  } catch (error) {
    if (error instanceof RunImportError) throw error;
    if (error instanceof FieldProblem) throw new RunImportError(fileName, error.refusal);
    throw new RunImportError(fileName, refusal('import.unreadable', { detail: error instanceof Error ? error.message : String(error) }), { cause: error });
  }
}
