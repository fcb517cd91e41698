// Simulated runs for the sample-estimate tests and the widths bench: populations with real task
// sizes, and the order a run asks them in (each task shuffled, tasks interleaved round-robin in
// blocks of 4 items that double each round up to 64, as core/protocols/run-sampling.ts describes;
// written out here so the tests do not depend on its code).
import { mulberry32 } from '../../../src/lib/core/metrics/generation/bootstrap.ts';
import { combineStrata, stratumTracker } from '../../../src/lib/core/metrics/sample-estimate/index.ts';
import type { ScoreInterval, StratumTracker } from '../../../src/lib/core/metrics/sample-estimate/types.ts';

export type Random = () => number;
export { mulberry32 };

/** Task sizes (test split items) of ACLUE, read from the shared upstream copies' CSVs. */
export const ACLUE_SIZES: Record<string, number> = {
  古文单字多义: 500,
  通假字: 500,
  古汉语命名体识别: 500,
  古文断句: 500,
  对联: 500,
  古诗词上下句预测: 500,
  古诗词质量评估: 406,
  古文阅读理解: 101,
  古诗词曲鉴赏: 103,
  诗词情感分类: 500,
  古汉语知识: 249,
  国学常识: 136,
  医古文: 211,
  古代文学知识: 160,
  古音学: 100,
};

export const CMMLU_ANCIENT_SIZES: Record<string, number> = { ancient_chinese: 164 };

/** AC-EVAL's test split (every item has a key in the simulation; the real test split has none). */
export const AC_EVAL_SIZES: Record<string, number> = {
  historical_facts: 199,
  geography: 197,
  social_customs: 202,
  art_and_cultural_heritage: 195,
  philosophy_and_religion: 196,
  lexical_pragmatics_analysis: 198,
  allusions_and_idioms: 206,
  word_sense_disambiguation: 402,
  translation: 199,
  event_extraction: 185,
  sentence_pauses: 202,
  summarization_and_analysis: 598,
  poetry_appreciation: 201,
};

/**
 * AncientBench's 28,707 items. Its data is not public (../shared/data/ancientbench/SOURCE.md); four
 * task sizes are known from the authors' follow-up paper (Radical 8,438, Radical Meaning 1,432, ExcDoc
 * Word 364, Phonetic Loan Character 4,636); the other six share the remaining 13,837 in a plausible
 * split of our own.
 */
export const ANCIENTBENCH_SIZES: Record<string, number> = {
  Radical: 8438,
  'Radical Meaning': 1432,
  Pronunciation: 3200,
  'Phonetic Radical': 2600,
  Homophone: 2400,
  'ExcDoc Word': 364,
  'TraDoc Word': 1837,
  Cloze: 2100,
  'Phonetic Loan Character': 4636,
  Translation: 1700,
};

export type ValueKind = 'binary' | 'continuous' | 'paired';

/**
 * A task's items: `round(p·N)` right answers at random places (0/1); Beta-like scores in [0, 1]; or
 * 'paired': model B's right (1/0) minus model A's on each item, in [−1, 1] — A right with chance p,
 * B agreeing with A on 70% of items and otherwise right with chance p − 0.1.
 */
export function population(size: number, mean: number, kind: ValueKind, random: Random): Float64Array {
  const values = new Float64Array(size);
  if (kind === 'paired') {
    for (let i = 0; i < size; i++) {
      const a = random() < mean ? 1 : 0;
      const b = random() < 0.7 ? a : random() < mean - 0.1 ? 1 : 0;
      values[i] = b - a;
    }
    return values;
  }
  if (kind === 'binary') {
    const right = Math.round(mean * size);
    for (let i = 0; i < right; i++) values[i] = 1;
    shuffle(values, random);
  } else {
    // Beta(a, b) with mean `mean` and a + b = 4: a p(gold)-like spread over [0, 1].
    for (let i = 0; i < size; i++) values[i] = betaDraw(4 * mean, 4 * (1 - mean), random);
  }
  return values;
}

export function shuffle<T extends { length: number; [i: number]: number }>(values: T, random: Random): T {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const v = values[i];
    values[i] = values[j];
    values[j] = v;
  }
  return values;
}

function gammaDraw(shape: number, random: Random): number {
  // Marsaglia–Tsang; shape < 1 by the boost u^(1/shape).
  if (shape < 1) return gammaDraw(shape + 1, random) * Math.pow(random() || 1e-300, 1 / shape);
  const d = shape - 1 / 3;
  const c = 1 / Math.sqrt(9 * d);
  for (;;) {
    let x: number;
    let v: number;
    do {
      x = normalDraw(random);
      v = 1 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const u = random();
    if (Math.log(u || 1e-300) < 0.5 * x * x + d - d * v + d * Math.log(v)) return d * v;
  }
}

function normalDraw(random: Random): number {
  const u = random() || 1e-300;
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * random());
}

function betaDraw(a: number, b: number, random: Random): number {
  const x = gammaDraw(a, random);
  const y = gammaDraw(b, random);
  return x / (x + y);
}

/**
 * The order of a run over every item: task t's items in a random order, tasks taking turns in
 * blocks of 4, 8, 16, 32, 64, 64, … items. Returns the task index of each step (each task's own
 * order is its shuffled population, read front to back).
 */
export function runSchedule(sizes: readonly number[]): Int32Array {
  const total = sizes.reduce((a, b) => a + b, 0);
  const schedule = new Int32Array(total);
  const asked = new Array<number>(sizes.length).fill(0);
  let step = 0;
  for (let round = 0; step < total; round++) {
    const block = Math.min(64, 4 * 2 ** round);
    for (let t = 0; t < sizes.length; t++) {
      const take = Math.min(block, sizes[t] - asked[t]);
      for (let i = 0; i < take; i++) schedule[step++] = t;
      asked[t] += take;
    }
  }
  return schedule;
}

export interface CoverageOptions {
  /** Task → population size. */
  sizes: Record<string, number>;
  /** Task → weight in the score (scoreWeights' overall). */
  weights: ReadonlyMap<string, number>;
  kind: ValueKind;
  /** Distinct populations (per-task means drawn anew for each, from chance 0.25 to 0.9); the first spreads them evenly. */
  populations: number;
  /** The first population's means drawn at random too (not spread evenly). */
  randomFirst?: boolean;
  pathsPerPopulation: number;
  seed: number;
  /** Items asked on each path (at most every item). */
  horizon: number;
  /** Total items at which (a) is checked (each at most the horizon). */
  fixedAt: readonly number[];
  /** Check (b): after every item up to `everyItemUntil`, then at the end of every task's turn. */
  sequence: boolean;
  everyItemUntil?: number;
  alpha?: number;
}

export interface CoverageResult {
  paths: number;
  /** Paths on which (b) held the true score at every check. */
  sequenceCovered: number;
  checksPerPath: number;
  /** Each task's own sequence (tracker.sequence()), checked after each of its values: (path, task) pairs held throughout, of all. */
  strataCovered: number;
  strataPaths: number;
  /** Per fixed n: paths on which (a) held it, and the mean half-widths of (a) and (b) there (points). */
  fixed: { n: number; covered: number; fixedHalf: number; sequenceHalf: number }[];
}

export function simulateCoverage(options: CoverageOptions): CoverageResult {
  const random = mulberry32(options.seed);
  const tasks = Object.keys(options.sizes).filter((task) => (options.weights.get(task) ?? 0) > 0);
  const sizes = tasks.map((task) => options.sizes[task]);
  const weights = tasks.map((task) => options.weights.get(task)!);
  const schedule = runSchedule(sizes);
  const horizon = Math.min(options.horizon, schedule.length);
  const fixedAt = options.fixedAt.filter((n) => n <= horizon);
  const combine = (strata: { weight: number; tracker: StratumTracker }[], sequence: boolean) => combineStrata(strata, { alpha: options.alpha, sequence });
  const result: CoverageResult = { paths: 0, sequenceCovered: 0, checksPerPath: 0, strataCovered: 0, strataPaths: 0, fixed: fixedAt.map((n) => ({ n, covered: 0, fixedHalf: 0, sequenceHalf: 0 })) };
  const holds = (interval: ScoreInterval | null, truth: number) => interval !== null && interval.low <= truth + 1e-9 && interval.high >= truth - 1e-9;
  for (let p = 0; p < options.populations; p++) {
    const means = tasks.map((_, t) => 0.25 + 0.65 * (p === 0 && !options.randomFirst ? (tasks.length === 1 ? 0.5 : t / (tasks.length - 1)) : random()));
    const values = sizes.map((size, t) => population(size, means[t], options.kind, random));
    const taskMeans = values.map((v) => v.reduce((a, b) => a + b, 0) / v.length);
    const truth = taskMeans.reduce((sum, m, t) => sum + weights[t] * m, 0);
    for (let path = 0; path < options.pathsPerPopulation; path++) {
      // Each task's next item drawn at random from those not yet asked (a partial Fisher–Yates in
      // place: the population's order is any permutation, so no copy is needed).
      const range: [number, number] = options.kind === 'paired' ? [-1, 1] : [0, 1];
      const trackers = sizes.map((size) => stratumTracker(size, { alpha: options.alpha, range }));
      const strata = trackers.map((tracker, t) => ({ weight: weights[t], tracker }));
      const asked = new Array<number>(tasks.length).fill(0);
      let covered = true;
      const strataHeld = new Array<boolean>(tasks.length).fill(true);
      let checks = 0;
      let f = 0;
      for (let step = 0; step < horizon; step++) {
        const t = schedule[step];
        const v = values[t];
        const at = asked[t]++;
        const pick = at + Math.floor(random() * (v.length - at));
        const value = v[pick];
        v[pick] = v[at];
        v[at] = value;
        trackers[t].push(value);
        if (options.sequence && strataHeld[t] && !holds(trackers[t].sequence(), taskMeans[t])) strataHeld[t] = false;
        const n = step + 1;
        const turnEnds = n === horizon || schedule[step + 1] !== t;
        const checkSequence = options.sequence && (n <= (options.everyItemUntil ?? 0) || turnEnds);
        const checkFixed = f < fixedAt.length && fixedAt[f] === n;
        if (!checkSequence && !checkFixed) continue;
        const e = combine(strata, checkSequence || (options.sequence && checkFixed));
        if (checkSequence) {
          checks++;
          if (covered && !holds(e.sequence, truth)) covered = false;
        }
        if (checkFixed) {
          const slot = result.fixed[f++];
          if (holds(e.fixedN, truth)) slot.covered++;
          slot.fixedHalf += (50 * (e.fixedN!.high - e.fixedN!.low)) / (options.populations * options.pathsPerPopulation);
          if (e.sequence) slot.sequenceHalf += (50 * (e.sequence.high - e.sequence.low)) / (options.populations * options.pathsPerPopulation);
        }
      }
      result.paths++;
      if (options.sequence) {
        result.strataPaths += tasks.length;
        result.strataCovered += strataHeld.filter(Boolean).length;
      }
      if (covered) result.sequenceCovered++;
      result.checksPerPath = checks;
    }
  }
  return result;
}
