// Field classes of the backup file (format "jiangu-backup", read by core/formats/backup/ and
// lib/data/backup.ts; see field-class.ts). Its own fields only: each entry of `runs` is a run file's
// object (run-file.ts's table, read by the run file's reader) and each entry of `memorizationRuns` a
// memorization file's (memorization-export.ts), so their fields are classed there, once.
import { claim, raw, type FieldTable } from './field-class.ts';
import { RUN_FILE_FIELDS } from './run-file.ts';

export const BACKUP_FIELDS: FieldTable = {
  format: raw('"jiangu-backup"'),
  formatVersion: raw('1'),
  exportedAt: raw('not read: when the backup was made, for a person reading the file; each run keeps its own dates'),
  'runs[*]': raw('a run file\'s object ("format": "jiangu-run", version 1), read alone by the run file\'s reader (fields/run-file.ts); at most BACKUP_MAX_ENTRIES (10,000)'),
  'memorizationRuns[*]': raw('a memorization run file\'s object, read alone by its reader (fields/memorization-export.ts); at most BACKUP_MAX_ENTRIES (10,000)'),
};

/**
 * A scoring run entry's fields: the run file's, but for what an earlier import's file stated about
 * its summary. A run file replaces that with its own `summary`; a backup keeps the record as stored,
 * so there it is a claim, kept as what that file stated, range-checked, and compared again with the
 * summary recomputed from the results (origin.summaryMismatches is recomputed, never read).
 */
export const BACKUP_RUN_ENTRY_FIELDS: FieldTable = {
  ...RUN_FILE_FIELDS,
  'run.origin.storedSummary.*': claim('null or a finite number from 0 to RAW_BOUNDS.summaryValue (200,000): a percent or a count of items', 'results[*]'),
};
