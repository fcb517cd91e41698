// The headline numbers of a run, as a flat record: what a share link carries and what its page shows
// before anything is reproduced. Keys (percent): `overall`, `pooled` and `group:<key>` (multiple
// choice), `items`, `task:<key>`, and `failed` (items that could not be run) only when there are any,
// so summaries of runs without failures, and files written before failures existed, keep their keys.
// `shots:fewer` and `shots:fewest` (shots-used.ts) likewise, only when some item of a k-shot run had
// fewer than k exemplars.
import type { DatasetId } from '../benchmarks/types.ts';
import type { GenItemResult, ItemResult, McItemResult, RunRecord } from '../record/run.ts';
import { aggregateForDataset, type McAggregate, type McItemResult as McOutcome } from './mc-aggregate.ts';
import { SHOTS_FEWER_KEY, SHOTS_FEWEST_KEY, shotShortfall } from './shots-used.ts';
import { scoreGenerationRun, type GenerationRunScores } from './generation-run.ts';

export type RunSummary = Record<string, number | null>;

const percent = (x: number | null): number | null => (x === null ? null : 100 * x);

/** A multiple-choice summary from an aggregate (computed once by the page that shows both). */
export function summaryOfAggregate(aggregate: McAggregate): RunSummary {
  const summary: RunSummary = {
    overall: percent(aggregate.overall.accuracy),
    pooled: percent(aggregate.pooled.accuracy),
    items: aggregate.tasks.reduce((sum, t) => sum + t.n + t.unscored + t.failed, 0),
  };
  if (aggregate.failed > 0) summary.failed = aggregate.failed;
  for (const task of aggregate.tasks) summary[`task:${task.task}`] = percent(task.accuracy);
  for (const group of aggregate.groups) summary[`group:${group.key}`] = percent(group.accuracy);
  return summary;
}

/** A generation summary from its scores. */
export function summaryOfGenerationScores(scores: GenerationRunScores, items: number): RunSummary {
  const summary: RunSummary = { overall: scores.overall, items };
  if (scores.failed > 0) summary.failed = scores.failed;
  for (const task of scores.tasks) summary[`task:${task.task}`] = task.score;
  return summary;
}

/** A multiple-choice summary from per-item outcomes (a run's results, or a shared link's letters against the local gold). */
export function mcSummary(datasetId: DatasetId, outcomes: readonly McOutcome[]): RunSummary {
  return summaryOfAggregate(aggregateForDataset(datasetId, outcomes));
}

export function runSummary(run: RunRecord, results: readonly ItemResult[]): RunSummary {
  const summary =
    run.config.kind === 'multiple-choice'
      ? mcSummary(run.datasetId, results as McItemResult[])
      : summaryOfGenerationScores(scoreGenerationRun(run.datasetId, results as GenItemResult[]), results.length);
  const short = shotShortfall(run.config.kind === 'multiple-choice' ? run.config.shots : 0, results as readonly { shotsUsed?: number; failure?: unknown }[]);
  if (short) [summary[SHOTS_FEWER_KEY], summary[SHOTS_FEWEST_KEY]] = [short.fewer, short.fewest];
  return summary;
}

/** Keys a summary may state that describe how the run was asked, not a score recomputable from letters alone. */
const PROMPT_KEYS = new Set([SHOTS_FEWER_KEY, SHOTS_FEWEST_KEY]);

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
    // A link's letters alone cannot recompute how many exemplars each prompt had, and files of older
    // versions do not state it: only a value on both sides is compared.
    if (PROMPT_KEYS.has(key) && (a === undefined || b === undefined)) return [];
    const same = a === b || (typeof a === 'number' && typeof b === 'number' && Math.abs(a - b) <= tolerance);
    return same ? [] : [{ key, stored: a ?? null, recomputed: b ?? null }];
  });
}

/**
 * A summary under the keys the papers' published rows use (published-results.ts): AncientBench
 * `overall` and its four competencies, C3Bench its five tasks and `average`. Empty for other datasets.
 * A link's summary works as well as a run's (it is the same record).
 */
export function publishedKeyScores(datasetId: DatasetId, summary: RunSummary): RunSummary {
  const scores: RunSummary = {};
  if (datasetId === 'ancientbench') {
    scores.overall = summary.overall ?? null;
    for (const [key, value] of Object.entries(summary)) if (key.startsWith('group:')) scores[key.slice('group:'.length)] = value;
  } else if (datasetId === 'c3bench') {
    scores.average = summary.overall ?? null;
    for (const [key, value] of Object.entries(summary)) if (key.startsWith('task:')) scores[key.slice('task:'.length)] = value;
  }
  return scores;
}

export interface SummaryDifference {
  /** The number as the other side (a link, a file) states it. */
  stated: number | null;
  /** The number from the run here. */
  here: number | null;
  /** here − stated, points; null when either is missing. */
  difference: number | null;
}

/** How far a reproduction's number (by default `overall`) is from the one a link states. */
export function summaryDifference(stated: RunSummary, here: RunSummary, key = 'overall'): SummaryDifference {
  const a = stated[key] ?? null;
  const b = here[key] ?? null;
  return { stated: a, here: b, difference: a === null || b === null ? null : b - a };
}
