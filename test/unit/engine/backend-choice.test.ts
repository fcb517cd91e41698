// Issue 23 item 11: Auto picked SwiftShader (WebGPU on the CPU) over WASM, many times slower. Auto
// now prefers WASM over a software adapter and says why; WebGPU chosen by name still gets it.
import { describe, expect, it } from 'vitest';
import { chooseBackend, softwareAdapterName } from '../../../workers/backend-choice.ts';
import { RequestError } from '../../../workers/request-error.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import type { AdapterSummary } from '../../../src/lib/engine/messages.ts';

const common = { wasmThreads: 4, crossOriginIsolated: true };

/** A navigator.gpu whose one adapter has this info; `legacyFallback` puts isFallbackAdapter on the adapter, as older Chromium did. */
function gpuWith(info: Partial<GPUAdapterInfo & { isFallbackAdapter: boolean }>, options: { shaderF16?: boolean; legacyFallback?: boolean } = {}): GPU {
  const adapter = {
    info: { vendor: '', architecture: '', device: '', description: '', ...info },
    features: new Set(options.shaderF16 ? ['shader-f16'] : []),
    ...(options.legacyFallback === undefined ? {} : { isFallbackAdapter: options.legacyFallback }),
  };
  return { requestAdapter: async () => adapter } as unknown as GPU;
}

// As Chromium 156 headless with --enable-unsafe-webgpu reports it (probed in the test browser).
const swiftShader = gpuWith({ vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true });
const hardware = gpuWith({ vendor: 'nvidia', architecture: 'ampere', isFallbackAdapter: false }, { shaderF16: true });

describe('chooseBackend', () => {
  it('Auto on SwiftShader loads on WASM and says why, in both languages', async () => {
    const info = await chooseBackend({ backend: 'auto', dtype: 'fp32' }, swiftShader, common);
    expect(info.backend).toBe('wasm');
    expect(info.adapter).toBeUndefined();
    expect(info.fallbackNotice).toEqual({ code: 'model.fallback-software-adapter', params: { adapter: 'SwiftShader' } });
    expect(info.fallbackReason).toBe('WebGPU here is a software adapter (SwiftShader), slower than WASM; using WASM. Choose WebGPU to use it anyway.');
    expect(renderNotice(info.fallbackNotice!, 'zh')).toContain('SwiftShader');
    expect(info).toMatchObject(common);
  });

  it('WebGPU chosen by name uses the software adapter anyway', async () => {
    const info = await chooseBackend({ backend: 'webgpu', dtype: 'q4' }, swiftShader, common);
    expect(info.backend).toBe('webgpu');
    expect(info.adapter).toMatchObject({ architecture: 'swiftshader', isFallbackAdapter: true });
    expect(info.fallbackNotice).toBeUndefined();
  });

  it('Auto on a hardware adapter uses WebGPU', async () => {
    const info = await chooseBackend({ backend: 'auto', dtype: 'q8' }, hardware, common);
    expect(info.backend).toBe('webgpu');
    expect(info.adapter?.vendor).toBe('nvidia');
  });

  it('reads the fallback flag where older Chromium put it, and SwiftShader by name where no flag is set', async () => {
    const legacy = await chooseBackend({ backend: 'auto', dtype: 'fp32' }, gpuWith({ vendor: 'google', architecture: '' }, { legacyFallback: true }), common);
    expect(legacy.backend).toBe('wasm');
    expect(legacy.fallbackNotice?.params).toEqual({ adapter: 'google' });
    const unflagged = await chooseBackend({ backend: 'auto', dtype: 'fp32' }, gpuWith({ vendor: 'google', architecture: 'swiftshader' }), common);
    expect(unflagged.fallbackNotice?.params).toEqual({ adapter: 'SwiftShader' });
  });

  it('keeps the shader-f16 reason for fp16 and q4f16 on SwiftShader: that dtype cannot run there at all', async () => {
    const auto = await chooseBackend({ backend: 'auto', dtype: 'q4f16' }, swiftShader, common);
    expect(auto.fallbackNotice?.code).toBe('model.fallback-no-shader-f16');
    const asked = chooseBackend({ backend: 'webgpu', dtype: 'fp16' }, swiftShader, common);
    await expect(asked).rejects.toBeInstanceOf(RequestError);
    await expect(asked).rejects.toMatchObject({ info: { code: 'unsupported-dtype' } });
  });

  it('WASM chosen by name asks no adapter; no WebGPU at all still falls back or refuses as before', async () => {
    const never = { requestAdapter: () => Promise.reject(new Error('asked')) } as unknown as GPU;
    expect(await chooseBackend({ backend: 'wasm', dtype: 'fp32' }, never, common)).toEqual({ backend: 'wasm', ...common });
    expect((await chooseBackend({ backend: 'auto', dtype: 'fp32' }, undefined, common)).fallbackNotice?.code).toBe('model.fallback-no-webgpu');
    const none = { requestAdapter: async () => null } as unknown as GPU;
    expect((await chooseBackend({ backend: 'auto', dtype: 'fp32' }, none, common)).fallbackNotice?.code).toBe('model.fallback-no-adapter');
    await expect(chooseBackend({ backend: 'webgpu', dtype: 'fp32' }, none, common)).rejects.toMatchObject({ info: { code: 'webgpu-unavailable' } });
  });
});

describe('softwareAdapterName', () => {
  const base: AdapterSummary = { vendor: '', architecture: '', device: '', description: '', isFallbackAdapter: false, shaderF16: false };
  it('names CPU renderers and flagged fallbacks, and nothing else', () => {
    expect(softwareAdapterName({ ...base, vendor: 'google', architecture: 'swiftshader', isFallbackAdapter: true })).toBe('SwiftShader');
    expect(softwareAdapterName({ ...base, description: 'llvmpipe (LLVM 15.0.6, 256 bits)' })).toBe('llvmpipe');
    expect(softwareAdapterName({ ...base, vendor: 'microsoft', description: 'Microsoft Basic Render Driver', isFallbackAdapter: true })).toBe('Microsoft Basic Render Driver');
    expect(softwareAdapterName({ ...base, vendor: 'intel', architecture: 'gen-12lp' })).toBeNull();
  });
});
