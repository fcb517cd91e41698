// A run's results as the run page reads them, at a constant cost per new result (issue 22).
//
// The results themselves stay a plain array (never a Svelte proxy: a proxied array of 28,707
// results made each push and lookup cost in proportion to the results so far, on every page). An
// item that comes again (with its rotations) replaces itself in place through an index. What a
// page draws while the run goes on is a small view: the tally's aggregate (O(tasks)), the counts,
// and the latest results; the whole list is read once the run ends.
import type { DatasetId } from '../../lib/core/benchmarks/types.ts';
import { aggregationFor, McTally } from '../../lib/core/metrics/index.ts';
import type { McAggregate } from '../../lib/core/metrics/index.ts';
import type { GenItemResult, ItemResult, McItemResult, RunRecord } from '../../lib/core/record/run.ts';

/** How many of the latest results a page lists while a run goes on. */
export const RECENT_RESULTS = 50;

/** What a run page draws of a run's results: built in O(tasks + RECENT_RESULTS). */
export interface ResultsView {
  /** Results so far (one per item). */
  count: number;
  failed: number;
  /** Multiple choice: the aggregate (aggregateForDataset of the results), generated answers without a letter, and failures per task. */
  mc: { aggregate: McAggregate; unextracted: number; failuresOf: (task: string) => ReadonlyMap<string, unknown> } | null;
  /** The latest results, oldest first. */
  recent: ItemResult[];
  /**
   * Generation: a copy of the results, refreshed at intervals that grow with their number (the
   * corpus metrics read every output), so scoring them costs a bounded share of the run's time.
   */
  generation: GenItemResult[] | null;
}

export class LiveResults {
  /** Every result, in the order items first came; plain objects (never proxied). */
  readonly all: ItemResult[] = [];
  private readonly at = new Map<string, number>();
  private readonly failedIds = new Set<string>();
  private readonly tally: McTally | null;
  private generationCopy: GenItemResult[] | null = null;
  private copiedAt = -Infinity;

  constructor(
    private readonly kind: RunRecord['config']['kind'],
    datasetId: DatasetId,
    initial: readonly ItemResult[] = [],
    /** The clock (ms) that paces the generation copy; performance.now in the page. */
    private readonly now: () => number = () => performance.now(),
  ) {
    this.tally = kind === 'multiple-choice' ? new McTally(aggregationFor(datasetId)) : null;
    for (const r of initial) this.set(r);
  }

  /** Takes in a result in O(1): new, or replacing the item's earlier one in place. */
  set(result: ItemResult): void {
    const i = this.at.get(result.itemId);
    if (i === undefined) {
      this.at.set(result.itemId, this.all.length);
      this.all.push(result);
    } else this.all[i] = result;
    if (result.failure) this.failedIds.add(result.itemId);
    else this.failedIds.delete(result.itemId);
    this.tally?.set(result as McItemResult);
  }

  get count(): number {
    return this.all.length;
  }

  /**
   * The view to draw now. The generation copy is taken again only once as many milliseconds have
   * passed as there are results (and at least a second): a copy and its scoring cost O(n), so per
   * result they cost O(1) on average however long the run. `fresh` takes it regardless (the run ended).
   */
  view(fresh = false): ResultsView {
    const tally = this.tally;
    if (this.kind === 'generation') {
      const t = this.now();
      if (fresh || this.generationCopy === null || t - this.copiedAt >= Math.max(1000, this.all.length)) {
        this.generationCopy = this.all.slice() as GenItemResult[];
        this.copiedAt = t;
      }
    }
    return {
      count: this.all.length,
      failed: this.failedIds.size,
      mc: tally ? { aggregate: tally.aggregate(), unextracted: tally.unextracted, failuresOf: (task) => tally.failuresOf(task) } : null,
      recent: this.all.slice(-RECENT_RESULTS),
      generation: this.kind === 'generation' ? this.generationCopy : null,
    };
  }
}
