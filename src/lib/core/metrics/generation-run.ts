// A generation run's numbers, per dataset task and overall, from its stored outputs: the one place
// the Run page (and any export) gets them. Each task is scored by the metric C3Bench uses for it.
import type { DatasetId, GenerationTask } from '../benchmarks/types.ts';
import { classificationLabels } from '../protocols/generation.ts';
import {
  classificationCorpus,
  generationOverall,
  nerCorpus,
  punctuationCorpus,
  retrievalCorpus,
  translationCorpus,
  type GenerationOverall,
  type GenerationPair,
} from './generation/index.ts';

export interface GenerationResultLike extends GenerationPair {
  task: string;
  generationTask: GenerationTask;
  /** Present when the item could not be run: counted in `failed`, never scored (an empty output would score 0). */
  failure?: unknown;
}

export interface GenerationTaskScore {
  /** The dataset's task key. */
  task: string;
  generationTask: GenerationTask;
  n: number;
  /** Percent (BLEU is already on 0..100). */
  score: number;
  metric: 'accuracy' | 'level-1 accuracy' | 'entity F1' | 'mark F1' | 'BLEU';
  /** 95% interval of the score, percent: Wilson for accuracies, seeded bootstrap for F1 and BLEU. */
  interval: { low: number; high: number } | null;
  /** Secondary numbers worth showing (exact-title accuracy, position-only F1, precision, recall). */
  extra: Record<string, number | null>;
  signature: string;
}

export interface GenerationRunScores {
  tasks: GenerationTaskScore[];
  /** The paper's "Average": only when one task of each of the five kinds was run; null otherwise. */
  overall: number | null;
  overallDetail: GenerationOverall | null;
  /** Items that could not be run, per task key (tasks with none are absent), and in all. */
  failedByTask: Record<string, number>;
  failed: number;
}

const pct = (x: number | null | undefined): number | null => (x === null || x === undefined ? null : 100 * x);
const pctInterval = (i: { low: number; high: number } | null | undefined) => (i ? { low: 100 * i.low, high: 100 * i.high } : null);

function scoreTask(datasetId: DatasetId, task: string, generationTask: GenerationTask, pairs: GenerationPair[]): GenerationTaskScore | null {
  const base = { task, generationTask, n: pairs.length };
  switch (generationTask) {
    case 'classification': {
      const s = classificationCorpus(pairs, classificationLabels({ datasetId, task }));
      if (s.accuracy === null) return null;
      return { ...base, score: 100 * s.accuracy, metric: 'accuracy', interval: pctInterval(s.wilson), extra: { noLabel: s.noLabel, severalLabels: s.severalLabels }, signature: s.signature };
    }
    case 'retrieval': {
      const s = retrievalCorpus(pairs);
      const level1 = s.levels[0]?.accuracy ?? null;
      if (level1 === null) return null;
      const extra: Record<string, number | null> = { exact: pct(s.exact.accuracy) };
      for (const level of s.levels.slice(1)) extra[`level ${level.level}`] = pct(level.accuracy);
      return { ...base, score: 100 * level1, metric: 'level-1 accuracy', interval: pctInterval(s.levels[0].wilson), extra, signature: s.signature };
    }
    case 'ner': {
      const s = nerCorpus(pairs);
      if (s.f1 === null) return null;
      return { ...base, score: 100 * s.f1, metric: 'entity F1', interval: pctInterval(s.f1Interval), extra: { precision: pct(s.precision), recall: pct(s.recall) }, signature: s.signature };
    }
    case 'punctuation': {
      const s = punctuationCorpus(pairs);
      if (s.mark.f1 === null) return null;
      return { ...base, score: 100 * s.mark.f1, metric: 'mark F1', interval: pctInterval(s.mark.f1Interval), extra: { 'position F1': pct(s.position.f1), changed: s.changed }, signature: s.signature };
    }
    case 'translation': {
      const s = translationCorpus(pairs);
      if (!s.bleu) return null;
      return { ...base, score: s.bleu.score, metric: 'BLEU', interval: s.interval ? { low: s.interval.low, high: s.interval.high } : null, extra: { bp: s.bleu.bp }, signature: s.signature };
    }
  }
}

export function scoreGenerationRun(datasetId: DatasetId, results: readonly GenerationResultLike[]): GenerationRunScores {
  const byTask = new Map<string, { generationTask: GenerationTask; pairs: GenerationPair[] }>();
  const failedByTask: Record<string, number> = {};
  let failed = 0;
  for (const r of results) {
    if (r.failure !== undefined) {
      failedByTask[r.task] = (failedByTask[r.task] ?? 0) + 1;
      failed++;
      continue;
    }
    const entry = byTask.get(r.task) ?? { generationTask: r.generationTask, pairs: [] };
    entry.pairs.push({ output: r.output, references: r.references });
    byTask.set(r.task, entry);
  }
  const tasks = [...byTask].map(([task, { generationTask, pairs }]) => scoreTask(datasetId, task, generationTask, pairs)).filter((t): t is GenerationTaskScore => t !== null);
  const kinds = new Map<GenerationTask, number>();
  for (const t of tasks) kinds.set(t.generationTask, (kinds.get(t.generationTask) ?? 0) + 1);
  const oneOfEach = kinds.size === 5 && [...kinds.values()].every((n) => n === 1);
  const overallDetail = oneOfEach ? generationOverall(Object.fromEntries(tasks.map((t) => [t.generationTask, t.score]))) : null;
  return { tasks, overall: overallDetail?.score ?? null, overallDetail, failedByTask, failed };
}
