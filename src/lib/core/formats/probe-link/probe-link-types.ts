// What a memorization run's link holds once decoded and checked (probe-link.ts reads it, probe-link-check.ts
// checks that its fields hold together).
import type { DatasetId } from '../../benchmarks/types.ts';
import type { ExchangeabilityDesign } from '../../metrics/memorization/index.ts';
import type { RunModel } from '../../record/run.ts';
import type { SharedEnvironment } from '../share-link/share-types.ts';

export interface SharedProbeFile {
  task: string;
  design: ExchangeabilityDesign;
  /** Null until the sender's run had every shard of the file. */
  statistic: number | null;
  pValue: number | null;
  meanDifference: number | null;
}

export interface SharedProbeRun {
  /** PROBE_LINK_VERSION (probe-link.ts). */
  version: 1;
  datasetId: DatasetId;
  createdAt: string;
  environment: SharedEnvironment | null;
  config: {
    model: RunModel;
    layoutVersion: number;
    templateHash: string;
    tasks: string[];
    limitPerTask: number | null;
    itemCount: number;
    itemIdsHash: string;
    datasetFiles: { path: string; sha256: string }[];
    k: number;
    contextLimit: number;
    appVersion: string;
  };
  files: SharedProbeFile[] | null;
  /** Per item in run order (config.itemCount of them): its Min-K%++ rounded, null where it had none (not run, failed, too short). */
  minKPlusPlus: (number | null)[];
}
