// "Run B on A's sample" (issue 36): a new run of another model with run A's configuration, the same
// sample drawn by the same seed and asked in the same order, that stops by itself once the paired
// difference "B − A" has a confidence sequence excluding 0 (the 'sign-settled' stop rule,
// stop-rule-paired.ts). Everything but the model is A's, so the difference is the models'.
import { PAIRED_SEQUENCE_ALPHA, pairedOrderProblem } from '../core/metrics/compare-sequence.ts';
import { estimateTargetOf } from '../core/metrics/benchmark-estimate.ts';
import { jianguError } from '../core/notices/index.ts';
import type { McRunRecord, RunModel } from '../core/record/run.ts';
import { deleteRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { createMcRun, wasmRerunRequest, type NewMcRun } from './run-setup.ts';

/** Whether a run's order lets another model be run on its sample with a paired stop. */
export function pairableBaseline(run: McRunRecord): boolean {
  return estimateTargetOf(run.config) !== 'asked-in-file-order';
}

/** The request for model `model` on `baseline`'s sample and order, stopping when the sign is settled. */
export function pairedRunRequest(baseline: McRunRecord, model: RunModel, alpha = PAIRED_SEQUENCE_ALPHA): NewMcRun {
  const sampling = baseline.config.sampling;
  if (!sampling || !pairableBaseline(baseline)) throw jianguError('compare.paired-no-order');
  return {
    // A's scoring, shots, context limit, rotations; a context limit only where A's user asked for one.
    ...wasmRerunRequest(baseline),
    model,
    sampling: { draw: sampling.draw, seed: sampling.seed },
    stopRule: { kind: 'sign-settled', baselineRunId: baseline.id, alpha },
  };
}

/**
 * Creates (does not start) the run of `model` on `baseline`'s sample. Refused, and removed, when the
 * items it would ask here are not A's in A's order (the stored data changed since A ran).
 */
export async function createPairedRun(db: JianguDatabase, baseline: McRunRecord, model: RunModel, alpha = PAIRED_SEQUENCE_ALPHA): Promise<McRunRecord> {
  const run = await createMcRun(db, pairedRunRequest(baseline, model, alpha));
  if (pairedOrderProblem({ ...baseline.config, datasetId: baseline.datasetId }, { ...run.config, datasetId: run.datasetId }) !== null) {
    await deleteRun(db, run.id);
    throw jianguError('compare.paired-other-items');
  }
  return run;
}
