// One item's memorization scores, what a memorization run stores per item (the lead wires it into
// the run record): both probes from one pass over the item's text (its question and options as one
// text), with the counts that say how much text stood behind each number.
import { MIN_K_DEFAULT, minKProb } from './min-k-prob.ts';
import { minKPlusPlus, type PositionStatistics } from './min-k-plus-plus.ts';

export const MEMORIZATION_PROBES = ['minKProb', 'minKPlusPlus'] as const;
export type MemorizationProbe = (typeof MEMORIZATION_PROBES)[number];

export interface MemorizationItemScores {
  itemId: string;
  task: string;
  /** Positions scored: the text's tokens 2..n. */
  positions: number;
  /** Min-K% Prob, nats; null when no token was scored. */
  minKProb: number | null;
  /** Min-K%++, standard deviations; null when no position had σ > 0. */
  minKPlusPlus: number | null;
  /** Positions Min-K%++ left out (σ not > 0). */
  dropped: number;
}

/** Both probes of one item from its per-position statistics, at the same k. */
export function memorizationScoresOf(itemId: string, task: string, positions: readonly PositionStatistics[], k: number = MIN_K_DEFAULT): MemorizationItemScores {
  const plain = minKProb(positions.map((p) => p.logprob), k);
  const plus = minKPlusPlus(positions, k);
  return {
    itemId,
    task,
    positions: positions.length,
    minKProb: plain?.score ?? null,
    minKPlusPlus: plus?.score ?? null,
    // No Min-K%++ score: every position was dropped (or there were none).
    dropped: plus?.dropped ?? positions.length,
  };
}
