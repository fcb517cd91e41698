// How a C3Bench record's values become item inputs and references, and the punctuation the
// punctuation task removes.
import { describeJson } from '../json.ts';

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

/** A value was given but has a shape this role cannot use; the message says what was expected. */
export class ValueShapeError extends Error {}

/** True for a missing value: absent key, null, "" or an empty list. Such a record yields no item for the role. */
export function isAbsent(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '') || (Array.isArray(value) && value.length === 0);
}

/** A plain text value (text, category, translation). */
export function textValue(value: unknown): string {
  if (typeof value !== 'string') throw new ValueShapeError(`expected a string, got ${describeJson(value)}`);
  return value.trim();
}

/** A source title: a string as given, or a list of levels (book, chapter, …) joined by "·". */
export function sourceValue(value: unknown): string {
  if (typeof value === 'string') return value.trim();
  if (Array.isArray(value) && value.every((level) => typeof level === 'string')) {
    return value.map((level: string) => level.trim()).filter((level) => level !== '').join('·');
  }
  throw new ValueShapeError(`expected a string or a list of strings (book, chapter, …), got ${describeJson(value)}`);
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
      throw new ValueShapeError(`expected entities as strings or objects with one of ${ENTITY_TEXT_KEYS.join(', ')}, got ${describeJson(entity)} in the list`);
    });
  } else {
    throw new ValueShapeError(`expected a list of entities or a string, got ${describeJson(value)}`);
  }
  return entities.map((entity) => entity.trim()).filter((entity) => entity !== '').join('、');
}
