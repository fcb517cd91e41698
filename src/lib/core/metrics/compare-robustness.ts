// The robustness rows (issue 13): circular perf (tested as an accuracy row), mean circular accuracy,
// PriDe's debiased accuracy and letter bias (points only). The rules are stated in compare.ts.
import { accuracyFromCounts, wilsonInterval, type Interval } from './accuracy.ts';
import { accuracyDifference, pointsOnly } from './compare-differences.ts';
import { EMPTY_CELL, itemKey, pairCounts, pct, pctInterval } from './compare-pairing.ts';
import type { ComparableRobustness, ComparableRun, CompareCell, CompareDifference, CompareRow, Pairing } from './compare-types.ts';

/**
 * Per-item outcome behind perf: all rotations right for a run with rotations (null ones left out),
 * the plain outcome for a run asked in one order only; null for a summary-only run.
 */
function perfOutcomes(run: ComparableRun): { outcomes: Map<string, boolean>; oneOrderOnly: boolean } | null {
  if (!run.mcItems) return null;
  const oneOrderOnly = !run.mcItems.some((item) => item.allRotationsCorrect !== undefined);
  const outcomes = new Map<string, boolean>();
  for (const item of run.mcItems) {
    const outcome = oneOrderOnly ? item.correct : item.allRotationsCorrect;
    if (outcome !== null && outcome !== undefined) outcomes.set(itemKey(item.task, item.itemId), outcome);
  }
  return { outcomes, oneOrderOnly };
}

const fractionCell = (x: { accuracy: number | null; interval: Interval | null; n: number; correct: number | null } | undefined): CompareCell =>
  x ? { score: pct(x.accuracy), interval: pctInterval(x.interval), n: x.n, correct: x.correct } : EMPTY_CELL;

/** The robustness rows, each only when some run has its numbers. */
export function robustnessRows(runs: readonly ComparableRun[], pooledPairing: readonly Pairing[]): CompareRow[] {
  const rows: CompareRow[] = [];
  const push = (key: string, metric: string, cells: CompareCell[], differences: (CompareDifference | null)[]) =>
    rows.push({ key, kind: 'robustness', name: null, metric, cells, differences });

  // Only a run with rotations makes a perf row: no per-item maps are built otherwise.
  const perf = runs.some((run) => run.mcItems?.some((item) => item.allRotationsCorrect !== undefined)) ? runs.map(perfOutcomes) : [];
  if (perf.some((p) => p !== null && !p.oneOrderOnly)) {
    const cells = perf.map((p): CompareCell => {
      if (!p) return { score: null, interval: null, n: null, correct: null };
      const n = p.outcomes.size;
      const k = [...p.outcomes.values()].filter(Boolean).length;
      return { score: pct(accuracyFromCounts(k, n)), interval: pctInterval(wilsonInterval(k, n)), n, correct: k, oneOrderOnly: p.oneOrderOnly };
    });
    const differences = runs.map((_, i) =>
      i === 0 ? null : accuracyDifference(cells[0], cells[i], pairCounts(perf[0]?.outcomes, perf[i]?.outcomes, perf[0] === null || perf[i] === null)),
    );
    push('circular:perf', 'all rotations right', cells, differences);
  }

  const robust = runs.map((run) => run.robustness);
  const summaryCell = (i: number): CompareCell | null => (runs[i].mcItems ? null : { score: null, interval: null, n: null, correct: null });
  const fromMetric = (key: string, metric: string, cellOf: (r: ComparableRobustness) => CompareCell | null) => {
    if (!robust.some((r) => r && cellOf(r))) return;
    const cells = robust.map((r, i) => summaryCell(i) ?? (r ? cellOf(r) ?? EMPTY_CELL : EMPTY_CELL));
    push(key, metric, cells, cells.map((cell, i) => (i === 0 ? null : pointsOnly(cells[0], cell, pooledPairing[i]))));
  };
  fromMetric('circular:mean', 'mean accuracy over rotations', (r) =>
    r.circularMean ? fractionCell({ ...r.circularMean, correct: null }) : null,
  );
  fromMetric('pride:debiased', 'PriDe debiased accuracy', (r) => (r.pride ? fractionCell({ ...r.pride, interval: r.pride.interval ?? r.pride.wilson, correct: r.pride.k }) : null));
  fromMetric('bias:top-share', 'share of the most predicted letter', (r) =>
    r.letterBias ? { ...fractionCell({ accuracy: r.letterBias.share, interval: null, n: r.letterBias.n, correct: null }), letter: r.letterBias.letter } : null,
  );
  // A share of letter B less a share of letter A measures nothing: a difference only for the same letter.
  const share = rows.find((r) => r.key === 'bias:top-share');
  if (share) {
    share.differences = share.differences.map((d, i) =>
      d && d.points !== null && share.cells[i].letter !== share.cells[0].letter ? { ...d, points: null, withheld: 'letters-differ' as const } : d,
    );
  }
  if (robust.some((r) => r?.letterBias)) {
    const cells = robust.map((r, i): CompareCell => summaryCell(i) ?? (r?.letterBias ? { score: r.letterBias.pValue, interval: null, n: r.letterBias.n, correct: null } : EMPTY_CELL));
    push('bias:p-value', 'letter-bias fit p-value', cells, cells.map((_, i) => (i === 0 ? null : { ...pointsOnly(cells[0], cells[i], pooledPairing[i]), points: null })));
  }
  return rows;
}
