// The id rule and the "nothing visible" rule for data files, as DataErrors. The rule itself is
// text-safety.ts's, the one the run importer applies: a dataset that passes here makes runs whose
// files the site reads back.
import { invisibleCodePoints, isInvisibleOnly, nameProblem } from '../text-safety.ts';
import { DataError, shorten, type DataErrorLocation } from './errors.ts';

/** What kind of name a data file gives: it words the message. */
export type NameKind = 'id' | 'task' | 'file-name';

/** Refuses an id, task name or file name that is too long or holds an invisible or direction character. */
export function checkName(what: NameKind, value: string, at: DataErrorLocation): void {
  const problem = nameProblem(value);
  if (problem?.kind === 'too-long') throw new DataError(at, 'data.name-too-long', { what, value: shorten(value, 60), max: problem.max, length: problem.length });
  if (problem) throw new DataError(at, 'data.name-invisible', { what, value: shorten(value, 80), codePoint: problem.codePoint, position: problem.position });
}

/**
 * Refuses a question, option, input or reference that has characters but none a reader can see
 * (four options of U+200B look like four answers and are none). `option` names the option when
 * `at.field` holds several (WenMind's options sit inside its question).
 */
export function checkVisible(value: string, at: DataErrorLocation, option: string | null = null): void {
  if (isInvisibleOnly(value)) throw new DataError(at, 'data.only-invisible', { codePoints: invisibleCodePoints(value), option });
}
