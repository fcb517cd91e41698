// Which backend a load runs on. Pure apart from the injected `navigator.gpu`, so Node tests drive it
// with fake adapters.
//
// Auto prefers WASM over a software WebGPU adapter: SwiftShader runs WebGPU's shaders on the CPU,
// through Vulkan emulation, and is far slower than ORT's own wasm kernels (a playground score took
// 7.3 s; an ACLUE run did 11 of 30 items in 15 minutes, against all 30 in 14 s on WASM). Asked for
// WebGPU by name, the software adapter is still used: the browser tests run WebGPU that way.
import type { AdapterSummary, BackendInfo, LoadParams } from '../src/lib/engine/messages.ts';
import { describeAdapter, softwareAdapterName } from '../src/lib/engine/backend-adapter.ts';
import { modelError } from '../src/lib/engine/model-errors.ts';
import { notice, renderNotice, type Notice } from '../src/lib/core/notices/index.ts';
import { RequestError } from './request-error.ts';

// Pure, and asked by the Evaluate page too (its estimate predicts what Auto picks): kept in the engine.
export { describeAdapter, softwareAdapterName };

/** What every BackendInfo carries about ORT's wasm, whichever backend is chosen. */
export interface WasmFacts {
  wasmThreads: number;
  crossOriginIsolated: boolean;
}

/**
 * The backend for `params`: WASM when asked; WebGPU when asked (refused with a message when the
 * browser cannot); for Auto, WebGPU on a hardware adapter that can run the dtype, else WASM with the
 * reason (BackendInfo.fallbackNotice, and its English in fallbackReason for the record).
 */
export async function chooseBackend(params: Pick<LoadParams, 'backend' | 'dtype'>, gpu: GPU | undefined, common: WasmFacts): Promise<BackendInfo> {
  if (params.backend === 'wasm') return { backend: 'wasm', ...common };
  let adapter: AdapterSummary | null = null;
  let why = notice('model.fallback-no-webgpu');
  try {
    adapter = await describeAdapter(gpu);
    if (!adapter && gpu) why = notice('model.fallback-no-adapter');
  } catch (error) {
    why = notice('model.fallback-webgpu-failed', { detail: String(error) });
  }
  // The record keeps the English; the page words the notice in its language.
  const fallback = (n: Notice): BackendInfo => ({ backend: 'wasm', fallbackReason: renderNotice(n, 'en'), fallbackNotice: n, ...common });
  // float16 weights need shader-f16 on WebGPU (SwiftShader has none); transformers.js checks it for
  // fp16 only, and q4f16 would fail later inside ORT, so both are decided here. It comes before the
  // software check: it says the dtype cannot run there at all, which choosing WebGPU does not change.
  const needsF16 = params.dtype === 'fp16' || params.dtype === 'q4f16';
  if (adapter && needsF16 && !adapter.shaderF16) {
    if (params.backend === 'webgpu') throw new RequestError(modelError('unsupported-dtype', 'model.no-shader-f16', [{ dtype: params.dtype }]));
    return fallback(notice('model.fallback-no-shader-f16', { dtype: params.dtype }));
  }
  const software = adapter ? softwareAdapterName(adapter) : null;
  if (adapter && software !== null && params.backend === 'auto') return fallback(notice('model.fallback-software-adapter', { adapter: software }));
  if (adapter) return { backend: 'webgpu', adapter, ...common };
  if (params.backend === 'webgpu') {
    throw new RequestError(modelError('webgpu-unavailable', 'model.webgpu-requested', [{ reason: renderNotice(why, 'en') }]));
  }
  return fallback(why);
}
