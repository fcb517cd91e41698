// Which dtype a preset starts on, by where the load will run (issue 35): onnxruntime-web's WASM
// MatMulNBits turns q4's weights back into fp32 on every forward, so on WASM a preset starts on q8
// where its repository publishes one; on WebGPU, and while the backend is unknown, on its own default.
import { describe, expect, it } from 'vitest';
import { HUB_PRESETS, defaultDtypeFor, presetById, slowOnWasm } from '../../../src/lib/core/models/presets.ts';
import { DTYPES } from '../../../src/lib/core/models/model-types.ts';

const QWEN25 = presetById('onnx-community/Qwen2.5-0.5B-Instruct')!;
const QWEN3 = presetById('onnx-community/Qwen3-0.6B-ONNX')!;
const SMOL = presetById('HuggingFaceTB/SmolLM2-360M-Instruct')!;

describe('the default dtype follows the backend', () => {
  it('on WASM the Qwens start on q8, which they publish; SmolLM2, which has no q8, stays on q4', () => {
    expect(defaultDtypeFor(QWEN25, 'wasm')).toBe('q8');
    expect(defaultDtypeFor(QWEN3, 'wasm')).toBe('q8');
    expect(defaultDtypeFor(SMOL, 'wasm')).toBe('q4');
  });

  it('on WebGPU, which has its own MatMulNBits kernel, and before the backend is known, every preset keeps its own default', () => {
    for (const preset of HUB_PRESETS) {
      expect(defaultDtypeFor(preset, 'webgpu')).toBe(preset.defaultDtype);
      expect(defaultDtypeFor(preset, null)).toBe(preset.defaultDtype);
    }
    expect(defaultDtypeFor(QWEN25, 'webgpu')).toBe('q4');
  });

  it('every default, on either backend, is a dtype the preset publishes, and the offered order is the preset\'s', () => {
    for (const preset of HUB_PRESETS) {
      const order = [...preset.dtypes];
      for (const backend of ['wasm', 'webgpu', null] as const) expect(preset.dtypes).toContain(defaultDtypeFor(preset, backend));
      expect(preset.dtypes).toEqual(order);
    }
  });

  it('a preset whose own default is not 4-bit keeps it on WASM too', () => {
    expect(defaultDtypeFor({ ...QWEN25, defaultDtype: 'fp32' }, 'wasm')).toBe('fp32');
  });

  it('only the 4-bit dtypes (MatMulNBits) are slow on WASM', () => {
    expect(DTYPES.filter(slowOnWasm)).toEqual(['q4', 'q4f16']);
  });
});
