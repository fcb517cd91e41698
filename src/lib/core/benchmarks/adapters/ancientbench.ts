// AncientBench (Zhou et al. 2025) from the user's own file(s): the data is not public. Format, one
// item per row, as CSV (header row) or JSON Lines (one object per line):
//   task, question, A, B, C, D, answer   required
//   split, id                           optional
// `task` is one of the ten tasks by English or Chinese name (normalized to English); `answer` a letter
// A–D; `split` is "dev" (few-shot exemplars) or "test", empty or absent meaning test. Any other split
// value is refused rather than read as test, so a "train" or "validation" column is never scored as
// test data by accident. `id` defaults to <task>/<split>/<order>.
// Format by file name: .csv is CSV, .jsonl/.ndjson JSON Lines; otherwise a first "{" means JSON Lines.
import { ANCIENTBENCH_TASKS } from '../catalog-tasks.ts';
import { parseCsv } from '../csv.ts';
import { DataError, quoteValue, type DataErrorLocation } from '../errors.ts';
import { describeJson, isJsonObject, parseJsonLines } from '../json.ts';
import { decodeUtf8, type RawFile } from '../text.ts';
import type { MultipleChoiceItem, Split } from '../types.ts';
import { readAnswer, readOptions, readQuestion } from './mcq.ts';
import { IdRegistry, OrderCounter, type AdaptResult } from './result.ts';

const REQUIRED = ['task', 'question', 'A', 'B', 'C', 'D', 'answer'] as const;
const OPTIONAL = ['split', 'id'] as const;

interface Row {
  at: DataErrorLocation & { line: number };
  values: Record<string, string>;
}

/** English name, Chinese name, or English in any case/spacing -> the English task key. */
const TASK_NAMES = new Map<string, string>(
  ANCIENTBENCH_TASKS.flatMap((task) => [
    [task.zh, task.key],
    [normalizeName(task.en), task.key],
  ]),
);

function normalizeName(name: string): string {
  return name.trim().toLowerCase().replace(/\s+/g, ' ');
}

export function adaptAncientBench(files: readonly RawFile[]): AdaptResult {
  if (files.length === 0) throw new DataError({ file: '(no file)' }, 'choose at least one AncientBench file');
  const ids = new IdRegistry();
  const orders = new OrderCounter();
  const items: MultipleChoiceItem[] = [];
  for (const file of files) {
    for (const { at, values } of readRows(file)) {
      const task = TASK_NAMES.get(values.task.trim()) ?? TASK_NAMES.get(normalizeName(values.task));
      if (!task) {
        const names = ANCIENTBENCH_TASKS.map((t) => `${t.en} (${t.zh})`).join(', ');
        throw new DataError({ ...at, field: 'task' }, `unknown task ${quoteValue(values.task)}; expected one of ${names}`);
      }
      const split = readSplit(values.split ?? '', { ...at, field: 'split' });
      const question = readQuestion(values.question, { ...at, field: 'question' });
      const options = readOptions(values, at);
      const answer = readAnswer(values.answer, options.length, { ...at, field: 'answer' });
      const order = orders.take(task, split);
      const id = (values.id ?? '').trim() || `${task}/${split}/${order}`;
      ids.claim(id, { ...at, field: values.id?.trim() ? 'id' : undefined });
      items.push({
        kind: 'multiple-choice',
        id,
        datasetId: 'ancientbench',
        task,
        split,
        order,
        source: { file: at.file, line: at.line },
        question,
        options,
        answer,
      });
    }
  }
  return { items, skipped: [] };
}

function readSplit(raw: string, at: DataErrorLocation): Split {
  const split = raw.trim().toLowerCase();
  if (split === 'dev') return 'dev';
  if (split === '' || split === 'test') return 'test';
  throw new DataError(at, `expected "dev" or "test" (or empty for test), got ${quoteValue(raw)}`);
}

function readRows(file: RawFile): Row[] {
  const name = file.path.toLowerCase();
  const jsonLines = /\.(jsonl|ndjson)$/.test(name) || (!name.endsWith('.csv') && decodeUtf8(file).trimStart().startsWith('{'));
  if (!jsonLines) {
    return parseCsv(file, { required: REQUIRED, optional: OPTIONAL }).rows.map(({ line, values }) => ({
      at: { file: file.path, line },
      values,
    }));
  }
  return parseJsonLines(file).map(({ line, value }) => {
    const at = { file: file.path, line };
    if (!isJsonObject(value)) throw new DataError(at, `expected an object, got ${describeJson(value)}`);
    const values: Record<string, string> = {};
    for (const [key, field] of Object.entries(value)) {
      if (!(REQUIRED as readonly string[]).includes(key) && !(OPTIONAL as readonly string[]).includes(key)) {
        throw new DataError({ ...at, field: key }, `unexpected key; expected ${[...REQUIRED, ...OPTIONAL].join(', ')}`);
      }
      if (field === null && (OPTIONAL as readonly string[]).includes(key)) continue;
      // Ids are often numbers; every other value must already be text.
      if (typeof field === 'string' || (key === 'id' && typeof field === 'number')) values[key] = String(field);
      else throw new DataError({ ...at, field: key }, `expected a string, got ${describeJson(field)}`);
    }
    const missing = REQUIRED.find((key) => !(key in values));
    if (missing) throw new DataError({ ...at, field: missing }, 'missing');
    return { at, values };
  });
}
