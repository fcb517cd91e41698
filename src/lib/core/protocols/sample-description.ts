// What a run's items are as a sample of its benchmark, for every view that names it (the run page,
// Compare, classroom, published comparisons, share links, the run file, the CSV, the lm-eval export):
// a seeded random sample of n of N items per task, the first n of each task in file order (what
// `lm_eval --limit` takes), or every item. One reading of the configuration, so no view words it on
// its own; ui/evaluate/sample-text.ts puts it in words in both languages.
//
// A record without `sampling` (written before issue 36) took the first limitPerTask items of each
// task in file order, task by task: it reads as draw 'first', order 'file', population unknown.
import type { RunSampling } from './run-sampling.ts';

/** What a run, a link or an export knows of its items: a stored config (itemIds) or a link's (itemCount). */
export interface SampledConfig {
  tasks: readonly string[];
  limitPerTask: number | null;
  sampling?: RunSampling;
  itemIds?: readonly string[];
  itemCount?: number;
}

export interface SampleDescription {
  /**
   * 'random': `perTask` items of each task drawn at random by `seed`; 'first': the first `perTask`
   * items of each task in file order; 'every': every item of every task (no limit, or a limit no
   * task reaches), whatever the draw.
   */
  draw: 'random' | 'first' | 'every';
  /** Items asked for per task (limitPerTask); null: every item. */
  perTask: number | null;
  /** Items in the run (all of them, asked or not yet). */
  items: number;
  /** The tasks' items in all (N summed over the tasks); null where not recorded (older records). */
  population: number | null;
  /** Each task's N when every task has the same one; null when they differ or are not recorded. */
  populationPerTask: number | null;
  tasks: number;
  /** The draw's and order's seed; null where none was recorded. */
  seed: number | null;
  /** 'shuffled': asked in a seeded random order, tasks in turn; 'file': task by task in file order. */
  order: 'shuffled' | 'file';
  /** Items of a task asked in a row ('shuffled' only); null otherwise. */
  block: number | null;
}

/** The sample a configuration asks: see SampleDescription. */
export function describeSample(config: SampledConfig): SampleDescription {
  const s = config.sampling;
  const items = config.itemIds?.length ?? config.itemCount ?? 0;
  const sizes = s ? config.tasks.map((task) => s.population[task] ?? 0) : null;
  const population = sizes ? sizes.reduce((a, b) => a + b, 0) : null;
  const populationPerTask = sizes && sizes.length > 0 && sizes.every((n) => n === sizes[0]) ? sizes[0] : null;
  const limit = config.limitPerTask;
  // A limit no task reaches takes every item, randomly drawn or not: the same set either way.
  const every = limit === null || (sizes !== null && sizes.every((n) => n <= limit));
  return {
    draw: every ? 'every' : (s?.draw ?? 'first'),
    perTask: limit,
    items,
    population,
    populationPerTask,
    tasks: config.tasks.length,
    seed: s ? s.seed : null,
    order: s?.order ?? 'file',
    block: s?.order === 'shuffled' ? s.block : null,
  };
}

/** How two runs' samples differ ('tasks', 'size', 'draw', 'seed'), or null when they ask the same items. */
export type SampleDifference = 'tasks' | 'size' | 'draw' | 'seed';

/**
 * Whether two configurations of the same benchmark ask the same items (in any order): the same tasks,
 * and per task the same items (every item; the same first n; or the same n drawn by the same seed).
 * A comparison of runs whose samples differ pairs only the items both asked, and its headline
 * numbers describe different items: Compare says so.
 */
export function sampleDifference(a: SampledConfig, b: SampledConfig): SampleDifference | null {
  const ta = [...a.tasks].sort();
  const tb = [...b.tasks].sort();
  if (ta.length !== tb.length || ta.some((task, i) => task !== tb[i])) return 'tasks';
  const da = describeSample(a);
  const db = describeSample(b);
  if (da.draw === 'every' && db.draw === 'every') return null;
  if (da.draw !== db.draw) return da.draw === 'every' || db.draw === 'every' ? 'size' : 'draw';
  if (da.perTask !== db.perTask) return 'size';
  if (da.draw === 'random' && da.seed !== db.seed) return 'seed';
  return null;
}
