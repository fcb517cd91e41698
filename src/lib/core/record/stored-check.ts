// Whether a record read back from IndexedDB can be shown. A record is stored by this site, but the
// store is not a trust boundary: an older version, a bug, another tab of a newer version or a hand
// editing IndexedDB can leave a record a page cannot draw (issue 34). Every page that reads stored
// runs asks here first, so one bad record is named and set aside instead of stopping the page.
//
// The check is the run-file reader's (readJianguRun): a stored run and its results are what a run
// file holds, so the same field-by-field checks (types, bounds, each prediction against its
// log-probabilities) apply, and a problem is named by the same path (`results[3].probs`). What those
// checks cannot foresee (a computation that throws on values they let through) is caught by the
// pages' error boundaries (src/ui/evaluate/UnreadableRun.svelte).
import { readJianguRun } from '../formats/jiangu-run/import-jiangu.ts';
import { FieldProblem, refusal, type Refusal } from '../formats/import-validate.ts';
import type { Notice } from '../notices/index.ts';

/** A stored record a page cannot show: which one, and what is wrong with it. */
export interface UnreadableRecord {
  /** The record's key in its store. */
  id: string;
  /** Scoring run (runs) or memorization run (probeRuns). */
  store: 'runs' | 'probeRuns';
  /** When it was made, when the record still says so as text; for the page to name it. */
  createdAt: string | null;
  /** The refusal, as a notice naming the field (`results[3].probs: …`), its fileName the record's id. */
  problem: Notice;
}

/**
 * What is wrong with a stored scoring run, or null when a page can show it.
 *
 * @param run The record as read from the runs store (anything: it is not trusted).
 * @param results Its results as read, or null to check the record alone (a list reads no results).
 */
export function storedRunRefusal(run: unknown, results: readonly unknown[] | null): Refusal | null {
  try {
    // Fields only the store writes (the import's key check) are unknown to the reader, which passes them by.
    readJianguRun({ format: 'jiangu-run', formatVersion: 1, run, results: results ?? [] }, 'stored', new Date(0).toISOString());
    return null;
  } catch (error) {
    if (error instanceof FieldProblem) return error.refusal;
    return refusal('import.unreadable', { detail: error instanceof Error ? `${error.name}: ${error.message}` : String(error) });
  }
}

/** A refusal of record `id`, as a notice a page words (the import catalog's sentence, prefixed with the id). */
export function unreadableNotice(id: string, r: Refusal): Notice {
  return { code: r.code, params: { ...r.params, fileName: id } };
}

/** The id and date a record states, whatever else is wrong with it (for naming it on a page). */
export function recordName(value: unknown, key: string): { id: string; createdAt: string | null } {
  const v = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return { id: key, createdAt: typeof v.createdAt === 'string' ? v.createdAt.slice(0, 40) : null };
}
