// How a run's items are chosen from each task and in what order they are asked (issue 36).
// A random sample of each task, asked in a seeded random order that visits every task early, makes
// any prefix of a run (paused, interrupted, stopped) a stratified random sample of the benchmark, so
// its estimates describe the benchmark the user asked about, not whichever items came first.
//
// Records written before this existed have no `sampling`: they are read as draw 'first', order 'file'
// (the first limitPerTask items of each task in file order, asked task by task).

/** Recorded in McRunConfig.sampling and GenRunConfig.sampling. */
export interface RunSampling {
  /**
   * 'random': `limitPerTask` items per task drawn uniformly without replacement by `seed`;
   * 'first': the first `limitPerTask` items of each task in file order (what `lm_eval --limit` takes).
   * With limitPerTask null both are every item of the task.
   */
  draw: 'random' | 'first';
  /** Seeds the draw and the order: a 32-bit unsigned integer, chosen at random unless given. */
  seed: number;
  /**
   * 'shuffled': each task's chosen items in a seeded random order, tasks interleaved in blocks of
   * `block` items so every task starts early; 'file': task by task, each in file order.
   */
  order: 'shuffled' | 'file';
  /** Items of one task asked in a row before the next task's turn ('shuffled' only). */
  block: number;
  /** Every task's population: the items of the split and kind it has (N in "n of N"). */
  population: Record<string, number>;
}

/**
 * When a run stops by itself before its last item (McRunConfig.stopRule, GenRunConfig.stopRule):
 * 'precision': once the confidence sequence (valid at any stopping time) of the benchmark's score
 * has a half-width of at most `halfWidth` (a share, 0.02 = ±2 points);
 * 'sign-settled': once the paired difference against `baselineRunId` (a run of another model on the
 * same sample and order) has a confidence sequence that excludes 0.
 * The run is then 'completed' with the items it asked, and says why it stopped.
 */
export type StopRule =
  | { kind: 'precision'; halfWidth: number; alpha: number }
  | { kind: 'sign-settled'; baselineRunId: string; alpha: number };
