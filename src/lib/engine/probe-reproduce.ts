// "Reproduce here" for a memorization run's link: the same run made here (same model, layout, tasks,
// limits, k and file-order designs, on the same data files), refused unless it selects the same items;
// once it has run, how its Min-K%++ compares with the link's, item by item, within the link's rounding.
import type { SharedProbeRun } from '../core/formats/probe-link/probe-link.ts';
import { itemIdsHash } from '../core/formats/share-link/share-link.ts';
import { LINK_SUMMARY_TOLERANCE, probeRunSummary } from '../core/metrics/memorization/index.ts';
import { jianguError } from '../core/notices/index.ts';
import type { ProbeResult, ProbeRunRecord } from '../core/record/probe-run.ts';
import { deleteProbeRun } from '../store/probe-runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { createProbeRunRecord } from './probe-setup.ts';
import { checkSharedData } from './reproduce.ts';

/**
 * A new memorization run with the link's configuration. A model host named by the link is dropped
 * (the same model id from the hub): the page never contacts a host a link names.
 */
export async function createProbeReproduction(db: JianguDatabase, shared: SharedProbeRun): Promise<ProbeRunRecord> {
  await checkSharedData(db, shared);
  const model = shared.config.model;
  const source = model.source.kind === 'hub' ? (({ host: _host, ...rest }) => rest)(model.source) : model.source;
  const design = shared.files?.[0]?.design;
  const run = await createProbeRunRecord(db, {
    model: { ...model, source },
    datasetId: shared.datasetId,
    tasks: shared.config.tasks,
    limitPerTask: shared.config.limitPerTask,
    k: shared.config.k,
    contextLimit: shared.config.contextLimit,
    ...(design ? { exchangeability: { permutations: design.permutations, seed: design.seed, shards: Math.max(...shared.files!.map((f) => f.design.shardCount)) } } : {}),
  });
  const sameFiles = JSON.stringify((run.config.exchangeability ?? []).map((f) => [f.task, f.design])) === JSON.stringify((shared.files ?? []).map((f) => [f.task, f.design]));
  if ((await itemIdsHash(run.config.itemIds)) !== shared.config.itemIdsHash || !sameFiles) {
    await deleteProbeRun(db, run.id);
    throw jianguError('link.other-items');
  }
  return run;
}

export interface ProbeAgreement {
  /** Items with a score on both sides. */
  compared: number;
  /** Of those, within the link's rounding (half a step). */
  within: number;
  /** Items scored on one side only. */
  oneSided: number;
  /** The largest |here − link|. */
  largest: number;
}

/** The reproduction's Min-K%++ against the link's, item by item in run order. */
export function probeAgreement(shared: SharedProbeRun, run: ProbeRunRecord, results: readonly ProbeResult[]): ProbeAgreement {
  const here = new Map(probeRunSummary(run, results).items.map((i) => [i.itemId, i.minKPlusPlus]));
  let compared = 0;
  let within = 0;
  let oneSided = 0;
  let largest = 0;
  run.config.itemIds.forEach((id, i) => {
    const a = here.get(id) ?? null;
    const b = shared.minKPlusPlus[i] ?? null;
    if (a === null && b === null) return;
    if (a === null || b === null) {
      oneSided++;
      return;
    }
    compared++;
    const d = Math.abs(a - b);
    largest = Math.max(largest, d);
    if (d <= LINK_SUMMARY_TOLERANCE) within++;
  });
  return { compared, within, oneSided, largest };
}

/** One task file's file-order test, as the link states it and as the reproduction found it. */
export interface FileOrderAgreement {
  task: string;
  link: { statistic: number | null; pValue: number | null };
  here: { statistic: number | null; pValue: number | null } | null;
  /**
   * Both sides reach the same conclusion at the 5% level (raw p, one-sided), or both have no p; null
   * while either side has no result. Not the same t: a shard's log-likelihood moves with the backend's
   * round-off, so t moves a little too, and a conclusion is what a reader takes from the link.
   */
  matched: boolean | null;
}

/** Each of the link's task files' exchangeability result against the reproduction's, in the link's order. */
export function fileOrderAgreement(shared: SharedProbeRun, run: ProbeRunRecord, results: readonly ProbeResult[]): FileOrderAgreement[] {
  const here = new Map(probeRunSummary(run, results).exchangeability.map((f) => [f.task, f.result]));
  return (shared.files ?? []).map((file) => {
    const r = here.get(file.task) ?? null;
    const link = { statistic: file.statistic, pValue: file.pValue };
    if (!r || file.meanDifference === null) return { task: file.task, link, here: r ? { statistic: r.statistic, pValue: r.pValue } : null, matched: null };
    const significant = (p: number | null) => (p === null ? null : p < 0.05);
    return { task: file.task, link, here: { statistic: r.statistic, pValue: r.pValue }, matched: significant(r.pValue) === significant(file.pValue) };
  });
}
