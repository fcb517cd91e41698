// Named entity recognition: precision, recall and F1 over entity multisets, summed over the corpus
// (micro). An output (after post-processing) is split into entities on 、，,；;。 and whitespace;
// the entity 无 ("none") is dropped, so 无 alone is the empty set. References are split the same way.
// Multisets, not sets: 孔子 twice in the reference and once in the output is one hit and one miss,
// and naming it twice when it occurs once is one hit and one false alarm. Per item,
// tp = Σ min(count in output, count in reference), fp = |output| − tp, fn = |reference| − tp.
// 。 is a separator beside the list because entities never contain it and models end lists
// with it. Matching is exact string equality (no partial credit for 孔 vs 孔子).
import { bootstrapInterval, bootstrapSignature, type BootstrapOptions } from './bootstrap.ts';
import { cleanOutput, POSTPROCESS_VERSION } from './postprocess.ts';
import { f1FromCounts, precisionRecallF1, type F1WithInterval, type MatchCounts } from './prf.ts';
import { firstReference, type GenerationPair } from './types.ts';

const ENTITY_SEPARATORS = /[、，,；;。\s]+/u;
/** The answer for "no entity". */
export const NO_ENTITY = '无';

export interface NerItemResult extends MatchCounts {
  /** The output's entities, in order, repeats kept. */
  predicted: string[];
  /** The reference's entities, in order, repeats kept. */
  reference: string[];
  /** Matched entities (the multiset intersection), in output order. */
  matched: string[];
  /** Output entities beyond the reference's counts (false alarms), in output order. */
  spurious: string[];
  /** Reference entities the output missed, in reference order. */
  missing: string[];
}

export interface NerScore extends F1WithInterval {
  n: number;
  signature: string;
}

/** A list of entities as written (output after post-processing, or a reference). */
export function parseEntities(text: string): string[] {
  return text.split(ENTITY_SEPARATORS).filter((entity) => entity !== '' && entity !== NO_ENTITY);
}

/** Splits both into entities and matches them as multisets. */
export function nerItem(output: string, reference: string): NerItemResult {
  const predicted = parseEntities(cleanOutput(output));
  const referenceEntities = parseEntities(reference.trim());
  const available = new Map<string, number>();
  for (const entity of referenceEntities) available.set(entity, (available.get(entity) ?? 0) + 1);
  const matched: string[] = [];
  const spurious: string[] = [];
  for (const entity of predicted) {
    const left = available.get(entity) ?? 0;
    if (left > 0) {
      available.set(entity, left - 1);
      matched.push(entity);
    } else {
      spurious.push(entity);
    }
  }
  const missing: string[] = [];
  for (const entity of referenceEntities) {
    const left = available.get(entity) ?? 0;
    if (left > 0) {
      available.set(entity, left - 1);
      missing.push(entity);
    }
  }
  return { predicted, reference: referenceEntities, matched, spurious, missing, tp: matched.length, fp: spurious.length, fn: missing.length };
}

/** `ner-f1|avg:micro|match:exact-multiset|split:、，,；;。ws|none:无|post:1|bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items`. */
export function nerSignature(options: BootstrapOptions = {}): string {
  return `ner-f1|avg:micro|match:exact-multiset|split:、，,；;。ws|none:${NO_ENTITY}|post:${POSTPROCESS_VERSION}|${bootstrapSignature(options)}`;
}

const f1OfSums = (sums: Float64Array): number | null => f1FromCounts(sums[0], sums[1], sums[2]);

/**
 * Micro precision, recall and F1 over items, F1 with a 95% percentile-bootstrap interval (items
 * resampled). Each item's reference is its first (entities joined by 、, as the adapters write it).
 */
export function nerCorpus(pairs: readonly GenerationPair[], options: BootstrapOptions = {}): NerScore {
  const rows = new Float64Array(pairs.length * 3);
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (let i = 0; i < pairs.length; i++) {
    const item = nerItem(pairs[i].output, firstReference(pairs[i], i));
    rows[3 * i] = item.tp;
    rows[3 * i + 1] = item.fp;
    rows[3 * i + 2] = item.fn;
    tp += item.tp;
    fp += item.fp;
    fn += item.fn;
  }
  return {
    n: pairs.length,
    ...precisionRecallF1({ tp, fp, fn }),
    f1Interval: bootstrapInterval(rows, 3, f1OfSums, options),
    signature: nerSignature(options),
  };
}
