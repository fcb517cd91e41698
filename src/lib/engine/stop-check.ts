// What the scheduler asks of a run's stop rule (stop-rule.ts, stop-rule-paired.ts) before each item.
import type { ItemResult } from '../core/record/run.ts';

export interface StopCheck {
  /** Takes in one stored result (a failed one, or one that comes again with its rotations, included). */
  observe(result: ItemResult): void;
  /** Whether the run has what it asked for and stops before its next item. */
  met(): boolean;
}
