// How a run's items are chosen from each task and in what order they are asked (issue 36).
// A random sample of each task, asked in a seeded random order that visits every task early, makes
// any prefix of a run (paused, interrupted, stopped) a stratified random sample of the benchmark, so
// its estimates describe the benchmark the user asked about, not whichever items came first.
//
// Records written before this existed have no `sampling`: they are read as draw 'first', order 'file'
// (the first limitPerTask items of each task in file order, asked task by task).

import { mulberry32 } from '../metrics/generation/bootstrap.ts';

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
  /**
   * Items of one task asked in a row before the next task's turn in the first round ('shuffled'
   * only); each later round's block is the previous one × `growth`, at most `maxBlock` (see blockAt).
   */
  block: number;
  /** Each round's block ÷ the previous round's ('shuffled' only); absent: 1, every round `block`. */
  growth?: number;
  /** The largest block ('shuffled' only); absent: no limit. */
  maxBlock?: number;
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

// ---------------------------------------------------------------------------------------------
// The draw and the order. Pure functions of the tasks' items (in file order), the limit and the
// sampling, so the run page, a share link, a reproduction and the lm-eval export all rebuild the
// same items in the same order, in any browser and in Node (mulberry32 on 32-bit integer math).

/**
 * The first round's block: every task has started after `tasks × 4` items (60 for ACLUE's 15
 * tasks). Blocks then double each round up to MAX_BLOCK, so a worker that keeps one exemplar
 * prefix at a time computes a task's prefix about log2(n / 4) times for n items instead of n / 4:
 * with fixed blocks of 4, a 5-shot run of a model whose prefix costs 2.4 items (Qwen3-0.6B q4 on
 * WASM, README's real-shape table: 16.7 s a prefix, 7.1 s an item) would take about 1.6× as long as
 * task by task; doubling to 64 keeps it near 1.1× for 100 items a task and under 1.05× past 500.
 * At any moment two tasks' counts differ by at most one block (within 2× once past the first
 * round), so a run stopped anywhere is a stratified sample of every task.
 */
export const DEFAULT_BLOCK = 4;
export const DEFAULT_BLOCK_GROWTH = 2;
export const MAX_BLOCK = 64;

/** One task's items: in file order (a population), or as chosen. */
export interface TaskItems {
  task: string;
  itemIds: readonly string[];
}

/** What the draw and the order read of a RunSampling (the population is recorded, not used). */
export type SamplingRule = Pick<RunSampling, 'draw' | 'seed' | 'order' | 'block' | 'growth' | 'maxBlock'>;

/**
 * How records written before RunSampling were drawn and ordered: the first limitPerTask of each
 * task, task by task, in file order (seed 0 is a placeholder: neither uses a seed).
 */
export const FILE_ORDER: SamplingRule = { draw: 'first', seed: 0, order: 'file', block: 1 };

/** A new run's sampling: the draw and seed asked, asked in the shuffled order with the default blocks. */
export function newRunSampling(draw: RunSampling['draw'], seed: number, population: Record<string, number>): RunSampling {
  return { draw, seed, order: 'shuffled', block: DEFAULT_BLOCK, growth: DEFAULT_BLOCK_GROWTH, maxBlock: MAX_BLOCK, population };
}

/** Whether `seed` is a valid sampling seed: an integer from 0 to 2^32 − 1. */
export function isSamplingSeed(seed: unknown): seed is number {
  return typeof seed === 'number' && Number.isInteger(seed) && seed >= 0 && seed <= 0xffffffff;
}

/** The items of one task asked in a row in round `round` (0 first) of a shuffled order. */
export function blockAt(rule: Pick<SamplingRule, 'block' | 'growth' | 'maxBlock'>, round: number): number {
  const cap = rule.maxBlock ?? Infinity;
  const growth = rule.growth ?? 1;
  let block = Math.max(1, Math.floor(rule.block));
  for (let r = 0; r < round && block < cap && growth > 1; r++) block = Math.floor(block * growth);
  return Math.max(1, Math.min(block, cap));
}

/** FNV-1a over the UTF-8 bytes of `text`: a task's name as 32 bits, the same in every engine. */
function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (const byte of new TextEncoder().encode(text)) h = Math.imul(h ^ byte, 0x01000193);
  return h >>> 0;
}

/** murmur3's finalizer: spreads a 32-bit value so nearby inputs give unrelated seeds. */
function fmix32(x: number): number {
  let h = x >>> 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

/** Which use of the seed a stream is for: the draw and the order never share numbers. */
const STREAM = { draw: 0x64726177, order: 0x6f726472 } as const;

/**
 * An independent mulberry32 stream for one task and one use of the run's seed. Keyed by the task's
 * name, not its place in the request, so a task's sample and order do not depend on which other
 * tasks the run asks (a run of one ACLUE task with seed s asks what a run of all of ACLUE with
 * seed s asks of that task).
 */
function streamFor(seed: number, task: string, use: keyof typeof STREAM): () => number {
  return mulberry32(fmix32(fmix32(seed ^ STREAM[use]) ^ fnv1a(task)));
}

/**
 * Each task's chosen items, in file order: 'first' the first `limitPerTask`; 'random' a uniform
 * draw without replacement of that many (a partial Fisher–Yates shuffle of the file's positions),
 * so a smaller limit's sample with the same seed is part of a larger one's. A limit of null, or one
 * a task does not reach, takes the whole task either way.
 */
export function drawSample(population: readonly TaskItems[], limitPerTask: number | null, rule: Pick<SamplingRule, 'draw' | 'seed'>): TaskItems[] {
  return population.map(({ task, itemIds }) => {
    const size = limitPerTask === null ? itemIds.length : Math.max(0, Math.min(itemIds.length, Math.floor(limitPerTask)));
    if (size === itemIds.length) return { task, itemIds: [...itemIds] };
    if (rule.draw === 'first') return { task, itemIds: itemIds.slice(0, size) };
    const random = streamFor(rule.seed, task, 'draw');
    const positions = itemIds.map((_, i) => i);
    for (let i = 0; i < size; i++) {
      const j = i + Math.floor(random() * (positions.length - i));
      [positions[i], positions[j]] = [positions[j], positions[i]];
    }
    return { task, itemIds: positions.slice(0, size).sort((a, b) => a - b).map((i) => itemIds[i]) };
  });
}

/** `itemIds` in a seeded random order (Fisher–Yates on the task's order stream). */
function shuffleTask(task: string, itemIds: readonly string[], seed: number): string[] {
  const random = streamFor(seed, task, 'order');
  const out = [...itemIds];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

/**
 * The order a run asks its chosen items. 'file': task by task as listed, each in file order.
 * 'shuffled': each task's items in a seeded random order, asked in rounds: in each round every task
 * with items left, in the order listed, asks its next blockAt(round) items. Any prefix of the
 * result is then, per task, a uniform random sample of that task's chosen items.
 */
export function orderRun(chosen: readonly TaskItems[], rule: SamplingRule): string[] {
  if (rule.order === 'file') return chosen.flatMap((c) => c.itemIds);
  const queues = chosen.map((c) => shuffleTask(c.task, c.itemIds, rule.seed));
  const next = queues.map(() => 0);
  const out: string[] = [];
  const total = queues.reduce((n, q) => n + q.length, 0);
  for (let round = 0; out.length < total; round++) {
    const block = blockAt(rule, round);
    queues.forEach((queue, t) => {
      const end = Math.min(queue.length, next[t] + block);
      for (let i = next[t]; i < end; i++) out.push(queue[i]);
      next[t] = end;
    });
  }
  return out;
}

/**
 * A run's items from its tasks' populations: the draw (per task, in file order) and the order the
 * run asks them. `rule` absent: a record from before RunSampling (FILE_ORDER).
 */
export function sampleRun(population: readonly TaskItems[], limitPerTask: number | null, rule: SamplingRule | undefined): { byTask: TaskItems[]; itemIds: string[] } {
  const applied = rule ?? FILE_ORDER;
  const byTask = drawSample(population, limitPerTask, applied);
  return { byTask, itemIds: orderRun(byTask, applied) };
}

/** A fresh sampling seed: any 32-bit unsigned integer, from the platform's cryptographic generator. */
export function randomSamplingSeed(): number {
  return crypto.getRandomValues(new Uint32Array(1))[0];
}
