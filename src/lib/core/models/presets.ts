// Small instruction models with ONNX weights on the hub, as offered in the model picker. The dtypes
// listed are the files those repositories publish; fp16 and q4f16 need a GPU with shader-f16.
import type { Dtype } from './model-types.ts';

export interface ModelPreset {
  id: string;
  label: string;
  /** Approximate download for the default dtype, to warn before a large download. */
  approxMB: Partial<Record<Dtype, number>>;
  dtypes: Dtype[];
  defaultDtype: Dtype;
}

export const HUB_PRESETS: readonly ModelPreset[] = [
  {
    id: 'onnx-community/Qwen2.5-0.5B-Instruct',
    label: 'Qwen2.5 0.5B Instruct',
    approxMB: { q4: 460, q8: 480, fp16: 990, q4f16: 420, fp32: 1980 },
    dtypes: ['q4', 'q8', 'fp32', 'fp16', 'q4f16'],
    defaultDtype: 'q4',
  },
  {
    id: 'onnx-community/Qwen3-0.6B-ONNX',
    label: 'Qwen3 0.6B',
    approxMB: { q4: 570, q8: 600, fp16: 1200, q4f16: 520, fp32: 2400 },
    dtypes: ['q4', 'q8', 'fp32', 'fp16', 'q4f16'],
    defaultDtype: 'q4',
  },
  {
    id: 'HuggingFaceTB/SmolLM2-360M-Instruct',
    label: 'SmolLM2 360M Instruct (English-centred)',
    approxMB: { q4: 270, q8: 370, fp16: 730, q4f16: 250, fp32: 1450 },
    dtypes: ['q4', 'q8', 'fp32', 'fp16', 'q4f16'],
    defaultDtype: 'q4',
  },
];
