import { describe, expect, it } from 'vitest';
import { classifyLoadError, classifyRunError, modelFileFor, type LoadContext } from '../../../src/lib/engine/model-errors.ts';

const hub: LoadContext = { source: { kind: 'hub', id: 'onnx-community/nope' }, dtype: 'q4', backend: 'webgpu' };

describe('classifyLoadError', () => {
  it('names the site folder when it does not exist', () => {
    const e = new Error('`local_files_only=true` or `env.allowRemoteModels=false` and file was not found locally at "/models/nope/config.json".');
    const info = classifyLoadError(e, { source: { kind: 'site', name: 'nope' }, dtype: 'fp32', backend: 'wasm' });
    expect(info.code).toBe('model-not-found');
    expect(info.message).toContain('/models/nope/');
  });

  it('names the model when its config is missing', () => {
    const e = new Error('Could not locate file: "https://huggingface.co/onnx-community/nope/resolve/main/config.json".');
    e.name = 'ModelFileNotFoundError';
    const info = classifyLoadError(e, hub);
    expect(info.code).toBe('model-not-found');
    expect(info.message).toContain('onnx-community/nope');
    expect(info.detail).toContain('config.json');
  });

  it('names the missing weights file when only the dtype is missing', () => {
    const e = new Error('`local_files_only=true` or `env.allowRemoteModels=false` and file was not found locally at "/models/jiangu-tiny/onnx/model_q4f16.onnx".');
    const info = classifyLoadError(e, { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'q4f16', backend: 'wasm' });
    expect(info.code).toBe('unsupported-dtype');
    expect(info.message).toContain('/models/jiangu-tiny/');
    const e404 = new Error('Could not locate file: "https://huggingface.co/x/y/resolve/main/onnx/model_q4f16.onnx".');
    const info404 = classifyLoadError(e404, { ...hub, dtype: 'q4f16' });
    expect(info404.code).toBe('unsupported-dtype');
    expect(info404.message).toContain('onnx/model_q4f16.onnx');
  });

  it('calls a damaged ONNX file damaged, naming the file', () => {
    const e = new Error("Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model because protobuf parsing failed.");
    const info = classifyLoadError(e, { source: { kind: 'site', name: 'broken' }, dtype: 'fp32', backend: 'wasm' });
    expect(info.code).toBe('invalid-model');
    expect(info.message).toContain('onnx/model.onnx');
    expect(info.message).toContain('/models/broken/');
  });

  it('says a file too large for WASM ran out of memory, naming the file and dtype, not that it is damaged', () => {
    // What onnxruntime-web said loading the real-shaped Qwen2.5-0.5B fp32 and fp16 files on WASM (npm run bench:real).
    const e = new Error("Error: Can't create a session. ERROR_CODE: 6, ERROR_MESSAGE: std::bad_alloc");
    const info = classifyLoadError(e, { source: { kind: 'site', name: 'real-qwen2.5-0.5b' }, dtype: 'fp16', backend: 'wasm' });
    expect(info.code).toBe('out-of-memory');
    expect(info.notice.code).toBe('model.load-out-of-memory');
    expect(info.message).toContain('onnx/model_fp16.onnx');
    expect(info.message).toContain('(fp16)');
    expect(info.message).toContain('4 GB');
    expect(info.message).toContain('/models/real-qwen2.5-0.5b/');
  });

  it('explains a GPU without fp16', () => {
    const info = classifyLoadError(new Error('The device (webgpu) does not support fp16.'), { ...hub, dtype: 'fp16' });
    expect(info.code).toBe('unsupported-dtype');
    expect(info.message).toMatch(/shader-f16/);
  });
});

describe('classifyRunError', () => {
  it.each([
    ['RangeError: Array buffer allocation failed', 'out-of-memory'],
    ['Error: failed to allocate a buffer of size 2147483648: out of memory', 'out-of-memory'],
    ['TypeError: Failed to fetch', 'network'],
    ['No available adapters.', 'webgpu-unavailable'],
    ['something else entirely', 'internal'],
  ])('%s → %s', (text, code) => {
    expect(classifyRunError(new Error(text), { backend: 'webgpu' }).code).toBe(code);
  });

  it('says which memory ran out', () => {
    expect(classifyRunError(new Error('out of memory'), { backend: 'webgpu' }).message).toContain('GPU');
    expect(classifyRunError(new Error('out of memory'), { backend: 'wasm' }).message).toContain('tab');
  });
});

describe('modelFileFor', () => {
  it('follows the transformers.js suffixes', () => {
    expect(modelFileFor('fp32')).toBe('onnx/model.onnx');
    expect(modelFileFor('q8')).toBe('onnx/model_quantized.onnx');
    expect(modelFileFor('q4')).toBe('onnx/model_q4.onnx');
  });
});
