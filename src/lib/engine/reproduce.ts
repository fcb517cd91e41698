// "Reproduce" for a shared multiple-choice link: create the same run here (same model, protocol,
// shots, tasks and limits, on the same data files), check it covers the same items, and once it has
// run, say how far it agrees with the shared predictions.
import type { McItemResult, McRunRecord } from '../core/record/run.ts';
import { itemIdsHash, type SharedMcRun } from '../core/record/share-link.ts';
import { pairedAgreement } from '../core/metrics/mcnemar.ts';
import { getDataset } from '../store/datasets.ts';
import { deleteRun } from '../store/runs.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { createMcRun } from './run-setup.ts';

/** Refuses (with what to do) when this browser does not hold the exact files the link names. */
export async function checkSharedData(db: JianguDatabase, shared: SharedMcRun): Promise<void> {
  const stored = await getDataset(db, shared.datasetId);
  if (!stored) throw new Error(`Reproducing needs ${shared.datasetId}: download or import it on the Data page first.`);
  const have = new Map(stored.files.map((f) => [f.path, f.sha256]));
  const differ = shared.config.datasetFiles.filter((f) => have.get(f.path) !== f.sha256);
  if (differ.length > 0 || stored.files.length !== shared.config.datasetFiles.length) {
    throw new Error(
      `The stored ${shared.datasetId} is not the data the link was made on (${differ.length ? `${differ[0].path} differs` : 'the files differ'}): import the same files and try again.`,
    );
  }
}

/** A new run with the shared configuration, refused (and removed) unless it selects the same items. */
export async function createReproduction(db: JianguDatabase, shared: SharedMcRun): Promise<McRunRecord> {
  await checkSharedData(db, shared);
  const c = shared.config;
  // A hub revision like `main` moves: load the commit the sharer's files came from when the link names it.
  const commit = shared.environment?.modelCommit;
  const model = commit && c.model.source.kind === 'hub' ? { ...c.model, source: { ...c.model.source, revision: commit } } : c.model;
  const run = await createMcRun(db, {
    model,
    datasetId: shared.datasetId,
    tasks: c.tasks,
    shots: c.shots,
    limitPerTask: c.limitPerTask,
    chatTemplate: c.chatTemplate,
    contextLimit: c.contextLimit,
    scoring: c.scoring,
    maxNewTokens: c.maxNewTokens,
  });
  if ((await itemIdsHash(run.config.itemIds)) !== c.itemIdsHash) {
    await deleteRun(db, run.id);
    throw new Error('The same configuration selects different items here than in the shared run, so its results cannot be compared.');
  }
  return run;
}

export interface Agreement {
  compared: number;
  same: number;
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
  return { compared: ids.length, same: paired.same, differentIds: paired.differentIndices.map((i) => ids[i]) };
}
