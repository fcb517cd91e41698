// The tasks an lm-eval output names that this site does not read: left out of the run, and said so on
// it (issue 46: a results file naming 10,000 unknown tasks imported without a word about them). The
// list a warning or refusal carries is bounded, whatever the file holds: the first SKIPPED_SHOWN
// names, each cut to SKIPPED_NAME_CHARS, and how many more there were.
import { notice, type Notice } from '../../../notices/index.ts';
import type { Obj } from '../../import-validate.ts';

/** How many skipped task names a notice names; the rest are counted. */
export const SKIPPED_SHOWN = 20;
/** The longest task name a notice shows (the harness's are under 60). */
export const SKIPPED_NAME_CHARS = 80;

/** What a notice about skipped tasks carries: the first names, and how many more. */
export function shownSkipped(names: readonly string[]): { skipped: string[]; more: number } {
  return { skipped: names.slice(0, SKIPPED_SHOWN).map((name) => name.slice(0, SKIPPED_NAME_CHARS)), more: Math.max(0, names.length - SKIPPED_SHOWN) };
}

/** The warning on a run that tasks were left out; null when none were. */
export function skippedTasksNotice(names: readonly string[]): Notice | null {
  return names.length === 0 ? null : notice('import.lm-eval-tasks-skipped', shownSkipped(names));
}

const keysOf = (value: unknown): string[] => (typeof value === 'object' && value !== null && !Array.isArray(value) ? Object.keys(value) : []);

/**
 * The task names a results file configures or scores (`configs`, then `results`) that `reads` does
 * not take, in the file's order, each once. Groups are not tasks: those the file declares (`groups`,
 * `group_subtasks`) and `knownGroups` (whose numbers the import compares) are left aside.
 *
 * @param root The results file (or dumped dict) as parsed.
 * @param reads Whether the site reads a task of this name.
 * @param knownGroups Group names the import knows.
 */
export function unreadTasks(root: Obj, reads: (name: string) => boolean, knownGroups: readonly string[] = []): string[] {
  const groups = new Set([...keysOf(root.groups), ...keysOf(root.group_subtasks), ...knownGroups]);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const name of [...keysOf(root.configs), ...keysOf(root.results)]) {
    if (seen.has(name) || groups.has(name) || reads(name)) continue;
    seen.add(name);
    out.push(name);
  }
  return out;
}
