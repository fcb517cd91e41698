// What a fake model client's load() answers in the engine's unit tests (the real worker's answer is
// checked in the browser tests): a loaded model on `backend`, with a context of 2,048 positions
// unless the test says otherwise.
import type { LoadResult } from '../../../src/lib/engine/messages.ts';

export function fakeLoadResult(backend: 'wasm' | 'webgpu', overrides: Partial<LoadResult> = {}): LoadResult {
  return {
    backendInfo: { backend, wasmThreads: 1, crossOriginIsolated: true },
    modelType: 'llama',
    vocabSize: 10,
    inputNames: ['input_ids'],
    loadMs: 1,
    transformersVersion: 't',
    ortVersion: 'o',
    context: { tokens: 2048, key: 'max_position_embeddings' },
    ...overrides,
  };
}
