// A run's progress as the scheduler reports it: items and prompts done, per task, the pace since this
// (re)start, and the time left (remaining-time.ts, from the recent prompts and the weights of those
// left: prompt-weight.ts). Every update is O(1); only the first count reads every item.
import type { Item } from '../core/benchmarks/types.ts';
import type { ItemResult, McRotationResult } from '../core/record/run.ts';
import { RemainingTime } from './remaining-time.ts';

export interface RunProgress {
  done: number;
  total: number;
  perTask: Record<string, { done: number; total: number }>;
  /** Over the items completed since this (re)start (an item with rotations completes with its last). */
  itemsPerSecond: number;
  /** Prompts asked: one per item and one per rotation (circular runs, PriDe's estimation items). */
  prompts: { done: number; total: number };
  /** Over the prompts asked since this (re)start. */
  promptsPerSecond: number;
  /** The prompts left, at the recent pace and by their expected cost (remaining-time.ts); null before the first. */
  etaSeconds: number | null;
}

/** The model's own ms on a result or rotation (0 where it has none: a failed item). */
function modelMs(result: ItemResult | McRotationResult): number {
  if ('forwardMs' in result) return result.forwardMs;
  return 'ms' in result ? result.ms : 0;
}

export class RunProgressCount {
  /** The scheduler changes it in place; a page that keeps a copy copies it. */
  readonly perTask: RunProgress['perTask'] = {};
  private itemsDone = 0;
  private readonly prompts = { done: 0, total: 0 };
  private readonly started: number;
  private readonly total: number;
  private itemsNow = 0;
  private promptsNow = 0;
  /** The weight of each item's own prompt and of each of its rotations, for the prompts not yet asked. */
  private readonly weights = new Map<string, { own: number; rotation: number }>();
  private readonly remaining: RemainingTime;

  /**
   * Counts what is stored already. `wanted`: the rotations an item asks; `missing`: those a stored
   * result lacks; `weigh`: a prompt's expected cost, called in the order the run asks them.
   */
  constructor(
    itemIds: readonly string[],
    items: ReadonlyMap<string, Item>,
    stored: ReadonlyMap<string, ItemResult>,
    private readonly wanted: (item: Item) => number,
    private readonly missing: (result: ItemResult, item: Item) => number,
    weigh: (item: Item, rotation: number) => number,
    private readonly clock: () => number = () => performance.now(),
  ) {
    this.total = itemIds.length;
    let weightLeft = 0;
    for (const id of itemIds) {
      const item = items.get(id)!;
      const entry = (this.perTask[item.task] ??= { done: 0, total: 0 });
      entry.total++;
      const result = stored.get(id);
      const rotations = result?.failure ? 0 : wanted(item);
      this.prompts.total += 1 + rotations;
      if (!result) {
        const own = weigh(item, 0);
        const rotation = rotations > 0 ? weigh(item, 1) : 0;
        this.weights.set(id, { own, rotation });
        weightLeft += own + rotations * rotation;
        continue;
      }
      const asked = 'rotations' in result ? (result.rotations?.length ?? 0) : 0;
      this.prompts.done += 1 + asked;
      if (missing(result, item) === 0) {
        entry.done++;
        this.itemsDone++;
      } else {
        const rotation = weigh(item, 1);
        this.weights.set(id, { own: 0, rotation });
        weightLeft += Math.max(0, rotations - asked) * rotation;
      }
    }
    this.started = clock();
    this.remaining = new RemainingTime(this.started, this.prompts.total - this.prompts.done, weightLeft);
  }

  /** An item's own prompt was stored (a failed item's rotations are not asked). */
  itemStored(result: ItemResult, item: Item): void {
    const weight = this.weights.get(item.id) ?? { own: 0, rotation: 0 };
    if (result.failure) {
      const dropped = this.wanted(item);
      this.prompts.total -= dropped;
      this.remaining.dropped(dropped, dropped * weight.rotation);
    }
    this.prompts.done++;
    this.promptsNow++;
    this.remaining.finished(this.clock(), weight.own, modelMs(result));
    this.completes(result, item);
  }

  /** `rotations` of an item were stored, `result` being the item as stored with them. */
  rotationsStored(result: ItemResult, item: Item, rotations: readonly McRotationResult[]): void {
    const weight = this.weights.get(item.id)?.rotation ?? 0;
    const at = this.clock();
    for (const rotation of rotations) this.remaining.finished(at, weight, modelMs(rotation));
    this.prompts.done += rotations.length;
    this.promptsNow += rotations.length;
    this.completes(result, item);
  }

  /** The progress now: perTask is the live object (see above). */
  progress(): RunProgress {
    const now = this.clock();
    const elapsed = (now - this.started) / 1000;
    return {
      done: this.itemsDone,
      total: this.total,
      perTask: this.perTask,
      itemsPerSecond: this.itemsNow > 0 && elapsed > 0 ? this.itemsNow / elapsed : 0,
      prompts: { ...this.prompts },
      promptsPerSecond: this.promptsNow > 0 && elapsed > 0 ? this.promptsNow / elapsed : 0,
      etaSeconds: this.promptsNow > 0 ? this.remaining.secondsLeft(now) : null,
    };
  }

  private completes(result: ItemResult, item: Item): void {
    if (this.missing(result, item) > 0) return;
    this.perTask[item.task].done++;
    this.itemsDone++;
    this.itemsNow++;
  }
}
