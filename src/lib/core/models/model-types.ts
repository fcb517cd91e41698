// What a model is and what it runs on: shared by the engine, the run record and the UI.
import type { Notice } from '../notices/index.ts';

/** Where the model actually runs. */
export type Backend = 'webgpu' | 'wasm';
/** What the user asked for: `auto` is WebGPU on a hardware adapter, else WASM (workers/backend-choice.ts). */
export type BackendChoice = 'auto' | Backend;
/** transformers.js dtypes we offer; each maps to an `onnx/model{suffix}.onnx` file. */
export type Dtype = 'fp32' | 'fp16' | 'q8' | 'q4' | 'q4f16';
export const DTYPES: readonly Dtype[] = ['fp32', 'fp16', 'q8', 'q4', 'q4f16'];

/** A model on the Hugging Face hub (or a mirror with the hub's layout), or a folder the site serves under /models/. */
export type ModelSource =
  | { kind: 'hub'; id: string; revision?: string; host?: string }
  | { kind: 'site'; name: string };

export interface AdapterSummary {
  vendor: string;
  architecture: string;
  device: string;
  description: string;
  isFallbackAdapter: boolean;
  shaderF16: boolean;
}

/** The backend a loaded model really uses, and why, for the run record and the page. */
export interface BackendInfo {
  backend: Backend;
  /** Set when WebGPU is used. */
  adapter?: AdapterSummary;
  /** ORT's wasm thread count (also used for WASM parts of a WebGPU session). */
  wasmThreads: number;
  crossOriginIsolated: boolean;
  /** Why `auto` fell back to WASM, when it did: in English, for the record. */
  fallbackReason?: string;
  /** The same, as a notice the page words in its language (absent in older records). */
  fallbackNotice?: Notice;
}


/** The commit a hub model's files came from (see workers/hub-revision.ts). */
export interface ResolvedRevision {
  /** The 40-hex commit, or null when it could not be found. */
  commit: string | null;
  how: 'pinned' | 'response-header' | 'hub-api' | null;
  /** Why there is no commit. */
  note?: string;
}
