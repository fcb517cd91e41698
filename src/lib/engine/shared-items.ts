// A shared multiple-choice link, item by item: the link carries only the configuration and one letter
// per item, so its questions come from this browser's copy of the dataset. The copy must be the exact
// files the link was made on (sha256), and the configuration must select the exact items (id hash);
// otherwise nothing is shown as the link's, because the letters would sit beside the wrong questions.
import type { MultipleChoiceItem, OptionLetter } from '../core/benchmarks/types.ts';
import { getDataset as catalogDataset } from '../core/benchmarks/catalog.ts';
import { itemIdsHash, type SharedMcRun, type SharedRun } from '../core/record/share-link.ts';
import { jianguError } from '../core/notices/index.ts';
import { assertHostAllowed } from '../data/settings.ts';
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
  if (options.mirror) assertHostAllowed(options.mirror);
  // Say a download has begun before the first file answers (a slow mirror would otherwise look idle).
  options.onProgress?.({ file: entry.files[0].path, filesDone: 0, filesTotal: entry.files.length, loaded: 0, total: null });
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
    throw jianguError('link.other-selection', { dataset: shared.datasetId });
  }
  const items = new Map((await loadItems(db, shared.datasetId)).map((item) => [item.id, item]));
  const unscored = new Set(shared.unscored);
  return shared.predictions.map((prediction, index) => {
    const item = items.get(ids[index]);
    if (!item || item.kind !== 'multiple-choice') throw jianguError('link.item-not-mc', { itemId: ids[index] });
    const scored = !unscored.has(index);
    const gold = item.answer;
    return { index, item, prediction, scored, gold, correct: scored && gold !== null ? prediction === gold : null };
  });
}
