// AncientBench (Zhou et al. 2025) from the user's own file(s): the data is not public. Format, one
// item per row, as CSV (header row) or JSON Lines (one object per line):
//   task, question, A, B, C, D, answer   required
//   split, id                           optional
// `task` is one of the ten tasks by English or Chinese name (normalized to English); `answer` a letter
// A–D; `split` is "dev" (few-shot exemplars) or "test", empty or absent meaning test. Any other split
// value is refused rather than read as test, so a "train" or "validation" column is never scored as
// test data by accident. `id` defaults to <task>/<split>/<order>.
// Format by file name: .csv is CSV, .jsonl/.ndjson JSON Lines; otherwise a first "{" means JSON Lines.
//
// CMMLU's and ACLUE's own layout (Question, A, B, C, D, Answer, one task per file; CMMLU adds an
// unnamed index column) is accepted too when the file is named after its task ("通假字.csv",
// "Radical.csv"), since a reader who has such files should not have to rewrite them: every row is
// test, or dev when the file sits in a dev/ folder. Otherwise the file is refused with a message that
// names the layout and says what to change, and its rows are still checked.
//
// Every row is checked and the problems of a file are reported together (the first
// MAX_LISTED_PROBLEMS), so one import shows all that must be fixed. A wrong header stops the file.
import { ANCIENTBENCH_TASKS } from '../catalog-tasks.ts';
import { checkHeader, namedRows, parseCsvRecords, type CsvRow } from '../csv.ts';
import { DataError, ProblemList, shorten, type DataErrorLocation } from '../errors.ts';
import { isJsonObject, jsonShape, parseJsonLines } from '../json.ts';
import { decodeUtf8, type RawFile } from '../text.ts';
import type { MultipleChoiceItem, Split } from '../types.ts';
import { readAnswer, readOptions, readQuestion } from './mcq.ts';
import { IdRegistry, OrderCounter, type AdaptResult } from './result.ts';

const REQUIRED = ['task', 'question', 'A', 'B', 'C', 'D', 'answer'] as const;
const OPTIONAL = ['split', 'id'] as const;
const TASK_FILE_COLUMNS = ['Question', 'A', 'B', 'C', 'D', 'Answer'] as const;

interface Row {
  at: DataErrorLocation & { line: number };
  values: Record<string, string>;
  /** The task named by the file (CMMLU/ACLUE layout); null when the row's own `task` says it. */
  fileTask?: string | null;
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

function taskKey(name: string): string | undefined {
  return TASK_NAMES.get(name.trim()) ?? TASK_NAMES.get(normalizeName(name));
}

export function adaptAncientBench(files: readonly RawFile[]): AdaptResult {
  if (files.length === 0) throw new DataError({ file: '(no file)' }, 'data.no-file');
  const ids = new IdRegistry();
  const orders = new OrderCounter();
  const items: MultipleChoiceItem[] = [];
  const problems = new ProblemList();
  for (const file of files) {
    for (const row of readRows(file, problems)) {
      const item = readItem(row, problems, orders);
      if (!item) continue;
      const claimed = problems.attempt(() => {
        ids.claim(item.id, { ...row.at, field: row.values.id?.trim() ? 'id' : undefined });
        return true;
      });
      if (claimed) items.push(item);
    }
  }
  problems.throwIfAny(files.map((file) => file.path).join(', '));
  return { items, skipped: [] };
}

/** One row as an item, or null when any field is wrong (each wrong field is noted in `problems`). */
function readItem({ at, values, fileTask }: Row, problems: ProblemList, orders: OrderCounter): MultipleChoiceItem | null {
  const before = problems.size;
  const task =
    fileTask !== undefined
      ? fileTask
      : problems.attempt(() => {
          const key = taskKey(values.task);
          if (key) return key;
          const names = ANCIENTBENCH_TASKS.map((t) => `${t.en} (${t.zh})`);
          throw new DataError({ ...at, field: 'task' }, 'data.unknown-task', { got: shorten(values.task), names });
        });
  const split = problems.attempt(() => readSplit(values.split ?? '', { ...at, field: 'split' }));
  const question = problems.attempt(() => readQuestion(values.question, { ...at, field: fileTask !== undefined ? 'Question' : 'question' }));
  const options = problems.attempt(() => readOptions(values, at));
  const answerField = fileTask !== undefined ? 'Answer' : 'answer';
  const answer = problems.attempt(() => readAnswer(values.answer, options?.length ?? 4, { ...at, field: answerField }));
  if (problems.size > before || !task || !split || question === undefined || !options || !answer) return null;
  const order = orders.take(task, split);
  return {
    kind: 'multiple-choice',
    id: (values.id ?? '').trim() || `${task}/${split}/${order}`,
    datasetId: 'ancientbench',
    task,
    split,
    order,
    source: { file: at.file, line: at.line },
    question,
    options,
    answer,
  };
}

function readSplit(raw: string, at: DataErrorLocation): Split {
  const split = raw.trim().toLowerCase();
  if (split === 'dev') return 'dev';
  if (split === '' || split === 'test') return 'test';
  throw new DataError(at, 'data.bad-split', { got: shorten(raw) });
}

function readRows(file: RawFile, problems: ProblemList): Row[] {
  const name = file.path.toLowerCase();
  const jsonLines = /\.(jsonl|ndjson)$/.test(name) || (!name.endsWith('.csv') && decodeUtf8(file).trimStart().startsWith('{'));
  return jsonLines ? readJsonLines(file, problems) : readCsv(file, problems);
}

function readCsv(file: RawFile, problems: ProblemList): Row[] {
  const { columns, body } = parseCsvRecords(file.path, decodeUtf8(file));
  const taskFile = isTaskFileLayout(columns);
  // A wrong header leaves nothing to read the rows by: it stops this file.
  if (!taskFile) checkHeader(file.path, columns, { required: REQUIRED, optional: OPTIONAL });
  if (body.length === 0) throw new DataError({ file: file.path, line: 2 }, 'data.header-only');
  const rows = namedRows(file.path, columns, body, problems);
  if (!taskFile) return rows.map(({ line, values }) => ({ at: { file: file.path, line }, values }));
  const fileTask = taskFromFileName(file.path);
  if (!fileTask) problems.add(new DataError({ file: file.path, line: 1 }, 'data.cmmlu-layout', { example: ANCIENTBENCH_TASKS[0].en }));
  const split: Split = /(^|\/)dev\//.test(file.path) ? 'dev' : 'test';
  return rows.map((row: CsvRow) => ({
    at: { file: file.path, line: row.line },
    values: { ...row.values, question: row.values.Question, answer: row.values.Answer, split },
    // No task: the file was refused above, but its rows are still checked.
    fileTask: fileTask ?? null,
  }));
}

/** CMMLU's and ACLUE's header: Question, A–D, Answer, and CMMLU's unnamed index column. */
function isTaskFileLayout(columns: readonly string[]): boolean {
  const named = columns.filter((column) => column !== '');
  return named.length === TASK_FILE_COLUMNS.length && TASK_FILE_COLUMNS.every((column) => named.includes(column)) && columns.length - named.length <= 1;
}

/** `data/test/通假字.csv` -> `Phonetic Loan Character`; null when the name is no task's. */
function taskFromFileName(path: string): string | null {
  const stem = (path.split('/').pop() ?? path).replace(/\.csv$/i, '');
  return taskKey(stem) ?? null;
}

function readJsonLines(file: RawFile, problems: ProblemList): Row[] {
  const rows: Row[] = [];
  for (const { line, value } of parseJsonLines(file, problems)) {
    const row = problems.attempt((): Row => {
      const at = { file: file.path, line };
      if (!isJsonObject(value)) throw new DataError(at, 'data.expected-object', jsonShape(value));
      const values: Record<string, string> = {};
      for (const [key, field] of Object.entries(value)) {
        if (!(REQUIRED as readonly string[]).includes(key) && !(OPTIONAL as readonly string[]).includes(key)) {
          throw new DataError({ ...at, field: key }, 'data.unexpected-key', { keys: [...REQUIRED, ...OPTIONAL] });
        }
        if (field === null && (OPTIONAL as readonly string[]).includes(key)) continue;
        // Ids are often numbers; every other value must already be text.
        if (typeof field === 'string' || (key === 'id' && typeof field === 'number')) values[key] = String(field);
        else throw new DataError({ ...at, field: key }, 'data.expected-string', jsonShape(field));
      }
      const missing = REQUIRED.find((key) => !(key in values));
      if (missing) throw new DataError({ ...at, field: missing }, 'data.missing');
      return { at, values };
    });
    if (row) rows.push(row);
  }
  return rows;
}
