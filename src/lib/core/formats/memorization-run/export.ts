// The memorization run file (format "jiangu-memorization-run", formatVersion 1): a memorization run's
// record and every item's and shard's result, as JSON, nothing derived (no Min-K%, no t, no p: the
// page computes them from the per-position numbers and the shards' log-likelihoods). Written here and
// read by import-memorization.ts, which treats it as untrusted; the two are its specification.
import { labelSlug } from '../../record/run-label.ts';
import type { ProbeResult, ProbeRunRecord } from '../../record/probe-run.ts';

export const MEMORIZATION_FORMAT = 'jiangu-memorization-run';
export const MEMORIZATION_FORMAT_VERSION = 1;

/** The file's text: the run and its results (items in run order, then shards, as the store lists them). */
export function memorizationRunJson(run: ProbeRunRecord, results: readonly ProbeResult[]): string {
  return `${JSON.stringify({ format: MEMORIZATION_FORMAT, formatVersion: MEMORIZATION_FORMAT_VERSION, run, results }, null, 2)}\n`;
}

/** The file's name: dataset and the run id's first characters. */
export function memorizationRunFileName(run: Pick<ProbeRunRecord, 'datasetId' | 'id' | 'label'>): string {
  const slug = labelSlug(run.label);
  return `jiangu-memorization-${run.datasetId}-${run.id.slice(0, 8)}${slug ? `-${slug}` : ''}.json`;
}

/**
 * Whether a file's text is a memorization run file, told from its first field as the exporter writes
 * it (a cheap look before the JSON is parsed, so a run file of 60 MB is not parsed twice). A file
 * whose fields were reordered by hand goes to the run-file reader, which names its format as unknown.
 */
export function looksLikeMemorizationRun(text: string): boolean {
  return /^\uFEFF?\s*\{\s*"format"\s*:\s*"jiangu-memorization-run"/.test(text.slice(0, 200));
}
