// Translation: corpus BLEU (bleu.ts, sacrebleu's numbers) of the post-processed outputs, with a 95%
// percentile-bootstrap interval from resampling sentences (sacrebleu's own bootstrap draws with
// numpy and reports mean ± half-width; ours is seeded mulberry32 so a page and Node agree, and the
// signature says so). An item's references are all of its GenerationItem.references; when items
// have different numbers of references the signature says nrefs:var, as sacrebleu's does.
import { bleuFromStats, bleuSentenceStats, bleuSignature, BLEU_STATS_WIDTH, sentenceBleu, sumBleuStats, type BleuScore } from './bleu.ts';
import { bootstrapInterval, bootstrapSignature, type BootstrapInterval, type BootstrapOptions } from './bootstrap.ts';
import { cleanOutput } from './postprocess.ts';
import type { GenerationPair } from './types.ts';

export interface TranslationScore {
  n: number;
  /** Corpus BLEU; null when there are no items. */
  bleu: BleuScore | null;
  /** Interval of bleu.score (0..100). */
  interval: BootstrapInterval | null;
  /** sacrebleu's signature with our bootstrap fragment, e.g. nrefs:1|bs:1000|seed:12345|ci:percentile-95|rng:mulberry32|resample:items|case:mixed|eff:no|tok:zh|smooth:exp|version:2.6.0. */
  signature: string;
}

/** Sentence BLEU (effective order) of one post-processed output: the per-item view. */
export function translationItem(output: string, references: readonly string[]): BleuScore {
  return sentenceBleu(cleanOutput(output), references);
}

export function translationCorpus(pairs: readonly GenerationPair[], options: BootstrapOptions = {}): TranslationScore {
  const rows = new Float64Array(pairs.length * BLEU_STATS_WIDTH);
  const refCounts = new Set<number>();
  pairs.forEach((pair, i) => {
    if (pair.references.length === 0) throw new RangeError(`translation item ${i + 1} has no reference`);
    refCounts.add(pair.references.length);
    rows.set(bleuSentenceStats(cleanOutput(pair.output), pair.references), i * BLEU_STATS_WIDTH);
  });
  const nrefs = refCounts.size === 1 ? String([...refCounts][0]) : refCounts.size === 0 ? '0' : 'var';
  return {
    n: pairs.length,
    bleu: pairs.length === 0 ? null : bleuFromStats(sumBleuStats(rows)),
    interval: bootstrapInterval(rows, BLEU_STATS_WIDTH, (sums) => bleuFromStats(sums).score, options),
    signature: bleuSignature({ nrefs, bootstrap: bootstrapSignature(options) }),
  };
}
