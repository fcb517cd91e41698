// JSON and JSON Lines files into plain values, with errors that name the file and, where the engine
// says where parsing stopped, the line.
import type { JsonShapeParams } from '../notices/catalog-data.ts';
import { DataError, type ProblemList } from './errors.ts';
import { decodeUtf8, type RawFile } from './text.ts';

export type JsonObject = Record<string, unknown>;

export function isJsonObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What a value is, for messages about the wrong shape ("expected a list, got an object with keys …"). */
export function jsonShape(value: unknown): JsonShapeParams {
  if (value === null) return { shape: 'null', keys: [], moreKeys: false };
  if (Array.isArray(value)) return { shape: 'list', keys: [], moreKeys: false };
  if (isJsonObject(value)) {
    const keys = Object.keys(value);
    return { shape: 'object', keys: keys.slice(0, 5), moreKeys: keys.length > 5 };
  }
  return { shape: typeof value, keys: [], moreKeys: false };
}

/** Parses JSON text; `line` offsets the reported line (for one line of a JSONL file). */
function parseText(path: string, text: string, line?: number): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // V8 says "at position N" for some errors and nothing for others; turn it into a line when it does.
    const position = /position (\d+)/.exec(message);
    const at = line ?? (position ? lineOf(text, Number(position[1])) : undefined);
    const shortMessage = message.length > 160 ? `${message.slice(0, 160)}…` : message;
    throw new DataError({ file: path, line: at }, 'data.invalid-json', { reason: shortMessage });
  }
}

function lineOf(text: string, offset: number): number {
  let line = 1;
  for (let i = 0; i < offset && i < text.length; i++) if (text[i] === '\n') line++;
  return line;
}

/** A file whose top level must be a JSON list (WenMind, C3Bench). */
export function parseJsonList(file: RawFile): unknown[] {
  const value = parseText(file.path, decodeUtf8(file));
  if (!Array.isArray(value)) {
    throw new DataError({ file: file.path }, 'data.not-a-json-list', jsonShape(value));
  }
  if (value.length === 0) throw new DataError({ file: file.path }, 'data.empty-json-list');
  return value;
}

/**
 * A JSON Lines file: one value per non-blank line, each with its 1-based line number. A line that is
 * not JSON throws, or, when `problems` is given, is noted there and left out.
 */
export function parseJsonLines(file: RawFile, problems?: ProblemList): { line: number; value: unknown }[] {
  const text = decodeUtf8(file);
  const rows: { line: number; value: unknown }[] = [];
  text.split('\n').forEach((raw, index) => {
    const body = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (body.trim() === '') return;
    const read = () => rows.push({ line: index + 1, value: parseText(file.path, body, index + 1) });
    if (problems) problems.attempt(read);
    else read();
  });
  return rows;
}
