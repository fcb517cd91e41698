// The shape ACLUE, CMMLU and AC-EVAL share: one CSV per (split, task) at data/<split>/<task>.csv,
// columns Question, A–D and (where keys are released) Answer. Each source adapter is this plus its
// header and its task list.
import { parseCsv } from '../csv.ts';
import { DataError } from '../errors.ts';
import type { RawFile } from '../text.ts';
import type { DatasetId, MultipleChoiceItem, Split } from '../types.ts';
import { readAnswer, readOptions, readQuestion } from './mcq.ts';
import { IdRegistry, type AdaptResult } from './result.ts';

export interface CsvMcqFormat {
  datasetId: DatasetId;
  /** Readable name for messages, e.g. `ACLUE`. */
  title: string;
  /** The task keys (file names without .csv) the dataset has. */
  tasks: readonly string[];
  /** The exact header of a file of this split. */
  header: (split: Split) => readonly string[];
  /** The answer column of this split, or null where answers are not released (AC-EVAL test). */
  answerColumn: (split: Split) => string | null;
  /** A column with an explanation of the answer, if this split has one (AC-EVAL dev). */
  explanationColumn?: (split: Split) => string | null;
}

const PATH = /^data\/(dev|test)\/([^/]+)\.csv$/;

/** Turns the CSV files of one CSV-per-task dataset into items, in the order the files are given. */
export function adaptCsvMcq(files: readonly RawFile[], format: CsvMcqFormat): AdaptResult {
  const ids = new IdRegistry();
  const items: MultipleChoiceItem[] = [];
  for (const file of files) {
    const match = PATH.exec(file.path);
    if (!match || !format.tasks.includes(match[2])) {
      throw new DataError({ file: file.path }, 'data.not-dataset-file', { title: format.title, count: format.tasks.length });
    }
    const split = match[1] as Split;
    const task = match[2];
    const answerColumn = format.answerColumn(split);
    const explanationColumn = format.explanationColumn?.(split) ?? null;
    const table = parseCsv(file, { required: format.header(split) });
    table.rows.forEach(({ line, values }, order) => {
      const at = { file: file.path, line };
      const question = readQuestion(values.Question, { ...at, field: 'Question' });
      const options = readOptions(values, at);
      const answer = answerColumn === null ? null : readAnswer(values[answerColumn], options.length, { ...at, field: answerColumn });
      const id = `${task}/${split}/${order}`;
      ids.claim(id, at);
      const item: MultipleChoiceItem = {
        kind: 'multiple-choice',
        id,
        datasetId: format.datasetId,
        task,
        split,
        order,
        source: { file: file.path, line },
        question,
        options,
        answer,
      };
      const explanation = explanationColumn === null ? '' : values[explanationColumn];
      if (explanation.trim() !== '') item.explanation = explanation;
      items.push(item);
    });
  }
  return { items, skipped: [] };
}
