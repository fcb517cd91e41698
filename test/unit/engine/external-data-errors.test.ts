// Load errors about external data, with the texts transformers.js 4.3.2 and onnxruntime-web
// produce (taken from real failed loads in Chromium): each names the data file, missing or damaged.
import { describe, expect, it } from 'vitest';
import { classifyLoadError, type LoadContext } from '../../../src/lib/engine/model-errors.ts';

const site: LoadContext = { source: { kind: 'site', name: 'qwenish' }, dtype: 'fp32', backend: 'wasm', externalFiles: ['onnx/model.onnx_data'] };
const hub: LoadContext = { source: { kind: 'hub', id: 'onnx-community/Qwen3-0.6B-ONNX' }, dtype: 'fp32', backend: 'webgpu' };
const ortFailure = (why: string) =>
  new Error(`Can't create a session. ERROR_CODE: 1, ERROR_MESSAGE: Deserialize tensor model.layers.1.self_attn.q_proj.weight_T failed.Failed to load external data file ""model.onnx_data"", error: ${why}.`);

describe('classifyLoadError on external data', () => {
  it('a declared data file the host does not have: missing, named (not "no fp32 weights")', () => {
    const e = new Error('`local_files_only=true` or `env.allowRemoteModels=false` and file was not found locally at "/models/qwenish/onnx/model.onnx_data".');
    e.name = 'ModelFileNotFoundError';
    const info = classifyLoadError(e, site);
    expect(info.notice).toEqual({ code: 'load.external-data-missing', params: { source: 'site', name: 'qwenish', file: 'onnx/model.onnx_data' } });
    expect(info.message).toContain('onnx/model.onnx_data');
    const hub404 = new Error('Could not locate file: "https://huggingface.co/onnx-community/Qwen3-0.6B-ONNX/resolve/main/onnx/model.onnx_data_1".');
    expect(classifyLoadError(hub404, hub).notice).toEqual({ code: 'load.external-data-missing', params: { source: 'hub', name: 'onnx-community/Qwen3-0.6B-ONNX', file: 'onnx/model.onnx_data_1' } });
  });

  it('data nobody fetched (ORT finds no mounted file): missing', () => {
    const info = classifyLoadError(ortFailure('Module.MountedFiles is not available'), { ...site, externalFiles: undefined });
    expect(info.notice.code).toBe('load.external-data-missing');
    expect(info.notice.params.file).toBe('onnx/model.onnx_data');
  });

  it('a data file shorter than the model says: damaged, named', () => {
    const info = classifyLoadError(ortFailure('Out of bounds'), site);
    expect(info.code).toBe('invalid-model');
    expect(info.notice).toEqual({ code: 'load.external-data-damaged', params: { source: 'site', name: 'qwenish', file: 'onnx/model.onnx_data' } });
    expect(info.detail).toContain('Out of bounds');
  });

  it('errors that are not about external data keep their own messages', () => {
    const weights = new Error('Could not locate file: "https://huggingface.co/x/y/resolve/main/onnx/model_q4f16.onnx".');
    expect(classifyLoadError(weights, { ...hub, dtype: 'q4f16' }).notice.code).toBe('model.no-dtype');
    expect(classifyLoadError(new Error('protobuf parsing failed'), site).notice.code).toBe('model.damaged');
  });
});
