// What a scoring run's share link must hold together (issue 34), checked after each field's own form
// (share-validate.ts): its tasks are the benchmark's, its date one a link can have, and its summary
// (the sharer's numbers, shown marked unchecked until the stored benchmark recomputes them from the
// link's letters, SharedPage) has only keys a run summary has (runSummary), each value in its range:
// a percent 0 to 100, a count of items 0 to the link's items; the item count a multiple-choice link
// states is compared with the letters it carries. Nothing out of range reaches a page.
import { findTask, getDataset } from '../../benchmarks/catalog.ts';
import { protocolForDataset } from '../../protocols/mc-protocols.ts';
import { SHOTS_FEWER_KEY, SHOTS_FEWEST_KEY } from '../../metrics/shots-used.ts';
import { shareLinkError, type SharedGenConfig, type SharedMcConfig } from './share-types.ts';
import { sampleSize } from '../../protocols/sample-check.ts';
import { noteFieldsRead } from './share-validate.ts';

export const SHARE_LINK_BOUNDS = {
  /** No link can predate 2023 (no release of the libraries Jiangu runs on, transformers.js v3 and onnxruntime-web's WebGPU, existed before); a link dated more than a day after today was not made yet. */
  earliest: '2023-01-01T00:00:00.000Z',
  /** Accuracy, F1, BLEU (already on 0..100): percents. */
  percentMax: 100,
} as const;

const DAY_MS = 24 * 3600 * 1000;

/** A link's date: from 2023 to a day after `now`. */
export function checkLinkDate(createdAt: string, now: Date = new Date()): void {
  const at = Date.parse(createdAt);
  if (at < Date.parse(SHARE_LINK_BOUNDS.earliest) || at > now.getTime() + DAY_MS) {
    throw shareLinkError('link.date-out-of-range', { path: 'createdAt', date: createdAt, earliest: SHARE_LINK_BOUNDS.earliest.slice(0, 10), latest: now.toISOString().slice(0, 10) });
  }
}

/** The protocol is the benchmark's; each task is one of the benchmark's, of the link's kind, named once. */
export function checkLinkTasks(config: SharedMcConfig | SharedGenConfig): void {
  if (config.kind === 'multiple-choice') {
    let expected: string | null = null;
    try {
      expected = protocolForDataset(config.datasetId).id;
    } catch {
      expected = null;
    }
    if (config.protocolId !== expected) throw shareLinkError('link.derived-differs', { path: 'config.protocolId', found: JSON.stringify(config.protocolId), recomputed: expected === null ? 'none (the benchmark has no multiple-choice protocol)' : JSON.stringify(expected), from: 'config.datasetId' });
  }
  const seen = new Set<string>();
  const title = getDataset(config.datasetId).title;
  config.tasks.forEach((task, i) => {
    const path = `config.tasks[${i}]`;
    if (findTask(config.datasetId, task)?.kind !== config.kind) throw shareLinkError('link.task-not-in-dataset', { path, task: JSON.stringify(task), dataset: title });
    if (seen.has(task)) throw shareLinkError('link.field-invalid', { path, found: JSON.stringify(task), expected: 'a task not named before in config.tasks' });
    seen.add(task);
  });
}

/**
 * The summary's keys and ranges against the config; `results`: how many items had a result, as the
 * link's letters say (multiple choice), compared with `items`.
 */
export function checkLinkSummary(summary: Record<string, number | null>, config: SharedMcConfig | SharedGenConfig, results: number | null): void {
  const groups = new Set(getDataset(config.datasetId).groups.map((g) => g.key));
  const items = config.itemCount;
  // The keys named below; task:, group: and shots: keys are the summary's own (fields/share-link.ts `summary`).
  noteFieldsRead('summary.overall', 'summary.pooled', 'summary.items', 'summary.failed');
  const range = (key: string, value: number | null, max: number, integer: boolean, why: string) => {
    if (value === null) return;
    if (value < 0 || value > max || (integer && !Number.isInteger(value))) throw shareLinkError('link.field-invalid', { path: `summary.${key}`, found: String(value), expected: `${integer ? 'an integer' : 'a number'} from 0 to ${max} (${why})` });
  };
  for (const [key, value] of Object.entries(summary)) {
    if (key === 'overall' || (key === 'pooled' && config.kind === 'multiple-choice')) range(key, value, SHARE_LINK_BOUNDS.percentMax, false, 'a percent');
    else if (key.startsWith('task:') && config.tasks.includes(key.slice(5))) range(key, value, SHARE_LINK_BOUNDS.percentMax, false, 'a percent');
    else if (key.startsWith('group:') && config.kind === 'multiple-choice' && groups.has(key.slice(6))) range(key, value, SHARE_LINK_BOUNDS.percentMax, false, 'a percent');
    else if (key === 'items' || key === 'failed' || key === SHOTS_FEWER_KEY) range(key, value, items, true, 'a count of the link\'s items, config.itemCount');
    else if (key === SHOTS_FEWEST_KEY && config.kind === 'multiple-choice') range(key, value, config.shots, true, 'a count of exemplars, at most config.shots');
    else throw shareLinkError('link.field-invalid', { path: `summary.${key.slice(0, 60)}`, found: `a key ${JSON.stringify(key.slice(0, 60))}`, expected: 'overall, pooled, items, failed, shots:fewer, shots:fewest, task:<one of config.tasks> or group:<one of the benchmark\'s groups>' });
  }
  // A multiple-choice run's summary counts its items (runSummary): the count the letters give. Absent, nothing is shown for it.
  if (results !== null && summary.items !== undefined && summary.items !== results) {
    throw shareLinkError('link.derived-differs', { path: 'summary.items', found: String(summary.items), recomputed: String(results), from: 'the letters the link carries (n, less the items it marks as not yet run)' });
  }
}

/**
 * A sampled link's population (issue 36) against its tasks and items, once its tasks are known to be
 * the benchmark's: one size per task of config.tasks and no other, giving config.itemCount
 * (Σ min(limitPerTask, N)). Its seed's draw is checked when the link's items are rebuilt here.
 */
export function checkLinkSample(config: SharedMcConfig | SharedGenConfig): void {
  const s = config.sampling;
  if (!s) return;
  const path = 'config.sampling.population';
  const extra = Object.keys(s.population).find((task) => !config.tasks.includes(task));
  if (extra !== undefined) throw shareLinkError('link.field-unknown', { path, key: JSON.stringify(extra.slice(0, 60)), known: config.tasks });
  const missing = config.tasks.find((task) => !Object.hasOwn(s.population, task));
  if (missing !== undefined) throw shareLinkError('link.field-invalid', { path: `${path}.${missing.slice(0, 60)}`, found: 'missing', expected: 'the size of each task of config.tasks' });
  const expected = sampleSize(config.tasks, config.limitPerTask, s.population);
  if (expected !== config.itemCount) {
    throw shareLinkError('link.field-invalid', { path, found: `sizes giving ${expected} items`, expected: `sizes whose ${config.limitPerTask === null ? 'sum' : `Σ min(${config.limitPerTask}, N)`} is config.itemCount, ${config.itemCount}` });
  }
}
