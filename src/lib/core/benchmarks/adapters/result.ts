// What every adapter returns, and the bookkeeping they share: item order within (task, split),
// unique ids, and counts of what was deliberately not imported.
import { DataError, type DataErrorLocation } from '../errors.ts';
import { checkName } from '../names.ts';
import type { Item, Split } from '../types.ts';

/** Why a source item was not imported (it is counted, never silently dropped). */
export type SkipReason =
  /** A task this project does not import (WenMind QA/FB items outside the five generation tasks). */
  | 'task-not-imported'
  /** A multiple-choice item with more than one correct letter (WenMind 古诗词赏析 "A、C"). */
  | 'multiple-answers'
  /** More options than the four letters letter-logit scoring covers (WenMind items with E or F). */
  | 'more-than-four-options'
  /** A multiple-choice item whose answer is option text, not a letter (WenMind 情感分类). */
  | 'answer-not-a-letter';

export interface SkippedGroup {
  task: string;
  reason: SkipReason;
  count: number;
  /** Up to three source ids, for looking the items up upstream. */
  examples: string[];
}

export interface AdaptResult {
  items: Item[];
  skipped: SkippedGroup[];
  /** C3Bench: which JSON field filled which role (role -> field), to store in DatasetRecord.fieldMapping. */
  fieldMapping?: Record<string, string>;
}

/** Counts skipped items by (task, reason), keeping the first few ids. */
export class SkipTally {
  private readonly groups = new Map<string, SkippedGroup>();

  add(task: string, reason: SkipReason, id: string): void {
    const key = `${task}\u0000${reason}`;
    const group = this.groups.get(key) ?? { task, reason, count: 0, examples: [] };
    group.count++;
    if (group.examples.length < 3) group.examples.push(id);
    this.groups.set(key, group);
  }

  list(): SkippedGroup[] {
    return [...this.groups.values()];
  }
}

/** Hands out `order`: the position of an item within its (task, split), in file order. */
export class OrderCounter {
  private readonly next = new Map<string, number>();

  take(task: string, split: Split): number {
    const key = `${task}\u0000${split}`;
    const order = this.next.get(key) ?? 0;
    this.next.set(key, order + 1);
    return order;
  }
}

/** Refuses an id that breaks the id rule (names.ts), and a second item with an id already seen, naming both places. */
export class IdRegistry {
  private readonly seen = new Map<string, DataErrorLocation>();

  claim(id: string, at: DataErrorLocation): void {
    checkName('id', id, at);
    const first = this.seen.get(id);
    if (first) {
      const firstAt: { firstFile: string; firstLine?: number; firstRecord?: number } = { firstFile: first.file };
      if (first.line !== undefined) firstAt.firstLine = first.line;
      if (first.record !== undefined) firstAt.firstRecord = first.record;
      throw new DataError(at, 'data.duplicate-id', { id, ...firstAt });
    }
    this.seen.set(id, at);
  }
}
