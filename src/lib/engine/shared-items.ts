// A shared multiple-choice link, item by item: the link carries only the configuration and one letter
// per item, so its questions come from this browser's copy of the dataset. The copy must be the exact
// files the link was made on (sha256), and the configuration must select the exact items (id hash);
// otherwise nothing is shown as the link's, because the letters would sit beside the wrong questions.
// A circular run's link carries every rotation's letter too: each is scored here against the local
// item rotated as the sharer's page asked it (rotateItem), so the circular metrics run on a link as
// on a stored run. PriDe's estimation set is drawn again from the link's seed and checked by hash.
// A sampled run's link (issue 36) carries its sample's seed, draw and order: its items are drawn again
// here from the same tasks and checked by the same hash.
import type { Item, MultipleChoiceItem, OptionLetter } from '../core/benchmarks/types.ts';
import { drawEstimationSet } from '../core/protocols/estimation-set.ts';
import { OPTION_LETTERS } from '../core/protocols/multiple-choice.ts';
import { rotatedLetter, rotationCount } from '../core/protocols/rotation.ts';
import type { McItemResult, McRotationResult, McRunRecord } from '../core/record/run.ts';
import { getDataset as catalogDataset } from '../core/benchmarks/catalog.ts';
import { itemIdsHash, type SharedMcRun, type SharedRun } from '../core/formats/share-link/share-link.ts';
import { jianguError, notice } from '../core/notices/index.ts';
import { assertHostAllowed } from '../data/settings.ts';
import { fetchCatalogFiles, storeDataset, type FetchProgress } from '../data/import-dataset.ts';
import { getDataset, loadItems, loadTaskItems } from '../store/datasets.ts';
import type { TaskItems } from '../core/protocols/run-sampling.ts';
import { populationMismatch, rebuiltItemIds } from '../core/protocols/sample-check.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { checkSharedData, filesDifference } from './reproduce.ts';

/** One item of a shared run: its question from the local copy and the letter the link carries. */
export interface SharedItemRow {
  /** Position in the shared run. */
  index: number;
  item: MultipleChoiceItem;
  /** null: the sharer's model named no letter, or the item had no result yet (`scored` false). */
  prediction: OptionLetter | null;
  /** false for items the link lists as having no result yet. */
  scored: boolean;
  gold: OptionLetter | null;
  /** null when the item has no answer key or no result. */
  correct: boolean | null;
  /** The rotations the link carries for this item (1 … c, in order), scored against the local item rotated; [] for none. */
  rotations: SharedRotationRow[];
  /** Whether the item is in the run's PriDe estimation set (false when the run has none). */
  estimation: boolean;
}

/** One rotation of a shared item: letters are positions in that rotation's order (see rotation.ts). */
export interface SharedRotationRow {
  rotation: number;
  prediction: OptionLetter | null;
  /** The item's answer moved with its option (rotatedLetter). */
  gold: OptionLetter | null;
  correct: boolean | null;
  /** The rotation failed where the run was made (the link does not say why). */
  failed: boolean;
}

/**
 * Makes sure this browser holds the link's data: nothing to do when the same files are stored; a
 * catalog dataset that is not stored is downloaded (when the catalog's pins are the link's hashes;
 * each file is checked against its pin) and stored. A stored copy that differs is never replaced: the
 * user decides on the Data page. Returns whether it downloaded. `mirror` must pass the host rule
 * (src/lib/data/hosts.ts): pass currentMirror(), which holds only trusted mirrors.
 */
export async function ensureSharedData(
  db: JianguDatabase,
  shared: SharedRun,
  options: { mirror?: string | null; signal?: AbortSignal; onProgress?: (p: FetchProgress) => void } = {},
): Promise<boolean> {
  if (await getDataset(db, shared.datasetId)) {
    await checkSharedData(db, shared);
    return false;
  }
  const entry = catalogDataset(shared.datasetId);
  if (entry.files.length === 0) {
    throw jianguError('link.no-public-files', { title: entry.title });
  }
  // Every download is checked against the catalog's pin, so pins equal to the link's hashes mean the
  // downloaded files will be the link's: refuse before downloading anything otherwise.
  const difference = filesDifference(entry.files, shared.config.datasetFiles);
  if (difference) throw jianguError('link.not-catalog-files', { title: entry.title, difference });
  if (options.mirror) assertHostAllowed(options.mirror, 'data');
  // Say a download has begun before the first file answers (a slow mirror would otherwise look idle).
  options.onProgress?.({ file: entry.files[0].path, filesDone: 0, filesTotal: entry.files.length, loaded: 0, total: null });
  const files = await fetchCatalogFiles(shared.datasetId, options);
  await storeDataset(db, shared.datasetId, files, { origin: 'catalog' });
  return true;
}

/** The shared run's items with their shared letters, in run order. Needs the link's data stored (see ensureSharedData). */
export async function resolveSharedItems(db: JianguDatabase, shared: SharedMcRun): Promise<SharedItemRow[]> {
  await checkSharedData(db, shared);
  const ids = await sharedItemIds(db, shared);
  const estimation = await sharedEstimationIds(shared, ids);
  const items = new Map((await loadItems(db, shared.datasetId)).map((item) => [item.id, item]));
  return sharedRows(shared, ids, items, estimation);
}

/**
 * The link's item ids in run order, rebuilt from this browser's copy of its tasks (each in file
 * order): its sample drawn and ordered again by its seed (run-sampling.ts sampleRun), or, for a link
 * from before samples were recorded, the first limitPerTask of each task, task by task. Checked
 * against the link's count and hash: letters are never put beside other questions than the sharer's.
 */
export async function sharedItemIds(db: JianguDatabase, shared: SharedRun): Promise<string[]> {
  const c = shared.config;
  const population: TaskItems[] = [];
  for (const task of c.tasks) {
    const items = await loadTaskItems(db, shared.datasetId, task, 'test');
    population.push({ task, itemIds: items.filter((item) => item.kind === shared.kind).map((item) => item.id) });
  }
  const refuse = () =>
    c.sampling ? jianguError('link.other-sample', { dataset: shared.datasetId, draw: c.sampling.draw, seed: c.sampling.seed }) : jianguError('link.other-selection', { dataset: shared.datasetId });
  if (c.sampling && populationMismatch(population, c.sampling)) throw refuse();
  const ids = rebuiltItemIds(population, c);
  if (ids.length !== c.itemCount || (await itemIdsHash(ids)) !== c.itemIdsHash) throw refuse();
  return ids;
}

/**
 * PriDe's estimation set drawn again from the link's share and seed over the rebuilt item ids, and
 * checked against the link's count and hash; [] when the run has none.
 */
export async function sharedEstimationIds(shared: SharedMcRun, ids: readonly string[]): Promise<string[]> {
  const pride = shared.config.pride;
  if (!pride) return [];
  const drawn = drawEstimationSet(ids, pride.share, pride.seed);
  if (drawn.length !== pride.estimationCount || (await itemIdsHash(drawn)) !== pride.estimationIdsHash) {
    throw jianguError('link.other-estimation-set', { share: pride.share, seed: pride.seed, count: pride.estimationCount, drawn: drawn.length });
  }
  return drawn;
}

/**
 * The rows of a shared run over the rebuilt item ids (`ids`, checked by hash) and the local items:
 * each carried rotation is checked against the item's options (an item of n options has n − 1
 * rotations beyond its own order) and scored against the item rotated.
 */
export function sharedRows(shared: SharedMcRun, ids: readonly string[], items: ReadonlyMap<string, Item>, estimationIds: readonly string[] = []): SharedItemRow[] {
  const unscored = new Set(shared.unscored);
  const estimation = new Set(estimationIds);
  return shared.predictions.map((prediction, index) => {
    const mc = items.get(ids[index]);
    if (!mc || mc.kind !== 'multiple-choice') throw jianguError('link.item-not-mc', { itemId: ids[index] });
    const scored = !unscored.has(index);
    const gold = mc.answer;
    const n = mc.options.length;
    const carried = shared.rotations?.[index] ?? [];
    if (carried.length > rotationCount(n) - 1) throw jianguError('link.rotations-too-many', { itemId: mc.id, carried: carried.length, options: n });
    const rotations = carried.map((r, j): SharedRotationRow => {
      const k = j + 1;
      const moved = rotatedLetter(gold, k, n);
      if (r.prediction !== null && OPTION_LETTERS.indexOf(r.prediction) >= n) throw jianguError('link.rotation-letter', { itemId: mc.id, rotation: k, letter: r.prediction, options: n });
      return { rotation: k, prediction: r.prediction, gold: moved, correct: r.failed || moved === null ? null : r.prediction === moved, failed: r.failed };
    });
    return { index, item: mc, prediction, scored, gold, correct: scored && gold !== null ? prediction === gold : null, rotations, estimation: estimation.has(mc.id) };
  });
}

/**
 * The shared rows as results the metrics read (letterBias, circularSummary, allRotationsCorrect):
 * letters, prediction, gold and correct of each order. A link carries no log-probabilities, so these
 * results have none (PriDe's debiased accuracy needs them: it comes with the run file).
 */
export function sharedResults(rows: readonly SharedItemRow[]): McItemResult[] {
  return rows
    .filter((row) => row.scored)
    .map((row) => {
      const letters = OPTION_LETTERS.slice(0, row.item.options.length);
      const base = { promptHash: '', tokenCount: 0, letters, tokenIds: [], logProbs: [], probs: [], reusedPrefixTokens: 0, forwardMs: 0, completedAt: '' };
      const rotations = row.rotations.map(
        (r): McRotationResult => ({ ...base, rotation: r.rotation, prediction: r.prediction, gold: r.gold, correct: r.correct, ...(r.failed ? { failure: notice('link.shared-failed') } : {}) }),
      );
      return {
        ...base,
        runId: 'shared',
        itemId: row.item.id,
        task: row.item.task,
        index: row.index,
        prompt: '',
        shotsUsed: 0,
        exemplarIds: [],
        prediction: row.prediction,
        gold: row.gold,
        correct: row.correct,
        ...(rotations.length ? { rotations } : {}),
      };
    });
}

/**
 * The shared run as a run record over the rebuilt item ids, for the views that read one (the run
 * page's Robustness part). Without PriDe: a link carries no log-probabilities to debias with.
 */
export function sharedRunRecord(shared: SharedMcRun, rows: readonly SharedItemRow[]): McRunRecord {
  const { itemCount: _count, itemIdsHash: _hash, pride: _pride, ...config } = shared.config;
  return {
    id: 'shared',
    createdAt: shared.createdAt,
    updatedAt: shared.createdAt,
    datasetId: shared.datasetId,
    status: 'completed',
    config: { ...config, itemIds: rows.map((row) => row.item.id) },
    warnings: [],
  };
}
