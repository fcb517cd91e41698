// Classification (C3Bench's ten domains, WenMind's ten topics): accuracy of the category the output
// names. After post-processing, the output names every label that occurs in it as a substring; it
// is right only when it names exactly one label and that label is the reference. Naming none, or
// several (儒道 or a long explanation that mentions 史 and 诗), is wrong: we never pick one for it.
// Labels are single characters in both sets, so a verbose answer can name a label by accident; that
// is the price of not guessing, and the per-item `named` list shows it.
import { accuracyFromCounts, wilsonInterval, type Interval } from '../accuracy.ts';
import { cleanOutput, POSTPROCESS_VERSION } from './postprocess.ts';
import type { GenerationPair } from './types.ts';

export interface ClassificationItemResult {
  /** The labels the output names, in label-set order. */
  named: string[];
  /** The one label named, or null when it named none or several. */
  predicted: string | null;
  correct: boolean;
}

export interface ClassificationScore {
  n: number;
  correct: number;
  /** 0..1; null when n = 0. */
  accuracy: number | null;
  wilson: Interval | null;
  /** Items that named no label. */
  noLabel: number;
  /** Items that named several labels. */
  severalLabels: number;
  signature: string;
}

/** Scores one output; `labels` is the task's label set (C3_CATEGORIES or WENMIND_TOPIC_LABELS). */
export function classificationItem(output: string, references: readonly string[], labels: readonly string[]): ClassificationItemResult {
  const text = cleanOutput(output);
  const named = labels.filter((label) => label !== '' && text.includes(label));
  const predicted = named.length === 1 ? named[0] : null;
  const correct = predicted !== null && references.some((reference) => reference.trim() === predicted);
  return { named, predicted, correct };
}

/** `acc|labels:诗史儒道佛农法艺医兵|rule:exactly-one-named|post:1|ci:wilson-95`. */
export function classificationSignature(labels: readonly string[]): string {
  return `acc|labels:${labels.join('')}|rule:exactly-one-named|post:${POSTPROCESS_VERSION}|ci:wilson-95`;
}

/** Accuracy over items (an item is right when it matches any of its references), with its Wilson interval. */
export function classificationCorpus(pairs: readonly GenerationPair[], labels: readonly string[]): ClassificationScore {
  let correct = 0;
  let noLabel = 0;
  let severalLabels = 0;
  for (const pair of pairs) {
    const item = classificationItem(pair.output, pair.references, labels);
    if (item.correct) correct++;
    if (item.named.length === 0) noLabel++;
    if (item.named.length > 1) severalLabels++;
  }
  return {
    n: pairs.length,
    correct,
    accuracy: accuracyFromCounts(correct, pairs.length),
    wilson: wilsonInterval(correct, pairs.length),
    noLabel,
    severalLabels,
    signature: classificationSignature(labels),
  };
}
