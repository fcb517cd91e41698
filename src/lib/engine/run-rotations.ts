// Which items of a multiple-choice run are also asked under the other cyclic rotations of their
// options (every item in a circular run, else PriDe's estimation items), how many rotations each
// still lacks, and how many prompts a run asks in all: the scheduler's bookkeeping, and the cost the
// Evaluate page shows before a run starts.
import type { McItemResult, McRotationResult, McRunConfig } from '../core/record/run.ts';
import { rotationCount } from '../core/protocols/rotation.ts';
import { estimationSetSize } from '../core/protocols/estimation-set.ts';

/** The rotations (besides rotation 0) an item with `optionCount` options is asked under in a run with `config`. */
export function rotationsWanted(config: Pick<McRunConfig, 'circular' | 'pride'>, itemId: string, optionCount: number, estimation?: ReadonlySet<string>): number {
  const asked = config.circular === true || (estimation ? estimation.has(itemId) : (config.pride?.estimationItemIds.includes(itemId) ?? false));
  return asked ? rotationCount(optionCount) - 1 : 0;
}

/**
 * The rotations still to ask for an item whose stored result is `result`: none when its rotation 0
 * failed (a failed item stays failed; its rotations are not asked), else those after the last stored.
 */
export function missingRotations(result: Pick<McItemResult, 'failure' | 'rotations'>, wanted: number): number {
  if (result.failure) return 0;
  return Math.max(0, wanted - (result.rotations?.length ?? 0));
}

/** An item scored under rotation `k` (its McItemResult, from the same per-item step) as the rotation stored with the item. */
export function asRotation(scored: McItemResult, k: number): McRotationResult {
  return {
    rotation: k,
    promptHash: scored.promptHash,
    tokenCount: scored.tokenCount,
    letters: scored.letters,
    tokenIds: scored.tokenIds,
    logProbs: scored.logProbs,
    probs: scored.probs,
    prediction: scored.prediction,
    ...(scored.generated ? { generated: scored.generated } : {}),
    gold: scored.gold,
    correct: scored.correct,
    reusedPrefixTokens: scored.reusedPrefixTokens,
    forwardMs: scored.forwardMs,
    completedAt: scored.completedAt,
    ...(scored.failure ? { failure: scored.failure } : {}),
  };
}

/** What a run asks before it starts: prompts in all, and the plain run's (one per item). */
export interface RunCost {
  items: number;
  prompts: number;
  /** prompts / items: ×1 for a plain run, ×4 for a circular run of four-option items. */
  factor: number;
}

/**
 * The prompts a run over items with these option counts asks: one each, plus every other rotation
 * for each item asked under rotations (all when circular; PriDe: an estimation set of `prideShare`,
 * counted at the mean rotations per item, since which items it draws is not known before).
 */
export function runCost(optionCounts: readonly number[], options: { circular?: boolean; prideShare?: number }): RunCost {
  const items = optionCounts.length;
  const extra = optionCounts.reduce((sum, n) => sum + rotationCount(n) - 1, 0);
  let prompts = items;
  if (options.circular) prompts += extra;
  else if (options.prideShare !== undefined && items > 0) prompts += Math.round((extra / items) * estimationSetSize(items, options.prideShare));
  return { items, prompts, factor: items > 0 ? prompts / items : 1 };
}
