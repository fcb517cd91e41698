// A live multiple-choice run's numbers, kept up to date one result at a time (issue 22).
//
// A page that recomputed the aggregate from every result after each new one did work proportional to
// the results so far per item: at the paper's 28,707 items a run slowed from 34 to 9 items/s. The
// tally keeps each task's counts and each item's outcome, so taking in a result (new, or an item
// that comes again with its rotations) is O(1) and the aggregate is O(tasks), the very numbers
// aggregateMultipleChoice gives for the same results (both end in aggregateFromCounts).
import { aggregateFromCounts, countOutcome, outcomeOf, type McAggregate, type McAggregation, type McItemResult, type Outcome, type TaskCounts } from './mc-aggregate.ts';

/** What the tally reads of a result: its outcome, and for generated answers whether a letter was found. */
export interface TalliedResult extends McItemResult {
  prediction?: string | null;
  generated?: unknown;
}

interface Counted {
  task: string;
  outcome: Outcome;
  unextracted: boolean;
}

export class McTally {
  private readonly counts = new Map<string, TaskCounts>();
  private readonly byItem = new Map<string, Counted>();
  private readonly failures = new Map<string, Map<string, unknown>>();
  private unextractedCount = 0;
  private cached: McAggregate | null = null;

  constructor(private readonly rule: McAggregation) {}

  /** Takes in a result; a result for an item already counted replaces it (an item with its rotations comes again). */
  set(result: TalliedResult): void {
    const before = this.byItem.get(result.itemId);
    if (before) {
      countOutcome(this.counts.get(before.task)!, before.outcome, -1);
      if (before.unextracted) this.unextractedCount--;
      this.failures.get(before.task)?.delete(result.itemId);
    }
    const now: Counted = { task: result.task, outcome: outcomeOf(result), unextracted: result.generated !== undefined && result.prediction === null };
    let count = this.counts.get(now.task);
    if (!count) this.counts.set(now.task, (count = { n: 0, correct: 0, unscored: 0, failed: 0 }));
    countOutcome(count, now.outcome, 1);
    if (now.unextracted) this.unextractedCount++;
    if (now.outcome === 'failed') {
      let failed = this.failures.get(now.task);
      if (!failed) this.failures.set(now.task, (failed = new Map()));
      failed.set(result.itemId, result.failure);
    }
    this.byItem.set(result.itemId, now);
    this.cached = null;
  }

  /** Items counted. */
  get size(): number {
    return this.byItem.size;
  }

  /** Generated answers that named no letter (countUnextracted over the same results). */
  get unextracted(): number {
    return this.unextractedCount;
  }

  /** Items that could not be run. */
  get failed(): number {
    let sum = 0;
    for (const c of this.counts.values()) sum += c.failed;
    return sum;
  }

  /** The failures of a task's items that could not run, by item id. */
  failuresOf(task: string): ReadonlyMap<string, unknown> {
    return this.failures.get(task) ?? new Map();
  }

  /** aggregateMultipleChoice of the results taken in, in O(tasks) (kept until the next result). */
  aggregate(): McAggregate {
    this.cached ??= aggregateFromCounts(this.counts, this.rule.grouping, this.rule.overallRule);
    return this.cached;
  }
}
