// A harness run of a stopped run's export (issue 44), read back as that same stopped run. The export
// (export/run-sample.ts) named in `--samples` only the items the run asked, the first `asked` of its
// planned order, and wrote in each task's metadata.jiangu.sampling.stop where the run stopped, its
// rule and the ids of the planned items it never asked. Here the plan is drawn and ordered again
// over the tasks' places (run-sampling.ts, as lm-eval-sample.ts does for any sample) and the docs
// the harness ran must be exactly its first `asked` places: then the run is recorded with its whole
// planned order as itemIds, its stop rule, and results for those items alone, which is what
// stoppedByRule reads as a run its rule stopped.
//
// Docs of the plan other than that prefix (an edited samples file: an item dropped, one added past
// the stop, the whole plan) are refused, as is a stop point the plan does not reach: either would
// be recorded as a run that stopped where it did not. (A run of every doc, or of docs outside the
// plan such as --limit's, claims no stop and is read as lm-eval-sample.ts reads it.)
import { orderRun, type SamplingRule, type StopRule } from '../../../protocols/run-sampling.ts';
import type { JianguTaskStop } from '../lm-eval-tasks.ts';
import { problem } from '../../import-validate.ts';

/** One task of the plan: its planned places (ascending), the docs the harness ran of it (with their places), its unasked ids. */
export interface PlannedTask<A> {
  task: string;
  /** Where a refusal names the task's metadata: `configs.<harness task>.metadata.jiangu.sampling.stop`. */
  metaPath: string;
  drawn: readonly number[];
  ran: readonly { a: A; place: number; itemId: string }[];
  unasked: readonly string[];
}

export interface StoppedPlan<A> {
  /** The items the harness ran, in the run's order: its first `asked` planned items. */
  own: A[];
  /** The whole planned order (config.itemIds). */
  itemIds: string[];
  rule: StopRule;
}

/**
 * The stopped run the docs are, or a refusal.
 *
 * @throws FieldProblem import.lm-eval-stop-beyond-plan (the stop is not inside the plan),
 *   import.lm-eval-jiangu-metadata (`planned` is not the plan's size), import.lm-eval-stop-not-prefix
 *   (the docs are not the first `asked` of the plan), import.lm-eval-stop-unasked (the metadata lists
 *   another number of unasked items than the plan leaves), import.duplicate (an unasked id twice, or
 *   one the harness ran).
 */
export function stoppedPlan<A>(tasks: readonly PlannedTask<A>[], rule: SamplingRule, stop: JianguTaskStop): StoppedPlan<A> {
  // Keys of the plan's places: the order depends on the places alone (orderRun shuffles positions).
  const key = (t: number, place: number) => `${t}:${place}`;
  const order = orderRun(
    tasks.map((p, t) => ({ task: p.task, itemIds: p.drawn.map((place) => key(t, place)) })),
    rule,
  );
  const path = tasks[0].metaPath;
  if (stop.asked >= order.length) throw problem('import.lm-eval-stop-beyond-plan', { path: `${path}.asked`, asked: stop.asked, planned: order.length });
  if (stop.planned !== order.length) throw problem('import.lm-eval-jiangu-metadata', { path: `${path}.planned` });
  const ran = new Map(tasks.flatMap((p, t) => p.ran.map((r) => [key(t, r.place), r] as const)));
  // The first place where "in the prefix" and "ran" disagree names the fault: a prefix item not run, or a later one run.
  const at = order.findIndex((k, i) => i < stop.asked !== ran.has(k));
  if (at >= 0) {
    const [t, place] = order[at].split(':').map(Number);
    throw problem('import.lm-eval-stop-not-prefix', { asked: stop.asked, found: ran.size, task: tasks[t].task, index: place, position: at + 1, ran: ran.has(order[at]) });
  }
  // The unasked places of each task, ascending, take its unasked ids in the metadata's (file) order.
  const idOf = new Map<string, string>();
  for (const [t, p] of tasks.entries()) {
    for (const r of p.ran) idOf.set(key(t, r.place), r.itemId);
    const open = p.drawn.filter((place) => !ran.has(key(t, place)));
    if (open.length !== p.unasked.length) throw problem('import.lm-eval-stop-unasked', { task: p.task, expected: open.length, found: p.unasked.length });
    open.forEach((place, j) => idOf.set(key(t, place), p.unasked[j]));
  }
  const itemIds = order.map((k) => idOf.get(k)!);
  const seen = new Map<string, number>();
  for (const [i, id] of itemIds.entries()) {
    const first = seen.get(id);
    if (first !== undefined) {
      // The later of the two is an unasked id: the asked ones come first and are the docs' own (checked unique).
      const [t] = order[i].split(':').map(Number);
      throw problem('import.duplicate', { path: `${tasks[t].metaPath}.unasked`, value: id, first });
    }
    seen.set(id, i);
  }
  return { own: order.slice(0, stop.asked).map((k) => ran.get(k)!.a), itemIds, rule: stop.rule };
}
