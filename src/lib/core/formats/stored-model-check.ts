// A run's stored model check as the run-file and memorization readers take it (issue 34): dropped when
// its shape is another version's (it only describes the run), refused naming the number when one is
// out of the bound model-check-read.ts states (its panel would print it).
import { readModelCheck, MODEL_CHECK_NUMBERS } from '../models/model-check-read.ts';
import type { ModelCheck } from '../models/model-check.ts';
import { finite, type FieldReader } from './import-validate.ts';

export function storedModelCheck(r: FieldReader | null, value: unknown, path: string): ModelCheck | undefined {
  // The numbers it bounds are fields this reader knows (fields/ classes each).
  // (a notice's parameters as the notice's own, as storedWarning reads them).
  for (const key of Object.keys(MODEL_CHECK_NUMBERS)) {
    const field = `${path}.${key.replace(/\.\*$/, '').replace(/(\[\*\])+$/, '')}`;
    r?.known.add(field);
    if (field.endsWith('.params')) r?.known.add(field.slice(0, -'.params'.length).replace(/(\[\*\])+$/, ''));
  }
  const read = readModelCheck(value);
  // finite's refusal names the field, the bound and the value found.
  if (read.outOfRange) finite(read.outOfRange.value, `${path}.${read.outOfRange.path}`, read.outOfRange.min, read.outOfRange.max);
  return read.check;
}
