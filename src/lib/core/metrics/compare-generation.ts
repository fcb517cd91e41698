// The generation comparison's rows: each task's own metric and the average of the five task scores,
// with differences in points only. The rules are stated in compare.ts.
import { findTask } from '../benchmarks/catalog.ts';
import type { GenerationTask } from '../benchmarks/types.ts';
import { scoreGenerationRun } from './generation-run.ts';
import { EMPTY_CELL, orderTasks, pairCounts, rowItemSets, scoredByTask, taskName, tasksOf, type RowSpec } from './compare-pairing.ts';
import type { ComparableRun, CompareCell, CompareDifference, CompareRow } from './compare-types.ts';

const GEN_METRIC: Record<GenerationTask, string> = {
  classification: 'accuracy',
  retrieval: 'level-1 accuracy',
  ner: 'entity F1',
  punctuation: 'mark F1',
  translation: 'BLEU',
};

export function compareGeneration(runs: readonly ComparableRun[]): CompareRow[] {
  const datasetId = runs[0].datasetId;
  const scores = runs.map((run) => (run.genResults ? scoreGenerationRun(datasetId, run.genResults) : null));
  const tasks = orderTasks(datasetId, new Set(runs.flatMap(tasksOf)));
  const metricOf = (key: string): string => {
    const info = findTask(datasetId, key);
    if (info?.generationTask) return GEN_METRIC[info.generationTask];
    const generationTask = runs.flatMap((r) => r.genResults ?? []).find((r) => r.task === key)?.generationTask;
    return generationTask ? GEN_METRIC[generationTask] : 'score';
  };
  const specs: RowSpec[] = [
    ...tasks.map((key): RowSpec => ({ key, kind: 'task', name: taskName(datasetId, key), metric: metricOf(key), tasks: [key] })),
    { key: 'overall', kind: 'overall', name: null, metric: 'average of the five task scores', tasks },
  ];
  const cellOf = (i: number, spec: RowSpec): CompareCell => {
    const s = scores[i];
    if (!s) {
      const summary = runs[i].summaryOnly ?? {};
      return { score: (spec.kind === 'overall' ? summary.overall : summary[`task:${spec.key}`]) ?? null, interval: null, n: null, correct: null };
    }
    if (spec.kind === 'overall') return { score: s.overall, interval: null, n: s.tasks.reduce((sum, t) => sum + t.n, 0), correct: null };
    const t = s.tasks.find((x) => x.task === spec.key);
    return t ? { score: t.score, interval: t.interval, n: t.n, correct: null } : EMPTY_CELL;
  };
  const itemSets = runs.map((run) => rowItemSets(run.genResults ? scoredByTask(run) : null, specs));
  return specs.map((spec): CompareRow => {
    const cells = runs.map((_, i) => cellOf(i, spec));
    const differences = runs.map((_, i): CompareDifference | null => {
      if (i === 0) return null;
      const points = cells[0].score !== null && cells[i].score !== null ? cells[i].score! - cells[0].score! : null;
      const summary = itemSets[0] === null || itemSets[i] === null;
      const { pairing } = pairCounts(itemSets[0]?.get(spec.key), itemSets[i]?.get(spec.key), summary);
      return { points, interval: null, intervalMethod: null, pairing, mcnemar: null };
    });
    return { key: spec.key, kind: spec.kind, name: spec.name, metric: spec.metric, cells, differences };
  });
}
