// The model worker's side of the WASM thread count: set `env.backends.onnx.wasm.numThreads` before
// ORT's first session, and never after.
//
// onnxruntime-web reads numThreads once per worker: the first InferenceSession.create initializes the
// backend (onnxruntime-common's backend-impl.ts keeps the init promise and marks it initialized), its
// `initializeFlags` fills in the default (lib/backend-wasm.ts, see ortDefaultThreads), and
// `initializeWebAssembly` (lib/wasm/wasm-factory.ts) starts the module with `numThreads` (numThreads - 1
// pthread workers; 1 when SharedArrayBuffer is missing, written back to env.wasm.numThreads) and OrtInit
// creates the global thread pool with it; both return early on every later call. The WebGPU backend
// goes through the same init. A value written after that would change nothing in ORT and only make
// the report lie, so the worker stops writing it once it has asked for its first session, and the
// page's ModelClient starts a fresh worker for another count.
import type { WasmThreadsSetting } from '../src/lib/core/models/wasm-threads.ts';

/** The part of ORT's `env.wasm` this touches. */
export interface WasmThreadFlags {
  numThreads?: number;
}

export class WasmThreads {
  /** Set once the worker has asked transformers.js for a session: ORT may have read numThreads by then. */
  private fixed = false;

  constructor(private readonly flags: WasmThreadFlags) {}

  /**
   * Applies the load's count while ORT has not read it yet: a number is set as is (the client has
   * clamped it), `auto` or nothing leaves numThreads unset so ORT applies its own rule. Returns false
   * when the count is fixed already and differs from what was asked (the report then says ORT's).
   */
  apply(asked: WasmThreadsSetting | undefined): boolean {
    if (this.fixed) return asked === undefined || asked === 'auto' || asked === this.flags.numThreads;
    if (typeof asked === 'number') this.flags.numThreads = asked;
    else delete this.flags.numThreads;
    return true;
  }

  /** Called right before the first session is asked for: from then on numThreads is ORT's. */
  fix(): void {
    this.fixed = true;
  }

  /** The count ORT uses (after a load), or would use as set now. */
  used(): number {
    return Number(this.flags.numThreads ?? 1);
  }
}
