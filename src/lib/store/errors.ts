// One error class per way the store can fail, each a notice (notices/catalog-data.ts, 'store.*')
// that says what happened and what to do, in the page's language; `.message` is the English sentence.
import type { DatasetId, Item } from '../core/benchmarks/types.ts';
import { JianguError, type Notice } from '../core/notices/index.ts';
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

/** An error as a message's detail: its name and message (a DOMException's too). */
export function describeCause(cause: unknown): string {
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
 * Whether an error means the origin's storage quota is exhausted: the browser's own
 * (QuotaExceededError, which Chromium raises with an empty message when a transaction commits), or
 * an error of the site's that carries one as its cause (StorageFullError, a refused run import, a
 * store write said in words): every place that tells the user the storage is full asks this.
 * Called on every error a save sees: a put's request error, the transaction's error, or a
 * synchronous throw.
 *
 * @param error Anything caught or read from `transaction.error`.
 */
export function isQuotaError(error: unknown): boolean {
  // The cause chain is followed a few steps only: a cycle of causes must not hang the page.
  let current = error;
  for (let depth = 0; depth < 8 && typeof current === 'object' && current !== null; depth++) {
    // NS_ERROR_DOM_QUOTA_REACHED: older Firefox.
    if ('name' in current && (current.name === 'QuotaExceededError' || current.name === 'NS_ERROR_DOM_QUOTA_REACHED')) return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}

/**
 * Runs a write; when the browser refuses it for lack of space, throws `full` instead (a notice that
 * says what was not saved and what is still safe), the browser's error as its cause. Any other
 * failure passes through as it was.
 *
 * @param write The write, awaited whole (its transaction committed or aborted).
 * @param full What to say when the storage is full.
 */
export async function unlessStorageFull<T>(write: () => Promise<T>, full: Notice): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isQuotaError(error)) throw new JianguError(full, { cause: error });
    throw error;
  }
}
