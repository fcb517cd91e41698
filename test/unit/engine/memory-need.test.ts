// The memory check's arithmetic and its size lookup (issue 43, item 5): what a load needs, the room a
// device's report leaves a tab, the verdict, the dtype suggested, and the files' sizes as the lookup
// reads them from Cache Storage or the host, against a fake host that records what it is asked.
import { describe, expect, it } from 'vitest';
import { loadFactor, LOAD_FACTORS, RUNTIME_BYTES, memoryNeed, memoryVerdict, reportedDeviceGiB, roomForTab, smallerDtype } from '../../../src/lib/engine/memory-need.ts';
import { modelFilesSize, modelFolderUrl } from '../../../src/lib/engine/model-size.ts';
import { presetById } from '../../../src/lib/core/models/presets.ts';

const GiB = 1024 ** 3;
const MiB = 1024 ** 2;

describe('memoryNeed and the verdict', () => {
  it('is the files × the dtype’s load factor + RUNTIME_BYTES; the hub’s q4 of a 0.5B model needs more than its q8, a float16 graph more per byte than either', () => {
    expect(memoryNeed(0, 'q8')).toBe(RUNTIME_BYTES);
    expect(memoryNeed(512 * MiB, 'q8')).toBe(Math.round(512 * MiB * LOAD_FACTORS.q8 + RUNTIME_BYTES));
    // Qwen2.5-0.5B-Instruct's files: q4 786 MB (the float32 embedding kept), q8 512 MB.
    expect(memoryNeed(786e6, 'q4')).toBeGreaterThan(memoryNeed(512e6, 'q8'));
    for (const d of ['q8', 'q4'] as const) expect(loadFactor('fp16')).toBeGreaterThan(loadFactor(d));
  });

  it('leaves a tab the reported memory less 1 GiB, or half of a small device', () => {
    expect(roomForTab(8)).toBe(7 * GiB);
    expect(roomForTab(2)).toBe(1 * GiB);
    expect(roomForTab(1)).toBe(0.5 * GiB);
    expect(roomForTab(0.25)).toBe(0.125 * GiB);
  });

  it('asks only when the need exceeds the room; says nothing can be told without a size or a report', () => {
    // Qwen2.5-0.5B's q8 file (512 MB) on a 2 GB phone: 1.4 GB against 1 GB.
    expect(memoryVerdict(512 * MiB, 2, 'q8')).toMatchObject({ kind: 'exceeds', deviceGiB: 2, room: GiB });
    expect(memoryVerdict(512 * MiB, 8, 'q8')).toMatchObject({ kind: 'fits', room: 7 * GiB });
    expect(memoryVerdict(512 * MiB, null, 'q8')).toEqual({ kind: 'device-unknown', need: memoryNeed(512 * MiB, 'q8') });
    expect(memoryVerdict(null, 2, 'q8')).toEqual({ kind: 'size-unknown', deviceGiB: 2 });
    // The runtime alone does not fit a quarter-gigabyte report (what the browser test stubs).
    expect(memoryVerdict(10_000, 0.25, 'q8').kind).toBe('exceeds');
  });

  it('reads navigator.deviceMemory only when it is a positive number', () => {
    expect(reportedDeviceGiB(8)).toBe(8);
    expect(reportedDeviceGiB(0.5)).toBe(0.5);
    for (const nothing of [undefined, null, 0, -1, Number.NaN, '8']) expect(reportedDeviceGiB(nothing)).toBeNull();
  });
});

describe('smallerDtype', () => {
  it('steps fp32 → q8 → q4, and has none below q4', () => {
    expect(smallerDtype('fp32')).toBe('q8');
    expect(smallerDtype('fp16')).toBe('q8');
    expect(smallerDtype('q8')).toBe('q4');
    expect(smallerDtype('q4')).toBeNull();
    expect(smallerDtype('q4f16')).toBeNull();
  });

  it("keeps to a preset's published dtypes, and to smaller files where it states sizes", () => {
    // SmolLM2 publishes no q8.
    expect(smallerDtype('fp32', presetById('HuggingFaceTB/SmolLM2-360M-Instruct'))).toBe('q4');
    // Qwen2.5's q4 (786 MB) is larger than its q8 (512 MB): q8 → q4 would not help.
    expect(smallerDtype('q8', presetById('onnx-community/Qwen2.5-0.5B-Instruct'))).toBeNull();
    expect(smallerDtype('fp32', presetById('onnx-community/Qwen2.5-0.5B-Instruct'))).toBe('q8');
  });
});

describe('modelFolderUrl', () => {
  it('is the folder the worker fetches from', () => {
    expect(modelFolderUrl({ kind: 'site', name: 'jiangu-tiny' }, 'http://127.0.0.1:4173/')).toBe('http://127.0.0.1:4173/models/jiangu-tiny/');
    expect(modelFolderUrl({ kind: 'hub', id: 'org/m' }, 'http://x/')).toBe('https://huggingface.co/org/m/resolve/main/');
    expect(modelFolderUrl({ kind: 'hub', id: 'org/m', revision: 'a/b', host: 'https://mirror.example/hf' }, 'http://x/')).toBe('https://mirror.example/hf/org/m/resolve/a%2Fb/');
  });
});

const BASE = 'https://host.example/org/m/resolve/main/';

/** A host holding `files` (path → bytes); records every request as "METHOD path". */
function host(files: Record<string, number>, options: { refuseHead?: boolean; offline?: boolean; noLength?: boolean } = {}) {
  const asked: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const path = String(input).slice(BASE.length);
    const method = init?.method ?? 'GET';
    asked.push(`${method} ${path}${new Headers(init?.headers).get('range') ? ' (range)' : ''}`);
    if (options.offline) throw new TypeError('Failed to fetch');
    if (method === 'HEAD' && options.refuseHead) return new Response(null, { status: 405 });
    const bytes = files[path];
    if (bytes === undefined) return new Response(null, { status: 404 });
    if (method === 'GET') return new Response('x', { status: 206, headers: { 'Content-Range': `bytes 0-0/${bytes}` } });
    return new Response(null, { status: 200, headers: options.noLength ? {} : { 'Content-Length': String(bytes) } });
  }) as typeof globalThis.fetch;
  return { asked, fetch };
}

describe('modelFilesSize', () => {
  it('asks the host for the dtype’s file and its external data, with HEADs, downloading nothing', async () => {
    const h = host({ 'onnx/model.onnx': 300, 'onnx/model.onnx_data': 2000, 'onnx/model.onnx_data_1': 500, 'onnx/model_q4.onnx': 90 });
    const size = await modelFilesSize(BASE, 'fp32', { fetch: h.fetch });
    expect(size).toEqual({ bytes: 2800, files: [{ path: 'onnx/model.onnx', bytes: 300, from: 'host' }, { path: 'onnx/model.onnx_data', bytes: 2000, from: 'host' }, { path: 'onnx/model.onnx_data_1', bytes: 500, from: 'host' }] });
    expect(h.asked).toEqual(['HEAD onnx/model.onnx', 'HEAD onnx/model.onnx_data', 'HEAD onnx/model.onnx_data_1', 'HEAD onnx/model.onnx_data_2']);
  });

  it('reads a one-byte GET’s Content-Range where the host refuses HEAD', async () => {
    const h = host({ 'onnx/model_q4.onnx': 90 }, { refuseHead: true });
    expect(await modelFilesSize(BASE, 'q4', { fetch: h.fetch })).toEqual({ bytes: 90, files: [{ path: 'onnx/model_q4.onnx', bytes: 90, from: 'host' }] });
    expect(h.asked).toEqual(['HEAD onnx/model_q4.onnx', 'GET onnx/model_q4.onnx (range)', 'HEAD onnx/model_q4.onnx_data', 'GET onnx/model_q4.onnx_data (range)']);
  });

  it('takes the stored copy’s size when the model was loaded before, without asking the host', async () => {
    const h = host({}, { offline: true });
    const stored: Record<string, Response> = { [`${BASE}onnx/model_q4.onnx`]: new Response(new Uint8Array(42)) };
    const size = await modelFilesSize(BASE, 'q4', { fetch: h.fetch, cached: async (url) => stored[url] });
    expect(size).toEqual({ bytes: 42, files: [{ path: 'onnx/model_q4.onnx', bytes: 42, from: 'cache' }] });
    // The data file is not stored: the host is asked, and cannot be reached, which ends the count.
    expect(h.asked).toEqual(['HEAD onnx/model_q4.onnx_data']);
  });

  it('is null when the file’s size cannot be told: offline, missing, or no length given', async () => {
    expect(await modelFilesSize(BASE, 'fp32', { fetch: host({ 'onnx/model.onnx': 1 }, { offline: true }).fetch })).toBeNull();
    expect(await modelFilesSize(BASE, 'q8', { fetch: host({ 'onnx/model.onnx': 1 }).fetch })).toBeNull();
    expect(await modelFilesSize(BASE, 'fp32', { fetch: host({ 'onnx/model.onnx': 1 }, { noLength: true }).fetch })).toBeNull();
  });
});
