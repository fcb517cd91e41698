// The backup file (format "jiangu-backup", formatVersion 1): every stored run of this browser, for
// keeping or for moving to another browser. Each scoring run is one run file's object (runJson:
// format "jiangu-run") and each memorization run one memorization file's (format
// "jiangu-memorization-run"), so the backup holds nothing a run file would not, no derived number
// is added (runJson's summary is left out: an importer recomputes everything), and each entry is
// read back by the same reader as its file (src/lib/data/backup.ts).
import type { ItemResult, RunRecord } from '../../record/run.ts';
import type { ProbeResult, ProbeRunRecord } from '../../record/probe-run.ts';
import { MEMORIZATION_FORMAT, MEMORIZATION_FORMAT_VERSION } from '../memorization-run/export.ts';
import { fail, parseJson, problem, type Obj } from '../import-validate.ts';

export const BACKUP_FORMAT = 'jiangu-backup';
export const BACKUP_FORMAT_VERSION = 1;
/** A backup holds a browser's runs: larger than one run file may be (RUN_IMPORT_LIMITS.bytes), still bounded. */
export const BACKUP_MAX_BYTES = 512 * 1024 * 1024;
/** Entries of each kind: far above what one browser holds, low enough to refuse a runaway file at once. */
export const BACKUP_MAX_ENTRIES = 10_000;

/** One stored record as a backup holds it: the record and its results, raw (checked when read back). */
export interface BackupEntry<R, I> {
  run: R;
  results: I[];
}

/** The backup's text. `runs` and `memorizationRuns` as stored, unreadable records included (a backup loses nothing). */
export function backupJson(
  runs: readonly BackupEntry<RunRecord | unknown, ItemResult | unknown>[],
  memorizationRuns: readonly BackupEntry<ProbeRunRecord | unknown, ProbeResult | unknown>[],
  exportedAt: string,
): string {
  return `${JSON.stringify({
    format: BACKUP_FORMAT,
    formatVersion: BACKUP_FORMAT_VERSION,
    exportedAt,
    runs: runs.map((e) => ({ format: 'jiangu-run', formatVersion: 1, run: e.run, results: e.results })),
    memorizationRuns: memorizationRuns.map((e) => ({ format: MEMORIZATION_FORMAT, formatVersion: MEMORIZATION_FORMAT_VERSION, run: e.run, results: e.results })),
  })}\n`;
}

/**
 * The backup's entries, each still unchecked: the caller reads each alone (backup-entry.ts), so one
 * entry that is wrong (even one that is not an object) refuses that entry, not the backup.
 * @throws FieldProblem for a file that is not a backup of this version, or holds too many entries.
 */
export function readBackup(text: string): { runs: unknown[]; memorizationRuns: unknown[] } {
  const root = parseJson(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  if (typeof root !== 'object' || root === null || Array.isArray(root)) fail('file', { expected: 'object' }, root);
  const o = root as Obj;
  if (o.format !== BACKUP_FORMAT) fail('format', { expected: 'one-of', set: [BACKUP_FORMAT] }, o.format);
  if (o.formatVersion !== BACKUP_FORMAT_VERSION) throw problem('import.format-version', { found: 'other', text: String(o.formatVersion).slice(0, 40) });
  const entries = (key: 'runs' | 'memorizationRuns'): unknown[] => {
    const list = o[key];
    if (!Array.isArray(list)) fail(key, { expected: 'list' }, list);
    if (list.length > BACKUP_MAX_ENTRIES) throw problem('import.backup-too-many-entries', { key, count: list.length, max: BACKUP_MAX_ENTRIES });
    return list;
  };
  return { runs: entries('runs'), memorizationRuns: entries('memorizationRuns') };
}
