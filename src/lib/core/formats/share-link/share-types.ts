// What a share link carries once decoded and checked, the one error its codec throws, and the
// limits a link must keep. A link is untrusted input: every field below has been type- and
// length-checked before a caller sees it, and strings are data, never markup.
import type { DatasetId, OptionLetter } from '../../benchmarks/types.ts';
import type { Backend } from '../../models/model-types.ts';
import type { GenRunConfig, McRunConfig } from '../../record/run.ts';
import { JianguError, notice, type NoticeCode, type ParamArgs } from '../../notices/index.ts';

/** The only format version this build reads and writes (byte 0 of the inflated payload). */
export const SHARE_LINK_VERSION = 1;

/** The most a link may hold; each is named in the message when exceeded. */
export const SHARE_LIMITS = {
  /** base64url characters after `#/shared/`. */
  payloadChars: 64 * 1024,
  /** UTF-8 bytes of the JSON header once inflated. */
  headerBytes: 64 * 1024,
  /** Any string field (ids, paths, task keys, summary keys, …). */
  stringChars: 500,
  /** Prediction slots (one per item, in config.itemIds order). */
  predictions: 100_000,
  /** tasks, datasetFiles, summary keys. */
  listEntries: 2_000,
} as const;

/** Thrown by the codec for anything wrong with a link (or a run that cannot be shared); never anything else. */
export class ShareLinkError extends JianguError {
  override readonly name = 'ShareLinkError';
}

/** `throw shareLinkError('link.field-invalid', { … })`: a ShareLinkError carrying a 'link.*' notice. */
export function shareLinkError<C extends NoticeCode>(code: C, ...params: ParamArgs<C>): ShareLinkError {
  return new ShareLinkError(notice(code, ...params));
}

/**
 * The run configuration a link carries: everything but the item ids, which it replaces by their
 * count and hash, and PriDe's estimation ids, replaced the same way (SharedPride).
 */
export type SharedMcConfig = Omit<McRunConfig, 'itemIds' | 'pride'> & SharedItems & { pride?: SharedPride };
export type SharedGenConfig = Omit<GenRunConfig, 'itemIds'> & SharedItems;

export interface SharedItems {
  itemCount: number;
  /** sha256 hex of config.itemIds joined with '\n' (see itemIdsHash): rebuild the ids from the dataset, tasks and limitPerTask, then compare. */
  itemIdsHash: string;
}

/**
 * PriDe's estimation set as a link carries it: the draw's share and seed rebuild the ids
 * (drawEstimationSet over the rebuilt item ids), and the count and hash check the rebuilt set.
 */
export interface SharedPride {
  share: number;
  seed: number;
  estimationCount: number;
  /** sha256 hex of the estimation ids joined with '\n', in run order (as itemIdsHash). */
  estimationIdsHash: string;
}

/**
 * One rotation (1 … n − 1, in order) of one item as a link carries it: the predicted letter, a
 * position in that rotation's order (see rotation.ts); null where no letter was extracted or the
 * rotation failed (`failed`). Whether it is right needs the item, which the link does not carry.
 */
export interface SharedRotation {
  prediction: OptionLetter | null;
  failed: boolean;
}

export interface SharedEnvironment {
  backend: Backend;
  /** The WebGPU adapter's architecture (e.g. `ampere`), null on WASM or when the browser hid it. */
  adapterArchitecture: string | null;
  /** Hub models: the commit the sharer's files came from, so a reproduction loads the same files. */
  modelCommit?: string;
}

interface SharedRunBase {
  version: typeof SHARE_LINK_VERSION;
  datasetId: DatasetId;
  createdAt: string;
  environment: SharedEnvironment | null;
  /** The summary numbers as the sharer's page computed them (accuracy, counts, …); null where undefined. */
  summary: Record<string, number | null>;
}

export interface SharedMcRun extends SharedRunBase {
  kind: 'multiple-choice';
  config: SharedMcConfig;
  /**
   * predictions[i] is the letter picked for config.itemIds[i]; null where a generated answer named
   * no letter, or where the item had no result yet (listed in `unscored`). Length ≤ itemCount: items
   * after the last one with a result are not carried.
   */
  predictions: (OptionLetter | null)[];
  /** Ascending indices into predictions that had no result when the link was made. */
  unscored: number[];
  /**
   * rotations[i]: item i's rotations 1 … c (c = 0 for an item asked in one order only, or whose
   * rotations were not yet run), length n. null when the run had none, or when they did not fit
   * (`rotationsOmitted`).
   */
  rotations: SharedRotation[][] | null;
  /** The run had rotations but they would have pushed the link over SHARE_LIMITS.payloadChars: the run file carries them. */
  rotationsOmitted: boolean;
}

export interface SharedGenRun extends SharedRunBase {
  kind: 'generation';
  config: SharedGenConfig;
  /** sha256 hex over all outputs in config.itemIds order (see outputsHash); the outputs themselves travel as the run file. */
  outputsHash: string;
  /** How many items had an output when the link was made. */
  outputCount: number;
}

export type SharedRun = SharedMcRun | SharedGenRun;
