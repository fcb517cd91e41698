// How many threads onnxruntime-web's WASM backend runs with: ORT's own rule, the user's choice (a
// setting of this device), and what the browser allows. Pure, so the page, the model client and Node
// tests share one rule; the worker applies the result (workers/wasm-threads.ts).

/**
 * The user's setting: `auto` leaves `env.wasm.numThreads` unset, so ORT applies its own rule
 * (ortDefaultThreads); a number asks for that many threads, within what the browser allows.
 */
export type WasmThreadsSetting = 'auto' | number;

/** What the page knows about the browser's threads. */
export interface ThreadFacts {
  /** `self.crossOriginIsolated`: SharedArrayBuffer exists, so wasm threads can run. */
  isolated: boolean;
  /** `navigator.hardwareConcurrency` (logical cores); undefined where the browser does not say. */
  cores: number | undefined;
}

/**
 * The wasm threads onnxruntime-web picks when `env.wasm.numThreads` is left unset. Its
 * `initializeFlags` (node_modules/onnxruntime-web/lib/backend-wasm.ts; the same code is minified in
 * dist/ort.webgpu.bundle.min.mjs, the build transformers.js imports) sets `numThreads = 1` when
 * `self.crossOriginIsolated` is false (no SharedArrayBuffer, so no wasm threads), else
 * `Math.min(4, Math.ceil((navigator.hardwareConcurrency || 1) / 2))`: half the logical cores, rounded
 * up, at most 4, which leaves the other half to the page, the browser and other tabs. On a 2-core
 * machine that is 1 thread even when isolated.
 */
export function ortDefaultThreads(isolated: boolean, logicalCores: number | undefined): number {
  if (!isolated) return 1;
  return Math.min(4, Math.ceil((logicalCores || 1) / 2));
}

/**
 * The most threads a user may choose: one without cross-origin isolation (ORT would fall back to one
 * itself, with a console warning), else the logical cores the browser reports (more threads than
 * cores only take turns on them).
 */
export function maxWasmThreads(facts: ThreadFacts): number {
  if (!facts.isolated) return 1;
  return Math.max(1, Math.floor(facts.cores || 1));
}

/** A stored or asked count brought within 1 … maxWasmThreads; `auto` stays `auto`. */
export function clampWasmThreads(setting: WasmThreadsSetting, facts: ThreadFacts): WasmThreadsSetting {
  if (setting === 'auto') return 'auto';
  if (!Number.isFinite(setting)) return 'auto';
  return Math.min(maxWasmThreads(facts), Math.max(1, Math.floor(setting)));
}

/** The count a load will use with `setting` on this browser (ORT's rule for `auto`). */
export function expectedWasmThreads(setting: WasmThreadsSetting, facts: ThreadFacts): number {
  const asked = clampWasmThreads(setting, facts);
  return asked === 'auto' ? ortDefaultThreads(facts.isolated, facts.cores) : asked;
}

/** A setting from its stored text: a positive integer, else `auto` (nothing stored, or anything else). */
export function parseWasmThreadsSetting(raw: string | null | undefined): WasmThreadsSetting {
  if (!raw || !/^[1-9][0-9]{0,3}$/.test(raw.trim())) return 'auto';
  return Number(raw.trim());
}
