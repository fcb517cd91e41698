// Fetches one file with progress, a size limit and cancellation, and says exactly what went wrong:
// the URL, the HTTP status, or how far a broken download got.

export interface DownloadProgress {
  url: string;
  loaded: number;
  /** From Content-Length when the server sends it. */
  total: number | null;
}

export type DownloadFailure = 'http' | 'network' | 'too-large' | 'cancelled';

export class DownloadError extends Error {
  constructor(
    readonly url: string,
    readonly failure: DownloadFailure,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'DownloadError';
  }
}

export interface DownloadOptions {
  signal?: AbortSignal;
  /** Refuse files larger than this many bytes (checked against Content-Length and while reading). */
  maxBytes: number;
  onProgress?: (progress: DownloadProgress) => void;
  fetchImpl?: typeof fetch;
}

const mb = (n: number) => `${(n / 1e6).toFixed(1)} MB`;

export async function downloadBytes(url: string, options: DownloadOptions): Promise<Uint8Array> {
  const { signal, maxBytes, onProgress } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, { signal, cache: 'no-cache' });
  } catch (error) {
    if (signal?.aborted) throw new DownloadError(url, 'cancelled', `Download of ${url} was cancelled.`);
    throw new DownloadError(url, 'network', `Could not reach ${url} (${String(error)}). Check the connection or set a data mirror.`);
  }
  if (!response.ok) {
    throw new DownloadError(url, 'http', `${url} answered ${response.status} ${response.statusText || ''}`.trim() + '.', response.status);
  }
  const header = response.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  if (total !== null && total > maxBytes) {
    throw new DownloadError(url, 'too-large', `${url} is ${mb(total)}, over the ${mb(maxBytes)} limit for one file.`);
  }
  if (!response.body) return new Uint8Array(await response.arrayBuffer());
  const reader = response.body.getReader();
  const chunks: Uint8Array[] = [];
  let loaded = 0;
  onProgress?.({ url, loaded, total });
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      loaded += value.byteLength;
      if (loaded > maxBytes) {
        await reader.cancel();
        throw new DownloadError(url, 'too-large', `${url} is over the ${mb(maxBytes)} limit for one file.`);
      }
      chunks.push(value);
      onProgress?.({ url, loaded, total });
    }
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    if (signal?.aborted) throw new DownloadError(url, 'cancelled', `Download of ${url} was cancelled.`);
    const of = total !== null ? ` of ${total.toLocaleString('en')}` : '';
    throw new DownloadError(url, 'network', `The download of ${url} broke off after ${loaded.toLocaleString('en')}${of} bytes (${String(error)}).`);
  }
  if (total !== null && loaded !== total) {
    throw new DownloadError(url, 'network', `The download of ${url} ended after ${loaded.toLocaleString('en')} of ${total.toLocaleString('en')} bytes.`);
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
