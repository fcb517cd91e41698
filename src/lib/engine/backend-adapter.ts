// What the WebGPU adapter is, and whether it renders on the CPU: the facts Auto's choice rests on
// (workers/backend-choice.ts). Pure apart from the injected `navigator.gpu`, and free of
// transformers.js, so the page asks them too: the Evaluate page's estimate predicts what a load picks.
import type { AdapterSummary } from './messages.ts';

/** The adapter `gpu` gives for high performance, or null when there is none. */
export async function describeAdapter(gpu: GPU | undefined): Promise<AdapterSummary | null> {
  if (!gpu) return null;
  const adapter = await gpu.requestAdapter({ powerPreference: 'high-performance' });
  if (!adapter) return null;
  // Chromium 156 states isFallbackAdapter on adapter.info; older Chromium stated it on the adapter.
  const info = adapter.info as GPUAdapterInfo & { isFallbackAdapter?: boolean };
  return {
    vendor: info.vendor,
    architecture: info.architecture,
    device: info.device,
    description: info.description,
    isFallbackAdapter: info.isFallbackAdapter ?? (adapter as GPUAdapter & { isFallbackAdapter?: boolean }).isFallbackAdapter ?? false,
    shaderF16: adapter.features.has('shader-f16'),
  };
}

/**
 * The adapter's name when it renders on the CPU, else null: a fallback adapter as the browser says,
 * or one whose info names a CPU renderer (SwiftShader; Mesa's llvmpipe/lavapipe), for browsers that
 * leave isFallbackAdapter false or unset.
 */
export function softwareAdapterName(adapter: AdapterSummary): string | null {
  const words = `${adapter.vendor} ${adapter.architecture} ${adapter.device} ${adapter.description}`;
  if (/swiftshader/i.test(words)) return 'SwiftShader';
  if (/llvmpipe|lavapipe/i.test(words)) return /lavapipe/i.test(words) ? 'lavapipe' : 'llvmpipe';
  if (!adapter.isFallbackAdapter) return null;
  return adapter.description || [adapter.vendor, adapter.architecture].filter(Boolean).join(' ') || 'fallback adapter';
}
