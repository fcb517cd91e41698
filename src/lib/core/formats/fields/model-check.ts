// Field classes of a run's stored model check (model-check-read.ts), as the run file and the
// memorization export carry it under run.modelCheck: each number raw with its bound and why; the
// rest (file names, dtypes, the graph's names, the chat template's text) raw text, shown as text,
// and a check of another version's shape dropped.
import { MODEL_CHECK_NUMBERS } from '../../models/model-check-read.ts';
import { raw, type FieldTable } from './field-class.ts';

export function modelCheckFields(prefix: string): FieldTable {
  return {
    [`${prefix}.*`]: raw('the model check\'s shape (model-check-read.ts), else dropped; texts shown as text, never a score'),
    ...Object.fromEntries(Object.entries(MODEL_CHECK_NUMBERS).map(([key, b]) => [`${prefix}.${key}`, raw(`${b.min} to ${b.max}, refused naming the field outside: ${b.why}`)])),
  };
}
