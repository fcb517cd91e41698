// Field classes of the memorization-export format (see field-class.ts). Filled in by the memorization-export reader's owner.
import type { FieldTable } from './field-class.ts';

export const MEMORIZATION_EXPORT_FIELDS: FieldTable = {};
