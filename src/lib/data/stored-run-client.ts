// The page's side of workers/stored-run.worker.ts (issue 35): a large stored run is read, checked and
// its bootstrap intervals computed there, so opening a paper-size run holds up the page for no long
// task. A small run (WORKER_FROM_RESULTS or fewer results) stays on the page: starting a worker would
// cost it more than the work. Should the worker fail, the page does the work itself (the same
// functions): slower, never different; `readIn` / `computedIn` / `sizedIn` say which was used.
import type { DatasetId, Item } from '../core/benchmarks/types.ts';
import { compareContinuousRuns, type ContinuousComparison, type ContinuousRun } from '../core/metrics/compare-continuous-runs.ts';
import { aggregateContinuous, type ContinuousAggregate, type ContinuousItem, type ContinuousMetric } from '../core/metrics/continuous.ts';
import type { ItemResult } from '../core/record/run.ts';
import { loadResults, readRunChecked, type CheckedRun } from '../store/runs.ts';
import { sampleOfRun, type PaceSample } from '../core/metrics/run-estimate.ts';
import { estimateTarget, itemsToRead, type EstimateTarget, type TargetRequest } from './estimate-target.ts';
import { DB_NAME, type JianguDatabase } from '../store/schema.ts';
import { estimateOfResults, type StoredEstimate } from './stored-estimate.ts';
import { itemsForPrecision, type PrecisionPlan } from '../core/metrics/precision-items.ts';
import type { RunRecord } from '../core/record/run.ts';
import { WORKER_FROM_RESULTS, type PairedSequenceResult, type StoredRunPart, type StoredRunReply, type StoredRunRequest, type StoredRunTask } from './stored-run-work.ts';

/** Where a page's work was done: in the stored-run worker, or on the page itself. */
export type WorkPlace = 'worker' | 'page';

const defaultStoredRunWorker = () => new Worker(new URL('../../../workers/stored-run.worker.ts', import.meta.url), { type: 'module', name: 'jiangu-stored-run' });

let worker: Worker | null = null;
let nextId = 0;
const pending = new Map<number, { onPart: (part: StoredRunPart) => void; onFailed: (detail: string) => void }>();

/** The one worker, started on first use; a worker that died is replaced on the next request. */
function theWorker(): Worker {
  if (worker) return worker;
  const w = defaultStoredRunWorker();
  w.addEventListener('message', (event: MessageEvent<StoredRunReply>) => {
    const m = event.data;
    const handler = pending.get(m.id);
    if (!handler) return;
    if (m.type === 'failed') {
      pending.delete(m.id);
      handler.onFailed(m.detail);
    } else {
      if (m.type === 'done') pending.delete(m.id);
      handler.onPart(m);
    }
  });
  w.addEventListener('error', (event) => {
    event.preventDefault();
    worker = null;
    w.terminate();
    for (const [id, handler] of pending) {
      pending.delete(id);
      handler.onFailed(event.message || 'the worker stopped');
    }
  });
  worker = w;
  return w;
}

/** Sends `task`; `onPart` hears each part of the answer (the last is `done`). Rejects with the worker's failure. */
function ask(task: StoredRunTask, onPart: (part: StoredRunPart) => void, dbName = DB_NAME): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const id = nextId++;
    pending.set(id, {
      onPart: (part) => (part.type === 'done' ? resolve() : onPart(part)),
      onFailed: (detail) => reject(new Error(detail)),
    });
    theWorker().postMessage({ id, dbName, task } satisfies StoredRunRequest);
  });
}

/**
 * A stored run and its results, checked (store/runs.ts readRunChecked): in the worker when the run
 * has more than WORKER_FROM_RESULTS results (counted from the index: nothing is read for it), on the
 * page otherwise or when the worker fails. `withoutPrompts`: a page that shows no prompt (Compare)
 * may get a large run's results with empty prompts (checked whole first).
 */
export async function readStoredRun(db: JianguDatabase, runId: string, options: { withoutPrompts?: boolean } = {}): Promise<{ checked: CheckedRun; readIn: WorkPlace }> {
  const count = await db.countFromIndex('results', 'by-run', runId);
  if (count <= WORKER_FROM_RESULTS) return { checked: await readRunChecked(db, runId), readIn: 'page' };
  try {
    let checked: CheckedRun = null;
    const results: ItemResult[] = [];
    await ask(
      { kind: 'read', runId, withoutPrompts: options.withoutPrompts },
      (part) => {
        if (part.type === 'checked') checked = part.checked;
        else if (part.type === 'run') checked = { run: part.run, results };
        else if (part.type === 'results') for (const r of part.results) results.push(r);
      },
      // The worker opens the same database the page has open.
      db.name,
    );
    return { checked, readIn: 'worker' };
  } catch {
    return { checked: await readRunChecked(db, runId), readIn: 'page' };
  }
}

/** Whether continuous scores over `items` are worth the worker (more than WORKER_FROM_RESULTS of them). */
export const continuousInWorker = (items: number): boolean => items > WORKER_FROM_RESULTS;

/** aggregateContinuous of each metric, in the worker (on the page should it fail). */
export async function continuousAggregates(datasetId: DatasetId, items: readonly ContinuousItem[], metrics: readonly ContinuousMetric[], order: readonly string[]): Promise<{ aggregates: ContinuousAggregate[]; computedIn: WorkPlace }> {
  try {
    let aggregates: ContinuousAggregate[] = [];
    await ask({ kind: 'continuous', datasetId, items, metrics, order }, (part) => {
      if (part.type === 'continuous') aggregates = part.aggregates;
    });
    return { aggregates, computedIn: 'worker' };
  } catch {
    return { aggregates: metrics.map((m) => aggregateContinuous(datasetId, items, m, order)), computedIn: 'page' };
  }
}

/** compareContinuousRuns of each other run against the baseline, in the worker (on the page should it fail). */
export async function continuousComparisons(datasetId: DatasetId, baseline: ContinuousRun | null, others: readonly (ContinuousRun | null)[], order: readonly string[]): Promise<{ comparisons: ContinuousComparison[]; computedIn: WorkPlace }> {
  try {
    let comparisons: ContinuousComparison[] = [];
    await ask({ kind: 'compare-continuous', datasetId, baseline, others, order }, (part) => {
      if (part.type === 'compared') comparisons = part.comparisons;
    });
    return { comparisons, computedIn: 'worker' };
  } catch {
    return { comparisons: others.map((other) => compareContinuousRuns(datasetId, baseline, other, order)), computedIn: 'page' };
  }
}

/**
 * The Evaluate page's estimate target (estimate-target.ts): its items and their prompts' characters.
 * A configuration that reads more than WORKER_FROM_RESULTS items (itemsToRead: counted from the
 * dataset's record) is read and sized in the worker; a smaller one on the page, at once. Should the worker fail (or the
 * configuration have no items, which the page then says itself), the page does it.
 */
export async function configuredTarget(db: JianguDatabase, request: TargetRequest): Promise<EstimateTarget & { sizedIn: WorkPlace }> {
  if ((await itemsToRead(db, request)) <= WORKER_FROM_RESULTS) return { ...(await estimateTarget(db, request)), sizedIn: 'page' };
  try {
    let target: EstimateTarget | null = null;
    await ask(
      { kind: 'estimate-target', request },
      (part) => {
        if (part.type === 'target') target = part.target;
      },
      db.name,
    );
    if (target) return { ...(target as EstimateTarget), sizedIn: 'worker' };
  } catch {
    // Done on the page below.
  }
  return { ...(await estimateTarget(db, request)), sizedIn: 'page' };
}

/**
 * The whole benchmark's estimate of a stored run whose results the page holds: for more than
 * WORKER_FROM_RESULTS of them in the worker (which reads them from the store itself: nothing large is
 * sent), else on the page at once; on the page too should the worker fail.
 */
export async function storedRunEstimate(db: JianguDatabase, run: RunRecord, results: readonly ItemResult[]): Promise<{ estimate: StoredEstimate; computedIn: WorkPlace }> {
  if (results.length <= WORKER_FROM_RESULTS) return { estimate: estimateOfResults(run, results), computedIn: 'page' };
  try {
    let estimate: StoredEstimate = null;
    await ask(
      { kind: 'benchmark-estimate', runId: run.id },
      (part) => {
        if (part.type === 'estimate') estimate = part.estimate;
      },
      db.name,
    );
    return { estimate, computedIn: 'worker' };
  } catch {
    return { estimate: estimateOfResults(run, results), computedIn: 'page' };
  }
}

/**
 * A pace sample of a stored run (run-estimate.ts sampleOfRun): a run of more than
 * WORKER_FROM_RESULTS results is read and sampled in the worker (reading a paper-size run's results
 * on the page was a task of 0.5–0.9 s on the Evaluate page), a smaller one here; here too should the worker fail.
 */
export async function paceSampleOf(db: JianguDatabase, run: RunRecord, model: string): Promise<PaceSample | null> {
  const onPage = async () => sampleOfRun(run, await loadResults(db, run.id), model);
  if ((await db.countFromIndex('results', 'by-run', run.id)) <= WORKER_FROM_RESULTS) return onPage();
  try {
    let sample: PaceSample | null = null;
    await ask(
      { kind: 'pace-sample', runId: run.id, model },
      (part) => {
        if (part.type === 'pace') sample = part.sample;
      },
      db.name,
    );
    return sample;
  } catch {
    return onPage();
  }
}

/**
 * Compare's paired sequences of `otherIds` against `baselineId` (compare-sequence.ts), computed in
 * the worker from the stored runs (nothing large crosses to it); `onPage` computes them here, for
 * small runs (WORKER_FROM_RESULTS or fewer results in all) and should the worker fail.
 */
export async function pairedSequencesOf(
  db: JianguDatabase,
  request: { datasetId: DatasetId; baselineId: string; otherIds: readonly string[]; results: number },
  onPage: () => (PairedSequenceResult | null)[],
): Promise<{ sequences: (PairedSequenceResult | null)[]; computedIn: WorkPlace }> {
  if (request.results <= WORKER_FROM_RESULTS) return { sequences: onPage(), computedIn: 'page' };
  try {
    let sequences: (PairedSequenceResult | null)[] | null = null;
    await ask(
      { kind: 'paired-sequence', datasetId: request.datasetId, baselineId: request.baselineId, otherIds: request.otherIds },
      (part) => {
        if (part.type === 'paired') sequences = part.sequences;
      },
      db.name,
    );
    if (sequences) return { sequences, computedIn: 'worker' };
  } catch {
    // Done on the page below.
  }
  return { sequences: onPage(), computedIn: 'page' };
}

/** The precision stop's plan (core/metrics/precision-items.ts) in the worker; on the page should it fail. */
export async function precisionPlanInWorker(...args: Parameters<typeof itemsForPrecision>): Promise<PrecisionPlan> {
  try {
    let plan: PrecisionPlan | null = null;
    await ask({ kind: 'precision-plan', args }, (part) => {
      if (part.type === 'plan') plan = part.plan;
    });
    if (plan) return plan;
  } catch {
    // Done on the page below.
  }
  return itemsForPrecision(...args);
}

/** Items per read of readItemsInChunks: each read's result is taken in by the page in its own task. */
export const ITEMS_PER_READ = 2_000;

/**
 * A dataset's stored items (in key order), read ITEMS_PER_READ at a time: one getAll of a
 * paper-size dataset's 28,707 items is taken in by the page in one long task; chunks keep each short.
 */
export async function readItemsInChunks(db: JianguDatabase, datasetId: DatasetId): Promise<Item[]> {
  const items: Item[] = [];
  let range = IDBKeyRange.bound([datasetId], [datasetId, []]);
  for (;;) {
    const chunk = await db.getAll('items', range, ITEMS_PER_READ);
    for (const item of chunk) items.push(item);
    if (chunk.length < ITEMS_PER_READ) return items;
    range = IDBKeyRange.bound([datasetId, chunk[chunk.length - 1].id], [datasetId, []], true);
  }
}
