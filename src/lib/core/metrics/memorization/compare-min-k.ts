// Two models' memorization scores on the same items (Compare): per item d = other's score −
// baseline's, on the items both scored. The statistics are compare-continuous.ts's, unchanged: per
// task the mean of d and the Wilcoxon signed-rank p (Holm-adjusted over tasks), groups and Overall by
// the benchmark's rule with the task-stratified bootstrap's interval and p; and every common item
// pooled with one signed-rank test.
//
// Min-K%++ by default: its standardisation against each model's own next-token distribution is what
// makes two models' scores comparable at all. Min-K% Prob is in each model's nats, so two models with
// different vocabularies (or tokenizers that split the text differently) differ in Min-K% for reasons
// that have nothing to do with memory; it can be compared, but read it with that in mind.
//
// What a difference can and cannot show: d > 0 says the other model finds these items more typical
// of what it expects than the baseline does. It does not say that either model saw them: a model
// trained on more classical Chinese finds the whole kind of text more typical. It is strongest as a
// contrast: two models that agree on other text and part on one benchmark's items.
import type { DatasetId } from '../../benchmarks/types.ts';
import { compareContinuous, wilcoxonSignedRank, type ContinuousDifference, type PairedValue, type WilcoxonResult } from '../compare-continuous.ts';
import type { BootstrapOptions } from '../generation/bootstrap.ts';
import { HOLM_SIGNATURE } from '../holm.ts';
import { stratifiedBootstrapSignature } from '../stratified-bootstrap.ts';
import type { MemorizationItemScores, MemorizationProbe } from './item-scores.ts';
import { minKProbSignature } from './min-k-prob.ts';
import { minKPlusPlusSignature } from './min-k-plus-plus.ts';

export interface MemorizationComparison {
  probe: MemorizationProbe;
  difference: ContinuousDifference;
  /** Every common item together. */
  pooled: { n: number; meanDifference: number | null; wilcoxon: WilcoxonResult | null };
  signature: string;
}

/** The items both runs scored with `probe`, in the other run's order, matched by task and item id. */
export function pairMemorizationScores(baseline: readonly MemorizationItemScores[], other: readonly MemorizationItemScores[], probe: MemorizationProbe): PairedValue[] {
  const base = new Map(baseline.map((item) => [`${item.task}\u0000${item.itemId}`, item[probe]]));
  const pairs: PairedValue[] = [];
  for (const item of other) {
    const x = base.get(`${item.task}\u0000${item.itemId}`);
    const y = item[probe];
    if (x === null || x === undefined || y === null || !Number.isFinite(x) || !Number.isFinite(y)) continue;
    pairs.push({ itemId: item.itemId, task: item.task, baseline: x, other: y });
  }
  return pairs;
}

/**
 * Other − baseline on the common items, tasks in `order`. `k` is the runs' k (both must share it: the
 * caller checks, as it checks the runs' benchmark), for the signature.
 */
export function compareMemorization(
  datasetId: DatasetId,
  baseline: readonly MemorizationItemScores[],
  other: readonly MemorizationItemScores[],
  order: readonly string[],
  k: number,
  probe: MemorizationProbe = 'minKPlusPlus',
  options: BootstrapOptions = {},
): MemorizationComparison {
  const pairs = pairMemorizationScores(baseline, other, probe);
  const d = pairs.map((p) => p.other - p.baseline);
  const probeSignature = probe === 'minKPlusPlus' ? minKPlusPlusSignature(k) : minKProbSignature(k);
  return {
    probe,
    difference: compareContinuous(datasetId, pairs, order, options),
    pooled: { n: d.length, meanDifference: d.length ? d.reduce((a, b) => a + b, 0) / d.length : null, wilcoxon: wilcoxonSignedRank(d) },
    signature: `${probeSignature}|d:other-baseline|wilcoxon:two-sided-approx-tie-corrected|${HOLM_SIGNATURE}|${stratifiedBootstrapSignature(options)}`,
  };
}
