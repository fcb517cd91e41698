// The memory bench's results and their Markdown table (pure: unit-tested).
import type { HeapPeaks } from './memory-peaks.ts';
import { growth } from './memory-peaks.ts';

/** before / after bounded logits on the author's graph (the rewrite off, chunked prefill); rewritten: the default load (one logits row). */
export type Mode = 'before' | 'after' | 'rewritten';
/**
 * item: score one 5-shot item; generation: 1,000 new tokens from a short prompt; item-generation: a
 * few new tokens from the 5-shot item's prompt (generateItem), where the prompt's pass is the big one.
 */
export type Workload = 'item' | 'generation' | 'item-generation';

export interface MemoryConfig {
  backend: 'wasm' | 'webgpu';
  dtype: 'fp32' | 'q4';
  mode: Mode;
  workload: Workload;
}

export interface MemoryResult extends MemoryConfig {
  /** LoadResult.prefillRows: rows per prefill pass (the old single pass: the whole prompt). */
  prefillRows?: number | null;
  promptTokens?: number;
  /** Generation: tokens produced, and why it stopped. */
  newTokens?: number;
  stoppedBy?: string;
  /** Page time of the request (ms). */
  requestMs?: number;
  /** WorkerStats.largestLogitsBytes after the request (since the model loaded). */
  largestLogitsBytes?: number;
  /** ORT's wasm Memory after loading and after the request: it only grows, so the latter is its peak. */
  wasmAfterLoad?: number;
  wasmPeak?: number;
  /** GPU buffer bytes alive after loading, and the most alive at once during the request. */
  gpuAfterLoad?: number;
  gpuPeak?: number;
  /** The worker's V8 heap, sampled over CDP during the request. */
  heap?: HeapPeaks;
  error?: string;
}

const DASH = '—';

export function mib(bytes: number | undefined | null): string {
  if (bytes === undefined || bytes === null || Number.isNaN(bytes)) return DASH;
  const v = bytes / 2 ** 20;
  return v >= 100 ? `${v.toFixed(0)} MiB` : v >= 10 ? `${v.toFixed(1)} MiB` : `${v.toFixed(2)} MiB`;
}

/** "peak (+growth)", growth over the value the request started from. */
function peakWithGrowth(peak: number | undefined | null, start: number | undefined | null): string {
  if (peak === undefined || peak === null) return DASH;
  if (start === undefined || start === null) return mib(peak);
  return `${mib(peak)} (+${mib(growth(peak, start))})`;
}

function workloadCell(r: MemoryResult): string {
  if (r.workload === 'item') return `5-shot item, ${r.promptTokens ?? '?'} tokens`;
  if (r.workload === 'item-generation') return `generate ${r.newTokens ?? '?'} tokens from the 5-shot item, ${r.promptTokens ?? '?'} tokens`;
  const made = r.newTokens === undefined ? '?' : String(r.newTokens);
  return `generate ${made} tokens${r.stoppedBy && r.stoppedBy !== 'max-tokens' ? ` (${r.stoppedBy})` : ''}, prompt ${r.promptTokens ?? '?'}`;
}

function rowsCell(r: MemoryResult): string {
  if (r.prefillRows === undefined) return DASH;
  if (r.prefillRows === null) return 'keeps last';
  // A row limit past the prompt is the old single pass over the whole prompt.
  if (r.promptTokens !== undefined && r.prefillRows >= r.promptTokens) return 'all (1 pass)';
  return String(r.prefillRows);
}

export const TABLE_HEADER = [
  'Backend',
  'dtype',
  'Workload',
  'Worker',
  'Rows/pass',
  'Largest logits block',
  'JS heap used, peak (+growth)',
  'ArrayBuffers, peak (+growth)',
  'wasm Memory, peak (+growth since load)',
  'GPU buffers, peak (+growth since load)',
  'Time',
];

export function memoryRow(r: MemoryResult): string[] {
  const base = [r.backend, r.dtype, workloadCell(r), r.mode];
  if (r.error !== undefined) return [...base, DASH, `failed: ${r.error.replace(/\s+/g, ' ').slice(0, 160)}`, DASH, DASH, DASH, DASH, DASH];
  const heap = r.heap;
  return [
    ...base,
    rowsCell(r),
    mib(r.largestLogitsBytes),
    heap ? peakWithGrowth(heap.peakUsed, heap.baseline?.usedSize) : DASH,
    heap && heap.peakBacking !== null ? peakWithGrowth(heap.peakBacking, heap.baseline?.backingStorageSize) : DASH,
    peakWithGrowth(r.wasmPeak, r.wasmAfterLoad),
    r.backend === 'webgpu' ? peakWithGrowth(r.gpuPeak, r.gpuAfterLoad) : DASH,
    r.requestMs === undefined ? DASH : `${(r.requestMs / 1000).toFixed(1)} s`,
  ];
}

/** Cells may not hold a raw '|' (it would split the cell). */
function cell(text: string): string {
  return text.replace(/\|/g, '\\|');
}

export function memoryTable(results: readonly MemoryResult[]): string {
  const lines = [TABLE_HEADER, TABLE_HEADER.map(() => '---'), ...results.map(memoryRow)];
  return lines.map((cells) => `| ${cells.map(cell).join(' | ')} |`).join('\n');
}
