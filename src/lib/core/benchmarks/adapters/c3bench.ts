// C3Bench (SCUT-DLVCLab/C3bench, C3_bench.json): its schema is undocumented, so the caller maps JSON
// fields to roles. Third-party code reads a top-level list of records with `classical_Chinese`,
// `modern_Chinese` and sometimes `category`. Each record yields up to five generation items, one per
// task whose role is mapped and present:
//   punctuation     input: text with C3_PUNCTUATION removed   reference: text
//   classification  input: text                               reference: category
//   retrieval       input: text                               reference: source, levels joined by ·
//   ner             input: text                               reference: entities joined by 、
//   translation     input: text                               reference: translation
// Values are trimmed. Ids are <record index>/<task>. A record without the text refuses the file; a record without an
// optional role (absent, null, "" or []) yields no item for that task, since C3Bench's tasks need not
// cover every sentence. A mapped field that no record has, or a value of the wrong shape, refuses the
// file: both mean the mapping is wrong.
import { DataError, type DataErrorLocation } from '../errors.ts';
import { isJsonObject, jsonShape, parseJsonList } from '../json.ts';
import { checkVisible } from '../names.ts';
import type { Notice } from '../../notices/index.ts';
import type { RawFile } from '../text.ts';
import type { GenerationItem, GenerationTask } from '../types.ts';
import { entitiesValue, isAbsent, sourceValue, stripPunctuation, textValue, ValueShapeError } from './c3bench-values.ts';
import { OrderCounter, type AdaptResult } from './result.ts';

export { C3_PUNCTUATION, stripPunctuation } from './c3bench-values.ts';

export type C3Role = 'text' | 'category' | 'source' | 'entities' | 'translation';
export const C3_ROLES: readonly C3Role[] = ['text', 'category', 'source', 'entities', 'translation'];

/** Role -> JSON field name. Only `text` is required. */
export type C3Mapping = { text: string } & Partial<Record<Exclude<C3Role, 'text'>, string>>;

export interface C3Detection {
  /** The proposed mapping; `text` is missing when no field looked like it (the user must choose). */
  mapping: Partial<Record<C3Role, string>>;
  /** Every field name seen in the records, most frequent first, for the user to choose from. */
  fields: string[];
}

// Known field names per role, most likely first, compared without case, spaces, "_" or "-".
const KNOWN_NAMES: Readonly<Record<C3Role, readonly string[]>> = {
  text: ['classical_Chinese', 'classical', 'text', 'sentence', 'source_text', 'src', '文言文', '文言', '古文', '原文', '句子'],
  translation: ['modern_Chinese', 'modern', 'translation', 'target', 'tgt', '白话文', '白话', '现代文', '译文', '翻译'],
  category: ['category', 'label', 'class', 'domain', '类别', '分类', '类型', '领域'],
  source: ['source', 'title', 'book', 'origin', 'provenance', '出处', '来源', '书名', '篇名', '标题'],
  entities: ['entities', 'entity', 'named_entities', 'ner', '实体', '命名实体'],
};

const normalizeKey = (key: string) => key.toLowerCase().replace(/[\s_-]+/g, '');

/** Proposes a mapping from the field names the records use. Never throws; non-objects are ignored. */
export function detectC3Mapping(records: readonly unknown[]): C3Detection {
  const frequency = new Map<string, number>();
  for (const record of records) {
    if (!isJsonObject(record)) continue;
    for (const key of Object.keys(record)) frequency.set(key, (frequency.get(key) ?? 0) + 1);
  }
  const fields = [...frequency.keys()].sort((a, b) => frequency.get(b)! - frequency.get(a)!);
  const mapping: Partial<Record<C3Role, string>> = {};
  const used = new Set<string>();
  for (const role of C3_ROLES) {
    for (const name of KNOWN_NAMES[role]) {
      const field = fields.find((candidate) => !used.has(candidate) && normalizeKey(candidate) === normalizeKey(name));
      if (field) {
        mapping[role] = field;
        used.add(field);
        break;
      }
    }
  }
  return { mapping, fields };
}

export function isCompleteMapping(mapping: Partial<Record<C3Role, string>>): mapping is C3Mapping {
  return typeof mapping.text === 'string' && mapping.text !== '';
}

export interface C3Preview {
  /** 0-based index of the record in the list. */
  record: number;
  /** The items the record yields under the mapping (empty when it has a problem). */
  items: GenerationItem[];
  /** Why this record would refuse the file, when it would: a data notice without the file name. */
  problem?: Notice;
}

/** The first `n` records as they would be imported, for the user to check a mapping before importing. */
export function samplePreview(records: readonly unknown[], mapping: Partial<Record<C3Role, string>>, n = 3, file = 'C3_bench.json'): C3Preview[] {
  const orders = new OrderCounter();
  return records.slice(0, Math.max(0, n)).map((record, index) => {
    if (!isCompleteMapping(mapping)) return { record: index, items: [], problem: new DataError({ file: '' }, 'data.c3-choose-text').notice };
    try {
      return { record: index, items: recordItems(record, index, mapping, file, orders) };
    } catch (error) {
      // The preview says which record; the notice keeps the field and drops file and record.
      if (error instanceof DataError) return { record: index, items: [], problem: new DataError({ file: '', field: error.field }, error.detailCode, error.detailParams as never).notice };
      throw error;
    }
  });
}

/** Parses a C3Bench-shaped JSON file (a top-level list of records), for detection and preview. */
export function parseC3Records(file: RawFile): unknown[] {
  return parseJsonList(file);
}

/** Imports a C3Bench-shaped file under `mapping`. Throws DataError naming the record and field. */
export function adaptC3Bench(file: RawFile, mapping: C3Mapping): AdaptResult {
  const records = parseC3Records(file);
  for (const role of C3_ROLES) {
    const field = mapping[role];
    if (field === undefined) continue;
    if (!records.some((record) => isJsonObject(record) && field in record)) {
      throw new DataError({ file: file.path, field }, 'data.c3-field-unused', { role });
    }
  }
  const orders = new OrderCounter();
  const items = records.flatMap((record, index) => recordItems(record, index, mapping, file.path, orders));
  const fieldMapping: Record<string, string> = {};
  for (const role of C3_ROLES) if (mapping[role] !== undefined) fieldMapping[role] = mapping[role];
  return { items, skipped: [], fieldMapping };
}

const TASK_OF_ROLE: readonly [Exclude<C3Role, 'text'>, GenerationTask, (value: unknown) => string][] = [
  ['category', 'classification', textValue],
  ['source', 'retrieval', sourceValue],
  ['entities', 'ner', entitiesValue],
  ['translation', 'translation', textValue],
];

function recordItems(record: unknown, index: number, mapping: C3Mapping, file: string, orders: OrderCounter): GenerationItem[] {
  const at: DataErrorLocation = { file, record: index };
  if (!isJsonObject(record)) throw new DataError(at, 'data.expected-object', jsonShape(record));
  const read = (field: string, convert: (value: unknown) => string): string => {
    try {
      return convert(record[field]);
    } catch (error) {
      if (error instanceof ValueShapeError) throw new DataError({ ...at, field }, error.code, error.params as never);
      throw error;
    }
  };
  if (isAbsent(record[mapping.text])) throw new DataError({ ...at, field: mapping.text }, 'data.c3-text-missing');
  const text = read(mapping.text, textValue);
  checkVisible(text, { ...at, field: mapping.text });
  const unpunctuated = stripPunctuation(text);
  if (unpunctuated === '') throw new DataError({ ...at, field: mapping.text }, 'data.c3-only-punctuation');
  const item = (task: GenerationTask, input: string, reference: string): GenerationItem => ({
    kind: 'generation',
    id: `${index}/${task}`,
    datasetId: 'c3bench',
    task,
    split: 'test',
    order: orders.take(task, 'test'),
    source: { file, line: index },
    generationTask: task,
    input,
    references: [reference],
  });
  const items = [item('punctuation', unpunctuated, text)];
  for (const [role, task, convert] of TASK_OF_ROLE) {
    const field = mapping[role];
    if (field === undefined || isAbsent(record[field])) continue;
    const reference = read(field, convert);
    checkVisible(reference, { ...at, field });
    if (reference !== '') items.push(item(task, text, reference));
  }
  return items;
}
