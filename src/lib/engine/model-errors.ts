// Turns whatever transformers.js, onnxruntime-web or the browser threw into a message a user can
// act on. Pure (no DOM), so it is unit-tested in Node with the error texts those libraries produce.
import type { Dtype, ModelErrorInfo, ModelSource } from './messages.ts';

export interface LoadContext {
  source: ModelSource;
  dtype: Dtype;
  backend: 'webgpu' | 'wasm';
}

export function describeSource(source: ModelSource): string {
  return source.kind === 'hub'
    ? `${source.id}${source.revision ? `@${source.revision}` : ''}`
    : `the site's model folder /models/${source.name}/`;
}

const dtypeSuffix: Record<Dtype, string> = { fp32: '', fp16: '_fp16', q8: '_quantized', q4: '_q4', q4f16: '_q4f16' };

/** The ONNX file transformers.js loads for a dtype. */
export function modelFileFor(dtype: Dtype): string {
  return `onnx/model${dtypeSuffix[dtype]}.onnx`;
}

function textOf(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  if (typeof error === 'number') return `onnxruntime error code ${error}`;
  return String(error);
}

/** Classifies an error thrown while loading a model. */
export function classifyLoadError(error: unknown, ctx: LoadContext): ModelErrorInfo {
  const detail = textOf(error);
  const where = describeSource(ctx.source);
  const file = modelFileFor(ctx.dtype);
  if (/Could not locate file|Unauthorized access|Forbidden access|ModelFileNotFoundError|no such model file|not found locally/i.test(detail)) {
    const missingWeights = /onnx\/model[^"]*\.onnx/.test(detail);
    return missingWeights
      ? {
          code: 'unsupported-dtype',
          message: `${where} has no ${ctx.dtype} weights (${file} was not found). Pick another dtype.`,
          detail,
        }
      : {
          code: 'model-not-found',
          message: `No model found at ${where}: check the model id (for example onnx-community/Qwen3-0.6B-ONNX) or the folder name.`,
          detail,
        };
  }
  if (/does not support fp16|shader-f16/i.test(detail)) {
    return {
      code: 'unsupported-dtype',
      message: `This GPU cannot run ${ctx.dtype} (it lacks the shader-f16 feature). Use fp32, q8 or q4, or the WASM backend.`,
      detail,
    };
  }
  if (/create a session|failed to load model|protobuf parsing failed|Unexpected token .* in JSON|is not valid JSON|invalid model|reading 'tokenizer_class'/i.test(detail)) {
    return {
      code: 'invalid-model',
      message: `${where} could not be read: ${file} or its configuration is damaged or not what transformers.js expects. Download it again or pick another model.`,
      detail,
    };
  }
  if (/Invalid dtype|Unsupported data type|not (implemented|supported).*(MatMulNBits|type)/i.test(detail)) {
    return { code: 'unsupported-dtype', message: `The ${ctx.dtype} weights of ${where} cannot run on ${ctx.backend}. Pick another dtype or backend.`, detail };
  }
  return classifyRunError(error, ctx);
}

/** Classifies an error thrown while running a loaded model (or one no other rule matched). */
export function classifyRunError(error: unknown, ctx?: Pick<LoadContext, 'backend'>): ModelErrorInfo {
  const detail = textOf(error);
  if (/No available adapters|webgpu.*(not|un)(available|supported)|requestAdapter|navigator\.gpu/i.test(detail)) {
    return {
      code: 'webgpu-unavailable',
      message: 'WebGPU is not available in this browser. Choose WASM (slower, works everywhere) or enable WebGPU.',
      detail,
    };
  }
  if (/out of memory|Array buffer allocation failed|bad_alloc|Cannot allocate|OOM|maxBufferSize|exceeds the max buffer size|Aborted\(\)/i.test(detail)) {
    const on = ctx?.backend === 'webgpu' ? 'GPU' : 'tab';
    return {
      code: 'out-of-memory',
      message: `The model does not fit in this ${on}'s memory. Try a smaller model or a smaller dtype (q4), close other tabs, or switch backend.`,
      detail,
    };
  }
  if (/Failed to fetch|NetworkError|ERR_|net::|network|Load failed|TypeError: fetch/i.test(detail)) {
    return {
      code: 'network',
      message: 'A download failed (network error). Check the connection, or use a model folder served by this site.',
      detail,
    };
  }
  return { code: 'internal', message: `The model failed: ${detail}`, detail };
}
