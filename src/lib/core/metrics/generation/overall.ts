// The overall generation score, as C3Bench's "Average" column: the mean of the five task scores in
// percent. Each task contributes one number:
//   classification: accuracy × 100; retrieval: level-1 (book) accuracy × 100; NER: micro F1 × 100;
//   punctuation: micro mark F1 × 100 (not the position-only F1); translation: corpus BLEU (already 0..100).
// A task without a score (not run, or nothing to score) is left out of the mean and `of` says how many
// tasks it is over, as the multiple-choice overall does; only `of` = 5 is the paper's Average.
import type { GenerationTask } from '../../benchmarks/types.ts';
import type { ClassificationScore } from './classification.ts';
import type { NerScore } from './ner.ts';
import type { PunctuationScore } from './punctuation.ts';
import type { RetrievalScore } from './retrieval.ts';
import type { TranslationScore } from './translation.ts';

export const GENERATION_TASKS: readonly GenerationTask[] = ['classification', 'retrieval', 'ner', 'punctuation', 'translation'];

export const OVERALL_GENERATION_VERSION = 1;

/** Each task's score in percent (0..100), null or absent where it has none. */
export type GenerationTaskPercents = Partial<Record<GenerationTask, number | null>>;

export interface GenerationOverall {
  /** Mean of the available task scores, percent; null when there is none. */
  score: number | null;
  /** How many tasks the mean is over. */
  of: number;
  /** Tasks left out for want of a score. */
  missing: GenerationTask[];
  signature: string;
}

/** `gen-avg|tasks:cls-acc,ret-acc-l1,ner-f1,punct-f1,bleu|scale:percent|empty:excluded|version:1`. */
export function generationOverallSignature(): string {
  return `gen-avg|tasks:cls-acc,ret-acc-l1,ner-f1,punct-f1,bleu|scale:percent|empty:excluded|version:${OVERALL_GENERATION_VERSION}`;
}

const percent = (value: number | null | undefined): number | null => (value === null || value === undefined ? null : 100 * value);

/** The five task scores in percent, from the task summaries (any may be absent). */
export function taskPercents(scores: {
  classification?: ClassificationScore;
  retrieval?: RetrievalScore;
  ner?: NerScore;
  punctuation?: PunctuationScore;
  translation?: TranslationScore;
}): GenerationTaskPercents {
  return {
    classification: percent(scores.classification?.accuracy),
    retrieval: percent(scores.retrieval?.levels[0]?.accuracy),
    ner: percent(scores.ner?.f1),
    punctuation: percent(scores.punctuation?.mark.f1),
    translation: scores.translation?.bleu?.score ?? null,
  };
}

/** The mean of the task scores that exist. */
export function generationOverall(percents: GenerationTaskPercents): GenerationOverall {
  const present: number[] = [];
  const missing: GenerationTask[] = [];
  for (const task of GENERATION_TASKS) {
    const value = percents[task];
    if (value === null || value === undefined || !Number.isFinite(value)) missing.push(task);
    else present.push(value);
  }
  return {
    score: present.length === 0 ? null : present.reduce((a, b) => a + b, 0) / present.length,
    of: present.length,
    missing,
    signature: generationOverallSignature(),
  };
}
