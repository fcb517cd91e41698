// A harness sample carries the row it was made from (`doc`). Items are matched to the stored
// benchmark by id (Jiangu's `jiangu_id`, or the harness's row order for stock tasks), so each doc is
// compared with the stored item it is matched to: a doc that is not that item (another copy of the
// data, rows in another order) would otherwise score one question's log-likelihoods against
// another's key. Two doc shapes: the contract's (question, options, answer) and ACLUE's and CMMLU's
// own columns (Question, A–D, Answer), which the harness's stock tasks load.
import type { GenerationItem, Item } from '../../../benchmarks/types.ts';
import { rotateItem } from '../../../protocols/rotation.ts';
import { OPTION_LETTERS } from '../../../protocols/multiple-choice.ts';
import { RunImportError, refusal, type ImportedRun, type Obj } from '../../import-validate.ts';
import type { SampleDoc } from './import-lm-eval.ts';

/**
 * Fields Jiangu's export writes as whole numbers, which the harness's json loader reads as Python
 * ints (json.dumps writes them back as `2`, never `2.0`): the only numbers a doc hash can be rebuilt with.
 */
const INTEGER_FIELDS: ReadonlySet<string> = new Set(['jiangu_rotation', 'jiangu_index']);

/**
 * json.dumps(value, indent=2, ensure_ascii=False) as Python writes it, for doc_hash; null when the
 * value holds a number (Python writes 1.0 where JSON.parse has kept 1, so the text cannot be known),
 * but for an integer in one of INTEGER_FIELDS.
 */
export function pythonJsonIndent2(value: unknown, depth = 0, key: string | null = null): string | null {
  const pad = (d: number) => '\n' + '  '.repeat(d);
  if (value === null) return 'null';
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'number' && key !== null && INTEGER_FIELDS.has(key) && Number.isSafeInteger(value)) return String(value);
  if (Array.isArray(value)) {
    if (value.length === 0) return '[]';
    const parts = value.map((v) => pythonJsonIndent2(v, depth + 1));
    if (parts.some((p) => p === null)) return null;
    return `[${parts.map((p) => pad(depth + 1) + p).join(',')}${pad(depth)}]`;
  }
  if (typeof value === 'object') {
    const entries = Object.entries(value as Obj);
    if (entries.length === 0) return '{}';
    const parts = entries.map(([k, v]) => {
      const inner = pythonJsonIndent2(v, depth + 1, k);
      return inner === null ? null : `${pad(depth + 1)}${JSON.stringify(k)}: ${inner}`;
    });
    if (parts.some((p) => p === null)) return null;
    return `{${parts.join(',')}${pad(depth)}}`;
  }
  return null;
}

/** What a doc says the item is, in either shape; null when it is neither (nothing to compare). */
function docFields(doc: unknown): { question: string; options: string[]; answer: string | null } | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const d = doc as Obj;
  if (typeof d.question === 'string' && Array.isArray(d.options) && d.options.every((o) => typeof o === 'string')) {
    return { question: d.question, options: d.options as string[], answer: typeof d.answer === 'string' ? d.answer : null };
  }
  if (typeof d.Question === 'string' && typeof d.A === 'string') {
    const options = OPTION_LETTERS.map((l) => d[l]).filter((o): o is string => typeof o === 'string');
    return { question: d.Question, options, answer: typeof d.Answer === 'string' ? d.Answer : null };
  }
  return null;
}

/** Text as compared: the stored item is trimmed by the adapters; the harness's doc is the raw row. */
const norm = (s: string): string => s.trim();

/** The first field of `doc` that is not `item`'s, or null when they agree. */
export function docMismatch(doc: unknown, item: Item): 'question' | 'options' | 'answer' | 'input' | 'references' | null {
  if (item.kind === 'generation') return genDocMismatch(doc, item);
  const fields = docFields(doc);
  if (!fields || item.kind !== 'multiple-choice') return null;
  if (norm(fields.question) !== norm(item.question)) return 'question';
  if (fields.options.length !== item.options.length || fields.options.some((o, i) => norm(o) !== norm(item.options[i]))) return 'options';
  if (fields.answer !== null && item.answer !== null && norm(fields.answer) !== item.answer) return 'answer';
  return null;
}

/** A generation doc (the export's genDocFor: input, references) against the stored generation item. */
function genDocMismatch(doc: unknown, item: GenerationItem): 'input' | 'references' | null {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) return null;
  const d = doc as Obj;
  if (typeof d.input === 'string' && norm(d.input) !== norm(item.input)) return 'input';
  const refs = d.references;
  if (Array.isArray(refs) && (refs.length !== item.references.length || refs.some((r, i) => typeof r !== 'string' || norm(r) !== norm(item.references[i])))) return 'references';
  return null;
}

/**
 * Compares every result's doc with the stored item of its id, and each rotation's doc (a circular
 * export) with the stored item rotated as that doc says (rotateItem); items not stored here are left
 * to the key check. `docs[i]` belongs to `imported.results[i]`.
 *
 * @throws RunImportError naming the samples file, the line, the item and the field that differs.
 */
export function checkSampleDocs(imported: ImportedRun, docs: readonly SampleDoc[], items: ReadonlyMap<string, Item>): void {
  imported.results.forEach((result, i) => {
    const item = items.get(result.itemId);
    const d = docs[i];
    if (!item || !d) return;
    const field = docMismatch(d.doc, item);
    if (field) throw new RunImportError(d.file, refusal('import.lm-eval-doc-mismatch', { path: d.place, itemId: result.itemId, field }));
    for (const r of d.rotations ?? []) {
      const rotated = item.kind === 'multiple-choice' && r.rotation < item.options.length ? rotateItem(item, r.rotation) : null;
      const wrong = rotated ? docMismatch(r.doc, rotated) : 'options';
      if (wrong) throw new RunImportError(r.file, refusal('import.lm-eval-doc-mismatch', { path: r.place, itemId: result.itemId, field: `${wrong} (rotation ${r.rotation})` }));
    }
  });
}
