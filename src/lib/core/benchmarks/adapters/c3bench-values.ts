// How a C3Bench record's values become item inputs and references, and the punctuation the
// punctuation task removes.
import type { DataDetailCode, JsonShapeParams } from '../../notices/catalog-data.ts';
import { jsonShape } from '../json.ts';

/**
 * What the punctuation task strips from a sentence to make its input (the reference is the sentence
 * as given). Chinese full-width marks, their ASCII look-alikes that turn up in digitized texts, and
 * brackets and quotes of every kind, including 《》 title marks and the · name separator; whitespace
 * (including the ideographic space U+3000) is removed as well. Checked against WenMind's 句读 task,
 * whose inputs are its references with exactly these removed.
 */
export const C3_PUNCTUATION = '，。、；：？！…—–·・．,.;:?!\'"“”‘’「」『』《》〈〉（）()【】〔〕[]{}<>～~';

const PUNCTUATION = new Set(C3_PUNCTUATION);

/** The sentence without punctuation or whitespace: the punctuation task's input. */
export function stripPunctuation(text: string): string {
  let out = '';
  for (const char of text) if (!PUNCTUATION.has(char) && !/\s/u.test(char)) out += char;
  return out;
}

/** A value was given but has a shape this role cannot use; the adapter adds where (record, field). */
export class ValueShapeError extends Error {
  constructor(
    readonly code: DataDetailCode,
    readonly params: JsonShapeParams & { textKeys?: readonly string[] },
  ) {
    super(code);
  }
}

/** True for a missing value: absent key, null, "" or an empty list. Such a record yields no item for the role. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** A plain text value (text, category, translation). */
export function textValue(value: unknown): string {
  if (typeof value !== 'string') throw new ValueShapeError('data.expected-string', jsonShape(value));
  return value.trim();
}

/** A source title: a string as given, or a list of levels (book, chapter, …) joined by "·". */
export function sourceValue(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value) && value.every((level) => typeof level === 'string')) {
    return value.map((level: string) => level.trim()).filter((level) => level !== '').join('·');
  }
  throw new ValueShapeError('data.c3-expected-source', jsonShape(value));
}

/** Keys an entity object may carry its text under (e.g. {"text": "孔子", "type": "人名"}). */
const ENTITY_TEXT_KEYS = ['text', 'entity', 'name', 'word', '实体', '名称'];

/**
 * Entities joined by "、" (C3Bench's output format), from a list of strings, a list of objects with a
 * text key, or one string separated by 、，,；;| or whitespace.
 */
export function entitiesValue(value: unknown): string {
  let entities: string[];
  if (typeof value === 'string') {
    entities = value.split(/[、，,；;|\s]+/u);
  } else if (Array.isArray(value)) {
    entities = value.map((entity: unknown) => {
      if (typeof entity === 'string') return entity;
      if (typeof entity === 'object' && entity !== null) {
        const record = entity as Record<string, unknown>;
        const key = ENTITY_TEXT_KEYS.find((k) => typeof record[k] === 'string');
        if (key) return record[key] as string;
      }
      throw new ValueShapeError('data.c3-expected-entity', { ...jsonShape(entity), textKeys: ENTITY_TEXT_KEYS });
    });
  } else {
    throw new ValueShapeError('data.c3-expected-entities', jsonShape(value));
  }
  return entities.map((entity) => entity.trim()).filter((entity) => entity !== '').join('、');
}
