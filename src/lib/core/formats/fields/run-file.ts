// Field classes of the run-file format (see field-class.ts). Filled in by the run-file reader's owner.
import type { FieldTable } from './field-class.ts';

export const RUN_FILE_FIELDS: FieldTable = {};
