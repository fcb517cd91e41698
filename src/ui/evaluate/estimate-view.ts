// What the run page draws of the whole benchmark's estimate (core/metrics/benchmark-estimate.ts): a
// live run's, fed from its results as they come, and the lines of a table from any estimate. The
// words are estimate-text.ts's.
import { BenchmarkEstimator, failedEstimate, type BenchmarkEstimate, type EstimateMeasure, type EstimateRow, type MeasureEstimate } from '../../lib/core/metrics/benchmark-estimate.ts';
import type { ScoreInterval } from '../../lib/core/metrics/sample-estimate/types.ts';
import type { ItemResult, McItemResult, McRunRecord } from '../../lib/core/record/run.ts';

/**
 * A live run's estimate, kept up to date from its results list (LiveResults.all: results are
 * appended as they come; an item that comes again with its rotations replaces itself in place and is
 * the same item). Each update takes in only the results after the last one taken: O(new results),
 * then a snapshot in O(measures × rows), so a page may take one at every draw of a long run.
 */
export class LiveEstimateFeed {
  private readonly estimator: BenchmarkEstimator;
  private taken = 0;
  private last: { estimate: BenchmarkEstimate; at: number; taken: number; next: number } | null = null;
  /** Milliseconds this feed has spent, results taken in and snapshots taken (what watching costs the run's thread). */
  spentMs = 0;

  private readonly config: McRunRecord['config'];

  constructor(
    run: McRunRecord,
    /** The page's clock (ms); a test's fake. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.config = run.config;
    this.estimator = new BenchmarkEstimator(run.config, run.datasetId);
  }

  /**
   * Takes in the new results (always: O(new)), and returns a snapshot: a new one when the results
   * have grown by LIVE_ESTIMATE_GROWTH or LIVE_ESTIMATE_MS have passed (see take), or the run has
   * ended (`final`) with results the last one lacks, else the last one. The confidence sequences of
   * a score of many tasks cost milliseconds each (tens for ACLUE's 15 tasks), on the thread the run's
   * scheduler shares: a snapshot at each of four draws a second would slow the run.
   */
  update(all: readonly ItemResult[], final = false): BenchmarkEstimate {
    const entered = this.now();
    try {
      return this.take(all, final);
    } catch (error) {
      // A record no check foresaw: the page says the estimate cannot be made and draws the rest of the run.
      return failedEstimate(this.config, all.length, error);
    } finally {
      this.spentMs += this.now() - entered;
    }
  }

  private take(all: readonly ItemResult[], final: boolean): BenchmarkEstimate {
    if (all.length > this.taken) {
      // A resumed run's stored results come first, all at once: fed in run order (observeAll sorts by index).
      this.estimator.observeAll(all.slice(this.taken) as McItemResult[]);
      this.taken = all.length;
    }
    const started = this.now();
    const last = this.last;
    if (last) {
      // A new snapshot once the results have grown by LIVE_ESTIMATE_GROWTH (a snapshot's confidence
      // sequence of many tasks costs in proportion to the results, so per result this costs the same
      // early and late in a run: issue 22), or LIVE_ESTIMATE_MS after the last for a slow run; never
      // sooner than its cost allows (LIVE_ESTIMATE_SHARE of the page's time).
      const grown = this.taken >= Math.max(last.taken + 1, Math.ceil(last.taken * (1 + LIVE_ESTIMATE_GROWTH)));
      const due = this.taken > last.taken && started >= last.at + LIVE_ESTIMATE_MS;
      // The run has ended (`final`): its last results are in the estimate whatever the rules say, so
      // a paused or finished run never shows a snapshot of fewer results than it stored.
      const ended = final && this.taken > last.taken;
      if (!ended && ((!grown && !due) || started < last.next)) return last.estimate;
    }
    const estimate = this.estimator.snapshot();
    const cost = this.now() - started;
    this.last = { estimate, at: started, taken: this.taken, next: started + cost / LIVE_ESTIMATE_SHARE };
    return estimate;
  }
}

/** A live snapshot is due once the results have grown by this share since the last… */
export const LIVE_ESTIMATE_GROWTH = 0.05;
/** …or this many ms after the last, with a new result (a slow run still shows each few). */
export const LIVE_ESTIMATE_MS = 10_000;
/** The largest share of the page's time live snapshots may take. */
export const LIVE_ESTIMATE_SHARE = 0.05;

const feeds = new WeakMap<object, LiveEstimateFeed>();

/**
 * The estimate of the live run whose results list is `results` (one feed per list, kept while it
 * lives), and the feed's time so far. A record no longer running (paused, completed, failed: the page
 * shows it so until it reads the run from the store) gets a snapshot of every result.
 */
export function liveEstimate(results: { readonly all: readonly ItemResult[] }, run: McRunRecord): { estimate: BenchmarkEstimate; spentMs: number } {
  let feed = feeds.get(results);
  if (!feed) {
    try {
      feeds.set(results, (feed = new LiveEstimateFeed(run)));
    } catch (error) {
      return { estimate: failedEstimate(run.config, results.all.length, error), spentMs: 0 };
    }
  }
  return { estimate: feed.update(results.all, run.status !== 'running'), spentMs: feed.spentMs };
}

/** One line of a table: a measure's overall score, or one task's or group's. */
export interface EstimateLine {
  measure: EstimateMeasure;
  key: string;
  kind: EstimateRow['kind'];
  of: string | null;
  estimate: number | null;
  /** (a) For a sample size fixed before starting. */
  fixedN: ScoreInterval | null;
  /** (b) Valid whenever the run stops; null for bits per byte (see `unbounded`). */
  sequence: ScoreInterval | null;
  /** No confidence sequence because the values have no bound (bits per byte). */
  unbounded: boolean;
  n: number;
  population: number;
  exact: boolean;
}

function lineOf(m: MeasureEstimate, row: EstimateRow): EstimateLine {
  const e = row.estimate;
  // Every item done: the estimate is the score and both intervals that point, whatever a tracker returns at the end.
  const point = e.exact && e.estimate !== null ? { low: e.estimate, high: e.estimate } : null;
  return {
    measure: m.measure,
    key: row.key,
    kind: row.kind,
    of: row.of,
    estimate: e.estimate,
    fixedN: point ?? e.fixedN,
    sequence: m.bounded ? (point ?? e.sequence) : null,
    unbounded: !m.bounded,
    n: e.n,
    population: e.population,
    exact: e.exact,
  };
}

/** Each measure's overall score (the benchmark's own rule), in the estimate's order of measures. */
export function overallLines(estimate: BenchmarkEstimate): EstimateLine[] {
  return estimate.measures.flatMap((m) => m.rows.filter((r) => r.kind === 'overall').map((r) => lineOf(m, r)));
}

/** One measure's lines below overall: pooled, then groups, then tasks. */
export function detailLines(estimate: BenchmarkEstimate, measure: EstimateMeasure): EstimateLine[] {
  const m = estimate.measures.find((x) => x.measure === measure);
  return m ? m.rows.filter((r) => r.kind !== 'overall').map((r) => lineOf(m, r)) : [];
}

/** Whether the overall score is exact (every item of the benchmark, or of the items chosen, is done). */
export function estimateExact(estimate: BenchmarkEstimate): boolean {
  const first = estimate.measures[0]?.rows[0]?.estimate;
  return first !== undefined && first.exact;
}
