// A model check made by the project's own code (buildModelCheck) from the facts a worker gathers on a
// small Qwen-shaped graph (2 layers, so the mutation tests stay quick): chunked prefill with its
// warning's numbers, a rewritten logits path and graph statistics each with their check, external
// data, and the letters' token ids. The run-file and memorization fixtures carry it.
import { buildModelCheck, type ModelCheck } from '../../../src/lib/core/models/model-check.ts';
import type { OnnxValue } from '../../../src/lib/core/models/onnx-scan.ts';
import { notice } from '../../../src/lib/core/notices/index.ts';

export function madeModelCheck(): ModelCheck {
  const inputs: OnnxValue[] = [{ name: 'input_ids', elemType: 'int64', dims: ['batch_size', 'sequence_length'] }];
  for (let i = 0; i < 2; i++) inputs.push({ name: `past_key_values.${i}.key`, elemType: 'float16', dims: ['batch_size', 8, 'past_sequence_length', 128] });
  return buildModelCheck({
    onnxFile: 'onnx/model_q4f16.onnx',
    scan: {
      irVersion: 8,
      producer: 'onnxruntime-genai',
      producerVersion: '0.5',
      opsets: [{ domain: '', version: 21 }],
      inputs,
      outputs: [{ name: 'logits', elemType: 'float16', dims: ['batch_size', 'sequence_length', 151936] }],
      ops: [{ domain: 'com.microsoft', opType: 'GroupQueryAttention', count: 2 }],
      initializers: 30,
      inlineBytes: 3_000_000,
      externalData: [{ location: 'model.onnx_data', bytes: 190_000_000 }],
      fileBytes: 3_000_123,
    },
    config: { num_hidden_layers: 2, num_attention_heads: 16, num_key_value_heads: 8, head_dim: 128, vocab_size: 151936, max_position_embeddings: 40960 },
    dtype: 'q4f16',
    backend: 'webgpu',
    shaderF16: true,
    inputNames: [],
    externalData: { files: ['onnx/model.onnx_data'], how: 'detected' },
    prefillRows: 110,
    logitsPath: { kind: 'chunked', refusal: notice('run.items-failed', { count: 2 }) },
    statisticsPath: { kind: 'graph', check: { tokens: 8, maxAbsDiff: 0.0001 } },
    positions: 40960,
    letters: [{ letter: 'A', tokenId: 32, tokenCount: 1, idsInContext: [32], mergesWithPrompt: false, aloneIds: [29871, 32] }],
    prompt: { chars: 446, tokens: 500 },
    chatTemplate: { opening: '<|im_start|>user\n', closing: '<|im_end|>\n<|im_start|>assistant\n', thinking: 'off' },
  });
}
