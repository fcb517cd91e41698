// What a memorization run's link must hold together (issue 34), checked after each field's own form
// (probe-link.ts): the tasks it names are the benchmark's and its own, each file's design is one the
// file-order test can have, each file's p is what its t gives on its shards (recomputed, refused when
// it differs), the signs and nulls agree, and its date is one a link can have. The scores it carries
// are raw (each rounded Min-K%++ within ±40.96, link-scores.ts); every summary the page shows is
// computed from them. A link refused here is not shown: its page says what is wrong, and where.
import { findTask, getDataset } from '../../benchmarks/catalog.ts';
import { EXCHANGEABILITY_MAX_PERMUTATIONS, studentTSurvival } from '../../metrics/memorization/index.ts';
import { shareLinkError } from '../share-link/share-types.ts';
import type { SharedProbeRun } from './probe-link-types.ts';

export const PROBE_LINK_BOUNDS = {
  /** The most shuffled orders a shard may have (the Evaluate page's most; the run file's bound too). */
  permutations: EXCHANGEABILITY_MAX_PERMUTATIONS,
  /** No link can predate 2023 (no release of the libraries Jiangu runs on, transformers.js v3 and onnxruntime-web's WebGPU, existed before); a link dated more than a day after today (a clock ahead) was not made yet. */
  earliest: '2023-01-01T00:00:00.000Z',
  /**
   * |t| = |mean d| · √m / s, and the test gives no t when s ≤ 1e-12 · max(1, |mean d|)
   * (exchangeability-test.ts): so |t| < √m · 1e12, the most a real run's t can be.
   */
  tPerRootShard: 1e12,
  /**
   * |mean d| is a difference of two shard log-likelihoods: at most 2^24 tokens (RAW_BOUNDS.tokens) of at
   * most 131,072 nats each (RAW_BOUNDS.tokenLogProb), 2^41 nats.
   */
  meanDifference: 2 ** 41,
  /** How far a link's p may be from its recomputation: float round-off of one engine's exp and log against another's. */
  pRelativeTolerance: 1e-9,
} as const;

const DAY_MS = 24 * 3600 * 1000;

/** Refuses a link whose fields do not hold together; `now` is the time it is read (a date after it is no clock's). */
export function checkProbeLink(shared: SharedProbeRun, now: Date = new Date()): void {
  const { config, datasetId } = shared;
  const dataset = getDataset(datasetId);
  const created = Date.parse(shared.createdAt);
  if (created < Date.parse(PROBE_LINK_BOUNDS.earliest) || created > now.getTime() + DAY_MS) {
    throw shareLinkError('link.date-out-of-range', { path: 'createdAt', date: shared.createdAt, earliest: PROBE_LINK_BOUNDS.earliest.slice(0, 10), latest: now.toISOString().slice(0, 10) });
  }
  const seen = new Set<string>();
  config.tasks.forEach((task, i) => {
    const path = `config.tasks[${i}]`;
    if (findTask(datasetId, task)?.kind !== 'multiple-choice') throw shareLinkError('link.task-not-in-dataset', { path, task: JSON.stringify(task), dataset: dataset.title });
    if (seen.has(task)) throw shareLinkError('link.field-invalid', { path, found: JSON.stringify(task), expected: 'a task not named before in config.tasks' });
    seen.add(task);
  });
  if (config.limitPerTask !== null && config.itemCount > config.limitPerTask * config.tasks.length) {
    throw shareLinkError('link.derived-differs', { path: 'config.itemCount', found: String(config.itemCount), recomputed: `at most ${config.limitPerTask * config.tasks.length}`, from: 'config.limitPerTask × the number of config.tasks' });
  }
  if (config.itemCount > 0 && config.tasks.length === 0) throw shareLinkError('link.field-invalid', { path: 'config.tasks', found: 'an empty list', expected: `the tasks of the link's ${config.itemCount} items` });
  let fileItems = 0;
  const files = new Set<string>();
  (shared.files ?? []).forEach((file, i) => {
    const path = `files[${i}]`;
    if (!config.tasks.includes(file.task)) throw shareLinkError('link.task-not-in-run', { path: `${path}.task`, task: JSON.stringify(file.task), tasks: config.tasks.join(', ') || '—' });
    if (files.has(file.task)) throw shareLinkError('link.field-invalid', { path: `${path}.task`, found: JSON.stringify(file.task), expected: 'a task file not named before in files' });
    files.add(file.task);
    const { itemCount, shardCount, permutations } = file.design;
    const maxShards = Math.floor(itemCount / 2);
    if (shardCount > maxShards || permutations > PROBE_LINK_BOUNDS.permutations) {
      throw shareLinkError('link.design-out-of-range', { path: `${path}.design`, items: itemCount, shards: shardCount, orders: permutations, maxShards, maxOrders: PROBE_LINK_BOUNDS.permutations });
    }
    if (config.limitPerTask !== null && itemCount > config.limitPerTask) {
      throw shareLinkError('link.derived-differs', { path: `${path}.design.itemCount`, found: String(itemCount), recomputed: `at most ${config.limitPerTask}`, from: 'config.limitPerTask' });
    }
    fileItems += itemCount;
    checkFileResult(file, path);
  });
  if (fileItems > config.itemCount) throw shareLinkError('link.derived-differs', { path: 'files', found: `${fileItems} items in its task files`, recomputed: `at most ${config.itemCount}`, from: 'config.itemCount' });
}

/** A file's t, p and mean difference: all null (no result), or t and p null together (no spread), or p recomputed from t on m − 1 degrees of freedom. */
function checkFileResult(file: NonNullable<SharedProbeRun['files']>[number], path: string): void {
  const { statistic, pValue, meanDifference } = file;
  const m = file.design.shardCount;
  if (meanDifference === null) {
    if (statistic !== null || pValue !== null) throw shareLinkError('link.derived-differs', { path: `${path}.statistic`, found: String(statistic), recomputed: 'null', from: `${path}.meanDifference (null: the file has no result)` });
    return;
  }
  if (Math.abs(meanDifference) > PROBE_LINK_BOUNDS.meanDifference) throw shareLinkError('link.field-invalid', { path: `${path}.meanDifference`, found: String(meanDifference), expected: `a number within ±${PROBE_LINK_BOUNDS.meanDifference} (2^24 tokens of at most 131,072 nats)` });
  if ((statistic === null) !== (pValue === null)) throw shareLinkError('link.derived-differs', { path: `${path}.pValue`, found: String(pValue), recomputed: statistic === null ? 'null' : 'a number', from: `${path}.statistic` });
  if (statistic === null || pValue === null) return;
  const tMax = Math.sqrt(m) * PROBE_LINK_BOUNDS.tPerRootShard;
  if (Math.abs(statistic) >= tMax) throw shareLinkError('link.field-invalid', { path: `${path}.statistic`, found: String(statistic), expected: `a t within ±${tMax.toExponential(2)} (√${m} shards × 10^12: a smaller spread gives no t)` });
  // t = mean d / (s / √m) with s > 0: the two have one sign.
  if (Math.sign(statistic) !== Math.sign(meanDifference)) throw shareLinkError('link.derived-differs', { path: `${path}.statistic`, found: String(statistic), recomputed: `a t of the sign of ${meanDifference}`, from: `${path}.meanDifference` });
  const p = studentTSurvival(statistic, m - 1);
  if (!(Math.abs(p - pValue) <= PROBE_LINK_BOUNDS.pRelativeTolerance * Math.max(p, Number.MIN_VALUE) || Math.abs(p - pValue) < 1e-300)) {
    throw shareLinkError('link.derived-differs', { path: `${path}.pValue`, found: String(pValue), recomputed: String(p), from: `${path}.statistic and ${m} − 1 degrees of freedom (${path}.design.shardCount)` });
  }
}
