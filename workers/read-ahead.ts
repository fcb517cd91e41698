// One scoreItem request computed ahead. A run asks for its items one after another, and between two
// of them the page stores the result and redraws; the worker would wait idle for that and for the
// message's trip (about 1 ms a round trip on 2 cores, more while IndexedDB writes). A request that
// names its likely successor (ScoreItemParams.next) lets the worker start on it as soon as it is
// free; when the page then asks for exactly that, the answer is ready or already on its way.
//
// Results are the same as asking afresh: the worker runs requests one at a time either way, and the
// model, its prefix cache and the tokenizer see the same calls in the same order. Anything else asked
// first (another item, a load, a generation) drops the guess, whose only cost is that one item's time.
import type { ScoreItemOnTheWire, ScoreItemParams } from '../src/lib/engine/messages.ts';

interface Guess {
  key: string;
  outcome: Promise<{ ok: true; result: ScoreItemOnTheWire } | { ok: false; error: unknown }>;
}

/** The request as the key it is matched by (its `next` left out: that is a guess of its own). */
export function readAheadKey(params: ScoreItemParams): string {
  const { next: _next, ...rest } = params;
  return JSON.stringify(rest);
}

export class ReadAhead {
  private guess: Guess | null = null;
  /** Guesses started, and guesses that answered their request (the worker's stats report both). */
  readonly counts = { started: 0, used: 0 };

  /** Starts scoring `next` (errors kept, not thrown: they belong to the request, if it comes). */
  start(next: Omit<ScoreItemParams, 'next'>, score: (params: ScoreItemParams) => Promise<ScoreItemOnTheWire>): Promise<unknown> {
    const outcome = score(next).then(
      (result) => ({ ok: true as const, result }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    this.guess = { key: readAheadKey(next), outcome };
    this.counts.started++;
    return outcome;
  }

  /**
   * The guessed answer when `params` is exactly the guess, else null; either way the guess is used
   * up. Called for every request, so a load or a generation asked first drops it too.
   */
  take(params: ScoreItemParams | null): Guess['outcome'] | null {
    const guess = this.guess;
    this.guess = null;
    if (!guess || !params || guess.key !== readAheadKey(params)) return null;
    this.counts.used++;
    return guess.outcome;
  }

  /** Drops the guess (a load, an unload: the model it was scored on is gone). */
  clear(): void {
    this.guess = null;
  }
}
