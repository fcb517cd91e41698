// For tests only (LoadParams.memoryFault): makes this worker really run out of memory where a test
// asks, so the page's out-of-memory path is tested on the engine's own failure rather than on a
// made-up message. It grows a wasm Memory until V8 can reserve no more (wasm32 stops at 4 GB, the wall
// ORT's wasm heap meets with a large file) and lets the RangeError V8 throws go where a failure at that
// point goes: the load's error, the request's, or, uncaught, the worker's 'error' event. Growing only
// reserves address space (the pages are never touched), so the machine's memory is not at risk.
import type { MemoryFault, RequestKind } from '../src/lib/engine/messages.ts';

// Taken before model.worker.ts puts its counting subclass in place (an imported module runs first):
// the test's reservation is not ORT's, and is freed once the error has been thrown.
const NativeMemory = WebAssembly.Memory;

/** 256 MiB a step: V8 refuses within about 16 steps. */
const STEP_PAGES = 4096;

/** Throws what V8 throws when a wasm Memory cannot grow: "WebAssembly.Memory.grow(): Unable to grow instance memory" (or its maximum). */
function exhaust(): never {
  const memory = new NativeMemory({ initial: 1 });
  for (;;) memory.grow(STEP_PAGES);
}

/** Requests that do not run the model: they never meet the fault. */
const NOT_MODEL_WORK: ReadonlySet<RequestKind> = new Set(['load', 'unload', 'stats']);

export class MemoryFaults {
  private fault: MemoryFault | null = null;
  private seen = 0;

  /** Each load sets its own fault, or none: one load's fault never reaches the next. */
  arm(fault: MemoryFault | undefined): void {
    this.fault = fault ?? null;
    this.seen = 0;
  }

  /**
   * Runs out of memory here when the load asked for it at `stage` (for `request`, in the model request
   * after the first `after`). Once: after it, the worker is the page's to replace.
   */
  async at(stage: MemoryFault['stage'], kind?: RequestKind): Promise<void> {
    const fault = this.fault;
    if (!fault || fault.stage !== stage || (kind && NOT_MODEL_WORK.has(kind))) return;
    if (stage === 'request' && this.seen++ < (fault.after ?? 0)) return;
    this.fault = null;
    if (!fault.uncaught) exhaust();
    // Thrown from a timer, the error reaches no handler of the load or request: only the worker's
    // 'error' event, on the page. The request waits for ever, as one whose worker died would.
    setTimeout(exhaust);
    await new Promise<never>(() => {});
  }
}
