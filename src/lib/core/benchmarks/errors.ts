// The one error every adapter throws when a data file is not what it should be: a notice whose
// parameters are the location (file, line or record, field) and the detail's own (what was expected,
// what was found). The catalog (notices/catalog-data.ts) words it, so every refusal reads the same way
// and names what to fix, in English or Chinese:
//   data/test/通假字.csv, line 17, field "Answer": expected a letter A–D, got "E"
//   data/test/通假字.csv，第 17 行，字段“Answer”：应为字母 A–D，实为“E”
import { JianguError, noticeOf, type Notice } from '../notices/index.ts';
import { renderDataDetail, type DataDetailArgs, type DataDetailCode, type DataWhere } from '../notices/catalog-data.ts';

/** Where in a data file the problem is. Give `line` for CSV/JSONL rows, `record` for JSON lists. */
export interface DataErrorLocation {
  /** The file's original relative path (or the imported file's name). */
  file: string;
  /** 1-based line in the file (a CSV row's first line when a quoted field spans several). */
  line?: number;
  /** 0-based index of a record in a top-level JSON list. */
  record?: number;
  /** The column or JSON key at fault. */
  field?: string;
}

/** The location as notice parameters: unknown parts are left out, not stored as undefined. */
export function locationParams(location: DataErrorLocation): DataWhere {
  const where: DataWhere = { file: location.file };
  if (location.line !== undefined) where.line = location.line;
  if (location.record !== undefined) where.record = location.record;
  if (location.field !== undefined) where.field = location.field;
  return where;
}

/** A data file the adapters refuse. Stores are all-or-nothing, so one DataError refuses the whole import. */
export class DataError<C extends DataDetailCode = DataDetailCode> extends JianguError {
  readonly file: string;
  readonly line?: number;
  readonly record?: number;
  readonly field?: string;
  /** The detail's code (also the notice's). */
  readonly detailCode: C;
  /** The detail's own parameters (the notice's, less the location). */
  readonly detailParams: object;
  /** The message without the location, in English, e.g. `expected a letter A–D, got "E"`. */
  readonly detail: string;

  constructor(location: DataErrorLocation, code: C, ...params: DataDetailArgs<C>) {
    const detailParams = (params[0] ?? {}) as object;
    super({ code, params: { ...detailParams, ...locationParams(location) } as Notice['params'] });
    this.name = 'DataError';
    this.file = location.file;
    this.line = location.line;
    this.record = location.record;
    this.field = location.field;
    this.detailCode = code;
    this.detailParams = detailParams;
    this.detail = renderDataDetail(code, detailParams, 'en');
  }
}

/** How many problems of one file a refusal lists: enough to fix a file in one go, not a flood. */
export const MAX_LISTED_PROBLEMS = 20;

/**
 * A file with several problems, all found in one pass so the user can fix them in one go. Its own
 * notice is the headline (which file, how many); `problems` holds the first MAX_LISTED_PROBLEMS.
 */
export class DataProblemsError extends JianguError {
  readonly file: string;
  readonly count: number;
  readonly problems: readonly DataError[];

  /**
   * @param file The file (or files, comma-separated) the problems are in.
   * @param problems The first problems found, in file order.
   * @param count How many there are in all (at least problems.length).
   */
  constructor(file: string, problems: readonly DataError[], count = problems.length) {
    const shown = problems.slice(0, MAX_LISTED_PROBLEMS);
    super({ code: 'data.problems', params: { file, count, shown: shown.length } });
    this.name = 'DataProblemsError';
    this.file = file;
    this.count = count;
    this.problems = shown;
    // The English message carries the list too, for logs and Node tests.
    this.message = `${this.message} ${shown.map((problem) => problem.message).join('; ')}`;
  }
}

/** Collects DataErrors instead of stopping at the first; `throwIfAny` refuses with one or all of them. */
export class ProblemList {
  private readonly first: DataError[] = [];
  private count = 0;

  /** Runs `step`; a DataError it throws is kept and undefined returned, anything else propagates. */
  attempt<T>(step: () => T): T | undefined {
    try {
      return step();
    } catch (error) {
      if (!(error instanceof DataError)) throw error;
      this.add(error);
      return undefined;
    }
  }

  /** Notes a problem; past the listed few only the count grows, so a wholly wrong file stays cheap. */
  add(error: DataError): void {
    this.count++;
    if (this.first.length < MAX_LISTED_PROBLEMS) this.first.push(error);
  }

  get size(): number {
    return this.count;
  }

  /** Throws the one DataError as it is, or a DataProblemsError when there are several. */
  throwIfAny(file: string): void {
    if (this.count === 1) throw this.first[0];
    if (this.count > 1) throw new DataProblemsError(file, this.first, this.count);
  }
}

/**
 * Every notice an error carries, headline first: a DataProblemsError gives its headline and each
 * listed problem, anything else its one notice (see noticeOf).
 */
export function noticesOf(error: unknown): Notice[] {
  if (error instanceof DataProblemsError) return [error.notice, ...error.problems.map((problem) => problem.notice)];
  return [noticeOf(error)];
}

/** A value from a data file shortened for a message, so one bad cell cannot flood the UI. */
export function shorten(value: string, max = 40): string {
  return value.length > max ? `${value.slice(0, max)}…` : value;
}
