// Circular evaluation's numbers (OpenCompass CircularEval, `circular`: the cyclic rotations of the
// options). Rules:
//  - Only results with `rotations` are circular items; the rest of a run is not counted here.
//  - An item is failed when its rotation 0 or any rotation failed; else incomplete when it has fewer
//    than rotationCount(letters.length) − 1 rotations (a run still going, or stopped); both are
//    counted apart and left out of every number.
//  - Scored: complete, not failed, and gold known under every rotation (correct ≠ null throughout).
//  - perRotation[k]: accuracy under rotation k over the scored items that have a rotation k
//    (three-option items have no rotation 3), Wilson 95%.
//  - mean: the mean over scored items of each item's share of right rotations. With four options
//    everywhere it equals the mean of the per-rotation accuracies. Interval: Wilson's formula with the
//    sum of the shares as successes out of n items (wilsonIntervalOfShares): conservative, since a
//    share in [0, 1] varies at most as a 0/1 outcome does. A normal interval from the items' sample
//    spread is 0 wide for a model right under exactly one rotation of every item (a model that always
//    says C), which would make a small run look exact.
//  - perf (OpenCompass `perf_*`): right under every rotation; Wilson.
//  - atLeast[N] (OpenCompass `more_N_*`), N = 1 … the most rotations any scored item has: right under at
//    least N rotations. An item with fewer options than N cannot reach N and counts as not reaching it.
//  - n = 0: accuracies null (shown as "—"), never 0.
import { rotationCount } from '../protocols/rotation.ts';
import { accuracyFromCounts, wilsonInterval, wilsonIntervalOfShares, type Interval } from './accuracy.ts';

export const CIRCULAR_VERSION = 1;

export interface CircularRotationInput {
  rotation: number;
  correct: boolean | null;
  failure?: unknown;
}

export interface CircularInput {
  itemId: string;
  task: string;
  letters: readonly string[];
  correct: boolean | null;
  failure?: unknown;
  rotations?: readonly CircularRotationInput[];
}

export interface CountedAccuracy {
  k: number;
  n: number;
  accuracy: number | null;
  wilson: Interval | null;
}

export interface CircularMean {
  accuracy: number | null;
  interval: Interval | null;
}

export interface CircularSummary {
  /** Results with rotations: every circular item, complete or not. */
  items: number;
  /** Scored items (complete, not failed, gold known): every n below is over these (or their task's). */
  scored: number;
  incomplete: number;
  failed: number;
  perRotation: ({ rotation: number } & CountedAccuracy)[];
  mean: CircularMean;
  perf: CountedAccuracy;
  atLeast: ({ rotations: number } & CountedAccuracy)[];
  tasks: { task: string; perf: CountedAccuracy; mean: CircularMean }[];
  signature: string;
}

export function circularSignature(): string {
  return `circular|rotations:cyclic|perf:all-rotations-right|more-N:at-least-N-right|mean:item-share-of-rotations,wilson-of-shares|intervals:wilson|version:${CIRCULAR_VERSION}`;
}

type ItemState = 'failed' | 'incomplete' | 'unscored' | 'scored';

function itemState(result: CircularInput): ItemState {
  const rotations = result.rotations ?? [];
  if (result.failure !== undefined || rotations.some((r) => r.failure !== undefined)) return 'failed';
  if (rotations.length < rotationCount(result.letters.length) - 1) return 'incomplete';
  if (result.correct === null || rotations.some((r) => r.correct === null)) return 'unscored';
  return 'scored';
}

/** Right or wrong under rotation 0, 1, …, n − 1 (the item's own result is rotation 0). */
function outcomes(result: CircularInput): boolean[] {
  const wanted = rotationCount(result.letters.length) - 1;
  const rotations = [...result.rotations!].sort((a, b) => a.rotation - b.rotation).slice(0, wanted);
  return [result.correct === true, ...rotations.map((r) => r.correct === true)];
}

/**
 * Whether a circular item is right under every rotation (the per-item outcome behind `perf`, for
 * McNemar); null when it has no rotations, is incomplete, failed, or has no key.
 */
export function allRotationsCorrect(result: CircularInput): boolean | null {
  if (result.rotations === undefined || itemState(result) !== 'scored') return null;
  return outcomes(result).every(Boolean);
}

const counted = (k: number, n: number): CountedAccuracy => ({ k, n, accuracy: accuracyFromCounts(k, n), wilson: wilsonInterval(k, n) });

function meanOfShares(shares: readonly number[]): CircularMean {
  const n = shares.length;
  if (n === 0) return { accuracy: null, interval: null };
  const sum = shares.reduce((s, x) => s + x, 0);
  return { accuracy: sum / n, interval: wilsonIntervalOfShares(sum, n) };
}

/** Circular evaluation's summary; null when no result has rotations. */
export function circularSummary(results: readonly CircularInput[]): CircularSummary | null {
  const circular = results.filter((r) => r.rotations !== undefined);
  if (circular.length === 0) return null;
  let incomplete = 0;
  let failed = 0;
  const scored: { task: string; right: boolean[] }[] = [];
  for (const r of circular) {
    const state = itemState(r);
    if (state === 'failed') failed++;
    else if (state === 'incomplete') incomplete++;
    else if (state === 'scored') scored.push({ task: r.task, right: outcomes(r) });
  }
  const most = scored.reduce((m, s) => Math.max(m, s.right.length), 0);
  const perRotation = Array.from({ length: most }, (_, rotation) => {
    const having = scored.filter((s) => s.right.length > rotation);
    return { rotation, ...counted(having.filter((s) => s.right[rotation]).length, having.length) };
  });
  const rightCount = (s: { right: boolean[] }): number => s.right.filter(Boolean).length;
  const perfOf = (list: typeof scored): CountedAccuracy => counted(list.filter((s) => s.right.every(Boolean)).length, list.length);
  const meanOf = (list: typeof scored): CircularMean => meanOfShares(list.map((s) => rightCount(s) / s.right.length));
  const atLeast = Array.from({ length: most }, (_, i) => ({
    rotations: i + 1,
    ...counted(scored.filter((s) => rightCount(s) >= i + 1).length, scored.length),
  }));
  const taskNames = [...new Set(circular.map((r) => r.task))];
  return {
    items: circular.length,
    scored: scored.length,
    incomplete,
    failed,
    perRotation,
    mean: meanOf(scored),
    perf: perfOf(scored),
    atLeast,
    tasks: taskNames.map((task) => {
      const list = scored.filter((s) => s.task === task);
      return { task, perf: perfOf(list), mean: meanOf(list) };
    }),
    signature: circularSignature(),
  };
}

/**
 * Per task, the accuracy over every order an item was asked in (its own result and each rotation,
 * one outcome each): what lm-evaluation-harness's `acc` of a circular export is, the mean over its
 * docs (one doc per item and rotation). Unlike `mean` (each item's share of right rotations,
 * averaged over items) it weighs an item by its number of orders, and it counts items with rotations
 * missing as far as they were asked, as the harness did. Orders without a key or that failed are left
 * out; a task with none scored is null.
 */
export function accuracyOverOrders(results: readonly CircularInput[]): Map<string, number | null> {
  const counts = new Map<string, { right: number; n: number }>();
  for (const r of results) {
    const c = counts.get(r.task) ?? { right: 0, n: 0 };
    for (const order of [r, ...(r.rotations ?? [])]) {
      if (order.failure !== undefined || order.correct === null) continue;
      c.n++;
      if (order.correct) c.right++;
    }
    counts.set(r.task, c);
  }
  return new Map([...counts].map(([task, c]) => [task, accuracyFromCounts(c.right, c.n)]));
}
