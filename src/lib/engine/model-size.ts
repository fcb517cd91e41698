// The size of a model's weights files before the load downloads them, for the memory check
// (memory-need.ts): the ONNX file of the chosen dtype and its external data (`.onnx_data`, `_1`, …).
// Read from the copy transformers.js keeps in Cache Storage when the model was loaded before, else
// asked of the host the load itself will fetch from (this site, the hub or the user's mirror): a HEAD,
// or a one-byte GET where a static host refuses HEAD, as workers/external-data.ts asks. Nothing is
// downloaded. Pure apart from the injected fetch and cache, so Node tests drive it.
import { probeHost } from './host-probe.ts';
import type { Dtype, ModelSource } from './messages.ts';
import { modelFileFor } from './model-errors.ts';

/** transformers.js' MAX_EXTERNAL_DATA_CHUNKS (as workers/external-data.ts): looking further is pointless. */
const MAX_CHUNKS = 100;

export interface SizeLookup {
  /** transformers.js' Cache Storage copy of a URL (hub files); absent where there is none (the site's own). */
  cached?: (url: string) => Promise<Response | undefined>;
  fetch: typeof fetch;
}

export interface SizedFile {
  /** The path in the model's folder, e.g. `onnx/model_q4.onnx`. */
  path: string;
  bytes: number;
  /** Where the size was read: the browser's stored copy, or the host's answer. */
  from: 'cache' | 'host';
}

export interface ModelFilesSize {
  bytes: number;
  files: SizedFile[];
}

/**
 * The folder a load of `source` fetches from, ending in '/', as the worker builds it: the site's
 * `models/<name>/` under `siteBase` (the site's base URL), or `<host>/<id>/resolve/<revision>/` on the
 * hub or the model host the user chose.
 */
export function modelFolderUrl(source: ModelSource, siteBase: string): string {
  if (source.kind === 'site') return new URL(`models/${source.name}/`, siteBase).href;
  const host = source.host ? (source.host.endsWith('/') ? source.host : `${source.host}/`) : 'https://huggingface.co/';
  return `${host}${source.id}/resolve/${encodeURIComponent(source.revision || 'main')}/`;
}

/** A whole number of bytes from a header value, or null. */
function bytesOf(value: string | null): number | null {
  if (value === null || !/^\d+$/.test(value.trim())) return null;
  return Number(value.trim());
}

/**
 * The size of the file at `url`: 'absent' when the host says it has none (a 404), null when it could
 * not be told (no answer, no length given, a cross-origin Content-Range not exposed).
 */
async function sizeOf(url: string, lookup: SizeLookup): Promise<{ bytes: number; from: SizedFile['from'] } | 'absent' | null> {
  try {
    const stored = await lookup.cached?.(url);
    if (stored) {
      const bytes = bytesOf(stored.headers.get('content-length')) ?? (await stored.blob()).size;
      return { bytes, from: 'cache' };
    }
  } catch {
    // Cache Storage can be unavailable (storage off, an opaque origin): ask the host.
  }
  try {
    const response = await probeHost(url, lookup.fetch);
    if (response.status === 206) {
      // "bytes 0-0/TOTAL"; a host that ignores Range answers 200 with the whole length.
      const total = /\/(\d+)\s*$/.exec(response.headers.get('content-range') ?? '')?.[1];
      return total === undefined ? null : { bytes: Number(total), from: 'host' };
    }
    if (response.status === 404) return 'absent';
    if (!response.ok) return null;
    const bytes = bytesOf(response.headers.get('content-length'));
    return bytes === null ? null : { bytes, from: 'host' };
  } catch {
    return null;
  }
}

/**
 * The weights files of `dtype` under `folderUrl` and their total size, or null when the ONNX file's
 * size cannot be told (the load then says what is wrong with it, if anything). External data is
 * counted as far as the host has it: a chunk whose size cannot be told ends the count.
 */
export async function modelFilesSize(folderUrl: string, dtype: Dtype, lookup: SizeLookup): Promise<ModelFilesSize | null> {
  const onnx = modelFileFor(dtype);
  const main = await sizeOf(`${folderUrl}${onnx}`, lookup);
  if (main === null || main === 'absent') return null;
  const files: SizedFile[] = [{ path: onnx, ...main }];
  for (let i = 0; i < MAX_CHUNKS; i++) {
    const path = `${onnx}_data${i === 0 ? '' : `_${i}`}`;
    const chunk = await sizeOf(`${folderUrl}${path}`, lookup);
    if (chunk === null || chunk === 'absent') break;
    files.push({ path, ...chunk });
  }
  return { bytes: files.reduce((sum, f) => sum + f.bytes, 0), files };
}
