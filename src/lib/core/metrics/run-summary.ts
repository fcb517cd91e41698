// The headline numbers of a run, as a flat record: what a share link carries and what its page shows
// before anything is reproduced. Keys: `overall`, `pooled` (multiple choice), `items`, `task:<key>`.
import type { DatasetId } from '../benchmarks/types.ts';
import type { GenItemResult, ItemResult, McItemResult, RunRecord } from '../record/run.ts';
import { aggregateMultipleChoice, aggregationFor, type McItemResult as McOutcome } from './mc-aggregate.ts';
import { scoreGenerationRun } from './generation-run.ts';

export type RunSummary = Record<string, number | null>;

const percent = (x: number | null): number | null => (x === null ? null : 100 * x);

/** A multiple-choice summary from per-item outcomes (a run's results, or a shared link's letters against the local gold). */
export function mcSummary(datasetId: DatasetId, outcomes: readonly McOutcome[]): RunSummary {
  const rule = aggregationFor(datasetId);
  const aggregate = aggregateMultipleChoice(outcomes, rule.grouping, rule.overallRule);
  const summary: RunSummary = {
    overall: percent(aggregate.overall.accuracy),
    pooled: percent(aggregate.pooled.accuracy),
    items: outcomes.length,
  };
  for (const task of aggregate.tasks) summary[`task:${task.task}`] = percent(task.accuracy);
  return summary;
}

export function runSummary(run: RunRecord, results: readonly ItemResult[]): RunSummary {
  if (run.config.kind === 'multiple-choice') {
    return mcSummary(
      run.datasetId,
      (results as McItemResult[]).map((r) => ({ itemId: r.itemId, task: r.task, correct: r.correct })),
    );
  }
  const scores = scoreGenerationRun(run.datasetId, results as GenItemResult[]);
  const summary: RunSummary = { overall: scores.overall, items: results.length };
  for (const task of scores.tasks) summary[`task:${task.task}`] = task.score;
  return summary;
}

export interface SummaryMismatch {
  key: string;
  stored: number | null;
  recomputed: number | null;
}

/**
 * Where a summary someone else computed (a record's, a link's) disagrees with the one recomputed
 * from its items: a key missing on either side, or values further apart than `tolerance` points
 * (0.005 by default, so a summary rounded to two decimals still agrees).
 */
export function summaryMismatches(stored: RunSummary, recomputed: RunSummary, tolerance = 0.005): SummaryMismatch[] {
  const keys = [...new Set([...Object.keys(recomputed), ...Object.keys(stored)])];
  return keys.flatMap((key) => {
    const a = key in stored ? stored[key] : undefined;
    const b = key in recomputed ? recomputed[key] : undefined;
    const same = a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= tolerance);
    return same ? [] : [{ key, stored: a ?? null, recomputed: b ?? null }];
  });
}

/**
 * A run's numbers under the keys the papers' published rows use (published-results.ts): AncientBench
 * `overall` and its four competencies, C3Bench its five tasks and `average`. Empty for other datasets.
 */
export function publishedKeyScores(run: RunRecord, results: readonly ItemResult[]): RunSummary {
  if (run.datasetId === 'ancientbench' && run.config.kind === 'multiple-choice') {
    const rule = aggregationFor(run.datasetId);
    const aggregate = aggregateMultipleChoice(
      (results as McItemResult[]).map((r) => ({ itemId: r.itemId, task: r.task, correct: r.correct })),
      rule.grouping,
      rule.overallRule,
    );
    const scores: RunSummary = { overall: percent(aggregate.overall.accuracy) };
    for (const group of aggregate.groups) scores[group.key] = percent(group.accuracy);
    return scores;
  }
  if (run.datasetId === 'c3bench' && run.config.kind === 'generation') {
    const scored = scoreGenerationRun(run.datasetId, results as GenItemResult[]);
    const scores: RunSummary = { average: scored.overall };
    for (const task of scored.tasks) scores[task.task] = task.score;
    return scores;
  }
  return {};
}
