// Reading a memorization run file into the store (issue 34): the file checked as untrusted input
// (core/formats/memorization-run), then stored under a new id with its results, all or nothing.
// Called by importRunFiles (import-runs.ts) in the run-import worker, so one button imports both kinds.
import { readMemorizationRun } from '../core/formats/memorization-run/import-memorization.ts';
import { FieldProblem, RunImportError, parseJson, problem, refusal, describe, type Obj } from '../core/formats/import-validate.ts';
import { importProbeRun, loadProbeResults } from '../store/probe-runs.ts';
import { jianguError, notice } from '../core/notices/index.ts';
import type { ProbeResult, ProbeRunRecord } from '../core/record/probe-run.ts';
import { getDataset, loadItems } from '../store/datasets.ts';
import type { ImportedProbeRun } from '../core/formats/memorization-run/import-memorization.ts';
import type { JianguDatabase } from '../store/schema.ts';

/**
 * Stores the memorization run in `text` (a file named `fileName`); returns its new id.
 * @throws RunImportError naming the file and the field that is wrong; nothing is stored then.
 */
export async function importProbeRunFile(db: JianguDatabase, text: string, fileName: string): Promise<string> {
  let imported;
  try {
    const root = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    if (typeof root !== 'object' || root === null || Array.isArray(root)) throw problem('import.unknown-format', { path: null, ...describe(root) });
    imported = await readMemorizationRun(root as Obj, fileName, new Date().toISOString());
  } catch (error) {
    if (error instanceof RunImportError) throw error;
    if (error instanceof FieldProblem) throw new RunImportError(fileName, error.refusal);
    throw new RunImportError(fileName, refusal('import.unreadable', { detail: error instanceof Error ? error.message : String(error) }), { cause: error });
  }
  await checkAgainstStoredItems(db, imported, fileName);
  // The same run with the same results already stored: nothing new to store (the page offers the stored copy).
  const copy = await storedCopyOf(db, imported);
  if (copy) throw jianguError('run.already-stored', { fileName, runId: copy.id, createdAt: copy.createdAt });
  // The same run with other results (edited, or run again from the same record): stored as another
  // copy, saying so, as a scoring run's second import does (store/runs.ts importRun).
  const copies = await otherCopiesOf(db, imported);
  const warnings = copies.length > 0 ? [...imported.run.warnings, notice('run.stored-with-other-results', { copies: copies.length, firstAt: copies[0] })] : imported.run.warnings;
  try {
    return (await importProbeRun(db, { ...imported, run: { ...imported.run, warnings } })).id;
  } catch (error) {
    throw new RunImportError(fileName, refusal('import.store-failed', { itemId: null, detail: error instanceof Error ? error.message : String(error) }), { cause: error });
  }
}

/**
 * The file's items against the benchmark as this browser stores it, where it does: an item stored
 * under another task (another benchmark's id on this one's task) is refused naming it, and so is a file
 * of which no item is stored here (another benchmark, or another version of it), as run imports are.
 * A benchmark not stored here has nothing to check against.
 */
async function checkAgainstStoredItems(db: JianguDatabase, imported: ImportedProbeRun, fileName: string): Promise<void> {
  const { datasetId } = imported.run;
  if (!(await getDataset(db, datasetId))) return;
  const stored = new Map((await loadItems(db, datasetId)).map((item) => [item.id, item]));
  const items = imported.results.filter((r) => r.kind === 'item');
  for (const r of items) {
    const item = stored.get(r.itemId);
    if (item && (item.kind !== 'multiple-choice' || item.task !== r.task)) {
      throw new RunImportError(fileName, refusal('import.field-wrong', { path: `run.config.itemIds[${r.index}]`, expected: 'stored-item', datasetId, task: r.task, ...describe(r.itemId) }));
    }
  }
  if (items.length > 0 && !items.some((r) => stored.has(r.itemId))) {
    throw new RunImportError(fileName, refusal('import.no-item-in-local-copy', { results: items.length, datasetId, first: items[0].itemId }));
  }
}

/** The stored memorization runs started at the same moment as `imported`: found by the date index, never by reading every run (issue 46). */
function startedWith(db: JianguDatabase, imported: ImportedProbeRun): Promise<ProbeRunRecord[]> {
  return db.getAllFromIndex('probeRuns', 'by-created', imported.run.createdAt);
}

/** A stored memorization run that is this one (the run it was made as, or an import of it) with the same results, or null. */
async function storedCopyOf(db: JianguDatabase, imported: ImportedProbeRun): Promise<ProbeRunRecord | null> {
  const original = imported.run.origin?.originalRunId ?? imported.run.id;
  const same = (results: readonly ProbeResult[]) => canonicalJson(results.map(({ runId: _runId, ...rest }) => rest));
  const wanted = same(imported.results);
  for (const run of await startedWith(db, imported)) {
    if (run.id !== original && run.origin?.originalRunId !== original) continue;
    if (same(await loadProbeResults(db, run.id)) === wanted) return run;
  }
  return null;
}

/** The stored copies of this run (made here, or imported), whatever their results: when each was made here or imported, oldest first. */
async function otherCopiesOf(db: JianguDatabase, imported: ImportedProbeRun): Promise<string[]> {
  const original = imported.run.origin?.originalRunId ?? imported.run.id;
  return (await startedWith(db, imported))
    .filter((run) => run.datasetId === imported.run.datasetId && (run.id === original || run.origin?.originalRunId === original))
    .map((run) => run.origin?.importedAt ?? run.createdAt)
    .sort();
}

/** JSON with every object's keys sorted: two copies of one result compare equal whatever order their fields were written in. */
function canonicalJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonicalJson).join(',')}]`;
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonicalJson(v)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}
