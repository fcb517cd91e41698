// Field classes of the lm-eval format (see field-class.ts). Filled in by the lm-eval reader's owner.
import type { FieldTable } from './field-class.ts';

export const LM_EVAL_FIELDS: FieldTable = {};
