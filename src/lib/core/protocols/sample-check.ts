// Checks of a recorded sample (RunSampling) that every reader of a run shares: a share link, the run
// file, the lm-eval import. A record is untrusted where it arrives from outside, so its sample is
// rebuilt from the benchmark (run-sampling.ts sampleRun: the tasks' items in file order, the limit,
// the draw and the order) and compared with the items it lists; a forged seed or edited items are
// refused by the caller, each with its own notice.
import { sampleRun, type RunSampling, type TaskItems } from './run-sampling.ts';

/** How many items a configuration of this sampling lists: Σ over its tasks of min(limitPerTask, N). */
export function sampleSize(tasks: readonly string[], limitPerTask: number | null, population: Readonly<Record<string, number>>): number {
  return tasks.reduce((sum, task) => sum + (limitPerTask === null ? (population[task] ?? 0) : Math.min(limitPerTask, population[task] ?? 0)), 0);
}

/** The first task whose items here are not as many as the recorded population says, or null. */
export function populationMismatch(population: readonly TaskItems[], sampling: Pick<RunSampling, 'population'>): { task: string; recorded: number; found: number } | null {
  for (const { task, itemIds } of population) {
    const recorded = sampling.population[task];
    if (recorded !== itemIds.length) return { task, recorded: recorded ?? 0, found: itemIds.length };
  }
  return null;
}

/**
 * The items a configuration asks, in its order, rebuilt from its tasks' populations (each in file
 * order); without `sampling`, a record from before issue 36 (the first limitPerTask, task by task).
 */
export function rebuiltItemIds(population: readonly TaskItems[], config: { limitPerTask: number | null; sampling?: RunSampling }): string[] {
  return sampleRun(population, config.limitPerTask, config.sampling).itemIds;
}

/** Where a recorded item list first differs from the rebuilt one (a missing entry reads as ''), or null when they are the same. */
export function firstDifference(recorded: readonly string[], rebuilt: readonly string[]): { index: number; found: string; drawn: string } | null {
  const n = Math.max(recorded.length, rebuilt.length);
  for (let i = 0; i < n; i++) if (recorded[i] !== rebuilt[i]) return { index: i, found: recorded[i] ?? '', drawn: rebuilt[i] ?? '' };
  return null;
}
