// Matching two runs' items (by task and item id, scored items only) and counting the 2×2 table under
// a row; with the row specs and small cell helpers every part of a comparison shares.
import { findTask, getDataset } from '../benchmarks/catalog.ts';
import type { DatasetId } from '../benchmarks/types.ts';
import type { Interval } from './accuracy.ts';
import type { TaskPairing } from './compare-paired.ts';
import type { CompareCell, ComparableRun, CompareRowKind, Pairing } from './compare-types.ts';

export const pct = (x: number | null): number | null => (x === null ? null : 100 * x);
export const pctInterval = (i: Interval | null | undefined): Interval | null => (i ? { low: 100 * i.low, high: 100 * i.high } : null);
export const itemKey = (task: string, itemId: string): string => `${task}\u0000${itemId}`;
export const mean = (xs: readonly number[]): number | null => (xs.length === 0 ? null : xs.reduce((a, b) => a + b, 0) / xs.length);
export const EMPTY_CELL: CompareCell = { score: null, interval: null, n: 0, correct: null };

/** Scored items per row key, for pairing; null for a summary-only run. */
type ItemSets = Map<string, Map<string, boolean>> | null;

/**
 * Task key → its scored items (key → correct; generation results count as scored, correct = false).
 * Multiple-choice maps are keyed by item id alone (each map is one task's; a built key per item
 * cost a third of a 28,707-item comparison), generation ones by task and id, as their rows merge tasks.
 */
export function scoredByTask(run: ComparableRun): Map<string, Map<string, boolean>> | null {
  const out = new Map<string, Map<string, boolean>>();
  const add = (task: string, itemId: string, correct: boolean) => {
    let set = out.get(task);
    if (!set) out.set(task, (set = new Map()));
    set.set(run.kind === 'multiple-choice' ? itemId : itemKey(task, itemId), correct);
  };
  if (run.kind === 'multiple-choice' && run.mcItems) {
    for (const item of run.mcItems) if (item.correct !== null) add(item.task, item.itemId, item.correct);
    return out;
  }
  if (run.kind === 'generation' && run.genResults) {
    for (const r of run.genResults) add(r.task, r.itemId, false);
    return out;
  }
  return null;
}

export function rowItemSets(byTask: Map<string, Map<string, boolean>> | null, rows: readonly { key: string; tasks: readonly string[] }[]): ItemSets {
  if (!byTask) return null;
  const sets = new Map<string, Map<string, boolean>>();
  for (const row of rows) {
    const merged = new Map<string, boolean>();
    for (const task of row.tasks) for (const [k, v] of byTask.get(task) ?? []) merged.set(k, v);
    sets.set(row.key, merged);
  }
  return sets;
}

export interface PairCounts {
  pairing: Pairing;
  common: number;
  /** Both right, only this run right, only baseline right, both wrong (over common items). */
  a: number;
  onlyThis: number;
  onlyBaseline: number;
  d: number;
  /** Scored items of each run under the row. */
  baseSize: number;
  otherSize: number;
}

const pairingOf = (c: Pick<PairCounts, 'common' | 'baseSize' | 'otherSize'>): Pairing =>
  c.common > 0 && c.common === c.baseSize && c.common === c.otherSize ? 'paired' : c.common > 0 ? 'partly-paired' : 'unpaired';


/** The counts of several rows' items together (the pooled row from its tasks'). */
export function sumCounts(list: readonly PairCounts[]): PairCounts {
  const sum = (f: (c: PairCounts) => number) => list.reduce((total, c) => total + f(c), 0);
  const counts = { common: sum((c) => c.common), a: sum((c) => c.a), onlyThis: sum((c) => c.onlyThis), onlyBaseline: sum((c) => c.onlyBaseline), d: sum((c) => c.d), baseSize: sum((c) => c.baseSize), otherSize: sum((c) => c.otherSize) };
  return { ...counts, pairing: pairingOf(counts) };
}

export function pairCounts(base: Map<string, boolean> | undefined, other: Map<string, boolean> | undefined, summary: boolean): PairCounts {
  const counts: PairCounts = { pairing: 'summary-only', common: 0, a: 0, onlyThis: 0, onlyBaseline: 0, d: 0, baseSize: base?.size ?? 0, otherSize: other?.size ?? 0 };
  if (summary) return counts;
  if (!base || !other) return { ...counts, pairing: 'unpaired' };
  for (const [key, baseRight] of base) {
    const thisRight = other.get(key);
    if (thisRight === undefined) continue;
    counts.common++;
    if (baseRight && thisRight) counts.a++;
    else if (thisRight) counts.onlyThis++;
    else if (baseRight) counts.onlyBaseline++;
    else counts.d++;
  }
  counts.pairing = pairingOf(counts);
  return counts;
}

/** Two runs' counts under one task as the paired table on their common items. */
export function taskPairing(c: PairCounts): TaskPairing {
  return {
    table: { both: c.a, onlyThis: c.onlyThis, onlyBaseline: c.onlyBaseline, neither: c.d },
    common: c.common,
    thisOnly: c.otherSize - c.common,
    baselineOnly: c.baseSize - c.common,
  };
}

export interface RowSpec {
  key: string;
  kind: CompareRowKind;
  name: { zh: string; en: string } | null;
  metric: string;
  /** The tasks whose items the row covers (for pairing). */
  tasks: readonly string[];
  /** Group rows: the group's key. */
  group?: string;
}

/** Tasks in catalog order, then tasks the catalog does not list, in order of first appearance. */
export function orderTasks(datasetId: DatasetId, present: ReadonlySet<string>): string[] {
  const catalog = getDataset(datasetId).tasks.map((t) => t.key).filter((k) => present.has(k));
  return [...new Set([...catalog, ...present])];
}

export function tasksOf(run: ComparableRun): string[] {
  if (run.mcItems) return run.mcItems.map((i) => i.task);
  if (run.genResults) return run.genResults.map((r) => r.task);
  return Object.keys(run.summaryOnly ?? {})
    .filter((k) => k.startsWith('task:'))
    .map((k) => k.slice(5));
}

export const taskName = (datasetId: DatasetId, key: string) => {
  const task = findTask(datasetId, key);
  return task ? { zh: task.zh, en: task.en } : null;
};
