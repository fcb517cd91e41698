// How long a run has left, from how its recent prompts went and what is left to ask (issue 35).
//
// The old rule divided the prompts left by the prompts per second since the start. Two things made
// it wrong early in a run: the first prompts are slower (the model's first passes, caches filling),
// and they weigh in until the end; and prompts differ in cost (tasks differ in prompt length, the
// first item of a task with k shots computes the exemplars' prefix, which the next ones reuse), so
// the first tasks' pace says little about the rest. A walk saw "7 min left" at 10 % with 4.6 min left.
//
// Here a prompt's time is split in two: the model's own time (the worker reports it), taken as
// proportional to the prompt's weight (the characters the model reads for it: see prompt-weight.ts),
// and the rest of its wall time (storing, messages, the page), taken as the same for every prompt.
// Both rates come from a recent window: the later half of the prompts finished so far (so the first,
// slow ones drop out), none older than WINDOW_CAP_MS (so a lasting change of pace shows within
// minutes), and never fewer than MIN_PROMPTS. Each call costs O(1) amortised.

/** The window never reaches further back than this (ms). */
export const WINDOW_CAP_MS = 120_000;
/** The window holds at least this many prompts when that many have finished. */
export const MIN_PROMPTS = 20;

interface Finished {
  at: number;
  wallMs: number;
  modelMs: number;
  weight: number;
}

export class RemainingTime {
  private readonly window: Finished[] = [];
  private head = 0;
  private lastAt: number;
  private wall = 0;
  private model = 0;
  private weight = 0;
  /** Prompts finished in all. */
  private count = 0;

  /**
   * @param startedAt when the prompts began (ms, the clock `finished` and `secondsLeft` are given)
   * @param prompts prompts left to ask at the start
   * @param weightLeft their summed weight
   */
  constructor(
    startedAt: number,
    private prompts: number,
    private weightLeft: number,
  ) {
    this.lastAt = startedAt;
  }

  /** A prompt finished at `at`: its weight, and the model's own ms on it (0 when not known). */
  finished(at: number, weight: number, modelMs: number): void {
    const entry = { at, wallMs: Math.max(0, at - this.lastAt), modelMs: Math.max(0, modelMs), weight };
    this.lastAt = at;
    this.count++;
    this.prompts = Math.max(0, this.prompts - 1);
    this.weightLeft = Math.max(0, this.weightLeft - weight);
    this.window.push(entry);
    this.wall += entry.wallMs;
    this.model += entry.modelMs;
    this.weight += entry.weight;
    this.evict(at);
  }

  /** Prompts that will not be asked after all (a failed item's rotations), with their summed weight. */
  dropped(count: number, weight: number): void {
    this.prompts = Math.max(0, this.prompts - count);
    this.weightLeft = Math.max(0, this.weightLeft - weight);
  }

  /** Seconds left at `now`: null before any prompt finished; 0 when none is left. */
  secondsLeft(now: number): number | null {
    if (this.prompts === 0) return 0;
    const n = this.window.length - this.head;
    if (n === 0) return null;
    this.evict(now);
    const wall = Math.max(this.wall, 1e-9);
    // Read-ahead can overlap the model's time with the page's: the model never takes more than the wall.
    const model = Math.min(this.model, wall);
    const perPrompt = (wall - model) / (this.window.length - this.head);
    const perWeight = this.weight > 0 ? model / this.weight : 0;
    // Without weights (or model times) every prompt costs the window's mean.
    const modelLeft = this.weight > 0 ? perWeight * this.weightLeft : (model / (this.window.length - this.head)) * this.prompts;
    return (perPrompt * this.prompts + modelLeft) / 1000;
  }

  /** Drops the earlier half of the prompts finished, and those older than WINDOW_CAP_MS, keeping at least MIN_PROMPTS. */
  private evict(now: number): void {
    const keep = Math.max(MIN_PROMPTS, Math.ceil(this.count / 2));
    const from = now - WINDOW_CAP_MS;
    while (this.window.length - this.head > MIN_PROMPTS && (this.window.length - this.head > keep || this.window[this.head].at < from)) {
      const old = this.window[this.head++];
      this.wall -= old.wallMs;
      this.model -= old.modelMs;
      this.weight -= old.weight;
    }
    // The array is compacted once half of it is gone, so it holds O(window) entries.
    if (this.head > 1024 && this.head * 2 > this.window.length) {
      this.window.splice(0, this.head);
      this.head = 0;
    }
  }
}
