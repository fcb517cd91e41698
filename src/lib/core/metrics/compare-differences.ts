// "This run − baseline" under one row: accuracy rows (Newcombe's intervals, exact McNemar), group and
// Overall rows (the paired bootstrap on the common coverage), points-only rows, and the Holm
// adjustment of the task rows' McNemar p-values. The rules are stated in compare.ts.
import { newcombePaired, newcombeUnpaired } from './difference-intervals.ts';
import { mcnemarExactFromCounts } from './mcnemar.ts';
import type { PairedAggregate } from './compare-paired.ts';
import type { PairedBootstrapResult } from './paired-bootstrap.ts';
import { holmAdjust } from './holm.ts';
import { pct, type PairCounts } from './compare-pairing.ts';
import type { CompareCell, CompareDifference, CompareRow, Pairing } from './compare-types.ts';

/** Adds the Holm-adjusted p over each run's task rows to their McNemar results (pooled, group, Overall and robustness rows are single tests, left as they are). */
export function holmAcrossTasks(rows: readonly CompareRow[], runCount: number): void {
  const taskRows = rows.filter((r) => r.kind === 'task');
  for (let i = 1; i < runCount; i++) {
    const adjusted = holmAdjust(taskRows.map((r) => r.differences[i]?.mcnemar?.pValue ?? null));
    const family = adjusted.filter((p) => p !== null).length;
    taskRows.forEach((r, t) => {
      const m = r.differences[i]?.mcnemar;
      if (m && adjusted[t] !== null) m.holm = { pValue: adjusted[t]!, family };
    });
  }
}

const pointsBetween = (base: CompareCell, cell: CompareCell): number | null => (base.score !== null && cell.score !== null ? cell.score - base.score : null);
const percentOf = (k: number, n: number): number | null => (n === 0 ? null : (100 * k) / n);

/**
 * "This run − baseline" for an accuracy row (task, pooled, perf). With common items: on them, with
 * Newcombe's paired interval and exact McNemar. With none: the cells' difference and Newcombe's
 * unpaired interval, no test.
 */
export function accuracyDifference(base: CompareCell, cell: CompareCell, counts: PairCounts): CompareDifference {
  const none = { interval: null, intervalMethod: null, mcnemar: null };
  if (counts.pairing === 'summary-only') return { points: pointsBetween(base, cell), pairing: counts.pairing, ...none };
  const beyond = { thisRun: counts.otherSize - counts.common, baseline: counts.baseSize - counts.common };
  if (counts.common === 0) {
    const r = base.n && cell.n && base.correct !== null && cell.correct !== null ? newcombeUnpaired(cell.correct, cell.n, base.correct, base.n) : null;
    const interval = r ? { low: 100 * r.low, high: 100 * r.high } : null;
    return { points: pointsBetween(base, cell), interval, intervalMethod: r ? 'newcombe-unpaired' : null, pairing: counts.pairing, mcnemar: null, common: { n: 0, baseline: null, other: null }, beyond };
  }
  const { a, onlyThis, onlyBaseline, d, common } = counts;
  const r = newcombePaired(a, onlyThis, onlyBaseline, d)!;
  return {
    // Paired: exactly the cells' difference; partly paired: the two runs on their common items.
    points: counts.pairing === 'paired' ? pointsBetween(base, cell) : 100 * r.difference,
    interval: { low: 100 * r.low, high: 100 * r.high },
    intervalMethod: 'newcombe-paired',
    pairing: counts.pairing,
    mcnemar: { ...mcnemarExactFromCounts(onlyBaseline, onlyThis), paired: common },
    common: { n: common, baseline: percentOf(a + onlyBaseline, common), other: percentOf(a + onlyThis, common) },
    beyond,
  };
}

/**
 * "This run − baseline" for a group or Overall row: on the common coverage with the paired
 * bootstrap when the runs share items under it; otherwise the cells' difference, only when both
 * cover the same tasks.
 */
export function aggregateDifference(base: CompareCell, cell: CompareCell, paired: PairedAggregate | undefined, summary: boolean, sameCoverage: boolean): CompareDifference {
  if (!summary && paired) {
    const b: PairedBootstrapResult | null = paired.bootstrap;
    const points = paired.pairing === 'paired' ? pointsBetween(base, cell) : paired.baseline !== null && paired.other !== null ? 100 * (paired.other - paired.baseline) : null;
    return {
      points,
      interval: b ? { low: 100 * b.low, high: 100 * b.high } : null,
      intervalMethod: b ? 'paired-bootstrap' : null,
      pairing: paired.pairing,
      mcnemar: null,
      common: { n: paired.common, baseline: pct(paired.baseline), other: pct(paired.other), of: paired.of },
      beyond: { thisRun: paired.thisOnly, baseline: paired.baselineOnly },
      bootstrap: b ? { pValue: b.pValue, resamples: b.resamples, seed: b.seed } : null,
    };
  }
  const pairing: Pairing = summary ? 'summary-only' : 'unpaired';
  const points = pointsBetween(base, cell);
  const none = { interval: null, intervalMethod: null, mcnemar: null, pairing };
  if (points !== null && !sameCoverage) return { points: null, ...none, withheld: 'coverage-differs' };
  return { points, ...none };
}

/**
 * Points only, no interval and no test (the robustness rows other than perf), paired as the pooled row.
 * A difference of two runs' own numbers (circular mean, PriDe, top-letter share): each is over all the
 * run's items, so where the runs share only some items the two numbers cover different items and no
 * difference is given (`withheld: 'items-differ'`), as the accuracy rows never set a score over more
 * items against one over fewer.
 */
export function pointsOnly(base: CompareCell, cell: CompareCell, pairing: Pairing): CompareDifference {
  const points = base.score !== null && cell.score !== null ? cell.score - base.score : null;
  if (pairing === 'partly-paired' && points !== null) return { points: null, interval: null, intervalMethod: null, pairing, mcnemar: null, withheld: 'items-differ' };
  return { points, interval: null, intervalMethod: null, pairing, mcnemar: null };
}
