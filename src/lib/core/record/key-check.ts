// An imported run is someone's claim, its answer key included: a file can say every prediction was
// right by writing the predictions into `gold`. When this browser holds the benchmark, the key that
// counts is the local one. checkAgainstLocalKey compares the file's key with it item by item and
// rescores the results with the local key, so every number the page shows (table, charts, Compare,
// classroom, a share link made from the import) comes from this browser's answers; what the file
// said is kept in the check, so nothing it claimed is lost. A result for an item the local copy does
// not have (an id the benchmark never had, or of the other kind) is set apart: it is not stored with
// the run, so it enters no number; the check counts it and keeps its first ids (issue 23: a file with
// 110,000 results for a 500-item task showed n = 110,000).
import type { Item, MultipleChoiceItem } from '../benchmarks/types.ts';
import { pythonLength, utf8Length } from '../protocols/encode-pair.ts';
import type { GenItemResult, ItemResult, KeyCheck, KeyDisagreement, McItemResult, RunOrigin, RunRecord } from './run.ts';

export type { KeyCheck, KeyDisagreement } from './run.ts';

/** What this browser holds of the run's benchmark: its items by id and its files' hashes. */
export interface LocalKey {
  items: ReadonlyMap<string, Item>;
  files: readonly { path: string; sha256: string | null }[];
}

/** How many set-apart ids a check keeps (enough to see what the file claimed; a file may hold 200,000). */
export const SET_APART_IDS_KEPT = 20;

const sameReferences = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((r, i) => r === b[i]);

function filesDiffer(run: RunRecord, local: LocalKey): boolean {
  const hashes = new Map(local.files.map((f) => [f.path, f.sha256]));
  return run.config.datasetFiles.length !== local.files.length || run.config.datasetFiles.some((f) => hashes.get(f.path) !== f.sha256);
}

/**
 * A multiple-choice result scored with the local gold; a result that was never scored (correct null
 * with a gold) stays unscored. A cloze result's character and byte counts (acc_norm, acc_bytes, bits
 * per byte divide by them) are the local options' own, whatever the file said.
 */
function rescoreMc(result: McItemResult, item: MultipleChoiceItem): McItemResult {
  const gold = item.answer;
  const unscored = result.correct === null && result.gold !== null;
  const rescored = { ...result, gold, correct: gold === null || unscored ? null : result.prediction === gold };
  if (result.cloze && item.options.length === result.cloze.logLikelihoods.length) {
    rescored.cloze = { ...result.cloze, charCounts: item.options.map(pythonLength), byteCounts: item.options.map(utf8Length) };
  }
  return rescored;
}

/**
 * Compares the run's answer key with `local` (null when the benchmark is not stored here) and returns
 * the results rescored with the local key, the check, and the run's origin carrying the check.
 * `fileOverall` is the overall score the file's own key gives (the caller scores it: the check needs
 * no metrics).
 */
export function checkAgainstLocalKey(
  run: RunRecord & { origin: RunOrigin },
  results: readonly ItemResult[],
  local: LocalKey | null,
  fileOverall: number | null,
  now: string = new Date().toISOString(),
): { results: ItemResult[]; origin: RunOrigin; check: KeyCheck } {
  if (!local) {
    const check: KeyCheck = { checkedAt: now, status: 'no-local-data', filesDiffer: false, compared: 0, missing: results.length, disagreements: [], fileOverall };
    return { results: [...results], origin: { ...run.origin, keyCheck: check }, check };
  }
  let compared = 0;
  let setApart = 0;
  const setApartIds: string[] = [];
  const disagreements: KeyDisagreement[] = [];
  const rescored: ItemResult[] = [];
  const putApart = (itemId: string) => {
    setApart++;
    if (setApartIds.length < SET_APART_IDS_KEPT) setApartIds.push(itemId);
  };
  for (const result of results) {
    const item = local.items.get(result.itemId);
    if ('gold' in result) {
      if (!item || item.kind !== 'multiple-choice') {
        putApart(result.itemId);
        continue;
      }
      compared++;
      if (item.answer !== result.gold) disagreements.push({ itemId: result.itemId, file: result.gold, local: item.answer });
      rescored.push(rescoreMc(result, item));
      continue;
    }
    const gen = result as GenItemResult;
    if (!item || item.kind !== 'generation') {
      putApart(gen.itemId);
      continue;
    }
    compared++;
    if (!sameReferences(gen.references, item.references)) disagreements.push({ itemId: gen.itemId, file: gen.references, local: item.references });
    rescored.push({ ...gen, references: [...item.references] });
  }
  const check: KeyCheck = {
    checkedAt: now,
    status: disagreements.length > 0 ? 'disagrees' : 'agrees',
    filesDiffer: filesDiffer(run, local),
    compared,
    missing: 0,
    setApart,
    setApartIds,
    disagreements,
    fileOverall,
  };
  // summaryMismatches keep comparing the file's summary with the file's own items (is the file
  // consistent?); the check says how the file's key compares with this browser's.
  return { results: rescored, origin: { ...run.origin, keyCheck: check }, check };
}
