// A shared multiple-choice link, item by item: the link carries only the configuration and one letter
// per item, so its questions come from this browser's copy of the dataset. The copy must be the exact
// files the link was made on (sha256), and the configuration must select the exact items (id hash);
// otherwise nothing is shown as the link's, because the letters would sit beside the wrong questions.
import type { MultipleChoiceItem, OptionLetter } from '../core/benchmarks/types.ts';
import { getDataset as catalogDataset } from '../core/benchmarks/catalog.ts';
import { itemIdsHash, type SharedMcRun } from '../core/record/share-link.ts';
import { fetchCatalogFiles, storeDataset, type FetchProgress } from '../data/import-dataset.ts';
import { getDataset, loadItems } from '../store/datasets.ts';
import type { JianguDatabase } from '../store/schema.ts';
import { checkSharedData, filesDifference } from './reproduce.ts';
import { chooseItems } from './run-setup.ts';

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
}

/**
 * Makes sure this browser holds the link's data: nothing to do when the same files are stored; a
 * catalog dataset that is not stored is downloaded (when the catalog's pins are the link's hashes;
 * each file is checked against its pin) and stored. A stored copy that differs is never replaced: the
 * user decides on the Data page. Returns whether it downloaded.
 */
export async function ensureSharedData(
  db: JianguDatabase,
  shared: SharedMcRun,
  options: { mirror?: string | null; signal?: AbortSignal; onProgress?: (p: FetchProgress) => void } = {},
): Promise<boolean> {
  if (await getDataset(db, shared.datasetId)) {
    await checkSharedData(db, shared);
    return false;
  }
  const entry = catalogDataset(shared.datasetId);
  if (entry.files.length === 0) {
    throw new Error(`${entry.title} has no public files: import the same file the link was made on (on the Data page), then open the link again.`);
  }
  // Every download is checked against the catalog's pin, so pins equal to the link's hashes mean the
  // downloaded files will be the link's: refuse before downloading anything otherwise.
  const difference = filesDifference(entry.files, shared.config.datasetFiles);
  if (difference) throw new Error(`The link was made on other ${entry.title} files than the catalog's pinned ones (${difference}); nothing was downloaded.`);
  const files = await fetchCatalogFiles(shared.datasetId, options);
  await storeDataset(db, shared.datasetId, files, { origin: 'catalog' });
  return true;
}

/** The shared run's items with their shared letters, in run order. Needs the link's data stored (see ensureSharedData). */
export async function resolveSharedItems(db: JianguDatabase, shared: SharedMcRun): Promise<SharedItemRow[]> {
  await checkSharedData(db, shared);
  const c = shared.config;
  const ids = await chooseItems(db, { datasetId: shared.datasetId, tasks: c.tasks, limitPerTask: c.limitPerTask }, 'multiple-choice', 'test');
  if (ids.length !== c.itemCount || (await itemIdsHash(ids)) !== c.itemIdsHash) {
    throw new Error(`This browser's ${shared.datasetId} selects other items for the link's tasks than the sharer's did, so its letters cannot be matched to questions.`);
  }
  const items = new Map((await loadItems(db, shared.datasetId)).map((item) => [item.id, item]));
  const unscored = new Set(shared.unscored);
  return shared.predictions.map((prediction, index) => {
    const item = items.get(ids[index]);
    if (!item || item.kind !== 'multiple-choice') throw new Error(`Item ${ids[index]} of the link is not a multiple-choice item here.`);
    const scored = !unscored.has(index);
    const gold = item.answer;
    return { index, item, prediction, scored, gold, correct: scored && gold !== null ? prediction === gold : null };
  });
}
