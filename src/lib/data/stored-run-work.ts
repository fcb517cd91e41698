// What workers/stored-run.worker.ts does for the pages that show a large stored run (issue 35): read
// a run and its results from the store and check them (the run-file reader's checks, ~0.8 s for
// 28,707 results), and the bootstrap intervals of continuous scores (1–2 s for a run that size).
// Off the page's thread, a paper-size run opens without a long task; the numbers are the same
// functions' with the same seeds, so the page shows what it would have computed itself. And the
// Evaluate page's time estimate for a large configuration: its items read and every prompt's size
// counted (estimate-target.ts; about a second for 28,707 items).
import type { DatasetId } from '../core/benchmarks/types.ts';
import { compareContinuousRuns, type ContinuousComparison, type ContinuousRun } from '../core/metrics/compare-continuous-runs.ts';
import { aggregateContinuous, type ContinuousAggregate, type ContinuousItem, type ContinuousMetric } from '../core/metrics/continuous.ts';
import type { ItemResult } from '../core/record/run.ts';
import { estimateTarget, type EstimateTarget, type TargetRequest } from './estimate-target.ts';
import { readRunChecked, type CheckedRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { estimateOfStoredRun, type StoredEstimate } from './stored-estimate.ts';
import { itemsForPrecision, type PrecisionPlan } from '../core/metrics/precision-items.ts';
import { sampleOfRun, type PaceSample } from '../core/metrics/run-estimate.ts';
import { pairedSequence } from '../core/metrics/compare-sequence.ts';
import type { McItemResult } from '../core/record/run.ts';
import { getRun, loadResults } from '../store/runs.ts';

/** Runs with more results than this are read and scored in the worker; fewer stay on the page (no worker start). */
export const WORKER_FROM_RESULTS = 2_000;

/** Results per message back: each message is its own task on the page, so a big run arrives in short ones. */
export const RESULTS_PER_MESSAGE = 2_000;

export type StoredRunTask =
  /** `withoutPrompts`: each result's prompt comes back empty (Compare reads none; 28,707 prompts are ~30 MB for the page to take in). */
  | { kind: 'read'; runId: string; withoutPrompts?: boolean }
  | { kind: 'continuous'; datasetId: DatasetId; items: readonly ContinuousItem[]; metrics: readonly ContinuousMetric[]; order: readonly string[] }
  | { kind: 'compare-continuous'; datasetId: DatasetId; baseline: ContinuousRun | null; others: readonly (ContinuousRun | null)[]; order: readonly string[] }
  | { kind: 'estimate-target'; request: TargetRequest }
  /** The whole benchmark's estimate of a stored multiple-choice run (stored-estimate.ts), read from the store here. */
  | { kind: 'benchmark-estimate'; runId: string }
  /** The Evaluate page's precision stop: how many items it should take (precision-items.ts; up to a second or two for AncientBench). */
  | { kind: 'precision-plan'; args: Parameters<typeof itemsForPrecision> }
  /** The Evaluate page's pace from an earlier run (run-estimate.ts sampleOfRun), its results read here: 0.5–0.9 s on the page for 28,657. */
  | { kind: 'pace-sample'; runId: string; model: string }
  /** Compare's paired sequences (compare-sequence.ts) of stored runs against a baseline, each run read from the store here (~0.5 s on the page for a paper-size pair). */
  | { kind: 'paired-sequence'; datasetId: DatasetId; baselineId: string; otherIds: readonly string[] };

export type PairedSequenceResult = ReturnType<typeof pairedSequence>;

export type StoredRunRequest = { id: number; dbName: string; task: StoredRunTask };

/** One message of an answer: a read comes as `run`, then `results` chunks, then `done`; the others in one `done`. */
export type StoredRunPart =
  | { type: 'checked'; checked: Exclude<CheckedRun, { run: unknown }> }
  | { type: 'run'; run: Extract<CheckedRun, { run: unknown }>['run']; total: number }
  | { type: 'results'; results: ItemResult[] }
  | { type: 'continuous'; aggregates: ContinuousAggregate[] }
  | { type: 'compared'; comparisons: ContinuousComparison[] }
  | { type: 'target'; target: EstimateTarget }
  | { type: 'estimate'; estimate: StoredEstimate }
  | { type: 'plan'; plan: PrecisionPlan }
  | { type: 'pace'; sample: PaceSample | null }
  /** One per other run, in order; null where a run is not stored (or is not multiple choice). */
  | { type: 'paired'; sequences: (PairedSequenceResult | null)[] }
  | { type: 'done' };

export type StoredRunReply = ({ id: number } & StoredRunPart) | { id: number; type: 'failed'; detail: string };

/**
 * Does `task`, handing each part of the answer to `send` in order (a read's results in chunks of
 * RESULTS_PER_MESSAGE). `db` is opened only for a read (of a run, or of a configuration's items).
 */
export async function doStoredRunTask(task: StoredRunTask, db: () => Promise<JianguDatabase>, send: (part: StoredRunPart) => void): Promise<void> {
  if (task.kind === 'continuous') {
    send({ type: 'continuous', aggregates: task.metrics.map((m) => aggregateContinuous(task.datasetId, task.items, m, task.order)) });
  } else if (task.kind === 'compare-continuous') {
    send({ type: 'compared', comparisons: task.others.map((other) => compareContinuousRuns(task.datasetId, task.baseline, other, task.order)) });
  } else if (task.kind === 'precision-plan') {
    send({ type: 'plan', plan: itemsForPrecision(...task.args) });
  } else if (task.kind === 'benchmark-estimate') {
    send({ type: 'estimate', estimate: await estimateOfStoredRun(await db(), task.runId) });
  } else if (task.kind === 'pace-sample') {
    const store = await db();
    const run = await getRun(store, task.runId);
    send({ type: 'pace', sample: run ? sampleOfRun(run, await loadResults(store, task.runId), task.model) : null });
  } else if (task.kind === 'paired-sequence') {
    const store = await db();
    const read = async (id: string) => {
      const run = await getRun(store, id);
      return run && run.config.kind === 'multiple-choice' ? { config: { ...run.config, datasetId: run.datasetId }, items: (await loadResults(store, id)) as McItemResult[] } : null;
    };
    const baseline = await read(task.baselineId);
    const sequences: (PairedSequenceResult | null)[] = [];
    for (const id of task.otherIds) {
      const other = baseline && (await read(id));
      sequences.push(baseline && other ? pairedSequence(task.datasetId, baseline, other) : null);
    }
    send({ type: 'paired', sequences });
  } else if (task.kind === 'estimate-target') {
    send({ type: 'target', target: await estimateTarget(await db(), task.request) });
  } else {
    const checked = await readRunChecked(await db(), task.runId);
    if (checked === null || 'unreadable' in checked) send({ type: 'checked', checked });
    else {
      send({ type: 'run', run: checked.run, total: checked.results.length });
      // Checked whole above; only then is a prompt left out of what is sent.
      const sent = task.withoutPrompts ? checked.results.map((r) => ({ ...r, prompt: '' })) : checked.results;
      for (let i = 0; i < sent.length; i += RESULTS_PER_MESSAGE) send({ type: 'results', results: sent.slice(i, i + RESULTS_PER_MESSAGE) });
    }
  }
  send({ type: 'done' });
}
