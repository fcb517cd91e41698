// What the Evaluate page tells a user before Start: how many items the selection holds, and how long
// it may take, judged from this browser's earlier runs of the same model. Pure, for Node tests.
import type { ItemResult, McRunConfig, RunRecord } from '../../lib/core/record/run.ts';
import type { ModelSource } from '../../lib/core/models/model-types.ts';
import { modelId } from '../i18n/model-label.ts';

/** Test items a run of `selected` tasks would hold: each task's count, at most `limit` when one is set. */
export function selectionTotal(counts: Readonly<Record<string, number>>, selected: readonly string[], limit: number | null): number {
  const cap = limit !== null && limit > 0 ? Math.floor(limit) : Infinity;
  return selected.reduce((sum, key) => sum + Math.min(counts[key] ?? 0, cap), 0);
}

/**
 * Items per task suggested for a first run of a large selection: enough to see every step and a
 * rough score per task, small enough to finish in minutes on a laptop. Runs take the first items in
 * file order, so such a run is a look, not a result to compare with the papers.
 */
export const FIRST_RUN_LIMIT = 20;
/** Selections above this many items get FIRST_RUN_LIMIT on a first run (ACLUE: 5,041; the AncientBench sample: 280). */
export const FIRST_RUN_THRESHOLD = 1000;

/** The limit to fill in before a first run (no run stored here yet), or null for all items. */
export function firstRunLimit(hasRuns: boolean, fullTotal: number): number | null {
  return !hasRuns && fullTotal > FIRST_RUN_THRESHOLD ? FIRST_RUN_LIMIT : null;
}

/** What a speed is looked up by: the model, its dtype and backend, and how items are scored. */
export interface SpeedKey {
  source: ModelSource;
  dtype: string;
  backend: string;
  kind: 'multiple-choice' | 'generation';
  scoring?: McRunConfig['scoring'];
  shots?: number;
}

/**
 * The newest run here made with the same model, dtype, backend and scoring (the same shots when
 * one exists, as 5-shot prompts are several times longer), or null. Imported runs ran elsewhere.
 */
export function speedSource(runs: readonly RunRecord[], key: SpeedKey): RunRecord | null {
  const alike = runs.filter((run) => {
    const c = run.config;
    if (run.origin || c.kind !== key.kind || c.model.dtype !== key.dtype || c.model.backend !== key.backend) return false;
    if (modelId(c.model.source) !== modelId(key.source)) return false;
    return c.kind !== 'multiple-choice' || key.scoring === undefined || c.scoring === key.scoring;
  });
  const newest = (list: RunRecord[]) => [...list].sort((a, b) => b.createdAt.localeCompare(a.createdAt))[0] ?? null;
  const sameShots = alike.filter((run) => run.config.kind !== 'multiple-choice' || key.shots === undefined || run.config.shots === key.shots);
  return newest(sameShots) ?? newest(alike);
}

/**
 * A gap between two results longer than this (and than PAUSE_FACTOR times the median gap) is a
 * pause (the run was cancelled and resumed, the tab slept), not time the run took.
 */
export const PAUSE_SECONDS = 30;
export const PAUSE_FACTOR = 50;

/**
 * Prompts per second of wall-clock time over a run's results, as a user waits for them (issue 22):
 * from the results' completion times, so tokenizing, storing and drawing count, not the model's
 * forward passes alone (a 2 ms model ran at a fifth of its forward-pass pace). Each result counts
 * its prompt and its rotations'. Pauses between sessions are left out (PAUSE_SECONDS); null with
 * fewer than two timed results.
 */
export function wallPace(results: readonly ItemResult[]): { promptsPerSecond: number; prompts: number; seconds: number; rotations: boolean } | null {
  const timed: { at: number; prompts: number }[] = [];
  let rotations = false;
  for (const r of results) {
    const at = Date.parse(r.completedAt);
    if (!Number.isFinite(at)) continue;
    const rotated = 'rotations' in r ? (r.rotations?.length ?? 0) : 0;
    if (rotated > 0) rotations = true;
    timed.push({ at, prompts: 1 + rotated });
  }
  if (timed.length < 2) return null;
  timed.sort((a, b) => a.at - b.at);
  const gaps = timed.slice(1).map((t, i) => (t.at - timed[i].at) / 1000);
  const sorted = [...gaps].sort((a, b) => a - b);
  const median = sorted[Math.floor(sorted.length / 2)];
  const pause = Math.max(PAUSE_SECONDS, PAUSE_FACTOR * median);
  let seconds = 0;
  let prompts = 0;
  // Between two results come the earlier one's rotations (its time is its first prompt's) and the
  // later one's prompt: counted as the later one's own prompts, which sums the same over a run.
  gaps.forEach((gap, i) => {
    if (gap > pause) return;
    seconds += gap;
    prompts += timed[i + 1].prompts;
  });
  return seconds > 0 ? { promptsPerSecond: prompts / seconds, prompts, seconds, rotations } : null;
}
