// Notes which model-file fetches of a load could not reach their host. transformers.js swallows the
// TypeError of a site file's failed fetch and reports the file "not found locally", so an offline
// visit with a model never stored read as a missing model; with these URLs the load's error says
// what really happened (model-errors.ts, notStoredOffline). Pure apart from the injected fetch and
// caches, so Node tests drive it.
import type { UnreachableFiles } from '../src/lib/engine/model-errors.ts';

export interface FetchWatchEnv {
  fetch: typeof fetch;
  /** navigator.onLine; false says the browser knows it is offline. */
  online: () => boolean;
  /** Whether any cache (the service worker's, transformers.js') holds a response for the URL. */
  stored: (url: string) => Promise<boolean>;
  /** The base relative URLs resolve against (the worker's location). */
  base: string;
}

export class FetchWatch {
  private failed: string[] = [];

  constructor(private readonly env: FetchWatchEnv) {}

  /**
   * fetch, noting the URL when it fails as a network failure does: a TypeError (offline, the host
   * down, a service worker answering with a network error), or anything while the browser says it
   * is offline. An answer of any status, 404 included, is not a failure here.
   */
  readonly fetch = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    try {
      return await this.env.fetch(input, init);
    } catch (error) {
      if (error instanceof TypeError || !this.env.online()) this.failed.push(urlOf(input, this.env.base));
      throw error;
    }
  };

  /** Forgets the failures noted so far: called as a load starts. */
  reset(): void {
    this.failed = [];
  }

  /**
   * The failed URLs no cache holds, for the load's error; null when there are none. A file a cache
   * holds is stored for offline use, whatever this fetch did, so the offline notice would be wrong for it.
   */
  async unreachable(folderUrl: string): Promise<UnreachableFiles | null> {
    const urls: string[] = [];
    for (const url of this.failed) {
      const stored = await this.env.stored(url).catch(() => false);
      if (!stored && !urls.includes(url)) urls.push(url);
    }
    return urls.length === 0 ? null : { urls, folderUrl, offline: !this.env.online() };
  }
}

function urlOf(input: RequestInfo | URL, base: string): string {
  const raw = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return new URL(raw, base).href;
}
