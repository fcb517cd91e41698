// Fetches one file with progress, a size limit and cancellation, and says exactly what went wrong:
// the URL, the HTTP status, or how far a broken download got, as a notice ('data.*') the page words.
import { JianguError, notice, type Notice } from '../core/notices/index.ts';

export interface DownloadProgress {
  url: string;
  loaded: number;
  /** From Content-Length when the server sends it. */
  total: number | null;
}

export type DownloadFailure = 'http' | 'network' | 'too-large' | 'cancelled';

export class DownloadError extends JianguError {
  constructor(
    readonly url: string,
    readonly failure: DownloadFailure,
    what: Notice,
    readonly status?: number,
  ) {
    super(what);
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


export async function downloadBytes(url: string, options: DownloadOptions): Promise<Uint8Array> {
  const { signal, maxBytes, onProgress } = options;
  const fetchImpl = options.fetchImpl ?? fetch;
  let response: Response;
  try {
    response = await fetchImpl(url, { signal, cache: 'no-cache' });
  } catch (error) {
    if (signal?.aborted) throw new DownloadError(url, 'cancelled', notice('data.download-cancelled', { url }));
    throw new DownloadError(url, 'network', notice('data.unreachable', { url, reason: String(error) }));
  }
  if (!response.ok) {
    throw new DownloadError(url, 'http', notice('data.http-status', { url, status: response.status, statusText: response.statusText || '' }), response.status);
  }
  const header = response.headers.get('content-length');
  const total = header !== null && /^\d+$/.test(header) ? Number(header) : null;
  if (total !== null && total > maxBytes) {
    throw new DownloadError(url, 'too-large', notice('data.download-too-large', { url, bytes: total, limit: maxBytes }));
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
        throw new DownloadError(url, 'too-large', notice('data.download-too-large', { url, bytes: null, limit: maxBytes }));
      }
      chunks.push(value);
      onProgress?.({ url, loaded, total });
    }
  } catch (error) {
    if (error instanceof DownloadError) throw error;
    if (signal?.aborted) throw new DownloadError(url, 'cancelled', notice('data.download-cancelled', { url }));
    throw new DownloadError(url, 'network', notice('data.download-broke-off', { url, loaded, total, reason: String(error) }));
  }
  if (total !== null && loaded !== total) {
    throw new DownloadError(url, 'network', notice('data.download-ended-early', { url, loaded, total }));
  }
  const bytes = new Uint8Array(loaded);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}
