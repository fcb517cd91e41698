// Turns what the Compare page can hold (a run stored here, a shared link) into the core's
// ComparableRun. No numbers are computed here: only outcomes are copied across.
import type { SharedRun } from '../../lib/core/formats/share-link/share-link.ts';
import type { GenItemResult, ItemResult, McItemResult, McRunRecord, RunRecord } from '../../lib/core/record/run.ts';
import type { ComparableRobustness, ComparableRun } from '../../lib/core/metrics/compare.ts';
import { allRotationsCorrect, circularSummary, letterBias, prideDebias, type LetterBiasInput } from '../../lib/core/metrics/index.ts';
import { continuousOf } from '../../lib/core/metrics/continuous.ts';
import { sharedResults, type SharedItemRow } from '../../lib/engine/shared-items.ts';
import { describedShared, describedStored, runFacets, type DescribedRun } from './run-label.ts';
import { BenchmarkEstimator, failedEstimate, type BenchmarkEstimate } from '../../lib/core/metrics/benchmark-estimate.ts';
import type { McRunConfig } from '../../lib/core/record/run.ts';
import { fixedIntervalsOf } from '../evaluate/run-headline.ts';

/**
 * A run's fixed-n intervals (a) as Compare's cells take them (issue 44: the run page's, from the same
 * estimate); undefined while the estimate is not there.
 */
export function fixedNOf(estimate: BenchmarkEstimate | null): ComparableRun['fixedN'] {
  const fixed = fixedIntervalsOf(estimate);
  if (fixed.none === 'pending') return undefined;
  return { none: fixed.none, byRow: Object.fromEntries(fixed.byRow) };
}

/** A link's estimate of accuracy, from its letters scored on this browser's items, in the order it asked them. */
function sharedEstimate(config: McRunConfig, datasetId: SharedRun['datasetId'], results: readonly McItemResult[]): BenchmarkEstimate {
  try {
    const estimator = new BenchmarkEstimator(config, datasetId, { measures: ['accuracy'] });
    estimator.observeAll(results);
    return estimator.snapshot();
  } catch (error) {
    return failedEstimate(config, results.length, error);
  }
}

/**
 * The run's full description in English, for the core's own messages (a comparison it refuses names
 * the run). What the page shows is worded per language by run-label.ts.
 */
function coreLabel(run: DescribedRun): string {
  const words = { lang: 'en' as const, countOf: (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`, dateTime: (iso: string) => iso };
  return runFacets(run, words).map((f) => f.text).join(' · ');
}

/** Whether a stored run came from a run file. */
export function isImported(run: RunRecord): boolean {
  return run.origin !== undefined;
}

/** The overall letter bias as Compare shows it: the most chosen letter, its share, the fit's p-value. */
function letterBiasOf(results: readonly LetterBiasInput[]): ComparableRobustness['letterBias'] {
  const overall = letterBias(results).overall;
  return { n: overall.n, letter: overall.top?.letter ?? null, share: overall.top?.share ?? null, pValue: overall.fit?.pValue ?? null };
}

/** A stored multiple-choice run's robustness numbers, from its own metric functions. */
function robustnessOf(run: McRunRecord, results: McItemResult[]): ComparableRobustness {
  const robustness: ComparableRobustness = { letterBias: letterBiasOf(results) };
  const circular = run.config.circular ? circularSummary(results) : null;
  if (circular) robustness.circularMean = { accuracy: circular.mean.accuracy, interval: circular.mean.interval, n: circular.scored };
  const pride = run.config.pride && run.config.scoring === 'letter-logits' ? prideDebias(results, run.config.pride.estimationItemIds) : null;
  if (pride) robustness.pride = pride.debiased;
  return robustness;
}

/** A run stored in this browser with its results (as loadResults gives them); `estimate`: its whole benchmark's estimate (storedRunEstimate), when computed. */
export function fromStoredRun(run: RunRecord, results: ItemResult[], estimate: BenchmarkEstimate | null = null): ComparableRun {
  const base = { id: run.id, label: coreLabel(describedStored(run)), origin: isImported(run) ? ('imported' as const) : ('local' as const), datasetId: run.datasetId };
  if (run.config.kind === 'multiple-choice') {
    const mc = results as McItemResult[];
    // Only a circular run asks every item under every rotation; a PriDe run's estimation items alone have them.
    const circular = run.config.circular === true;
    return {
      ...base,
      kind: 'multiple-choice',
      mcItems: mc.map((r) => ({
        itemId: r.itemId,
        task: r.task,
        correct: r.correct,
        prediction: r.prediction,
        ...(circular ? { allRotationsCorrect: allRotationsCorrect(r) } : {}),
      })),
      robustness: robustnessOf(run as McRunRecord, mc),
      continuous: { scoring: run.config.scoring, items: mc.flatMap((r) => continuousOf(r) ?? []) },
      ...(estimate ? { fixedN: fixedNOf(estimate) } : {}),
    };
  }
  const gen = results as GenItemResult[];
  return {
    ...base,
    kind: 'generation',
    genResults: gen.map((r) => ({ itemId: r.itemId, task: r.task, generationTask: r.generationTask, output: r.output, references: r.references })),
  };
}

/** A stable id for a shared link within one comparison (links are not stored, so they have none). */
export function sharedRunId(shared: SharedRun): string {
  return `shared:${shared.createdAt}:${shared.config.itemIdsHash.slice(0, 12)}:${shared.config.templateHash.slice(0, 12)}`;
}

/**
 * A shared link: per item when its rows could be resolved against this browser's copy of the data
 * (resolveSharedItems), otherwise (rows = null, and always for generation) its summary only.
 * Items the link lists as having no result yet are left out, as a stored run would not have them.
 */
export function fromSharedRun(shared: SharedRun, rows: readonly SharedItemRow[] | null): ComparableRun {
  const base = { id: sharedRunId(shared), label: coreLabel(describedShared(shared)), origin: 'shared' as const, datasetId: shared.datasetId, kind: shared.kind };
  if (shared.kind === 'multiple-choice' && rows) {
    // A link carries every item's letter (and a circular run's every rotation's), scored on the local items.
    const results = sharedResults(rows);
    const circular = shared.config.circular === true && shared.rotations !== null;
    const summary = circular ? circularSummary(results) : null;
    // A link lists its items by hash only: the rows resolved here are its items, in its order.
    const config = { ...shared.config, itemIds: rows.map((row) => row.item.id) } as unknown as McRunConfig;
    return {
      ...base,
      fixedN: fixedNOf(sharedEstimate(config, shared.datasetId, results)),
      mcItems: results.map((r) => ({ itemId: r.itemId, task: r.task, correct: r.correct, prediction: r.prediction, ...(circular ? { allRotationsCorrect: allRotationsCorrect(r) } : {}) })),
      robustness: {
        letterBias: letterBiasOf(results),
        ...(summary ? { circularMean: { accuracy: summary.mean.accuracy, interval: summary.mean.interval, n: summary.scored } } : {}),
      },
    };
  }
  return { ...base, summaryOnly: { ...shared.summary } };
}
