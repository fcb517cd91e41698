// Two runs compared on their continuous scores (compare-continuous.ts does the statistics): which
// metrics apply, the items both runs scored, and the sentence's inputs. Runs of different
// formulations (letters and option text) have continuous scores of different things (a letter's
// probability against an option text's), so they are compared on accuracy only.
import type { DatasetId } from '../benchmarks/types.ts';
import type { McScoring } from '../record/run.ts';
import { compareContinuous, minimumDetectableAccuracyDifference, separation, wilcoxonSignedRank, type ContinuousDifference, type PairedValue, type Separation, type WilcoxonResult } from './compare-continuous.ts';
import { continuousMetricsOf, type ContinuousItem, type ContinuousMetric } from './continuous.ts';
import type { BootstrapOptions } from './generation/bootstrap.ts';

export interface ContinuousRun {
  scoring: McScoring;
  items: readonly ContinuousItem[];
}

export interface ContinuousMetricComparison {
  metric: ContinuousMetric;
  difference: ContinuousDifference;
  /** Every common item together: n, the mean difference and the Wilcoxon signed-rank test (the item-level test set beside the pooled McNemar). */
  pooled: { n: number; meanDifference: number | null; wilcoxon: WilcoxonResult | null };
}

export type ContinuousComparison =
  | { kind: 'compared'; metrics: ContinuousMetricComparison[] }
  /** Letters against option text: accuracy only. */
  | { kind: 'formulations-differ'; baseline: McScoring; other: McScoring }
  /** A run without continuous scores (generated answers, a shared link): nothing to compare. */
  | { kind: 'unavailable' };

/** The continuous metrics both runs have, compared on their common items (other − baseline), tasks in `order`. */
export function compareContinuousRuns(datasetId: DatasetId, baseline: ContinuousRun | null, other: ContinuousRun | null, order: readonly string[], options: BootstrapOptions = {}): ContinuousComparison {
  if (!baseline || !other) return { kind: 'unavailable' };
  const metrics = continuousMetricsOf(baseline.scoring);
  if (metrics.length === 0 || continuousMetricsOf(other.scoring).length === 0) return { kind: 'unavailable' };
  if (baseline.scoring !== other.scoring) return { kind: 'formulations-differ', baseline: baseline.scoring, other: other.scoring };
  const base = new Map(baseline.items.map((item) => [`${item.task}\u0000${item.itemId}`, item]));
  // log p(gold) is not compared: it is p(gold) before normalisation, and for letters mostly the letter's share of the vocabulary.
  const compared = metrics.filter((m) => m !== 'logPGold');
  return {
    kind: 'compared',
    metrics: compared.map((metric) => {
      const pairs: PairedValue[] = [];
      for (const item of other.items) {
        const b = base.get(`${item.task}\u0000${item.itemId}`);
        const x = b?.[metric];
        const y = item[metric];
        if (x === null || x === undefined || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
        pairs.push({ itemId: item.itemId, task: item.task, baseline: x, other: y });
      }
      const d = pairs.map((p) => p.other - p.baseline);
      return {
        metric,
        difference: compareContinuous(datasetId, pairs, order, options),
        pooled: { n: d.length, meanDifference: d.length ? d.reduce((a, b) => a + b, 0) / d.length : null, wilcoxon: wilcoxonSignedRank(d) },
      };
    }),
  };
}

export interface SeparationSentence {
  separation: Separation;
  accuracyP: number | null;
  continuousP: number | null;
  /** Points: the smallest accuracy difference a paired test on these items could detect (power 0.8, α 0.05). */
  detectable: number | null;
  n: number;
}

/**
 * What the page's sentence says: McNemar on the common items' 0/1 outcomes against the Wilcoxon
 * signed-rank test on their p(gold) differences (both item-level, both on every common item), and
 * the accuracy difference this many items could detect given how often the runs' outcomes differ.
 */
export function separationSentence(mcnemar: { pValue: number; b: number; c: number; paired: number } | null, pooled: ContinuousMetricComparison['pooled'] | null): SeparationSentence {
  // `paired`: the items both runs scored (McNemar's own n is the discordant ones).
  const n = mcnemar?.paired ?? pooled?.n ?? 0;
  const discordant = mcnemar && mcnemar.paired > 0 ? (mcnemar.b + mcnemar.c) / mcnemar.paired : 0;
  const detectable = minimumDetectableAccuracyDifference(n, discordant);
  const accuracyP = mcnemar?.pValue ?? null;
  const continuousP = pooled?.wilcoxon?.pValue ?? null;
  return { separation: separation(accuracyP, continuousP), accuracyP, continuousP, detectable: detectable === null ? null : 100 * detectable, n };
}
