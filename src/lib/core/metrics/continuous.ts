// Continuous scores of a multiple-choice run (allenai's "Signal and Noise", arXiv 2508.13144: for
// small models these separate runs that 0/1 accuracy cannot). Per scored item:
//  - pGold: the probability of the gold option normalised over the item's options (softmax of the
//    letters' log-probabilities, or of the option texts' summed log-likelihoods in a cloze run);
//    the harness's `prob_norm[gold]` (task.py, brier_score's input).
//  - logPGold: the gold option's log-probability under the full vocabulary (the letter's next-token
//    log-probability; in a cloze run the gold text's summed log-likelihood), not normalised.
//  - bitsPerByte (cloze only): −log₂ p(gold text) ÷ its UTF-8 bytes.
// Unscored items (no key), failed items and generated answers (no probabilities) have none.
// Per task: the mean; groups and Overall by the benchmark's own rule (mean of task means, or of
// group means for AncientBench), each with the stratified bootstrap's interval.
import type { DatasetId, OptionLetter } from '../benchmarks/types.ts';
import type { McItemResult } from '../record/run.ts';
import { OPTION_LETTERS } from '../protocols/multiple-choice.ts';
import { aggregationFor } from './mc-aggregate.ts';
import { rowWeights, type AggregateRow } from './compare-paired.ts';
import { stratifiedBootstrapSignature, stratifiedMeanBootstrap, type StratifiedEstimate } from './stratified-bootstrap.ts';
import type { BootstrapOptions } from './generation/bootstrap.ts';

export const CONTINUOUS_METRICS = ['pGold', 'logPGold', 'bitsPerByte'] as const;
export type ContinuousMetric = (typeof CONTINUOUS_METRICS)[number];

export interface ContinuousItem {
  itemId: string;
  task: string;
  pGold: number;
  logPGold: number;
  bitsPerByte: number | null;
}

type Scored = Pick<McItemResult, 'itemId' | 'task' | 'gold' | 'letters' | 'logProbs' | 'probs' | 'cloze' | 'failure' | 'correct'>;

/** The item's continuous scores, or null when it has none (see the header). */
export function continuousOf(result: Scored): ContinuousItem | null {
  if (result.failure !== undefined || result.gold === null || result.correct === null) return null;
  const index = (result.letters.length > 0 ? result.letters : OPTION_LETTERS).indexOf(result.gold as OptionLetter & (typeof OPTION_LETTERS)[number]);
  if (index < 0 || result.probs.length <= index || result.logProbs.length <= index) return null;
  const cloze = result.cloze;
  const bitsPerByte = cloze ? -cloze.logLikelihoods[index] / Math.LN2 / cloze.byteCounts[index] : null;
  return { itemId: result.itemId, task: result.task, pGold: result.probs[index], logPGold: result.logProbs[index], bitsPerByte };
}

export interface ContinuousTask {
  task: string;
  n: number;
  estimate: StratifiedEstimate | null;
}

export interface ContinuousAggregate {
  metric: ContinuousMetric;
  tasks: ContinuousTask[];
  groups: { key: string; of: number; estimate: StratifiedEstimate | null }[];
  overall: { of: number; estimate: StratifiedEstimate | null };
  signature: string;
}

/**
 * Per-task, group and Overall means of one continuous metric with their intervals. Tasks in
 * `order` (the run's task order); tasks with no value are listed with n = 0 and left out of means.
 */
export function aggregateContinuous(
  datasetId: DatasetId,
  items: readonly ContinuousItem[],
  metric: ContinuousMetric,
  order: readonly string[],
  options: BootstrapOptions = {},
): ContinuousAggregate {
  const { grouping, overallRule } = aggregationFor(datasetId);
  const byTask = new Map<string, number[]>(order.map((task) => [task, []]));
  for (const item of items) {
    const value = item[metric];
    if (value === null || !Number.isFinite(value)) continue;
    if (!byTask.has(item.task)) byTask.set(item.task, []);
    byTask.get(item.task)!.push(value);
  }
  const tasks = [...byTask.keys()];
  const strata = tasks.map((task) => Float64Array.from(byTask.get(task)!));
  const covered = new Set(tasks.filter((_, t) => strata[t].length > 0));
  const unit = (t: number) => tasks.map((_, k) => (k === t && strata[t].length > 0 ? 1 : 0));
  const groupRows: AggregateRow[] = grouping.groups.map((g) => ({ key: `group:${g.key}`, kind: 'group', tasks: g.tasks, group: g.key }));
  const overallRow: AggregateRow = { key: 'overall', kind: 'overall', tasks };
  const targets = [...tasks.map((_, t) => unit(t)), ...groupRows.map((row) => rowWeights(row, tasks, covered, grouping, overallRule)), rowWeights(overallRow, tasks, covered, grouping, overallRule)];
  const estimates = stratifiedMeanBootstrap(strata, targets, options);
  const overallOf = overallRule === 'mean-of-groups' ? grouping.groups.filter((g) => g.tasks.some((t) => covered.has(t))).length : covered.size;
  return {
    metric,
    tasks: tasks.map((task, t) => ({ task, n: strata[t].length, estimate: estimates[t] })),
    groups: grouping.groups
      .map((g, j) => ({ key: g.key, of: g.tasks.filter((t) => covered.has(t)).length, estimate: estimates[tasks.length + j] }))
      .filter((g) => g.of > 0),
    overall: { of: overallOf, estimate: estimates[estimates.length - 1] },
    signature: `${metric}|${overallRule}|${stratifiedBootstrapSignature(options)}`,
  };
}

/** The metrics a run has: p(gold) and log p(gold) for letter and cloze runs; bits per byte for cloze. */
export function continuousMetricsOf(scoring: string): ContinuousMetric[] {
  if (scoring === 'cloze') return ['pGold', 'logPGold', 'bitsPerByte'];
  if (scoring === 'letter-logits') return ['pGold', 'logPGold'];
  return [];
}
