// When a run stops by itself before its last item (config.stopRule, issue 36). The scheduler asks
// `met()` before each item it would ask next; once it is true the run is completed with the items it
// asked (run-scheduler.ts), and the run page says why (stoppedByRule).
//
// 'precision': the benchmark's score by its own rule, estimated from the items scored so far in the
// run's order (core/metrics/benchmark-estimate.ts), has a confidence sequence of half-width at most
// `halfWidth`. The confidence sequence, not the fixed-n interval: the run looks after every item and
// stops when it likes, which is exactly the optional stopping a fixed-n interval does not survive.
// Only multiple-choice runs whose items are a random sample in a random order have such an estimate;
// for any other run the rule never stops it (it runs to its last item).
import { BenchmarkEstimator, halfWidthOf } from '../core/metrics/benchmark-estimate.ts';
import type { StopRule } from '../core/protocols/run-sampling.ts';
import type { ItemResult, McItemResult, McRunRecord, RunRecord } from '../core/record/run.ts';
import { signSettledStop, type PairedBaseline } from './stop-rule-paired.ts';
import type { StopCheck } from './stop-check.ts';

export { pairedBaselineFor } from './stop-rule-paired.ts';

export type { StopCheck } from './stop-check.ts';

/**
 * The share of the run's time the precision check may take. The confidence sequence of a score of
 * many tasks costs milliseconds (tens for ACLUE's 15 tasks early in a run: sample-estimate/combine.ts),
 * more than a small model's item, so after each check the next waits until this share is kept; the
 * run then stops a few items after the sequence is narrow enough, which is still a stopping time
 * (the sequence holds at any). A test sets Infinity: a check before every item.
 */
export const stopCheckBudget = { share: 0.05, now: (): number => performance.now() };

/** The precision rule: met once the overall accuracy's confidence sequence is at most ±halfWidth. */
export function precisionStop(run: McRunRecord, rule: Extract<StopRule, { kind: 'precision' }>, stored: readonly ItemResult[]): StopCheck | null {
  const estimator = new BenchmarkEstimator(run.config, run.datasetId, { measures: ['accuracy'], alpha: rule.alpha });
  if (estimator.target === 'asked-in-file-order') return null;
  estimator.observeAll(stored as McItemResult[]);
  let nextAt = -Infinity;
  return {
    observe: (result) => estimator.observe(result as McItemResult),
    met: () => {
      // The fixed-n interval is narrower than the sequence: while even it is wider, the sequence is, at O(tasks).
      const fixed = estimator.fixedHalfWidth('accuracy');
      if (fixed === null || fixed > rule.halfWidth) return false;
      const started = stopCheckBudget.now();
      if (started < nextAt) return false;
      const overall = estimator.overall('accuracy');
      nextAt = started + (stopCheckBudget.now() - started) / stopCheckBudget.share;
      // Not before every weighted task has a value: an interval of a score not yet estimated says nothing (with none, it is [0, 1]).
      const half = overall?.estimate === null ? null : halfWidthOf(overall?.sequence ?? null);
      return half !== null && half <= rule.halfWidth;
    },
  };
}

/**
 * The check for `run`'s stop rule, given the results stored before this session; null when it has none that applies.
 * `baseline`: run A of a sign-settled run, read by pairedBaselineFor (stop-rule-paired.ts) before the run starts.
 */
export function stopCheckFor(run: RunRecord, stored: readonly ItemResult[], baseline: PairedBaseline | null = null): StopCheck | null {
  const rule = run.config.stopRule;
  if (!rule || run.config.kind !== 'multiple-choice') return null;
  switch (rule.kind) {
    case 'precision':
      return precisionStop(run as McRunRecord, rule, stored);
    case 'sign-settled':
      return signSettledStop(run as McRunRecord, rule, baseline, stored);
  }
}

/**
 * Whether a stored run ended by its stop rule: completed with fewer results than items (nothing
 * else completes a run early). The page says so, with the rule, beside the status.
 */
export function stoppedByRule(run: RunRecord, resultCount: number): StopRule | null {
  return run.status === 'completed' && run.config.stopRule !== undefined && resultCount < run.config.itemIds.length ? run.config.stopRule : null;
}
