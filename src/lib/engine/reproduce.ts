// "Reproduce" for a shared link: create the same run here (same model, protocol, shots or decoding,
// tasks and limits, the same sample drawn by the same seed in the same order, on the same data
// files), check it covers the same items in the same order, and once it has run,
// say how far it agrees: item by item for multiple choice (the link carries every letter), and as
// one hash over all outputs for generation (the outputs themselves travel in the run file).
import type { GenItemResult, GenRunRecord, McItemResult, McRunRecord, RunRecord, RunModel } from '../core/record/run.ts';
import { itemIdsHash, outputsHash, type SharedGenRun, type SharedMcRun, type SharedRun } from '../core/formats/share-link/share-link.ts';
import { pairedAgreement } from '../core/metrics/mcnemar.ts';
import { getDataset } from '../store/datasets.ts';
import { deleteRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { jianguError } from '../core/notices/index.ts';
import { createGenRun, createMcRun, samplingRequestOf } from './run-setup.ts';

/** How a set of files differs from the link's (`<path> differs`, `the file lists differ`), or null when they are the same. */
export function filesDifference(have: readonly { path: string; sha256: string | null }[], linked: readonly { path: string; sha256: string }[]): string | null {
  const hashes = new Map(have.map((f) => [f.path, f.sha256]));
  const differ = linked.find((f) => hashes.get(f.path) !== f.sha256);
  if (differ) return `${differ.path} differs`;
  return have.length === linked.length ? null : 'the file lists differ';
}

/** Refuses (with what to do) when this browser does not hold the exact files the link names. */
export async function checkSharedData(db: JianguDatabase, shared: Pick<SharedRun, 'datasetId'> & { config: Pick<SharedRun['config'], 'datasetFiles'> }): Promise<void> {
  const stored = await getDataset(db, shared.datasetId);
  if (!stored) throw jianguError('link.data-missing', { dataset: shared.datasetId });
  const difference = filesDifference(stored.files, shared.config.datasetFiles);
  if (difference) throw jianguError('link.data-differs', { dataset: shared.datasetId, difference });
}

/**
 * Where the reproduction loads the model from: the link's own model host (only once the user agreed
 * to it: the model client refuses it otherwise), or the hub in its place.
 */
export type ModelHostChoice = 'link' | 'hub';

/**
 * The sharer's model; a hub revision like `main` moves, so the commit their files came from when the
 * link names it. With `hub`, a host the link names is dropped: the same id and revision from the hub.
 */
function sharedModel(shared: SharedRun, modelHost: ModelHostChoice): RunModel {
  const commit = shared.environment?.modelCommit;
  const model = shared.config.model;
  if (model.source.kind !== 'hub') return model;
  const { host, ...rest } = model.source;
  const source = { ...rest, ...(commit ? { revision: commit } : {}), ...(host && modelHost === 'link' ? { host } : {}) };
  return { ...model, source };
}

/** A new run with the shared configuration, refused (and removed) unless it selects the same items. */
export interface ReproductionOptions {
  /** Default `link`: the model host the link names, if any (refused at load unless agreed to). */
  modelHost?: ModelHostChoice;
}
export async function createReproduction(db: JianguDatabase, shared: SharedMcRun, options?: ReproductionOptions): Promise<McRunRecord>;
export async function createReproduction(db: JianguDatabase, shared: SharedGenRun, options?: ReproductionOptions): Promise<GenRunRecord>;
export async function createReproduction(db: JianguDatabase, shared: SharedRun, options?: ReproductionOptions): Promise<RunRecord>;
export async function createReproduction(db: JianguDatabase, shared: SharedRun, options: ReproductionOptions = {}): Promise<RunRecord> {
  await checkSharedData(db, shared);
  const base = {
    model: sharedModel(shared, options.modelHost ?? 'link'),
    datasetId: shared.datasetId,
    tasks: shared.config.tasks,
    limitPerTask: shared.config.limitPerTask,
    chatTemplate: shared.config.chatTemplate,
    // The same sample in the same order: the link's draw and seed (and its order and blocks, so a
    // link made with other blocks, or before samples were recorded, rebuilds its own order).
    sampling: samplingRequestOf(shared.config.sampling),
  };
  const run =
    shared.kind === 'multiple-choice'
      ? await createMcRun(db, {
          ...base,
          shots: shared.config.shots,
          contextLimit: shared.config.contextLimit,
          // A cloze link reproduces as a cloze run: its predictions are the acc rule's letters.
          scoring: shared.config.scoring,
          maxNewTokens: shared.config.maxNewTokens,
          // The same rotations: circular as shared, PriDe with the same share and seed, so the same
          // estimation set is drawn from the same items (checked below through their hash).
          ...(shared.config.circular ? { circular: true } : {}),
          ...(shared.config.pride ? { pride: { share: shared.config.pride.share, seed: shared.config.pride.seed } } : {}),
        })
      : await createGenRun(db, { ...base, maxNewTokens: shared.config.maxNewTokens, decoding: shared.config.decoding });
  if ((await itemIdsHash(run.config.itemIds)) !== shared.config.itemIdsHash) {
    await deleteRun(db, run.id);
    throw jianguError('link.other-items');
  }
  return run;
}

export interface OutputAgreement {
  /** Outputs produced here. */
  compared: number;
  /** Whether the hash over all outputs equals the link's: every output identical, character for character. */
  identical: boolean;
}

/** A generation reproduction against the link: equal output hashes mean every output is the same. */
export async function outputAgreementWith(shared: SharedGenRun, run: GenRunRecord, results: readonly GenItemResult[]): Promise<OutputAgreement> {
  return { compared: results.length, identical: (await outputsHash(run.config.itemIds, results)) === shared.outputsHash };
}

export interface Agreement {
  compared: number;
  same: number;
  /** same / compared, percent; null when nothing was compared. */
  percentSame: number | null;
  /** Item ids whose predictions differ, in run order. */
  differentIds: string[];
}

/** Compares the reproduction's predictions with the link's, item by item (items without a shared result are left out). */
export function agreementWith(shared: SharedMcRun, run: McRunRecord, results: readonly McItemResult[]): Agreement {
  const byId = new Map(results.map((r) => [r.itemId, r.prediction]));
  const unscored = new Set(shared.unscored);
  const indices = shared.predictions.map((_, i) => i).filter((i) => !unscored.has(i));
  const ids = indices.map((i) => run.config.itemIds[i]);
  const paired = pairedAgreement(
    indices.map((i) => shared.predictions[i]),
    ids.map((id) => byId.get(id) ?? null),
  );
  return { compared: ids.length, same: paired.same, percentSame: paired.percentSame, differentIds: paired.differentIndices.map((i) => ids[i]) };
}
