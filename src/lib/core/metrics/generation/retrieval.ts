// Retrieval (出处检索): where a passage comes from, a title of levels joined by · (book·chapter…).
// Output and reference are normalized alike (normalizeTitle: no 《》〈〉, no spaces, · for its
// look-alikes), split on ·, and compared level by level from the top: level k is right when the
// first k levels all equal the reference's (a right chapter under a wrong book is not a right
// chapter). Level 1 is the book; its accuracy is the task's score in the overall average. An item
// counts toward level k only when its reference has k levels. `exact`: the whole title, every level
// and no extra one. With several references the one matching most levels is used (the first on a tie).
import { accuracyFromCounts, wilsonInterval, type Interval } from '../accuracy.ts';
import { cleanOutput, normalizeTitle, POSTPROCESS_VERSION } from './postprocess.ts';
import type { GenerationPair } from './types.ts';

export interface RetrievalItemResult {
  /** The output's levels after normalization. */
  predicted: string[];
  /** The levels of the reference used. */
  reference: string[];
  /** levels[k]: whether level k + 1 is right (one entry per reference level). */
  levels: boolean[];
  exact: boolean;
}

export interface AccuracyCount {
  n: number;
  correct: number;
  accuracy: number | null;
  wilson: Interval | null;
}

export interface RetrievalScore {
  /** levels[k] is level k + 1 (level 1 = the book). */
  levels: (AccuracyCount & { level: number })[];
  exact: AccuracyCount;
  signature: string;
}

/** A title's levels: normalized, split on ·, empty levels dropped. */
export function titleLevels(title: string): string[] {
  return normalizeTitle(title)
    .split('·')
    .filter((level) => level !== '');
}

function compare(predicted: readonly string[], reference: readonly string[]): RetrievalItemResult {
  const levels: boolean[] = [];
  let prefix = true;
  for (let k = 0; k < reference.length; k++) {
    prefix = prefix && predicted[k] === reference[k];
    levels.push(prefix);
  }
  const exact = prefix && predicted.length === reference.length;
  return { predicted: [...predicted], reference: [...reference], levels, exact };
}

const matchedLevels = (result: RetrievalItemResult): number => result.levels.filter(Boolean).length + (result.exact ? 1 : 0);

/** Scores one output against its reference title(s). */
export function retrievalItem(output: string, references: readonly string[]): RetrievalItemResult {
  if (references.length === 0) throw new RangeError('a retrieval item needs a reference title');
  const predicted = titleLevels(cleanOutput(output));
  let best: RetrievalItemResult | null = null;
  for (const title of references) {
    const reference = titleLevels(title);
    if (reference.length === 0) throw new RangeError(`the reference title "${title}" has no level once 《》, spaces and dots are removed`);
    const result = compare(predicted, reference);
    if (best === null || matchedLevels(result) > matchedLevels(best)) best = result;
  }
  return best!;
}

const accuracyCount = (correct: number, n: number): AccuracyCount => ({ n, correct, accuracy: accuracyFromCounts(correct, n), wilson: wilsonInterval(correct, n) });

/** `acc|levels:split-·|match:prefix|strip:《》〈〉-spaces|post:1|ci:wilson-95`. */
export function retrievalSignature(): string {
  return `acc|levels:split-·|match:prefix|strip:《》〈〉-spaces|post:${POSTPROCESS_VERSION}|ci:wilson-95`;
}

/** Accuracy at each level and of the exact title. */
export function retrievalCorpus(pairs: readonly GenerationPair[]): RetrievalScore {
  const levelN: number[] = [];
  const levelCorrect: number[] = [];
  let exact = 0;
  pairs.forEach((pair, index) => {
    let item: RetrievalItemResult;
    try {
      item = retrievalItem(pair.output, pair.references);
    } catch (error) {
      throw new RangeError(`retrieval item ${index + 1}: ${(error as Error).message}`);
    }
    item.levels.forEach((right, k) => {
      levelN[k] = (levelN[k] ?? 0) + 1;
      levelCorrect[k] = (levelCorrect[k] ?? 0) + (right ? 1 : 0);
    });
    if (item.exact) exact++;
  });
  return {
    levels: levelN.map((n, k) => ({ level: k + 1, ...accuracyCount(levelCorrect[k], n) })),
    exact: accuracyCount(exact, pairs.length),
    signature: retrievalSignature(),
  };
}
