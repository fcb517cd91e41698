// One error class per way the store can fail, each a notice (notices/catalog-data.ts, 'store.*')
// that says what happened and what to do, in the page's language; `.message` is the English sentence.
import type { DatasetId, Item } from '../core/benchmarks/types.ts';
import { JianguError } from '../core/notices/index.ts';
import type { DatasetSize } from './sizes.ts';

/** Who is asking for a dataset that is not stored (never imported, or deleted in another tab). */
export class DatasetNotFoundError extends JianguError {
  override readonly name = 'DatasetNotFoundError';
  readonly datasetId: DatasetId;

  /** @param datasetId The dataset that was asked for. */
  constructor(datasetId: DatasetId) {
    super({ code: 'store.dataset-not-stored', params: { dataset: datasetId } });
    this.datasetId = datasetId;
  }
}

/** One inconsistency between a dataset record and its items, found before anything is written. */
export type ValidationProblem =
  | { kind: 'foreign'; item: Item }
  | { kind: 'duplicate'; first: Item; second: Item };

/** A dataset handed to saveDataset is inconsistent; raised before anything is written. */
export class DatasetValidationError extends JianguError {
  override readonly name = 'DatasetValidationError';
  readonly datasetId: DatasetId;
  /** One English line per problem, each naming the item and where it came from. */
  readonly problems: readonly string[];

  /**
   * @param datasetId The record's id.
   * @param problems Every problem found, in item order.
   */
  constructor(datasetId: DatasetId, problems: readonly ValidationProblem[]) {
    // Each problem travels as a small JSON list, so the notice's parameters stay plain strings.
    const encoded = problems.map((p) =>
      JSON.stringify(
        p.kind === 'foreign'
          ? ['foreign', p.item.id, p.item.source.file, p.item.source.line, p.item.datasetId]
          : ['duplicate', p.second.id, p.first.source.file, p.first.source.line, p.second.source.file, p.second.source.line],
      ),
    );
    super({ code: 'store.dataset-invalid', params: { dataset: datasetId, problems: encoded } });
    this.datasetId = datasetId;
    this.problems = problems.map((p) =>
      p.kind === 'foreign'
        ? `${describeItem(p.item)} belongs to dataset ${p.item.datasetId}, not ${datasetId}`
        : `item id ${p.second.id} appears twice (${p.first.source.file} line ${p.first.source.line} and ${p.second.source.file} line ${p.second.source.line})`,
    );
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
export class DatasetSaveError extends JianguError {
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
    super(
      {
        code: 'store.save-failed',
        params: {
          dataset: datasetId,
          item: item?.id ?? null,
          itemFile: item?.source.file ?? null,
          itemLine: item?.source.line ?? null,
          clone: cause instanceof Error && cause.name === 'DataCloneError',
          cause: describeCause(cause),
        },
      },
      { cause },
    );
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
export class StorageFullError extends JianguError {
  override readonly name = 'StorageFullError';
  readonly datasetId: DatasetId;
  readonly neededBytes: number;
  readonly suggestions: readonly DatasetSize[];

  /** @param details What was being saved, how big it was, and what could be deleted. */
  constructor(details: StorageFullDetails) {
    const { datasetId, title, neededBytes, suggestions } = details;
    super(
      {
        code: 'store.full',
        params: {
          dataset: datasetId,
          title,
          needed: neededBytes,
          ids: suggestions.map((s) => s.id),
          titles: suggestions.map((s) => s.title),
          sizes: suggestions.map((s) => s.approxBytes),
        },
      },
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
