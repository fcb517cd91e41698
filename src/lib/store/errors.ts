// One error class per way the store can fail, each message saying what happened and what to do.
import type { DatasetId, Item } from '../core/benchmarks/types.ts';
import { formatBytes, type DatasetSize } from './sizes.ts';

/** Who is asking for a dataset that is not stored (never imported, or deleted in another tab). */
export class DatasetNotFoundError extends Error {
  override readonly name = 'DatasetNotFoundError';
  readonly datasetId: DatasetId;

  /** @param datasetId The dataset that was asked for. */
  constructor(datasetId: DatasetId) {
    super(`Dataset ${datasetId} is not stored in this browser. Download or import it first.`);
    this.datasetId = datasetId;
  }
}

/** A dataset handed to saveDataset is inconsistent; raised before anything is written. */
export class DatasetValidationError extends Error {
  override readonly name = 'DatasetValidationError';
  readonly datasetId: DatasetId;
  readonly problems: readonly string[];

  /**
   * @param datasetId The record's id.
   * @param problems One line per problem, each naming the item and where it came from.
   */
  constructor(datasetId: DatasetId, problems: readonly string[]) {
    const shown = problems.slice(0, 5).join('; ');
    const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
    super(`Dataset ${datasetId} was not saved: ${shown}${more}. Nothing was written.`);
    this.datasetId = datasetId;
    this.problems = problems;
  }
}

/** Names an item by id and source location, for messages. */
export function describeItem(item: Item): string {
  return `item ${item.id} (${item.source.file}, line ${item.source.line})`;
}

function describeCause(cause: unknown): string {
  if (cause instanceof Error || cause instanceof DOMException) return `${cause.name}: ${cause.message}`;
  return String(cause);
}

/** A save failed for a reason other than quota; the transaction was aborted, nothing changed. */
export class DatasetSaveError extends Error {
  override readonly name = 'DatasetSaveError';
  readonly datasetId: DatasetId;
  /** The item whose write failed, when the failure can be tied to one. */
  readonly itemId: string | undefined;

  /**
   * @param datasetId The dataset being saved.
   * @param item The item whose write failed, if known.
   * @param cause What IndexedDB threw or aborted with.
   */
  constructor(datasetId: DatasetId, item: Item | undefined, cause: unknown) {
    const where = item ? `${describeItem(item)} could not be stored` : 'the write was aborted';
    const hint =
      cause instanceof Error && cause.name === 'DataCloneError'
        ? ' (it holds a value that cannot be stored, such as a function)'
        : '';
    super(`Dataset ${datasetId} was not saved: ${where}${hint}: ${describeCause(cause)}. The stored data is unchanged.`, { cause });
    this.datasetId = datasetId;
    this.itemId = item?.id;
  }
}

/** Options of a StorageFullError. */
export interface StorageFullDetails {
  datasetId: DatasetId;
  title: string;
  /** Approximate bytes the failed save tried to write. */
  neededBytes: number;
  /** Stored datasets, biggest first, read after the failed transaction. */
  suggestions: readonly DatasetSize[];
  cause: unknown;
}

/** The browser refused a save for lack of space; nothing was written. */
export class StorageFullError extends Error {
  override readonly name = 'StorageFullError';
  readonly datasetId: DatasetId;
  readonly neededBytes: number;
  readonly suggestions: readonly DatasetSize[];

  /** @param details What was being saved, how big it was, and what could be deleted. */
  constructor(details: StorageFullDetails) {
    const { datasetId, title, neededBytes, suggestions } = details;
    const toDelete = suggestions.length
      ? `Delete a stored dataset to make room: ${suggestions
          .map((s) => `${s.title} (${s.id}, about ${formatBytes(s.approxBytes)}${s.id === datasetId ? ', an older import of this one' : ''})`)
          .join(', ')}.`
      : 'No datasets are stored to delete: free space in the browser (other sites’ data) or use a profile with more room.';
    super(
      `Not enough browser storage to save ${title} (${datasetId}): it needs about ${formatBytes(neededBytes)} ` +
        `(approximate: its JSON size as UTF-16). ${toDelete} Nothing was saved; the stored data is unchanged.`,
      { cause: details.cause },
    );
    this.datasetId = datasetId;
    this.neededBytes = neededBytes;
    this.suggestions = suggestions;
  }
}

/**
 * Whether an error means the origin's storage quota is exhausted. Called on every error a save
 * sees: a put's request error, the transaction's error, or a synchronous throw.
 *
 * @param error Anything caught or read from `transaction.error`.
 */
export function isQuotaError(error: unknown): boolean {
  if (typeof error !== 'object' || error === null || !('name' in error)) return false;
  // NS_ERROR_DOM_QUOTA_REACHED: older Firefox.
  return error.name === 'QuotaExceededError' || error.name === 'NS_ERROR_DOM_QUOTA_REACHED';
}
