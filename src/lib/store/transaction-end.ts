// Waits for a transaction to commit or abort, reporting the abort's reason.
//
// Why not just `await tx.done`: idb's done promise also rejects on the `error` event that a failed
// request bubbles to the transaction, and at that moment `tx.error` is still null (it is set when
// the abort that follows runs), so it rejects with a generic AbortError and the real cause (say a
// QuotaExceededError) is lost. Waiting for `complete`/`abort` sees the cause on `tx.error`.
import type { IDBPTransaction, StoreNames } from 'idb';
import type { JianguDb } from './schema.ts';

export type TransactionEnd = { committed: true } | { committed: false; error: DOMException | null };

/**
 * Resolves once the transaction commits or aborts; never rejects. Call it right after creating the
 * transaction, before issuing requests, so no event is missed.
 *
 * @param tx Any transaction on the Jiangu database.
 */
export function transactionEnd<Stores extends ArrayLike<StoreNames<JianguDb>>>(
  tx: IDBPTransaction<JianguDb, Stores, IDBTransactionMode>,
): Promise<TransactionEnd> {
  // The outcome is read from the events below; this only keeps idb's promise from going unhandled.
  tx.done.catch(() => undefined);
  return new Promise((resolve) => {
    tx.addEventListener('complete', () => resolve({ committed: true }), { once: true });
    tx.addEventListener('abort', () => resolve({ committed: false, error: tx.error }), { once: true });
  });
}

/**
 * Aborts a transaction that may already have ended. Called after a synchronous throw while
 * requests were being issued, so what was queued is rolled back.
 *
 * @param tx The transaction to abort.
 */
export function abortQuietly<Stores extends ArrayLike<StoreNames<JianguDb>>>(
  tx: IDBPTransaction<JianguDb, Stores, IDBTransactionMode>,
): void {
  try {
    tx.abort();
  } catch {
    // InvalidStateError: it already aborted (or finished), which is what we wanted.
  }
}

/**
 * Waits for a transaction of several writes to commit; when it aborts, throws its cause (say a
 * QuotaExceededError, which store/errors.ts unlessStorageFull words), not the AbortError each of its
 * other requests then rejects with. Call it as soon as the writes are issued.
 *
 * @param tx The transaction.
 * @param writes Its requests' promises (their own rejections are read from the transaction instead).
 */
export async function writesCommitted<Stores extends ArrayLike<StoreNames<JianguDb>>>(
  tx: IDBPTransaction<JianguDb, Stores, IDBTransactionMode>,
  writes: readonly Promise<unknown>[],
): Promise<void> {
  for (const w of writes) w.catch(() => undefined);
  const end = await transactionEnd(tx);
  if (!end.committed) throw end.error ?? new DOMException('The transaction was aborted.', 'AbortError');
}
