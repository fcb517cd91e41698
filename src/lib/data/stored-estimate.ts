// The whole benchmark's estimate of a stored multiple-choice run (core/metrics/benchmark-estimate.ts),
// read from the store: what the stored-run worker computes for a run with more than
// WORKER_FROM_RESULTS results (every result fed through each measure's trackers, off the page's
// thread), and what the page computes itself for a smaller one or should the worker fail.
import { estimateOfRun, type BenchmarkEstimate } from '../core/metrics/benchmark-estimate.ts';
import type { McItemResult, McRunRecord, RunRecord } from '../core/record/run.ts';
import { getRun, loadResults } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';

/** Null for a run that is not stored or not multiple choice. */
export type StoredEstimate = BenchmarkEstimate | null;

/** The estimate of a run from its results (any order: fed in run order). */
export function estimateOfResults(run: RunRecord, results: readonly unknown[]): StoredEstimate {
  if (run.config.kind !== 'multiple-choice') return null;
  return estimateOfRun((run as McRunRecord).config, run.datasetId, results as McItemResult[]);
}

export async function estimateOfStoredRun(db: JianguDatabase, runId: string): Promise<StoredEstimate> {
  const run = await getRun(db, runId);
  return run ? estimateOfResults(run, await loadResults(db, runId)) : null;
}
