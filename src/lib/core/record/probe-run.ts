// A memorization run (issue 26): has the model seen the test? Per item, the per-position statistics of
// its text (Min-K% Prob and Min-K%++ are computed from them when shown, core/metrics/memorization);
// per task file, optionally, the exchangeability test's shards (the file's order against shuffles).
// Kept apart from scoring runs (run.ts): it scores no answer, so accuracy, Compare's McNemar, share
// links of letters and the harness formats do not apply to it. Stored in its own IndexedDB stores.
import type { DatasetId } from '../benchmarks/types.ts';
import type { ExchangeabilityDesign } from '../metrics/memorization/exchangeability-plan.ts';
import type { Notice } from '../notices/index.ts';
import type { RunContextLimit, RunEnvironment, RunModel, RunOrigin, RunStatus, StoredNotice } from './run.ts';
import type { ModelCheck } from '../models/model-check.ts';

/** One task file's exchangeability test, fixed when the run is created. */
export interface ProbeFileDesign {
  task: string;
  /** The task's items in the run, in file order: the design's itemCount. */
  itemIds: string[];
  design: ExchangeabilityDesign;
}

/** Fixed when the run is created; a resumed run uses exactly this. */
export interface ProbeRunConfig {
  kind: 'memorization';
  model: RunModel;
  /** How an item becomes a text (probe-text.ts): its version and the sha256 of its description. */
  layoutVersion: number;
  templateHash: string;
  datasetId: DatasetId;
  datasetFiles: { path: string; sha256: string }[];
  tasks: string[];
  limitPerTask: number | null;
  /** The items in the order they are run (file order within each task). */
  itemIds: string[];
  /** Min-K% and Min-K%++'s k (the share of a text's least likely tokens averaged). */
  k: number;
  /** The most tokens a text may have (the user's, or the default); what was applied is ProbeRunRecord.contextLimit. */
  contextLimit: number;
  /** One test per task file, or null when the run does not test the files' order. */
  exchangeability: ProbeFileDesign[] | null;
  appVersion: string;
}

export interface ProbeRunRecord {
  id: string;
  createdAt: string;
  updatedAt: string;
  datasetId: DatasetId;
  status: RunStatus;
  config: ProbeRunConfig;
  environment?: RunEnvironment;
  contextLimit?: RunContextLimit;
  warnings: StoredNotice[];
  error?: StoredNotice;
  /** Set on a run imported from a file. */
  origin?: Pick<RunOrigin, 'kind' | 'fileName' | 'importedAt' | 'originalRunId'>;
  modelCheck?: ModelCheck;
  /** The user's own short name for the run (run-label.ts: RUN_LABEL_MAX characters at most); absent when none was given. */
  label?: string;
}

/** One item's text, scored position by position: position j is the text's token j + 1 (its first token is not predicted). */
export interface ProbeItemResult {
  kind: 'item';
  runId: string;
  itemId: string;
  task: string;
  /** Position in config.itemIds. */
  index: number;
  text: string;
  textHash: string;
  tokenCount: number;
  /** log p of each token where the model predicted it, μ and σ of log p there (nats). Empty when failed. */
  logprob: number[];
  mean: number[];
  std: number[];
  forwardMs: number;
  completedAt: string;
  /** The text is longer than the context limit, or the model threw on it: no statistics. */
  failure?: Notice;
}

/** One shard of one task file's exchangeability test: the summed log-likelihood of its items in file order and in each permuted order. */
export interface ProbeShardResult {
  kind: 'shard';
  runId: string;
  /** `#shard/<task>/<shard>`: never an item id (those have no `#`). */
  itemId: string;
  task: string;
  shard: number;
  /** Index of this shard among every shard of the run, in config order (the run's progress). */
  index: number;
  canonical: number;
  permuted: number[];
  /** Tokens of the shard's text (every order has the same tokens, in another order). */
  tokenCount: number;
  forwardMs: number;
  completedAt: string;
}

export type ProbeResult = ProbeItemResult | ProbeShardResult;

/** The results key of a shard. */
export function shardKey(task: string, shard: number): string {
  return `#shard/${task}/${shard}`;
}
