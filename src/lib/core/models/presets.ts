// Small instruction models with ONNX weights on the hub, as offered in the model picker. Each lists
// only the dtypes its repository publishes (a dtype it lacks would be a 404), with the download
// sizes of those files. Source of every figure: the repositories' onnx/ folders as listed on
// 2026-12-01 (../shared/platform-notes.md, "Real hub models"). fp16 and q4f16 need shader-f16.
import type { Backend, Dtype } from './model-types.ts';

export interface ModelPreset {
  id: string;
  label: string;
  /** Download size in MB of each dtype's files, to warn before a large download; absent when unknown. */
  approxMB: Partial<Record<Dtype, number>>;
  /** The dtypes the repository publishes, in the order the picker offers them. */
  dtypes: readonly Dtype[];
  /** The default where the load runs on WebGPU; on WASM, defaultDtypeFor prefers q8 (slowOnWasm says why). */
  defaultDtype: Dtype;
}

export const HUB_PRESETS: readonly ModelPreset[] = [
  {
    id: 'onnx-community/Qwen2.5-0.5B-Instruct',
    label: 'Qwen2.5 0.5B Instruct',
    // onnx/model.onnx 1.99 GB (one file), model_fp16 997 MB, model_quantized 512 MB,
    // model_q4 786 MB (its embedding stays fp32, so q4 is larger than q8), model_q4f16 483 MB.
    approxMB: { q4: 786, q8: 512, fp32: 1990, fp16: 997, q4f16: 483 },
    dtypes: ['q4', 'q8', 'fp32', 'fp16', 'q4f16'],
    defaultDtype: 'q4',
  },
  {
    id: 'onnx-community/Qwen3-0.6B-ONNX',
    label: 'Qwen3 0.6B',
    // onnx/model.onnx about 0.3 GB + model.onnx_data about 1.9 GB, model_q4 about 919 MB,
    // model_q4f16 544–570 MB (the larger figure), model_quantized published with no size stated
    // in our notes (model_int8, a near twin, is 627 MB): the picker states no size for q8.
    // No model_fp16 file is listed.
    approxMB: { q4: 919, fp32: 2200, q4f16: 570 },
    dtypes: ['q4', 'q8', 'fp32', 'q4f16'],
    defaultDtype: 'q4',
  },
  {
    id: 'HuggingFaceTB/SmolLM2-360M-Instruct',
    label: 'SmolLM2 360M Instruct (English-centred)',
    // onnx/model.onnx 1.64 GB, model_fp16 819 MB, model_q4 417 MB, model_q4f16 299 MB; no q8
    // (model_quantized) file, so q8 is not offered.
    approxMB: { q4: 417, fp32: 1640, fp16: 819, q4f16: 299 },
    dtypes: ['q4', 'fp32', 'fp16', 'q4f16'],
    defaultDtype: 'q4',
  },
];

/** The preset a picker choice names, if it is one. */
export function presetById(id: string): ModelPreset | undefined {
  return HUB_PRESETS.find((p) => p.id === id);
}

/** The dtypes the picker offers for a model: a preset's own list, every dtype for anything else. */
export function offeredDtypes(preset: ModelPreset | undefined, all: readonly Dtype[]): readonly Dtype[] {
  return preset ? preset.dtypes : all;
}

/**
 * Whether `dtype` is slow on WASM: onnxruntime-web's WASM MatMulNBits kernel (the 4-bit matmul of
 * q4 and q4f16) turns the whole weight matrix back into fp32 on every run, so each forward costs about
 * one full prompt's forward whatever its token count (issue 35, scripts/bench/matmulnbits-wasm.ts: on
 * a Qwen3-0.6B shape a decode step took 2.4–3.4 s on q4 against 0.18–0.24 s on q8, a 59-token prompt
 * 5.8 s against 3.2 s). WebGPU has its own MatMulNBits kernel, which does not.
 */
export function slowOnWasm(dtype: Dtype): boolean {
  return dtype === 'q4' || dtype === 'q4f16';
}

/**
 * The dtype a preset starts on when the load will run on `backend`: on WASM q8 where the repository
 * publishes it (slowOnWasm), else the preset's own default; on WebGPU, or while the backend is not
 * known yet (null), the preset's own default.
 */
export function defaultDtypeFor(preset: ModelPreset, backend: Backend | null): Dtype {
  if (backend === 'wasm' && slowOnWasm(preset.defaultDtype) && preset.dtypes.includes('q8')) return 'q8';
  return preset.defaultDtype;
}
