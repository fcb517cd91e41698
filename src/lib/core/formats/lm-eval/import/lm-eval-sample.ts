// A harness run of a sampled run's export (issue 36), recognised as that same sample. The export's
// tasks carry the sample (metadata.jiangu.sampling: draw, seed, order, blocks, the run's limit and the
// task's N) and each doc its place in its task (`jiangu_index`). The seed's draw is made again over the
// task's N places (run-sampling.ts drawSample depends on the places alone, never on the ids), and
// when the harness ran exactly those places (`--samples jiangu_samples.json`) the run is recorded as
// that sample: the same RunSampling, its items in the order the seed gives them (orderRun). A run of
// every doc (no --samples) is recorded as every item of the tasks, in the seed's order. Any other set
// of docs (--limit, an edited samples file) is recorded as the items it has, with a warning. A
// stopped run's export (issue 44, `sampling.stop`) run on the items it asked is that stopped run
// (lm-eval-stopped.ts); other docs of its plan are refused there.
import { drawSample, orderRun, type RunSampling, type SamplingRule, type StopRule } from '../../../protocols/run-sampling.ts';
import { notice, type Notice } from '../../../notices/index.ts';
import type { JianguTaskSampling, JianguTaskStop } from '../lm-eval-tasks.ts';
import { problem, type Obj } from '../../import-validate.ts';
import { stoppedPlan, type PlannedTask } from './lm-eval-stopped.ts';

/** What the import knows of one of its items: its task (and that task's export metadata) and its doc. */
interface Asked {
  /** `name`: the harness's task name, which a refusal's path names. */
  m: { task: string; name?: string; jiangu?: { sampling?: JianguTaskSampling } };
  sample: { doc: unknown };
  itemId: string;
}

export interface ImportedSample<A> {
  /** The run's tasks in its order. */
  tasks: string[];
  /** The items in the run's order. */
  own: A[];
  sampling: RunSampling;
  limitPerTask: number | null;
  /** A stopped run (issue 44): `own` are the first items of this planned order (config.itemIds), then its rule stopped it. */
  stop?: { itemIds: string[]; rule: StopRule };
}

const indexOf = (doc: unknown): number | null => {
  const v = typeof doc === 'object' && doc !== null ? (doc as Obj).jiangu_index : undefined;
  return typeof v === 'number' && Number.isInteger(v) && v >= 0 ? v : null;
};

/** The sample the items are, or null (no sampled export; or other docs than the sample: then a warning). */
export function importedSample<A extends Asked>(catalogTasks: readonly string[], own: readonly A[], warnings: Notice[]): ImportedSample<A> | null {
  const found = catalogTasks.map((task) => own.find((a) => a.m.task === task)?.m.jiangu?.sampling);
  if (found.length === 0 || found.some((s) => s === undefined)) return null;
  const pathOf = (task: string) => `configs.${(own.find((a) => a.m.task === task)?.m.name ?? task).slice(0, 80)}.metadata.jiangu.sampling.stop`;
  const stop = stopOf(catalogTasks, found as JianguTaskSampling[], pathOf);
  // Tasks a stopped run never started are in no doc: their plan is in the metadata.
  const runTasks = [...catalogTasks, ...Object.keys(stop?.unstarted ?? {})];
  // The run's task order where the export wrote it (the shuffled order gives tasks their turns in it).
  const stated = found[0]!.tasks;
  const allTasks = stated !== undefined && stated.length === runTasks.length && runTasks.every((t) => stated.includes(t));
  const tasks = allTasks ? stated : runTasks;
  const metas = tasks.map((task) => found[catalogTasks.indexOf(task)]);
  const first = found[0]!;
  const rule: SamplingRule = { draw: first.draw, seed: first.seed, order: first.order, block: first.block, ...(first.growth !== undefined ? { growth: first.growth } : {}), ...(first.maxBlock !== undefined ? { maxBlock: first.maxBlock } : {}) };
  const same = (s: JianguTaskSampling) =>
    s.draw === first.draw && s.seed === first.seed && s.order === first.order && s.block === first.block && s.growth === first.growth && s.maxBlock === first.maxBlock && s.limitPerTask === first.limitPerTask && String(s.tasks) === String(first.tasks);
  const other = () => {
    warnings.push(notice('import.lm-eval-other-sample', { draw: first.draw, seed: first.seed, perTask: first.limitPerTask }));
    return null;
  };
  if (!found.every((s) => same(s!))) return other();
  // Some of a stopped run's tasks alone (--tasks naming one): not the run that stopped, but items it has.
  if (stop && !allTasks) return other();
  const population: Record<string, number> = {};
  const chosen: { task: string; itemIds: string[] }[] = [];
  const planned: PlannedTask<A>[] = [];
  let whole = true;
  let sampled = true;
  let inPlan = true;
  for (const [t, task] of tasks.entries()) {
    const n = metas[t]?.population ?? stop!.unstarted![task].population;
    population[task] = n;
    const mine = own.filter((a) => a.m.task === task);
    const places = mine.map((a) => indexOf(a.sample.doc));
    if (places.some((p) => p === null || p >= n) || new Set(places).size !== places.length) return other();
    // The draw over the task's places: names are the places themselves (the draw never reads them).
    const drawn = drawSample([{ task, itemIds: Array.from({ length: n }, (_, i) => String(i)) }], first.limitPerTask, rule)[0].itemIds;
    const have = new Set(places.map(String));
    if (!(drawn.length === have.size && drawn.every((p) => have.has(p)))) sampled = false;
    if (have.size !== n) whole = false;
    const inDraw = new Set(drawn);
    if (![...have].every((p) => inDraw.has(p))) inPlan = false;
    if (stop) planned.push({ task, metaPath: pathOf(task), drawn: drawn.map(Number), ran: mine.map((a) => ({ a, place: indexOf(a.sample.doc)!, itemId: a.itemId })), unasked: metas[t]?.stop?.unasked ?? stop.unstarted![task].unasked });
    // The task's items in file order, as orderRun takes them.
    chosen.push({ task, itemIds: [...mine].sort((a, b) => indexOf(a.sample.doc)! - indexOf(b.sample.doc)!).map((a) => a.itemId) });
  }
  // A stopped run's docs within its plan must be the items it asked (a run of every doc claims no stop).
  if (stop && !whole && inPlan) {
    const plan = stoppedPlan(planned, rule, stop);
    return { tasks: [...tasks], own: plan.own, sampling: { ...rule, population }, limitPerTask: first.limitPerTask, stop: { itemIds: plan.itemIds, rule: plan.rule } };
  }
  if (!sampled && !whole) return other();
  const byId = new Map(own.map((a) => [a.itemId, a]));
  const order = orderRun(chosen, rule);
  return {
    tasks: [...tasks],
    own: order.map((id) => byId.get(id)!),
    sampling: { ...rule, population },
    // Every doc run: every item of the tasks, whatever the export's limit.
    limitPerTask: sampled ? first.limitPerTask : null,
  };
}

/**
 * The stop every task's metadata states (the same in each, bar the task's own unasked items), or null.
 *
 * @throws FieldProblem import.lm-eval-jiangu-metadata where they differ, or an unstarted task has docs.
 */
function stopOf(catalogTasks: readonly string[], found: readonly JianguTaskSampling[], pathOf: (task: string) => string): JianguTaskStop | null {
  const shared = (s: JianguTaskSampling) => (s.stop ? JSON.stringify({ ...s.stop, unasked: null }) : null);
  const first = found[0].stop ?? null;
  found.forEach((s, t) => {
    if (shared(s) !== shared(found[0])) throw problem('import.lm-eval-jiangu-metadata', { path: pathOf(catalogTasks[t]) });
  });
  const started = Object.keys(first?.unstarted ?? {}).find((task) => catalogTasks.includes(task));
  if (started !== undefined) throw problem('import.lm-eval-jiangu-metadata', { path: `${pathOf(started)}.unstarted` });
  return first;
}
