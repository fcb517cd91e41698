// The presets offer what their repositories publish, with the repositories' sizes
// (../shared/platform-notes.md, "Real hub models").
import { describe, expect, it } from 'vitest';
import { HUB_PRESETS, offeredDtypes, presetById } from '../../../src/lib/core/models/presets.ts';
import { DTYPES } from '../../../src/lib/core/models/model-types.ts';

describe('hub presets', () => {
  it('SmolLM2 publishes no q8 file, so its preset offers none', () => {
    const smol = presetById('HuggingFaceTB/SmolLM2-360M-Instruct')!;
    expect(smol.dtypes).not.toContain('q8');
    expect(offeredDtypes(smol, DTYPES)).toEqual(['q4', 'fp32', 'fp16', 'q4f16']);
    expect(smol.approxMB.q8).toBeUndefined();
  });

  it('Qwen3 publishes no fp16 file', () => {
    expect(presetById('onnx-community/Qwen3-0.6B-ONNX')!.dtypes).not.toContain('fp16');
  });

  it('q4 sizes are the repositories\' (q4 is larger than q8 for the Qwens: their embedding stays fp32)', () => {
    expect(presetById('onnx-community/Qwen2.5-0.5B-Instruct')!.approxMB).toMatchObject({ q4: 786, q8: 512 });
    expect(presetById('onnx-community/Qwen3-0.6B-ONNX')!.approxMB.q4).toBe(919);
    expect(presetById('HuggingFaceTB/SmolLM2-360M-Instruct')!.approxMB.q4).toBe(417);
  });

  it('every preset sizes only dtypes it offers, and defaults to one it offers', () => {
    for (const preset of HUB_PRESETS) {
      expect(preset.dtypes).toContain(preset.defaultDtype);
      for (const dtype of Object.keys(preset.approxMB)) expect(preset.dtypes).toContain(dtype);
    }
  });

  it('anything not a preset is offered every dtype', () => {
    expect(offeredDtypes(presetById('someone/else'), DTYPES)).toEqual(DTYPES);
  });
});
