// Browser storage helpers. Both are no-ops outside a browser (Node tests, old browsers) and never
// throw: asking for persistence or an estimate must not break the page.

/** Bytes used by this origin and the most it may use, as the browser reports them. */
export interface StorageEstimate {
  usage: number;
  quota: number;
}

function storageManager(): StorageManager | undefined {
  return typeof navigator === 'undefined' ? undefined : navigator.storage;
}

let persistence: Promise<boolean> | undefined;

/**
 * Asks the browser to keep this origin's data (datasets and runs in IndexedDB, model files in Cache
 * Storage) through storage pressure, so a second visit works offline. Called before the first
 * large download (a dataset's files, a hub model's), not after it: a browser that prompts asks
 * while nothing is yet at stake, and one that decides alone decides before the bytes arrive.
 * Callers need not await it: the download must not wait on a prompt. Later calls reuse the first
 * answer, so `navigator.storage.persist()` runs at most once per page load.
 *
 * @returns Whether storage is persisted; false where unsupported, refused, or on any error.
 */
export function requestPersistence(): Promise<boolean> {
  persistence ??= (async () => {
    const storage = storageManager();
    if (typeof storage?.persist !== 'function') return false;
    try {
      return (await storage.persist()) === true;
    } catch {
      return false;
    }
  })();
  return persistence;
}

/**
 * Before a model load: a hub model's files (hundreds of megabytes, kept in Cache Storage) are the
 * largest download the site makes, so persistence is asked first; the site's own folders come from
 * its server and ask nothing. Not awaited by the load, for the same reason as requestPersistence.
 *
 * @returns The request's answer, or null when this load downloads nothing to keep.
 */
export function requestPersistenceBeforeModelLoad(source: { kind: 'hub' | 'site' }): Promise<boolean> | null {
  return source.kind === 'hub' ? requestPersistence() : null;
}

/** The answer to this page load's persistence request; null when none was made yet. */
export function persistenceRequested(): Promise<boolean> | null {
  return persistence ?? null;
}

/**
 * Reads how much storage this origin uses and may use. Called by the datasets view before and
 * after an import.
 *
 * @returns Usage and quota in bytes, or null where unsupported or when the browser gives no quota.
 */
export async function storageEstimate(): Promise<StorageEstimate | null> {
  const storage = storageManager();
  if (typeof storage?.estimate !== 'function') return null;
  try {
    const { usage, quota } = await storage.estimate();
    return quota === undefined ? null : { usage: usage ?? 0, quota };
  } catch {
    return null;
  }
}
