// CSV files into named rows, each with the line it starts on. papaparse does the parsing (quoted
// fields with commas, quotes and newlines are common in ACLUE and AC-EVAL); this module adds what
// the adapters need on top: exact header checks, refusing rows with the wrong number of fields, and
// errors that point at a file line rather than at papaparse's row index, which drifts from the line
// number as soon as one field spans several lines.
import Papa from 'papaparse';
import { DataError } from './errors.ts';
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
        failure = new DataError({ file: path, line }, `malformed CSV: ${result.errors[0].message}`);
        parser.abort();
        return;
      }
      // A blank line (the final newline, or a gap a hand edit left) is not a row.
      if (!(fields.length === 1 && fields[0] === '')) records.push({ line, fields });
      rowStart = result.meta.cursor;
    },
  });
  if (failure) throw failure;
  if (records.length === 0) throw new DataError({ file: path }, 'the file is empty');

  const [head, ...body] = records;
  const columns = head.fields;
  checkHeader(path, columns, spec);
  if (body.length === 0) throw new DataError({ file: path, line: 2 }, 'the file has a header but no rows');
  const rows = body.map(({ line: rowLine, fields }) => {
    if (fields.length !== columns.length) {
      throw new DataError(
        { file: path, line: rowLine },
        `expected ${columns.length} fields (${showColumns(columns)}), got ${fields.length}`,
      );
    }
    const values: Record<string, string> = {};
    columns.forEach((name, i) => (values[name] = fields[i]));
    return { line: rowLine, values };
  });
  return { columns, rows };
}

function checkHeader(path: string, columns: readonly string[], spec: CsvHeaderSpec): void {
  const allowed = new Set([...spec.required, ...(spec.optional ?? [])]);
  const expected = `expected ${showColumns(spec.required)}${spec.optional?.length ? ` (optional: ${showColumns(spec.optional)})` : ''}`;
  const seen = new Set<string>();
  for (const name of columns) {
    if (seen.has(name)) throw new DataError({ file: path, line: 1, field: name }, `column appears twice in the header; ${expected}`);
    seen.add(name);
  }
  const missing = spec.required.filter((name) => !seen.has(name));
  const unexpected = columns.filter((name) => !allowed.has(name));
  const problems: string[] = [];
  if (missing.length > 0) problems.push(`missing column${missing.length > 1 ? 's' : ''} ${showColumns(missing)}`);
  if (unexpected.length > 0) problems.push(`unexpected column${unexpected.length > 1 ? 's' : ''} ${showColumns(unexpected)}`);
  if (problems.length > 0) throw new DataError({ file: path, line: 1 }, `wrong header: ${problems.join('; ')}; ${expected}`);
}

/** Column names for messages; the unnamed index column of CMMLU and AC-EVAL shows as `""`. */
function showColumns(names: readonly string[]): string {
  return names.map((name) => JSON.stringify(name)).join(', ');
}
