// Where a run's tuned looks fall (planned-looks.ts), fixed before the run from what its record says
// before any value: the tasks, how many items each asks, the order's blocks (run-sampling.ts), the
// weights of the benchmark's score, and the stop rule. A look is a moment of the run's order: after
// `at` items, task s has asked `counts[s]` of them (the same round-robin blocks the run asks in).
//
// Which looks, and their masses (the share of the looks' α each gets):
//  - a precision stop at ±X: the first moment whose anticipated half-width (every value with the
//    plan's variance) is at most X gets PRIMARY_MASS; the rest is spread over later moments
//    (1.15×, 1.3×, 1.6× and 2× as many items, within the run), so a run the stop misses there
//    still narrows at a few more looks;
//  - no stop: the moments that reach ±5, ±3 and ±2 points, and the planned end, equal masses (a
//    user watching a run reads those widths; the end is the fixed plan's own look);
//  - a paired comparison (compare-sequence.ts): the moments at which the difference would be known
//    within ±10, ±7, ±5.5, ±4.5, ±3.5 and ±2.5 points, and the end, equal masses: from the ±7 look
//    on, consecutive looks are 1.2–1.35× apart in items (on ACLUE: 431, 870, 1,098, 1,452, 1,760,
//    2,327 and 4,966), so a difference settles soon after it is large against the width; a grid
//    at ±5, ±4, ±3 put a +5-point difference's settling on the ±4 look, 1.3× later.
// The bound each item's factor takes (planned-looks.ts): for accuracy, Hoeffding's. Its penalty λ²/8
// is what a value of variance ¼ would cost, and a right-or-wrong value near accuracy ½ has nearly
// that; Bernstein's ψ_E(λ)(X − μ̂)² saves only a few percent at accuracy 0.3 (ψ_E's cubic term eats
// the rest) and costs more when the running variance guesses low. So the width at a look is known
// before the run, and a precision stop stops at its planned look. For a paired difference on
// [−1, 1] (values on the [0, 1] scale: (B − A + 1)/2), whose variance is far below ¼ because most
// items agree, Bernstein's, tuned to LOW_VARIANCE: two models that disagree on 20–40 % of items give
// 0.05–0.1 on that scale, and the bets are tuned to the middle (a factor 2 off costs 6 % of width).
// A continuous score (p(gold)) takes the same: its spread is of that size.
import { blockAt, type SamplingRule } from '../../protocols/run-sampling.ts';
import { anticipatedHalfWidth, type LookBound, type LookPlan, type LookShape } from './planned-looks.ts';

/** The looks' share of α: the rest (0.01 of 0.05) goes to the all-times sequence for the early display. */
export const LOOK_SHARE = 0.8;
export const PRIMARY_MASS = 0.95;
const LATER_LOOKS = [1.15, 1.3, 1.6, 2];
const WATCH_TARGETS = [0.05, 0.03, 0.02];
const PAIRED_TARGETS = [0.1, 0.07, 0.055, 0.045, 0.035, 0.025];
export const LOW_VARIANCE = 0.07;

/** A run's looks: when each comes and what each stratum has then. */
export interface RunLookPlan extends LookPlan {
  looks: { at: number; counts: Record<string, number> }[];
}

/** What a plan reads of a run: its tasks in order, each task's items asked (n) and population (N), its weights, its blocks. */
export interface PlanInput {
  tasks: readonly string[];
  asked: Readonly<Record<string, number>>;
  populations: Readonly<Record<string, number>>;
  weights: ReadonlyMap<string, number>;
  rule: Pick<SamplingRule, 'block' | 'growth' | 'maxBlock'>;
  /** The score's range per value: [0, 1] (accuracy), [−1, 1] (a paired difference). */
  span: number;
  alpha: number;
}

export type PlanKind = { kind: 'precision'; halfWidth: number } | { kind: 'watch' } | { kind: 'paired' };

/** Each task's count after `at` items of the run's order (round-robin blocks, tasks in order). */
export function countsAt(input: Pick<PlanInput, 'tasks' | 'asked' | 'rule'>, at: number): Record<string, number> {
  const counts: Record<string, number> = Object.fromEntries(input.tasks.map((task) => [task, 0]));
  let left = at;
  for (let round = 0; left > 0; round++) {
    const block = blockAt(input.rule, round);
    let moved = false;
    for (const task of input.tasks) {
      const take = Math.min(block, (input.asked[task] ?? 0) - counts[task], left);
      if (take <= 0) continue;
      counts[task] += take;
      left -= take;
      moved = true;
      if (left === 0) break;
    }
    if (!moved) break;
  }
  return counts;
}

function totalOf(input: Pick<PlanInput, 'tasks' | 'asked'>): number {
  return input.tasks.reduce((sum, task) => sum + (input.asked[task] ?? 0), 0);
}

/** How the bets of a kind of value are made: Hoeffding's for a right-or-wrong score, Bernstein's at LOW_VARIANCE for a paired difference or a continuous score. */
export function boundFor(values: 'accuracy' | 'paired' | 'continuous'): { bound: LookBound; variance: number } {
  return values === 'accuracy' ? { bound: 'hoeffding', variance: 0.25 } : { bound: 'bernstein', variance: LOW_VARIANCE };
}

/** The look's anticipated half-width after `at` items, on the score's scale. */
function anticipated(input: PlanInput, at: number, bets: { bound: LookBound; variance: number }, level: number): number {
  const counts = countsAt(input, at);
  const shapes: LookShape[] = [];
  for (const task of input.tasks) {
    const weight = input.weights.get(task) ?? 0;
    if (weight > 0) shapes.push({ coefficient: weight * input.span, population: input.populations[task], count: counts[task] });
  }
  return anticipatedHalfWidth(shapes, bets.bound, bets.variance, level);
}

/** The first moment (items in order) whose anticipated half-width is at most `target`; null when none within the run. */
export function firstMomentWithin(input: PlanInput, target: number, bets: { bound: LookBound; variance: number }, level: number): number | null {
  const total = totalOf(input);
  if (total === 0 || anticipated(input, total, bets, level) > target) return null;
  let low = 0;
  let high = total;
  while (high - low > 1) {
    const mid = Math.floor((low + high) / 2);
    if (anticipated(input, mid, bets, level) <= target) high = mid;
    else low = mid;
  }
  return high;
}

const planCache = new Map<string, RunLookPlan>();

/** The looks of a run (see the header); empty when no look can be placed. */
export function lookPlan(input: PlanInput, kind: PlanKind): RunLookPlan {
  const key = JSON.stringify([input.tasks, input.asked, input.populations, [...input.weights], input.rule, input.span, input.alpha, kind]);
  const cached = planCache.get(key);
  if (cached) return cached;
  const plan = buildPlan(input, kind);
  if (planCache.size > 256) planCache.clear();
  planCache.set(key, plan);
  return plan;
}

function buildPlan(input: PlanInput, kind: PlanKind): RunLookPlan {
  const total = totalOf(input);
  const alpha = input.alpha * LOOK_SHARE;
  const bets = boundFor(kind.kind === 'paired' ? 'paired' : 'accuracy');
  const moments: { at: number; mass: number }[] = [];
  if (kind.kind === 'precision') {
    const level = Math.log(2 / (alpha * PRIMARY_MASS));
    const primary = firstMomentWithin(input, kind.halfWidth, bets, level);
    if (primary !== null) {
      const later = [...new Set(LATER_LOOKS.map((r) => Math.min(total, Math.ceil(primary * r))))].filter((at) => at > primary);
      moments.push({ at: primary, mass: later.length > 0 ? PRIMARY_MASS : 1 });
      for (const at of later) moments.push({ at, mass: (1 - PRIMARY_MASS) / later.length });
    } else if (total > 0) moments.push({ at: total, mass: 1 });
  } else {
    const targets = kind.kind === 'paired' ? PAIRED_TARGETS : WATCH_TARGETS;
    // Each look's level depends on how many looks there are: place with the count of targets + the end, then drop those beyond the run.
    const level = Math.log(2 / (alpha / (targets.length + 1)));
    const ats = targets.map((target) => firstMomentWithin(input, target, bets, level)).filter((at): at is number => at !== null && at < total);
    const all = [...new Set([...ats, total])].filter((at) => at > 0).sort((a, b) => a - b);
    for (const at of all) moments.push({ at, mass: 1 / all.length });
  }
  return { masses: moments.map((m) => m.mass), ...bets, share: LOOK_SHARE, looks: moments.map((m) => ({ at: m.at, counts: countsAt(input, m.at) })) };
}
