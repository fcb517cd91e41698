// How much memory a model's load will need, set against what the device says it has (issue 43,
// item 5): the page asks before a load that will likely fail, instead of losing the tab to it. Pure:
// the page passes the file sizes it found (model-size.ts) and what navigator.deviceMemory said.
import type { Dtype } from '../core/models/model-types.ts';
import type { ModelPreset } from '../core/models/presets.ts';

/**
 * A load's peak memory per byte of the model's files, by dtype: the renderer's peak resident memory
 * while the site's worker loads the file and scores 5-shot items, less the page alone, over the
 * files' bytes. Measured on the hub-sized Qwen2.5-0.5B and Qwen3-0.6B shapes, WASM, one thread
 * (`npx tsx scripts/bench/memory-stages.ts`, the README's memory table, 2026-12-06, two runs), the
 * largest seen, rounded up:
 * - q8: 3.0 (2.5–2.8 and 2.5 measured): the weights held once (streamed, the head in blocks), ORT's
 *   runtime, and the 5-shot items' KV caches.
 * - q4: 2.5 (2.1 and 2.2): the tied float32 embedding held once, its head a Gemm on it with
 *   prepacking off (head-blocks.ts gemmTiedHead); it was 3.8 and 3.7 while onnxruntime folded the
 *   head's Transpose into a second copy and prepacked a third.
 * - fp32, fp16 and q4f16: not measured since the weights are streamed. fp32 keeps q4's earlier 4.0
 *   until measured; q4f16's float16 embedding still goes through a folded Transpose (no float16
 *   Gemm on WASM), and fp16's ops run in fp32 on WASM (twice its bytes).
 */
export const LOAD_FACTORS: Readonly<Record<Dtype, number>> = { q8: 3.0, q4: 2.5, q4f16: 4.0, fp32: 4.0, fp16: 6.0 };

/** The factor of `dtype` (LOAD_FACTORS). */
export function loadFactor(dtype: Dtype): number {
  return LOAD_FACTORS[dtype];
}

/**
 * What a load needs whatever the model's size: the page itself (the harness page alone measured
 * 347–378 MB of resident memory in the same bench, the site's pages about as much), with room for
 * transformers.js and onnxruntime-web's module before the file arrives.
 */
export const RUNTIME_BYTES = 450 * 1024 ** 2;

/**
 * What the system and the browser keep of the device's memory, so not this tab's: 1 GiB (a desktop
 * or Android system and Chromium's own processes with one tab open hold about that), and never more
 * than half of a device that reports 2 GiB or less.
 */
export const SYSTEM_MARGIN_BYTES = 1024 ** 3;

/** The memory a load of `dtype` files totalling `fileBytes` needs: loadFactor(dtype) × files + RUNTIME_BYTES. */
export function memoryNeed(fileBytes: number, dtype: Dtype): number {
  return Math.round(fileBytes * loadFactor(dtype) + RUNTIME_BYTES);
}

/**
 * What `navigator.deviceMemory` says, in GiB, or null where it says nothing usable. Chromium gives
 * the device's memory rounded down to a power of two and capped (at 8 in most versions), so a large
 * device reports less than it has; Firefox and Safari have no such property.
 */
export function reportedDeviceGiB(value: unknown): number | null {
  return typeof value === 'number' && Number.isFinite(value) && value > 0 ? value : null;
}

/** The bytes a tab may use on a device that reports `deviceGiB`: the report less SYSTEM_MARGIN_BYTES (at most half of it). */
export function roomForTab(deviceGiB: number): number {
  const device = deviceGiB * 1024 ** 3;
  return device - Math.min(SYSTEM_MARGIN_BYTES, device / 2);
}

export type MemoryVerdict =
  /** The need is within the tab's room (`fits`), or over it: the page asks before loading (`exceeds`). */
  | { kind: 'fits' | 'exceeds'; need: number; room: number; deviceGiB: number }
  /** The device reports nothing: the page says so and loads. */
  | { kind: 'device-unknown'; need: number }
  /** The files' size could not be read before the download: nothing to compare, the page loads. */
  | { kind: 'size-unknown'; deviceGiB: number | null };

/** The need of files totalling `fileBytes` (null: not known) against a device that reports `deviceGiB` (null: nothing). */
export function memoryVerdict(fileBytes: number | null, deviceGiB: number | null, dtype: Dtype): MemoryVerdict {
  if (fileBytes === null) return { kind: 'size-unknown', deviceGiB };
  const need = memoryNeed(fileBytes, dtype);
  if (deviceGiB === null) return { kind: 'device-unknown', need };
  const room = roomForTab(deviceGiB);
  return { kind: need > room ? 'exceeds' : 'fits', need, room, deviceGiB };
}

/**
 * The dtype to suggest when `dtype` does not fit: one step down fp32 → q8 → q4 (fp16 → q8), the step
 * that roughly halves the files; q4 and q4f16 have none (a smaller model is the way on). A preset
 * offers only the dtypes its repository publishes, and where it states sizes the suggestion must be
 * smaller (Qwen2.5's q4 keeps its embedding in fp32 and is larger than its q8).
 */
export function smallerDtype(dtype: Dtype, preset?: ModelPreset): Dtype | null {
  const ladder: Record<Dtype, readonly Dtype[]> = { fp32: ['q8', 'q4'], fp16: ['q8', 'q4'], q8: ['q4'], q4: [], q4f16: [] };
  const size = (d: Dtype) => preset?.approxMB[d];
  for (const candidate of ladder[dtype]) {
    if (preset && !preset.dtypes.includes(candidate)) continue;
    const [from, to] = [size(dtype), size(candidate)];
    if (from !== undefined && to !== undefined && to >= from) continue;
    return candidate;
  }
  return null;
}
