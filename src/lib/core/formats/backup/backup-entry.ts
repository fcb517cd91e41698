// One entry of a backup, read by the reader of its own file kind (issue 46): a scoring run by the run
// file's (readJianguRun), a memorization run by the memorization file's, in their 'stored' mode. The
// entry comes back rebuilt field by field, as a run file's run does, so what a backup restores holds
// only fields the site knows (a 100 MB string under an unknown key, a `__proto__` key: dropped, and
// named in the report), and every check a run file passes through is made here too. The one
// difference from a run file: the record keeps its status, warnings and origin, as it was stored.
//
// Each entry is read alone: an entry that is not an object, larger than a run file may be, of another
// format or version, or wrong in any field is refused with its place named, and the others go on.
import type { ItemResult, RunRecord } from '../../record/run.ts';
import type { ProbeResult, ProbeRunRecord } from '../../record/probe-run.ts';
import { readJianguRun } from '../jiangu-run/import-jiangu.ts';
import { readMemorizationRun } from '../memorization-run/import-memorization.ts';
import { MEMORIZATION_FORMAT, MEMORIZATION_FORMAT_VERSION } from '../memorization-run/export.ts';
import { FieldProblem, FieldReader, RUN_IMPORT_LIMITS, describe, problem, refusal, type Obj, type Refusal } from '../import-validate.ts';
import { utf8Bytes } from '../../bytes.ts';

/** The two kinds of entry: scoring runs (`runs`) and memorization runs (`memorizationRuns`). */
export type BackupEntryKind = 'runs' | 'memorizationRuns';

/** An entry read: the record and results to store, and the fields the reader left out. */
export interface ReadEntry<R, I> {
  run: R;
  results: I[];
  /** Paths (list positions as [*]) of fields the entry had that no reader of this version knows. */
  dropped: string[];
}

/** Fields the store writes that a backup never carries over (the key check is this browser's finding: the run page makes it again). */
const STORE_ONLY = new Set(['run.origin.keyCheck']);

const FORMATS: Record<BackupEntryKind, { format: string; version: number }> = {
  runs: { format: 'jiangu-run', version: 1 },
  memorizationRuns: { format: MEMORIZATION_FORMAT, version: MEMORIZATION_FORMAT_VERSION },
};

/** An entry's name in a report: its run's id where it states one as text, else its place (`runs[3]`). */
export function entryName(entry: unknown, kind: BackupEntryKind, index: number): string {
  const run = typeof entry === 'object' && entry !== null ? (entry as Obj).run : undefined;
  const id = typeof run === 'object' && run !== null ? (run as Obj).id : undefined;
  return typeof id === 'string' && id.length > 0 ? id.slice(0, 80) : `${kind}[${index}]`;
}

/** The refusal an entry's reader threw, or one that words what else went wrong. */
export function refusalOf(error: unknown): Refusal {
  return error instanceof FieldProblem ? error.refusal : refusal('import.unreadable', { detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
}

/** The entry's own object, format and version, before its reader reads it. */
function entryObject(entry: unknown, kind: BackupEntryKind, index: number): Obj {
  const path = `${kind}[${index}]`;
  // Such an entry is named by its place (entryName): the refusal's own place is the entry as a whole.
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw problem('import.field-wrong', { path: 'entry', expected: 'object', ...describe(entry) });
  const o = entry as Obj;
  // The run file's size limit, on the entry as a run file of it would be (its JSON text, in UTF-8 bytes).
  const json = JSON.stringify(o);
  const bytes = json.length * 3 > RUN_IMPORT_LIMITS.bytes ? utf8Bytes(json) : json.length;
  if (bytes > RUN_IMPORT_LIMITS.bytes) throw problem('import.backup-entry-too-large', { path, mib: (bytes / 2 ** 20).toFixed(1), limitMib: RUN_IMPORT_LIMITS.bytes / 2 ** 20 });
  const { format, version } = FORMATS[kind];
  if (o.format !== format) throw problem('import.field-wrong', { path: 'format', expected: 'one-of', set: [format], ...describe(o.format) });
  if (o.formatVersion !== version) throw problem('import.format-version', describe(o.formatVersion));
  return o;
}

const droppedOf = (r: FieldReader) => [...r.ignored].filter((path) => !STORE_ONLY.has(path)).map((path) => path.replace(/^file\./, ''));

/**
 * A scoring run entry, checked and rebuilt.
 * @throws FieldProblem naming the field (`run.config.shots`, `results[3].probs`, or the entry's place).
 */
export function readRunEntry(entry: unknown, index: number): ReadEntry<RunRecord, ItemResult> {
  const o = entryObject(entry, 'runs', index);
  const r = new FieldReader();
  const { run, results } = readJianguRun(o, entryName(entry, 'runs', index), new Date().toISOString(), r, 'stored');
  return { run, results, dropped: droppedOf(r) };
}

/**
 * A memorization run entry, checked and rebuilt.
 * @throws FieldProblem naming the field.
 */
export async function readMemorizationEntry(entry: unknown, index: number): Promise<ReadEntry<ProbeRunRecord, ProbeResult>> {
  const o = entryObject(entry, 'memorizationRuns', index);
  const r = new FieldReader();
  const { run, results } = await readMemorizationRun(o, entryName(entry, 'memorizationRuns', index), new Date().toISOString(), r, 'stored');
  return { run, results, dropped: droppedOf(r) };
}
