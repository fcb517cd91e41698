// A browser whose storage is full, on fake-indexeddb: as Chromium does it when the quota is reached,
// the write itself succeeds and its transaction then aborts with a QuotaExceededError whose message
// is empty (measured in test/browser/storage-full.test.ts). Reaches into fake-indexeddb 6's
// `transaction._abort`, since the public API cannot make a commit fail (as store/atomic.test.ts).
import { vi } from 'vitest';

type Aborting = IDBTransaction & { _abort(errorName: string | null): void };

/**
 * From now on (until vi.restoreAllMocks), a put or add is refused for lack of room when `refuse`
 * says so, asked once per write with the object store's name.
 */
export function fillStorage(refuse: (store: string) => boolean): void {
  for (const method of ['put', 'add'] as const) {
    const original = IDBObjectStore.prototype[method];
    vi.spyOn(IDBObjectStore.prototype, method).mockImplementation(function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['put']>) {
      const request = original.apply(this, args);
      if (refuse(this.name)) {
        const tx = this.transaction as Aborting;
        // After the request's own success, as the commit would: the caller sees the abort, not a failed request.
        request.addEventListener('success', () => tx._abort('QuotaExceededError'), { once: true });
      }
      return request;
    });
  }
}

/** Refuses every write to the stores named. */
export const refusing = (stores: readonly string[]) => (store: string) => stores.includes(store);
