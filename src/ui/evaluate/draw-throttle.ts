// How often a live run is redrawn. A small model finishes an item every few milliseconds; a page that
// redrew its progress, numbers and latest results after each one spent more of the main thread than
// the run itself (the run went at half its pace with its page open, issue 35). Changes are gathered
// and drawn at most every DRAW_INTERVAL_MS: the first right away, the rest when the interval is up,
// so the page never lags more than that behind, and the last change is always drawn.

/** The shortest time between two draws of a live run: four a second. */
export const DRAW_INTERVAL_MS = 250;

/** The clock and timer a throttle uses (the page's; a test's fake). */
export interface DrawClock {
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const pageClock: DrawClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Calls `draw` at most once per `intervalMs` however often `request` is called: right away (in a task
 * of its own) when the last draw is that old, else once it is. A timer (not animation frames) so that a run in a
 * background tab still reaches its page when the tab comes back.
 */
export class DrawThrottle {
  private timer: unknown = null;
  private last = -Infinity;
  private wanted = false;

  constructor(
    /** Draws whatever changed since the last call. */
    private readonly draw: () => void,
    private readonly intervalMs = DRAW_INTERVAL_MS,
    private readonly clock: DrawClock = pageClock,
  ) {}

  /**
   * Something changed: draw as soon as the interval since the last draw is up. Never within the
   * call: a result and the progress that counts it come one after the other, and are drawn together.
   */
  request(): void {
    this.wanted = true;
    if (this.timer !== null) return;
    const wait = Math.max(0, this.last + this.intervalMs - this.clock.now());
    this.timer = this.clock.setTimeout(() => this.flush(), wait);
  }

  /** Draws now what was requested and not drawn yet (the run ended, or its phase changed). */
  flush(): void {
    this.clearTimer();
    if (!this.wanted) return;
    this.wanted = false;
    this.last = this.clock.now();
    this.draw();
  }

  /** Forgets a draw requested and not made. */
  cancel(): void {
    this.clearTimer();
    this.wanted = false;
  }

  private clearTimer(): void {
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }
}
