// The one table: every format Jiangu reads, each field raw or derived (see field-class.ts).
import type { FieldTable } from './field-class.ts';
import { RUN_FILE_FIELDS } from './run-file.ts';
import { LM_EVAL_FIELDS } from './lm-eval.ts';
import { MEMORIZATION_EXPORT_FIELDS } from './memorization-export.ts';
import { PROBE_LINK_FIELDS } from './probe-link.ts';
import { SHARE_LINK_FIELDS } from './share-link.ts';
import { BACKUP_FIELDS } from './backup.ts';

export type { FieldClass, FieldTable, RawField, DerivedField } from './field-class.ts';

export const FIELD_CLASSES = {
  /** A run file this site exported (format "jiangu-run"): letter, cloze and generation runs. */
  'run-file': RUN_FILE_FIELDS,
  /** lm-evaluation-harness results and samples files. */
  'lm-eval': LM_EVAL_FIELDS,
  /** A memorization run's JSON export. */
  'memorization-export': MEMORIZATION_EXPORT_FIELDS,
  /** #/probe-link/… */
  'probe-link': PROBE_LINK_FIELDS,
  /** #/shared/… (scoring runs' share links). */
  'share-link': SHARE_LINK_FIELDS,
  /** A backup of every run of a browser: its own fields; its entries are run files' and memorization files'. */
  backup: BACKUP_FIELDS,
} as const satisfies Record<string, FieldTable>;

export type FieldFormat = keyof typeof FIELD_CLASSES;
