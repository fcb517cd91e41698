// Memory failures told as such (issue 43, item 5), wherever they are caught: the texts V8, emscripten,
// onnxruntime and WebGPU give, classified in a load, in a request, and in the worker's 'error' event
// (through ModelClient, on a fake worker), and the texts that only look alike left alone.
import { describe, expect, it } from 'vitest';
import { ranOutOfMemory } from '../../../src/lib/engine/memory-failure.ts';
import { classifyLoadError, classifyRunError, workerCrashError } from '../../../src/lib/engine/model-errors.ts';
import { ModelClient } from '../../../src/lib/engine/model-client.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';

const MEMORY_TEXTS = [
  // What the test fault (workers/memory-fault.ts) gets from Chromium 14x, and V8's other wordings.
  'RangeError: WebAssembly.Memory.grow(): Unable to grow instance memory',
  'Uncaught RangeError: WebAssembly.Memory.grow(): Unable to grow instance memory',
  'RangeError: WebAssembly.Memory.grow(): Maximum memory size exceeded',
  'RangeError: WebAssembly.Memory(): could not allocate memory',
  'RangeError: Out of memory: Cannot allocate Wasm memory for new instance',
  'RangeError: Array buffer allocation failed',
  'RangeError: Invalid typed array length: 4294967296',
  'RuntimeError: Aborted(OOM)',
  'RuntimeError: Aborted(Cannot enlarge memory arrays to size 4294983680 bytes (OOM).)',
  'RuntimeError: Aborted()',
  'Error: failed to allocate a buffer of size 2147483648.',
  "Error: Can't create a session. ERROR_CODE: 6, ERROR_MESSAGE: std::bad_alloc",
  'Error: [WebGPU] Kernel "[MatMul]" failed. Error: Buffer size (4294967296) exceeds the max buffer size limit (2147483648)',
  'GPUDevice.createBuffer: size exceeds maxBufferSize',
  'Error: out of memory',
];

const OTHER_TEXTS = [
  'RangeError: Maximum call stack size exceeded',
  'RangeError: Invalid typed array length: -1',
  'RangeError: Invalid array length',
  'Error: The Bloom model failed to zoom into its room', // "oom" inside words is not OOM
  'RuntimeError: unreachable',
  'TypeError: Failed to fetch',
];

describe('ranOutOfMemory', () => {
  it.each(MEMORY_TEXTS)('memory: %s', (text) => expect(ranOutOfMemory(text)).toBe(true));
  it.each(OTHER_TEXTS)('not memory: %s', (text) => expect(ranOutOfMemory(text)).toBe(false));
});

const site = { source: { kind: 'site' as const, name: 'jiangu-tiny' }, dtype: 'fp32' as const };

describe('a memory failure in a request', () => {
  it('names the model, the dtype and which memory, and says what to try and that nothing stored is lost', () => {
    const info = classifyRunError(new RangeError('WebAssembly.Memory.grow(): Unable to grow instance memory'), { ...site, backend: 'wasm' });
    expect(info.code).toBe('out-of-memory');
    expect(info.notice).toEqual({ code: 'model.out-of-memory', params: { on: 'tab', source: 'site', name: 'jiangu-tiny', dtype: 'fp32' } });
    expect(info.message).toBe(
      "The site's model folder /models/jiangu-tiny/ (fp32) ran out of this tab’s memory. Load it again with a smaller dtype (q4 instead of fp32, or q8), keep one model loaded at a time and close other tabs. Stored runs and data are kept; a stopped run resumes from its last stored item.",
    );
    expect(renderNotice(info.notice, 'zh')).toBe('本站的模型文件夹 /models/jiangu-tiny/（fp32）运行时本标签页内存不足。请换更小的量化精度重新加载（用 q4 代替 fp32，或用 q8），同一时间只加载一个模型，并关闭其他标签页。已保存的评测和数据都不会丢失；中断的评测可从最后保存的题目继续。');
  });

  it('suggests a smaller model, not a smaller dtype, for a model already in 4 bits', () => {
    const info = classifyRunError(new Error('Aborted(OOM)'), { source: { kind: 'hub', id: 'org/m' }, dtype: 'q4', backend: 'wasm' });
    expect(info.message).toMatch(/^org\/m \(q4\) ran out of this tab’s memory\. Load a smaller model, keep one model/);
    expect(renderNotice(info.notice, 'zh')).toContain('请换更小的模型，同一时间只加载一个模型');
  });

  it('words a record of an older version, which stored `{ on }` alone', () => {
    expect(renderNotice({ code: 'model.out-of-memory', params: { on: 'gpu' } }, 'en')).toMatch(/^The model ran out of GPU memory\. .*or run it on WASM\./);
  });
});

describe('a memory failure in a load', () => {
  it('is the load notice, with the file, whatever engine said it', () => {
    const info = classifyLoadError(new RangeError('WebAssembly.Memory.grow(): Unable to grow instance memory'), { ...site, backend: 'wasm' });
    expect(info.notice.code).toBe('model.load-out-of-memory');
    expect(info.message).toContain('onnx/model.onnx (fp32)');
    expect(info.message).toContain('Stored runs and data are kept');
  });
});

describe("the worker's 'error' event", () => {
  it('is a memory failure of the model last loaded when its message says so, else a crash', () => {
    const oom = workerCrashError('Uncaught RangeError: Array buffer allocation failed', { ...site, backend: 'webgpu' });
    expect(oom.notice).toEqual({ code: 'model.out-of-memory', params: { on: 'gpu', source: 'site', name: 'jiangu-tiny', dtype: 'fp32' } });
    expect(workerCrashError('Uncaught RuntimeError: unreachable', site).notice.code).toBe('model.worker-crashed');
  });

  it('reaches every request pending on the client as the memory failure, naming what it was loading', async () => {
    const fake = new EventTarget() as EventTarget & { postMessage: () => void; terminate: () => void };
    fake.postMessage = () => {};
    fake.terminate = () => {};
    const client = new ModelClient(() => fake as unknown as Worker);
    const load = client.load({ ...site, backend: 'wasm' });
    const event = new Event('error');
    Object.defineProperty(event, 'message', { value: 'Uncaught RangeError: WebAssembly.Memory.grow(): Unable to grow instance memory' });
    fake.dispatchEvent(event);
    await expect(load).rejects.toMatchObject({ code: 'out-of-memory', notice: { code: 'model.out-of-memory', params: { on: 'tab', name: 'jiangu-tiny', dtype: 'fp32' } } });
  });
});
