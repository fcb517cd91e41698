// The headline numbers of a run, as a flat record: what a share link carries and what its page shows
// before anything is reproduced. Keys: `overall`, `pooled` (multiple choice), `task:<key>`.
import type { GenItemResult, ItemResult, McItemResult, RunRecord } from '../record/run.ts';
import { aggregateMultipleChoice, aggregationFor } from './mc-aggregate.ts';
import { scoreGenerationRun } from './generation-run.ts';

const percent = (x: number | null): number | null => (x === null ? null : 100 * x);

export function runSummary(run: RunRecord, results: readonly ItemResult[]): Record<string, number | null> {
  if (run.config.kind === 'multiple-choice') {
    const rule = aggregationFor(run.datasetId);
    const aggregate = aggregateMultipleChoice(
      (results as McItemResult[]).map((r) => ({ itemId: r.itemId, task: r.task, correct: r.correct })),
      rule.grouping,
      rule.overallRule,
    );
    const summary: Record<string, number | null> = {
      overall: percent(aggregate.overall.accuracy),
      pooled: percent(aggregate.pooled.accuracy),
      items: results.length,
    };
    for (const task of aggregate.tasks) summary[`task:${task.task}`] = percent(task.accuracy);
    return summary;
  }
  const scores = scoreGenerationRun(run.datasetId, results as GenItemResult[]);
  const summary: Record<string, number | null> = { overall: scores.overall, items: results.length };
  for (const task of scores.tasks) summary[`task:${task.task}`] = task.score;
  return summary;
}
