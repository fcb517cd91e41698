// A run stopped by its rule (issue 44): the export asks the harness only what the run asked. Such a
// run planned `itemIds` (its sample, in the order it asks them) and asked the first `asked` of them
// before its stop rule ended it (engine/stop-rule.ts stoppedByRule), so `jiangu_samples.json` names
// those docs alone; naming the whole plan made the harness ask 1,500 items of a run that asked 419.
//
// The plan is kept in every task's metadata.jiangu.sampling.stop beside the sample it already
// carries (draw, seed, order, blocks, limit, N): the rule, where the run stopped (`asked` of
// `planned`), and the ids of the task's planned items the run never asked (`unasked`, in file
// order). The harness writes samples only of the docs it ran, so without those ids the import could
// rebuild the places of the plan but not name its unasked items, and the run would come back as
// some other run than the one exported. A task the run had not started (a sign-settled run can
// stop before every task's first turn) is left out of the folder: `--samples` cannot ask no docs of
// a task (an empty or missing list runs every doc), so its plan travels in every other task's
// metadata (`unstarted`). The import (import/lm-eval-stopped.ts) reads it all back.
import type { Item } from '../../../benchmarks/types.ts';
import { jianguError } from '../../../notices/index.ts';
import { sampleRun, type RunSampling, type StopRule } from '../../../protocols/run-sampling.ts';
import type { ItemResult, RunRecord } from '../../../record/run.ts';

/** What a sampled run's export needs of the run: its sample as recorded, its limit and its items. */
export interface LmEvalSample {
  sampling: RunSampling;
  limitPerTask: number | null;
  /** The run's items, in its order (any order will do unless `stop` is set: the run asked the first `stop.asked`). */
  itemIds: readonly string[];
  /** The run's tasks in its order (the order draws tasks' turns); absent: the population's keys. */
  tasks?: readonly string[];
  /** Set for a run its stop rule ended before its last item: the harness is asked only what it asked. */
  stop?: LmEvalStop;
}

/** Where a run stopped by its rule ended: it asked the first `asked` of its sample's itemIds (run order). */
export interface LmEvalStop {
  asked: number;
  rule: StopRule;
}

/** metadata.jiangu.sampling.stop of one exported task (a type, not an interface: the YAML writer takes plain data). */
export type StopMeta = {
  rule: StopRule;
  asked: number;
  planned: number;
  /** This task's planned items the run did not ask, in file order. */
  unasked: string[];
  /** Tasks the run never started (none exported), each with its N and its planned items in file order. */
  unstarted?: Record<string, { population: number; unasked: string[] }>;
};

/** What the folder needs of a stopped run: the items the run asked, and each task's stop metadata. */
export interface StopPlan {
  asked: ReadonlySet<string>;
  /** Tasks with no asked item: not written (the harness would run all their docs). */
  unstarted: ReadonlySet<string>;
  meta(task: string): StopMeta;
}

/**
 * The stop of a sampled export, checked against the stored items: the run's order must be what its
 * sampling draws from them (so the import, which draws it again, finds the same plan), and it must
 * have stopped inside the plan.
 *
 * @throws JianguError export.stop-point, export.stop-not-drawn.
 */
export function stopPlan(datasetId: string, sample: LmEvalSample & { stop: LmEvalStop }, testItems: readonly Item[]): StopPlan {
  const { stop, itemIds } = sample;
  const planned = itemIds.length;
  if (!Number.isInteger(stop.asked) || stop.asked < 1 || stop.asked >= planned) throw jianguError('export.stop-point', { dataset: datasetId, asked: stop.asked, planned });
  const tasks = [...(sample.tasks ?? Object.keys(sample.sampling.population))];
  const population = tasks.map((task) => ({ task, itemIds: testItems.filter((item) => item.task === task).map((item) => item.id) }));
  const rebuilt = sampleRun(population, sample.limitPerTask, sample.sampling).itemIds;
  const at = rebuilt.findIndex((id, i) => id !== itemIds[i]);
  if (at >= 0 || rebuilt.length !== planned) {
    const index = at >= 0 ? at : Math.min(rebuilt.length, planned);
    throw jianguError('export.stop-not-drawn', { dataset: datasetId, index, found: itemIds[index] ?? '', drawn: rebuilt[index] ?? '' });
  }
  const asked = new Set(itemIds.slice(0, stop.asked));
  const plannedSet = new Set(itemIds);
  // File order: the import gives the k-th unasked id the k-th unasked place of the task's draw.
  const unaskedOf = (task: string) => population.find((p) => p.task === task)!.itemIds.filter((id) => plannedSet.has(id) && !asked.has(id));
  const taskOf = new Map(testItems.map((item) => [item.id, item.task]));
  const started = new Set([...asked].map((id) => taskOf.get(id)));
  const unstartedTasks = tasks.filter((task) => !started.has(task));
  const unstarted = Object.fromEntries(unstartedTasks.map((task) => [task, { population: sample.sampling.population[task] ?? 0, unasked: unaskedOf(task) }]));
  return {
    asked,
    unstarted: new Set(unstartedTasks),
    meta: (task) => ({ rule: { ...stop.rule }, asked: stop.asked, planned, unasked: unaskedOf(task), ...(unstartedTasks.length > 0 ? { unstarted } : {}) }),
  };
}

/**
 * A stored run's export sample: its sample as recorded, and where it stopped when its rule stopped
 * it (stoppedByRule's reading: completed with fewer results than items, a stop rule set). The run
 * asks its items in order, so the results are the first of them (failed items included): the stop
 * is after the last one asked. Null for a run without a recorded sample (exported by its items).
 */
export function runExportSample(run: RunRecord, results: readonly Pick<ItemResult, 'index'>[]): LmEvalSample | null {
  const c = run.config;
  if (!c.sampling) return null;
  const sample: LmEvalSample = { sampling: c.sampling, limitPerTask: c.limitPerTask, itemIds: [...c.itemIds], tasks: [...c.tasks] };
  const stopped = run.status === 'completed' && c.stopRule !== undefined && results.length < c.itemIds.length;
  if (!stopped || results.length === 0) return sample;
  const asked = results.reduce((last, r) => Math.max(last, r.index), -1) + 1;
  return asked < c.itemIds.length ? { ...sample, stop: { asked, rule: c.stopRule! } } : sample;
}
