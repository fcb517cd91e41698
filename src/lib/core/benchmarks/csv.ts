// CSV files into named rows, each with the line it starts on. papaparse does the parsing (quoted
// fields with commas, quotes and newlines are common in ACLUE and AC-EVAL); this module adds what
// the adapters need on top: exact header checks, refusing rows with the wrong number of fields, and
// errors that point at a file line rather than at papaparse's row index, which drifts from the line
// number as soon as one field spans several lines.
import Papa from 'papaparse';
import { DataError, type ProblemList } from './errors.ts';
import { decodeUtf8, type RawFile } from './text.ts';

/** The columns an adapter expects, matched by exact name (order is free). */
export interface CsvHeaderSpec {
  required: readonly string[];
  optional?: readonly string[];
}

export interface CsvRow {
  /** 1-based line where the row starts (the header is line 1). */
  line: number;
  /** Every column of the header, by name. */
  values: Record<string, string>;
}

export interface CsvTable {
  /** The header as found in the file. */
  columns: string[];
  rows: CsvRow[];
}

/** Decodes (see decodeUtf8) and parses a CSV file with a header row. Throws DataError. */
export function parseCsv(file: RawFile, spec: CsvHeaderSpec): CsvTable {
  return parseCsvText(file.path, decodeUtf8(file), spec);
}

/** Parses CSV text already decoded; `path` is only used in error messages. */
export function parseCsvText(path: string, text: string, spec: CsvHeaderSpec): CsvTable {
  const { columns, body } = parseCsvRecords(path, text);
  checkHeader(path, columns, spec);
  if (body.length === 0) throw new DataError({ file: path, line: 2 }, 'data.header-only');
  return { columns, rows: namedRows(path, columns, body) };
}

/** A CSV file's rows before any header check: the header's fields, then every other row's. */
export interface CsvRecords {
  columns: string[];
  body: { line: number; fields: string[] }[];
}

/** Splits CSV text into the header and its rows (maybe none), each with the line it starts on. Throws DataError. */
export function parseCsvRecords(path: string, text: string): CsvRecords {
  const records: { line: number; fields: string[] }[] = [];
  // Set inside the step callback, which TypeScript's narrowing cannot see.
  let failure = null as DataError | null;
  // Line bookkeeping: papaparse reports the cursor after each row; the next row starts there.
  let rowStart = 0;
  let counted = 0;
  let line = 1;
  Papa.parse<string[]>(text, {
    delimiter: ',',
    header: false,
    skipEmptyLines: false,
    step: (result, parser) => {
      const breakChar = result.meta.linebreak === '\r' ? '\r' : '\n';
      for (; counted < rowStart; counted++) if (text[counted] === breakChar) line++;
      const fields = result.data;
      if (result.errors.length > 0) {
        failure = new DataError({ file: path, line }, 'data.malformed-csv', { reason: result.errors[0].message });
        parser.abort();
        return;
      }
      // A blank line (the final newline, or a gap a hand edit left) is not a row.
      if (!(fields.length === 1 && fields[0] === '')) records.push({ line, fields });
      rowStart = result.meta.cursor;
    },
  });
  if (failure) throw failure;
  if (records.length === 0) throw new DataError({ file: path }, 'data.empty-file');
  const [head, ...body] = records;
  return { columns: head.fields, body };
}

/**
 * Names each row's fields by the header. A row with the wrong number of fields throws, or, when
 * `problems` is given, is noted there and left out, so the other rows are still checked.
 */
export function namedRows(path: string, columns: readonly string[], body: CsvRecords['body'], problems?: ProblemList): CsvRow[] {
  const rows: CsvRow[] = [];
  for (const { line: rowLine, fields } of body) {
    if (fields.length !== columns.length) {
      const error = new DataError({ file: path, line: rowLine }, 'data.field-count', { columns, got: fields.length });
      if (!problems) throw error;
      problems.add(error);
      continue;
    }
    const values: Record<string, string> = {};
    columns.forEach((name, i) => (values[name] = fields[i]));
    rows.push({ line: rowLine, values });
  }
  return rows;
}

/** Refuses a header that is not exactly `spec`'s columns (order free), naming what is missing or extra. */
export function checkHeader(path: string, columns: readonly string[], spec: CsvHeaderSpec): void {
  const allowed = new Set([...spec.required, ...(spec.optional ?? [])]);
  const expected = { required: spec.required, optional: spec.optional ?? [] };
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) throw new DataError({ file: path, line: 1, field: name }, 'data.column-twice', expected);
    seen.add(name);
  }
  const missing = spec.required.filter((name) => !seen.has(name));
  const unexpected = columns.filter((name) => !allowed.has(name));
  if (missing.length > 0 || unexpected.length > 0) throw new DataError({ file: path, line: 1 }, 'data.wrong-header', { ...expected, missing, unexpected });
}
