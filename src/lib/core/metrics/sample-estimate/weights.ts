// Each task's weight in the benchmark's score, by the benchmark's own rule (mc-aggregate.ts):
//  - overall, 'mean-of-tasks' (ACLUE, CMMLU, AC-EVAL codes): 1/T for each of the T tasks;
//  - overall, 'mean-of-groups' (AncientBench's four competencies): 1/(G·T_g) for a task in a group of
//    T_g tasks among G groups; a task in no group is left out of overall (as the aggregate leaves it);
//  - pooled (the item average, micro): N_t/N, N_t the task's population;
//  - each group: 1/T_g for its tasks.
// Only the tasks named (the run's tasks) with a population of at least one item count: a group none
// of whose tasks the run has is left out, as the aggregate leaves out a group with no scored task.
import type { McAggregation } from '../mc-aggregate.ts';

export interface ScoreWeights {
  overall: Map<string, number>;
  pooled: Map<string, number>;
  /** Group key → its tasks' weights in the group's mean. */
  groups: Map<string, Map<string, number>>;
}

export function scoreWeights(aggregation: McAggregation, tasks: readonly string[], populations: Readonly<Record<string, number>>): ScoreWeights {
  const present = [...new Set(tasks)].filter((task) => (populations[task] ?? 0) > 0);
  const presentSet = new Set(present);
  const groups = new Map<string, Map<string, number>>();
  for (const group of aggregation.grouping.groups) {
    const members = group.tasks.filter((task) => presentSet.has(task));
    if (members.length === 0) continue;
    groups.set(group.key, new Map(members.map((task) => [task, 1 / members.length])));
  }
  const overall = new Map<string, number>();
  if (aggregation.overallRule === 'mean-of-groups') {
    for (const weights of groups.values()) for (const [task, w] of weights) overall.set(task, (overall.get(task) ?? 0) + w / groups.size);
  } else {
    for (const task of present) overall.set(task, 1 / present.length);
  }
  const total = present.reduce((sum, task) => sum + populations[task], 0);
  const pooled = new Map(present.map((task) => [task, populations[task] / total]));
  return { overall, pooled, groups };
}
