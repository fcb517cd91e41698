// Finds an ONNX file's external data (`model{suffix}.onnx_data`, `_1`, `_2`, …) before the model
// loads. transformers.js fetches those files only when `use_external_data_format` says how many there
// are, and many hub configs (Qwen3-0.6B-ONNX's) say nothing, so without this the session fails on a
// model that is complete on its host. Pure apart from the injected fetch, so Node tests drive it.
import type { ExternalDataInfo } from '../src/lib/engine/messages.ts';
import { probeHost } from '../src/lib/engine/host-probe.ts';

/** transformers.js' MAX_EXTERNAL_DATA_CHUNKS: it refuses more, so looking further is pointless. */
export const MAX_CHUNKS = 100;

export interface ExternalDataLookup {
  /** A Cache Storage copy of a URL, so a model loaded before is found offline; absent for the site. */
  cached?: (url: string) => Promise<Response | undefined>;
  fetch: typeof fetch;
}

/** The data file names transformers.js asks for, in order: `model.onnx_data`, `model.onnx_data_1`, … */
export function chunkName(onnxFile: string, index: number): string {
  return `${onnxFile}_data${index === 0 ? '' : `_${index}`}`;
}

/**
 * What config.json's `transformers.js_config.use_external_data_format` says for one file, read as
 * transformers.js reads it (an object keyed by file name or base name; true = 1; a number of chunks),
 * or undefined when it says nothing, and only then is the host asked.
 */
export function declaredChunks(config: Record<string, unknown>, onnxFile: string, device?: string): number | undefined {
  const tjs = config['transformers.js_config'];
  if (typeof tjs !== 'object' || tjs === null) return undefined;
  // A device_config entry overrides the top level for that device, as in transformers.js' session.js.
  const devices = (tjs as { device_config?: Record<string, Record<string, unknown> | undefined> }).device_config;
  const merged = { ...(tjs as Record<string, unknown>), ...(device === undefined ? {} : (devices?.[device] ?? {})) };
  const value = merged.use_external_data_format;
  if (value === undefined || value === null) return undefined;
  if (typeof value === 'object') {
    const byFile = value as Record<string, unknown>;
    const baseName = onnxFile.replace(/(_[a-z0-9]+)?\.onnx$/, '');
    const entry = Object.hasOwn(byFile, onnxFile) ? byFile[onnxFile] : Object.hasOwn(byFile, baseName) ? byFile[baseName] : 0;
    return Number(entry) || 0;
  }
  return Number(value) || 0;
}

/** Whether the host has a file: a HEAD, or a one-byte GET where a static host refuses HEAD. */
async function exists(url: string, lookup: ExternalDataLookup): Promise<boolean> {
  try {
    if (await lookup.cached?.(url)) return true;
  } catch {
    // Cache Storage can be unavailable (opaque origins, storage off): ask the host.
  }
  try {
    return (await probeHost(url, lookup.fetch)).ok;
  } catch {
    // Offline with a cached model that has no external data: no answer is "none"; were there
    // external data after all, the session's own failure names the file.
    return false;
  }
}

/**
 * The external data of `onnx/<onnxFile>` under `folderUrl` (the model's base URL, ending in '/'):
 * as the config declares it, else as the host has it, else null (a file with its weights inside).
 */
export async function findExternalData(
  folderUrl: string,
  onnxFile: string,
  config: Record<string, unknown>,
  lookup: ExternalDataLookup,
  device?: string,
): Promise<ExternalDataInfo | null> {
  const files = (n: number) => Array.from({ length: n }, (_, i) => `onnx/${chunkName(onnxFile, i)}`);
  const declared = declaredChunks(config, onnxFile, device);
  if (declared !== undefined) return declared > 0 ? { files: files(declared), how: 'config' } : null;
  let count = 0;
  while (count < MAX_CHUNKS && (await exists(`${folderUrl}onnx/${chunkName(onnxFile, count)}`, lookup))) count++;
  return count > 0 ? { files: files(count), how: 'detected' } : null;
}
