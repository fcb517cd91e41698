// Per-task accuracy and the summary numbers of a multiple-choice run, computed the way each
// benchmark's own code does (macro means), with the pooled (micro) accuracy beside them.
//
// Rules:
//  - A result with correct = null (no answer key, AC-EVAL test) is predicted but not scored: it
//    counts in `unscored`, never in n.
//  - A task with n = 0 scored items is reported (accuracy null) but left out of every mean; a group
//    with no scored task likewise. `overall.of` says how many tasks or groups the mean is over.
//  - Group accuracy = mean of its tasks' accuracies. Overall = mean of group accuracies
//    ('mean-of-groups', AncientBench: the four competencies) or of task accuracies ('mean-of-tasks',
//    the CMMLU and ACLUE codes); under 'mean-of-groups' a task in no group is left out of overall
//    and listed in `ungroupedTasks`.
//  - A result with a `failure` (the item could not be run: too long for the model, or the model
//    threw on it) counts in `failed`, never in n nor in `unscored`: it is neither right nor wrong.
//  - Pooled = all scored items of all tasks together (micro); labelled so wherever it is shown.
//  - Overall interval: a normal approximation. Overall is a weighted sum Σ w_t·p_t of task accuracies
//    (w_t = 1/T for a mean of T tasks; 1/(G·T_g) for a mean of G groups of T_g tasks each); tasks are
//    independent samples, so Var = Σ w_t²·v_t, and the interval is overall ± 1.96·sqrt(Var), clamped
//    to [0, 1]. v_t is the task's Agresti–Coull variance p̃(1 − p̃)/ñ with ñ = n + z², p̃ = (k + z²/2)/ñ:
//    the plain p(1 − p)/n is 0 for a task at 0% or 100%, which would make a small run look exact.
import { getDataset, type GroupKind } from '../benchmarks/catalog.ts';
import type { DatasetId } from '../benchmarks/types.ts';
import { accuracyFromCounts, standardErrorFromCounts, wilsonInterval, Z_95, type Interval } from './accuracy.ts';

export const MC_AGGREGATE_VERSION = 1;

export interface McItemResult {
  itemId: string;
  task: string;
  /** null: no answer key, so not scored. */
  correct: boolean | null;
  /** Present when the item could not be run; such a result counts as failed. */
  failure?: unknown;
}

export type GroupingKind = GroupKind | 'none';
export type OverallRule = 'mean-of-groups' | 'mean-of-tasks';

export interface Grouping {
  kind: GroupingKind;
  groups: readonly { key: string; tasks: readonly string[] }[];
}

export interface McAggregation {
  grouping: Grouping;
  overallRule: OverallRule;
}

export interface TaskAggregate {
  task: string;
  /** Scored items. */
  n: number;
  correct: number;
  accuracy: number | null;
  standardError: number | null;
  wilson: Interval | null;
  /** Items predicted without an answer key. */
  unscored: number;
  /** Items that could not be run (too long for the model, or the model failed on them). */
  failed: number;
}

export interface GroupAggregate {
  key: string;
  /** Mean of the accuracies of its tasks with n > 0; null when it has none. */
  accuracy: number | null;
  /** Its tasks that have results, in grouping order. */
  tasks: string[];
  /** How many of them have n > 0 (the mean's denominator). */
  tasksScored: number;
}

export interface McAggregate {
  tasks: TaskAggregate[];
  groups: GroupAggregate[];
  /** `interval`: normal approximation from the tasks' standard errors (see the rules above). */
  overall: { accuracy: number | null; rule: OverallRule; of: number; interval: Interval | null; signature: string };
  pooled: { n: number; correct: number; accuracy: number | null; wilson: Interval | null; signature: string };
  ungroupedTasks: string[];
  unscored: number;
  failed: number;
}

const PLURAL: Record<GroupingKind, string> = {
  category: 'categories',
  supercategory: 'supercategories',
  competency: 'competencies',
  domain: 'domains',
  none: 'groups',
};

/**
 * How the overall number was computed, sacrebleu-style, e.g.
 * `acc|overall:mean-of-competencies|se:sample-n-1|ci:wilson-95|empty:excluded|version:1`.
 */
export function overallSignature(kind: GroupingKind, rule: OverallRule): string {
  const overall = rule === 'mean-of-groups' ? `mean-of-${PLURAL[kind]}` : 'mean-of-tasks';
  return `acc|overall:${overall}|se:sample-n-1|ci:wilson-95|overall-ci:normal-agresti-coull-95|empty:excluded|failed:excluded|version:${MC_AGGREGATE_VERSION}`;
}

/** `acc|pooled:micro|ci:wilson-95|version:1`. */
export function pooledSignature(): string {
  return `acc|pooled:micro|ci:wilson-95|version:${MC_AGGREGATE_VERSION}`;
}

const mean = (values: readonly number[]): number | null => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length);

/** The Agresti–Coull variance of an accuracy k/n: p̃(1 − p̃)/ñ, ñ = n + z², p̃ = (k + z²/2)/ñ; never 0. */
export function adjustedVariance(k: number, n: number, z: number = Z_95): number {
  const nTilde = n + z * z;
  const p = (k + (z * z) / 2) / nTilde;
  return (p * (1 - p)) / nTilde;
}

/**
 * The 95% normal interval of Σ w·p over independent tasks; null when there are no terms. `terms`:
 * each task's weight in the overall mean and the variance of its accuracy.
 */
export function weightedMeanInterval(center: number | null, terms: readonly { weight: number; variance: number }[], z: number = Z_95): Interval | null {
  if (center === null || terms.length === 0) return null;
  const variance = terms.reduce((sum, t) => sum + t.weight * t.weight * t.variance, 0);
  const half = z * Math.sqrt(variance);
  return { low: Math.max(0, center - half), high: Math.min(1, center + half) };
}

/**
 * Aggregates per-item results. Tasks come in grouping order, then tasks no group lists in order of
 * first appearance. A repeated (task, itemId) is refused: it would be counted twice.
 */
export function aggregateMultipleChoice(results: readonly McItemResult[], grouping: Grouping, overallRule: OverallRule): McAggregate {
  const counts = new Map<string, TaskCounts & { ids: Set<string> }>();
  for (const result of results) {
    let count = counts.get(result.task);
    if (!count) counts.set(result.task, (count = { n: 0, correct: 0, unscored: 0, failed: 0, ids: new Set() }));
    if (count.ids.has(result.itemId)) throw new RangeError(`item ${result.itemId} of task "${result.task}" has two results`);
    count.ids.add(result.itemId);
    countOutcome(count, outcomeOf(result), 1);
  }
  return aggregateFromCounts(counts, grouping, overallRule);
}

/** A task's counts: what aggregateFromCounts needs of its results (see the rules above). */
export interface TaskCounts {
  n: number;
  correct: number;
  unscored: number;
  failed: number;
}

/** Where one result counts: failed, unscored (no key), right or wrong. */
export type Outcome = 'failed' | 'unscored' | 'correct' | 'wrong';

export function outcomeOf(result: Pick<McItemResult, 'correct' | 'failure'>): Outcome {
  if (result.failure !== undefined) return 'failed';
  if (result.correct === null) return 'unscored';
  return result.correct ? 'correct' : 'wrong';
}

/** Adds (`sign` 1) or takes away (−1) one result's outcome from a task's counts. */
export function countOutcome(count: TaskCounts, outcome: Outcome, sign: 1 | -1): void {
  if (outcome === 'failed') count.failed += sign;
  else if (outcome === 'unscored') count.unscored += sign;
  else {
    count.n += sign;
    if (outcome === 'correct') count.correct += sign;
  }
}

/**
 * The aggregate from per-task counts (insertion order = first appearance), in O(tasks): what
 * aggregateMultipleChoice computes once it has counted, and what a live run's tally (mc-tally.ts)
 * computes after each result without reading the others again.
 */
export function aggregateFromCounts(counts: ReadonlyMap<string, TaskCounts>, grouping: Grouping, overallRule: OverallRule): McAggregate {
  if (overallRule === 'mean-of-groups' && grouping.groups.length === 0) {
    throw new RangeError(`overall rule "mean-of-groups" needs groups; the grouping has none`);
  }
  const grouped = grouping.groups.flatMap((group) => group.tasks);
  const order = [...new Set([...grouped.filter((task) => counts.has(task)), ...counts.keys()])];
  const tasks: TaskAggregate[] = order.map((task) => {
    const { n, correct, unscored, failed } = counts.get(task)!;
    return {
      task,
      n,
      correct,
      accuracy: accuracyFromCounts(correct, n),
      standardError: standardErrorFromCounts(correct, n),
      wilson: wilsonInterval(correct, n),
      unscored,
      failed,
    };
  });
  const byTask = new Map(tasks.map((task) => [task.task, task]));
  const scoredAccuracy = (list: readonly TaskAggregate[]): number[] => list.flatMap((t) => (t.accuracy === null ? [] : [t.accuracy]));

  const groups: GroupAggregate[] = grouping.groups.map((group) => {
    const members = group.tasks.flatMap((task) => byTask.get(task) ?? []);
    const accuracies = scoredAccuracy(members);
    return { key: group.key, accuracy: mean(accuracies), tasks: members.map((t) => t.task), tasksScored: accuracies.length };
  });
  const groupedSet = new Set(grouped);
  const ungroupedTasks = grouping.groups.length === 0 ? [] : order.filter((task) => !groupedSet.has(task));

  const parts = overallRule === 'mean-of-groups' ? groups.flatMap((g) => (g.accuracy === null ? [] : [g.accuracy])) : scoredAccuracy(tasks);
  const scoredTasks = (list: readonly TaskAggregate[]) => list.filter((t) => t.n > 0);
  const terms =
    overallRule === 'mean-of-groups'
      ? groups.flatMap((g) => {
          const members = scoredTasks(g.tasks.map((task) => byTask.get(task)!));
          return members.map((t) => ({ weight: 1 / (parts.length * members.length), variance: adjustedVariance(t.correct, t.n) }));
        })
      : scoredTasks(tasks).map((t) => ({ weight: 1 / parts.length, variance: adjustedVariance(t.correct, t.n) }));
  const overallAccuracy = mean(parts);
  const pooledN = tasks.reduce((sum, t) => sum + t.n, 0);
  const pooledCorrect = tasks.reduce((sum, t) => sum + t.correct, 0);
  return {
    tasks,
    groups,
    overall: { accuracy: overallAccuracy, rule: overallRule, of: parts.length, interval: weightedMeanInterval(overallAccuracy, terms), signature: overallSignature(grouping.kind, overallRule) },
    pooled: {
      n: pooledN,
      correct: pooledCorrect,
      accuracy: accuracyFromCounts(pooledCorrect, pooledN),
      wilson: wilsonInterval(pooledCorrect, pooledN),
      signature: pooledSignature(),
    },
    ungroupedTasks,
    unscored: tasks.reduce((sum, t) => sum + t.unscored, 0),
    failed: tasks.reduce((sum, t) => sum + t.failed, 0),
  };
}

/**
 * The grouping and overall rule for a dataset, from the catalog's multiple-choice tasks:
 * AncientBench = its four competencies, overall = mean of competencies (the paper); ACLUE, CMMLU,
 * AC-EVAL, WenMind = their groups shown, overall = mean of task accuracies (the ACLUE and CMMLU
 * codes). C3Bench has no multiple-choice tasks and is refused.
 */
export function aggregationFor(datasetId: DatasetId): McAggregation {
  const dataset = getDataset(datasetId);
  const mcTasks = dataset.tasks.filter((task) => task.kind === 'multiple-choice');
  if (mcTasks.length === 0) throw new RangeError(`dataset "${datasetId}" has no multiple-choice tasks to aggregate`);
  const groups = dataset.groups
    .map((group) => ({ key: group.key, tasks: mcTasks.filter((task) => task.group === group.key).map((task) => task.key) }))
    .filter((group) => group.tasks.length > 0);
  return {
    grouping: { kind: dataset.groupKind ?? 'none', groups },
    overallRule: datasetId === 'ancientbench' ? 'mean-of-groups' : 'mean-of-tasks',
  };
}

/** aggregateMultipleChoice under the dataset's own grouping and overall rule (aggregationFor). */
export function aggregateForDataset(datasetId: DatasetId, results: readonly McItemResult[]): McAggregate {
  const rule = aggregationFor(datasetId);
  return aggregateMultipleChoice(results, rule.grouping, rule.overallRule);
}
