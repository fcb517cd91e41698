// WenMind (SCUT-DLVCLab/WenMind): one JSON list, WenMind_Benchmark/WenMind_ver1.json. Imported:
//  - multiple-choice (MCQ) items with a single letter answer and two to four options, options parsed
//    out of the question text (wenmind-options.ts); task = coarse_grained_task_zh; id = upstream id;
//  - the five generation tasks that match C3Bench's (see GENERATION below), input = the text after
//    the instruction line, references in C3Bench's output format.
// Everything else is counted in `skipped`, by task and reason. There is no dev split: all items are test.
// An MCQ item whose answer is one letter but whose options cannot be parsed refuses the whole file.
import { WENMIND_TOPIC_LABELS } from '../catalog-tasks.ts';
import { DataError, shorten, type DataErrorLocation } from '../errors.ts';
import type { DataDetailArgs } from '../../notices/catalog-data.ts';
import { isJsonObject, parseJsonList, type JsonObject } from '../json.ts';
import { checkName, checkVisible } from '../names.ts';
import type { RawFile } from '../text.ts';
import type { GenerationItem, GenerationTask, Item, MultipleChoiceItem } from '../types.ts';
import { OPTION_LETTERS, readAnswer } from './mcq.ts';
import { IdRegistry, OrderCounter, SkipTally, type AdaptResult } from './result.ts';
import { splitInlineOptions } from './wenmind-options.ts';

export const WENMIND_PATH = 'WenMind_Benchmark/WenMind_ver1.json';

interface GenerationRule {
  generationTask: GenerationTask;
  /** The instruction line every question of the task starts with; the rest is the item's input. */
  instruction: string;
  /** The upstream answer as C3Bench-style references, or why it cannot be one (given the item id). */
  references: (answer: string, id: string) => string[] | ProblemOf;
}

const GENERATION: Readonly<Record<string, GenerationRule>> = {
  主题分类: {
    generationTask: 'classification',
    instruction: '选项：佛藏、史藏、诗藏、集藏、子藏、易藏、艺藏、医藏、道藏、儒藏。下面句子的主题属于上述选项的哪一项：\n',
    // 医藏 -> 医: the one-character label C3Bench's classification answers use.
    references: (answer, id) => {
      const label = answer.trim().replace(/藏$/, '');
      if (WENMIND_TOPIC_LABELS.includes(label)) return [label];
      return { problem: ['data.wenmind-topic', { id, labels: WENMIND_TOPIC_LABELS.map((l) => `${l}藏`), got: shorten(answer) }] };
    },
  },
  命名实体识别: {
    generationTask: 'ner',
    instruction: '抽取下列文言文句子中的命名实体：\n',
    // Upstream separates entities with "，"; C3Bench outputs them joined by "、". Empty entries
    // (two items have "，，") are dropped; entities are otherwise kept exactly, duplicates included.
    references: (answer, id) => {
      const entities = answer.split('，').map((entity) => entity.trim()).filter((entity) => entity !== '');
      return entities.length > 0 ? [entities.join('、')] : { problem: ['data.wenmind-no-entities', { id }] };
    },
  },
  句读: { generationTask: 'punctuation', instruction: '给下面句子添加标点符号：\n', references: (answer) => [answer] },
  文白翻译: { generationTask: 'translation', instruction: '把文言文翻译为白话文：\n', references: (answer) => [answer] },
  // Modern -> classical: the input is modern Chinese here (catalog: direction modern-to-classical).
  白文翻译: { generationTask: 'translation', instruction: '把白话文翻译为文言文：\n', references: (answer) => [answer] },
};

/** Why an answer cannot become references: a detail code and its parameters. */
type ProblemOf = { problem: ['data.wenmind-topic', ...DataDetailArgs<'data.wenmind-topic'>] | ['data.wenmind-no-entities', ...DataDetailArgs<'data.wenmind-no-entities'>] };

interface WenMindRecord {
  id: string;
  format: string;
  task: string;
  question: string;
  answer: string;
}

function readRecord(value: unknown, at: DataErrorLocation): WenMindRecord {
  if (!isJsonObject(value)) throw new DataError(at, 'data.not-an-object');
  const text = (record: JsonObject, key: string): string => {
    const field = record[key];
    if (typeof field !== 'string') throw new DataError({ ...at, field: key }, 'data.missing-or-not-string');
    return field;
  };
  const id = value.id;
  if (typeof id !== 'number' && (typeof id !== 'string' || id === '')) throw new DataError({ ...at, field: 'id' }, 'data.id-missing');
  // Ids and task names become keys of runs and run files (and of the skipped counts): the id rule.
  checkName('id', String(id), { ...at, field: 'id' });
  const task = text(value, 'coarse_grained_task_zh');
  checkName('task', task, { ...at, field: 'coarse_grained_task_zh' });
  return {
    id: String(id),
    format: text(value, 'question_format'),
    task,
    question: text(value, 'question'),
    answer: text(value, 'answer'),
  };
}

export function adaptWenMind(files: readonly RawFile[]): AdaptResult {
  if (files.length !== 1 || files[0].path !== WENMIND_PATH) {
    throw new DataError({ file: files.map((file) => file.path).join(', ') || '(no file)' }, 'data.wenmind-one-file', { path: WENMIND_PATH });
  }
  const file = files[0];
  const ids = new IdRegistry();
  const orders = new OrderCounter();
  const skipped = new SkipTally();
  const items: Item[] = [];
  parseJsonList(file).forEach((value, index) => {
    const at = { file: file.path, record: index };
    const record = readRecord(value, at);
    let item: Item | null;
    if (record.format === 'MCQ') item = multipleChoice(record, at, index, orders, skipped);
    else if (GENERATION[record.task]) item = generation(record, at, index, orders);
    else {
      skipped.add(record.task, 'task-not-imported', record.id);
      item = null;
    }
    if (item) {
      ids.claim(item.id, at);
      items.push(item);
    }
  });
  return { items, skipped: skipped.list() };
}

function multipleChoice(record: WenMindRecord, at: DataErrorLocation, index: number, orders: OrderCounter, skipped: SkipTally): MultipleChoiceItem | null {
  const answer = record.answer.trim();
  if (/^[A-F]([、,，]\s*[A-F])+$/.test(answer)) {
    skipped.add(record.task, 'multiple-answers', record.id);
    return null;
  }
  if (!/^[A-F]$/.test(answer)) {
    skipped.add(record.task, 'answer-not-a-letter', record.id);
    return null;
  }
  const parsed = splitInlineOptions(record.question);
  if (!parsed) {
    throw new DataError({ ...at, field: 'question' }, 'data.wenmind-no-options', { id: record.id, question: shorten(record.question, 80) });
  }
  if (parsed.options.length > OPTION_LETTERS.length) {
    skipped.add(record.task, 'more-than-four-options', record.id);
    return null;
  }
  checkVisible(parsed.stem, { ...at, field: 'question' });
  parsed.options.forEach((option, k) => checkVisible(option, { ...at, field: 'question' }, OPTION_LETTERS[k]));
  return {
    kind: 'multiple-choice',
    id: record.id,
    datasetId: 'wenmind',
    task: record.task,
    split: 'test',
    order: orders.take(record.task, 'test'),
    source: { file: at.file, line: index },
    question: parsed.stem,
    options: parsed.options,
    answer: readAnswer(answer, parsed.options.length, { ...at, field: 'answer' }),
  };
}

function generation(record: WenMindRecord, at: DataErrorLocation, index: number, orders: OrderCounter): GenerationItem {
  const rule = GENERATION[record.task];
  if (!record.question.startsWith(rule.instruction) || record.question.length === rule.instruction.length) {
    throw new DataError({ ...at, field: 'question' }, 'data.wenmind-no-instruction', { id: record.id, instruction: shorten(rule.instruction.trim()) });
  }
  checkVisible(record.question.slice(rule.instruction.length), { ...at, field: 'question' });
  const references = rule.references(record.answer, record.id);
  if (!Array.isArray(references)) {
    const [code, params] = references.problem;
    throw new DataError({ ...at, field: 'answer' }, code, params as never);
  }
  for (const reference of references) checkVisible(reference, { ...at, field: 'answer' });
  return {
    kind: 'generation',
    id: record.id,
    datasetId: 'wenmind',
    task: record.task,
    split: 'test',
    order: orders.take(record.task, 'test'),
    source: { file: at.file, line: index },
    generationTask: rule.generationTask,
    input: record.question.slice(rule.instruction.length),
    references,
  };
}
