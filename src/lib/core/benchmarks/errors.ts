// The one error every adapter throws when a data file is not what it should be. Its message is the
// only place a location is spelled out, so every refusal reads the same way and names what to fix:
//   data/test/通假字.csv, line 17, field "Answer": expected a letter A–D, got "E"

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

/** `file, line N, field "x"` (parts that are unknown are left out). */
export function formatLocation(location: DataErrorLocation): string {
  const parts = [location.file];
  if (location.line !== undefined) parts.push(`line ${location.line}`);
  if (location.record !== undefined) parts.push(`record ${location.record}`);
  if (location.field !== undefined) parts.push(`field "${location.field}"`);
  return parts.join(', ');
}

/** `file, line N, field "x": detail`: the one format of every DataError message. */
export function formatDataError(location: DataErrorLocation, detail: string): string {
  return `${formatLocation(location)}: ${detail}`;
}

/** A data file the adapters refuse. Stores are all-or-nothing, so one DataError refuses the whole import. */
export class DataError extends Error {
  readonly file: string;
  readonly line?: number;
  readonly record?: number;
  readonly field?: string;
  /** The message without the location, e.g. `expected a letter A–D, got "E"`. */
  readonly detail: string;

  constructor(location: DataErrorLocation, detail: string) {
    super(formatDataError(location, detail));
    this.name = 'DataError';
    this.file = location.file;
    this.line = location.line;
    this.record = location.record;
    this.field = location.field;
    this.detail = detail;
  }
}

/** Quotes a value from a data file for a message, shortened so one bad cell cannot flood the UI. */
export function quoteValue(value: string, max = 40): string {
  const shown = value.length > max ? `${value.slice(0, max)}…` : value;
  return JSON.stringify(shown);
}
