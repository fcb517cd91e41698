// A live run's page is drawn at most every DRAW_INTERVAL_MS however fast results come (drawing after
// each one halved a small model's pace, issue 35): the first change right away, the rest gathered,
// and the last always drawn.
import { describe, expect, it } from 'vitest';
import { DRAW_INTERVAL_MS, DrawThrottle, type DrawClock } from '../../../src/ui/evaluate/draw-throttle.ts';

/** A clock whose timers fire as `advance` moves it on. */
function fakeClock(): DrawClock & { advance(ms: number): void } {
  let now = 0;
  let timers: { at: number; run: () => void; id: number }[] = [];
  let ids = 0;
  return {
    now: () => now,
    setTimeout: (run, ms) => {
      timers.push({ at: now + ms, run, id: ++ids });
      return ids;
    },
    clearTimeout: (id) => void (timers = timers.filter((t) => t.id !== id)),
    advance(ms) {
      const end = now + ms;
      for (let next = timers.sort((a, b) => a.at - b.at)[0]; next && next.at <= end; next = timers.sort((a, b) => a.at - b.at)[0]) {
        now = next.at;
        timers = timers.filter((t) => t !== next);
        next.run();
      }
      now = end;
    },
  };
}

describe('DrawThrottle', () => {
  it('draws the first change right away and then at most once an interval, ending on the last', () => {
    const clock = fakeClock();
    const drawn: number[] = [];
    let value = 0;
    const throttle = new DrawThrottle(() => drawn.push(value), DRAW_INTERVAL_MS, clock);
    // 1,000 results, one every 2 ms (a small model): 2 s.
    for (let i = 1; i <= 1000; i++) {
      value = i;
      throttle.request();
      clock.advance(2);
    }
    clock.advance(DRAW_INTERVAL_MS);
    expect(drawn[0]).toBe(1);
    expect(drawn.at(-1)).toBe(1000);
    expect(drawn.length).toBeLessThanOrEqual(2000 / DRAW_INTERVAL_MS + 2);
    expect(drawn.length).toBeGreaterThanOrEqual(2000 / DRAW_INTERVAL_MS);
  });

  it('draws requests of one turn together, what is pending on flush, nothing after cancel', () => {
    const clock = fakeClock();
    let draws = 0;
    const throttle = new DrawThrottle(() => draws++, DRAW_INTERVAL_MS, clock);
    // Two requests in one turn (a result, then the progress counting it): one draw, after the turn.
    throttle.request();
    throttle.request();
    expect(draws).toBe(0);
    clock.advance(0);
    expect(draws).toBe(1);
    throttle.request();
    throttle.flush();
    expect(draws).toBe(2);
    throttle.flush();
    expect(draws).toBe(2);
    throttle.request();
    throttle.cancel();
    clock.advance(10 * DRAW_INTERVAL_MS);
    expect(draws).toBe(2);
  });
});
