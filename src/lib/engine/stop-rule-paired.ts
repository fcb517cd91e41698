// The 'sign-settled' stop rule (issue 36): a run of model B on run A's sample and order stops as
// soon as the paired difference's confidence sequence (core/metrics/compare-sequence.ts) excludes 0,
// so "B is better than A" (or worse) is settled at the moment it stops: the sequence is valid at any
// stopping time, this one included. stop-rule.ts asks it through stopCheckFor.
//
// A's results are read once, when the run starts or resumes (pairedBaselineFor); A is normally
// finished. Were A still running, its items asked later are not seen: the rule only stops later, never
// wrongly. Where A is gone, or was not asked on the same items in the same random order, the rule
// never stops the run (it runs to its last item) and `pairedBaselineFor` says why in `problem`.
import { PairedSequenceEstimator, pairedOrderProblem, type PairedOrderProblem } from '../core/metrics/compare-sequence.ts';
import type { StopRule } from '../core/protocols/run-sampling.ts';
import type { ItemResult, McItemResult, McRunRecord, RunRecord } from '../core/record/run.ts';
import { getRun, loadResults } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import type { StopCheck } from './stop-check.ts';

export type SignSettledRule = Extract<StopRule, { kind: 'sign-settled' }>;

/** Run A of a sign-settled run, as its rule reads it. */
export type PairedBaseline = { run: McRunRecord; results: McItemResult[] } | { problem: 'baseline-missing' | PairedOrderProblem };

/** A's record and results for `run`'s sign-settled rule; null when the run has no such rule. */
export async function pairedBaselineFor(db: JianguDatabase, run: RunRecord): Promise<PairedBaseline | null> {
  const rule = run.config.stopRule;
  if (rule?.kind !== 'sign-settled' || run.config.kind !== 'multiple-choice') return null;
  const baseline = await getRun(db, rule.baselineRunId);
  if (!baseline) return { problem: 'baseline-missing' };
  const problem = pairedOrderProblem({ ...baseline.config, datasetId: baseline.datasetId }, { ...run.config, datasetId: run.datasetId });
  if (problem) return { problem };
  return { run: baseline as McRunRecord, results: (await loadResults(db, baseline.id)) as McItemResult[] };
}

/**
 * The check for a sign-settled run: met once the paired difference "this run − A" has a confidence
 * sequence that lies wholly above or below 0. Null (never stops) without a usable baseline.
 */
export function signSettledStop(run: McRunRecord, rule: SignSettledRule, baseline: PairedBaseline | null, stored: readonly ItemResult[]): StopCheck | null {
  if (!baseline || 'problem' in baseline || baseline.run.id !== rule.baselineRunId) return null;
  const taskOf = new Map(baseline.results.map((r) => [r.itemId, r.task]));
  const estimator = new PairedSequenceEstimator({ ...baseline.run.config, datasetId: baseline.run.datasetId }, run.datasetId, taskOf, { alpha: rule.alpha });
  if (estimator.problem) return null;
  for (const result of baseline.results) estimator.observe(0, result);
  for (const result of stored) estimator.observe(1, result as McItemResult);
  // Combining the strata costs about a millisecond per look on 15 tasks: looked at after every new
  // pair for the first 100, then after every 1% more. Looking less often only stops later (any
  // stopping time is covered by the sequence), never wrongly.
  let lookedAt = -1;
  let settled = false;
  return {
    observe: (result) => estimator.observe(1, result as McItemResult),
    met: () => {
      const pairs = estimator.pairs;
      if (settled || pairs === lookedAt || (pairs > 100 && pairs - lookedAt < Math.ceil(pairs / 100))) return settled;
      lookedAt = pairs;
      const verdict = estimator.verdict();
      settled = verdict === 'other-better' || verdict === 'baseline-better';
      return settled;
    },
  };
}
