// The moments a load passes through, with the wasm Memory's size at each, for the memory bench
// (scripts/bench/memory-stages.ts): it samples the renderer's resident memory from outside and
// splits the samples at these marks (fetched bytes, graph rewrite, session creation, first forward).
// Times are epoch milliseconds (timeOrigin + now), so they compare with the sampler's clock.
import type { MemoryMark } from '../src/lib/engine/messages.ts';

const marks: MemoryMark[] = [];
/** Keeps the worker's record bounded: a long session of loads only needs its recent marks. */
const MAX_MARKS = 200;

let wasmBytes: () => number = () => 0;

/** Where the worker's wasm Memories are counted (model.worker.ts owns them). */
export function countWasmWith(count: () => number): void {
  wasmBytes = count;
}

export function markStage(stage: string): void {
  marks.push({ stage, at: performance.timeOrigin + performance.now(), wasmBytes: wasmBytes() });
  if (marks.length > MAX_MARKS) marks.splice(0, marks.length - MAX_MARKS);
}

export function memoryMarks(): MemoryMark[] {
  return marks.map((m) => ({ ...m }));
}
