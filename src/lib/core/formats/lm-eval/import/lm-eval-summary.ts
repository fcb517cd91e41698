// What an lm-evaluation-harness results file states about a run's numbers, and the numbers it is
// compared with, recomputed from the run's items (the page's "the file's summary agrees with its
// items"). The harness states, per task it scored, `acc,none` (the mean of its docs' acc), and for its
// stock `aclue` group the size-weighted mean, which is our pooled accuracy. What it states is compared
// (issue 21), and only that:
//  - an entry without an accuracy states nothing: a generation task beside the multiple-choice ones
//    in the same file (`exact_match`, which Jiangu replaces with its own metrics) or a
//    predictions-only task (`bypass`); neither is a disagreement;
//  - a circular export's `acc` is the mean over every rotated doc, so it is compared with that
//    quantity recomputed from the items (accuracyOverOrders), under `rotations:<task>`, not with
//    rotation 0's accuracy (`task:<task>`);
//  - a task whose items in the run all lack a key is not compared: the harness scored it against
//    answers that do not exist (an AC-EVAL export edited to return "" with `acc` kept);
//  - a task of the benchmark the file states a number for but has no samples of is (recomputed null):
//    the file claims something its items do not hold.
import type { DatasetId } from '../../../benchmarks/types.ts';
import { accuracyOverOrders } from '../../../metrics/circular.ts';
import { summaryMismatches, type RunSummary, type SummaryMismatch } from '../../../metrics/run-summary.ts';
import { finite, type Obj } from '../../import-validate.ts';
import type { McItemResult } from '../../../record/run.ts';

/** A harness group whose `acc` is a summary key of ours (see import-lm-eval.ts LM_EVAL_GROUPS). */
export type HarnessGroups = Readonly<Record<string, { datasetId: DatasetId; key: string }>>;

/** The key under which a circular export's per-task `acc` (the mean over all its rotated docs) is compared. */
export const rotationsKey = (task: string): string => `rotations:${task}`;

/**
 * `acc,none` (0.4 harness) or `acc` (older), as percent; null when the task's entry has neither as a
 * finite number. It is shown beside the recomputation, so an accuracy outside [0, 1] is refused
 * naming it (`path`: `results.<task>`).
 */
function storedAccuracy(metrics: unknown, path: string): number | null {
  if (typeof metrics !== 'object' || metrics === null) return null;
  const m = metrics as Obj;
  const key = m['acc,none'] !== undefined ? 'acc,none' : 'acc';
  const acc = m[key];
  if (acc === undefined || acc === null) return null;
  // A samples file's dialect writes numbers as strings ("0.5"); anything else stated is refused.
  const n = typeof acc === 'string' && acc.trim() !== '' && Number.isFinite(Number(acc)) ? Number(acc) : acc;
  return 100 * finite(n, `${path}.${key}`, 0, 1);
}

/** A harness task name, as this import reads it: its benchmark and task, undefined for one it does not know. */
export type TaskOf = (name: string) => { datasetId: DatasetId; task: string } | undefined;

/** The accuracies the results file states about this benchmark (`circular`: Jiangu's circular export); null when it states none. */
export function storedSummaryOf(results: Obj, datasetId: DatasetId, taskOf: TaskOf, circular: boolean, groups: HarnessGroups): RunSummary | null {
  const stored: RunSummary = {};
  for (const [name, metrics] of Object.entries(results)) {
    const acc = storedAccuracy(metrics, `results.${name.slice(0, 80)}`);
    if (acc === null) continue;
    const task = taskOf(name);
    if (task !== undefined) {
      // One results file may hold several benchmarks: each run states only its own.
      if (task.datasetId === datasetId) stored[circular ? rotationsKey(task.task) : `task:${task.task}`] = acc;
    } else if (Object.hasOwn(groups, name) && groups[name].datasetId === datasetId) {
      stored[groups[name].key] = acc;
    }
    // Anything else (another group, a task this site does not read) states nothing about this run.
  }
  return Object.keys(stored).length > 0 ? stored : null;
}

/**
 * Where the stated numbers disagree with the same numbers recomputed from the items (`recomputed`:
 * the run's summary; the accuracies over every rotation are computed here from `results`).
 */
export function storedSummaryMismatches(stored: RunSummary, recomputed: RunSummary, results: readonly McItemResult[]): SummaryMismatch[] {
  const overOrders = accuracyOverOrders(results);
  const keyless = new Set<string>();
  for (const task of new Set(results.map((r) => r.task))) if (results.every((r) => r.task !== task || r.correct === null)) keyless.add(task);
  const comparable: RunSummary = {};
  const stated: RunSummary = {};
  for (const key of Object.keys(stored)) {
    const task = /^(?:task|rotations):(.*)$/s.exec(key)?.[1];
    if (task !== undefined && keyless.has(task)) continue;
    const accuracy = key.startsWith('rotations:') ? (overOrders.get(task!) ?? null) : null;
    comparable[key] = key.startsWith('rotations:') ? (accuracy === null ? null : 100 * accuracy) : (recomputed[key] ?? null);
    stated[key] = stored[key];
  }
  return summaryMismatches(stated, comparable);
}
