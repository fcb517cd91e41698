// The worker's external-data detection, against a fake host: what it asks, in which order, and what
// it concludes from the config, the answers and the Cache Storage copy.
import { describe, expect, it } from 'vitest';
import { chunkName, declaredChunks, findExternalData, MAX_CHUNKS } from '../../../workers/external-data.ts';

const BASE = 'https://host.example/org/model/resolve/main/';

/** A host holding `files` (paths under BASE); records every request as "METHOD path". */
function host(files: readonly string[], options: { refuseHead?: boolean; offline?: boolean } = {}) {
  const asked: string[] = [];
  const fetch = (async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input);
    const method = init?.method ?? 'GET';
    asked.push(`${method} ${url.slice(BASE.length)}`);
    if (options.offline) throw new TypeError('Failed to fetch');
    if (method === 'HEAD' && options.refuseHead) return new Response(null, { status: 405 });
    const ok = files.includes(url.slice(BASE.length));
    return new Response(method === 'HEAD' || !ok ? null : 'x', { status: ok ? (method === 'HEAD' ? 200 : 206) : 404 });
  }) as typeof globalThis.fetch;
  return { asked, fetch };
}

describe('chunkName', () => {
  it('names the chunks as transformers.js asks for them', () => {
    expect([0, 1, 2].map((i) => chunkName('model_q4.onnx', i))).toEqual(['model_q4.onnx_data', 'model_q4.onnx_data_1', 'model_q4.onnx_data_2']);
  });
});

describe('declaredChunks', () => {
  const cfg = (value: unknown) => ({ 'transformers.js_config': { use_external_data_format: value } });
  it('reads use_external_data_format as transformers.js does; undefined when the config says nothing', () => {
    expect(declaredChunks({}, 'model.onnx')).toBeUndefined();
    expect(declaredChunks({ 'transformers.js_config': { kv_cache_dtype: 'float16' } }, 'model.onnx')).toBeUndefined();
    expect(declaredChunks(cfg(true), 'model.onnx')).toBe(1);
    expect(declaredChunks(cfg(false), 'model.onnx')).toBe(0);
    expect(declaredChunks(cfg(3), 'model_q4.onnx')).toBe(3);
    expect(declaredChunks(cfg({ 'model.onnx': 2 }), 'model.onnx')).toBe(2);
    expect(declaredChunks(cfg({ 'model.onnx': 2 }), 'model_q4.onnx')).toBe(0);
    expect(declaredChunks(cfg({ model: true }), 'model_fp16.onnx')).toBe(1);
  });
  it('lets a device_config entry override the top level for its device', () => {
    const config = { 'transformers.js_config': { use_external_data_format: 1, device_config: { webgpu: { use_external_data_format: 2 } } } };
    expect(declaredChunks(config, 'model.onnx', 'webgpu')).toBe(2);
    expect(declaredChunks(config, 'model.onnx', 'wasm')).toBe(1);
  });
});

describe('findExternalData', () => {
  it('config silent: HEADs model.onnx_data, then _1, … until one is missing (Qwen3-0.6B-ONNX fp32)', async () => {
    const h = host(['onnx/model.onnx', 'onnx/model.onnx_data', 'onnx/model.onnx_data_1']);
    const found = await findExternalData(BASE, 'model.onnx', {}, { fetch: h.fetch });
    expect(found).toEqual({ files: ['onnx/model.onnx_data', 'onnx/model.onnx_data_1'], how: 'detected' });
    expect(h.asked).toEqual(['HEAD onnx/model.onnx_data', 'HEAD onnx/model.onnx_data_1', 'HEAD onnx/model.onnx_data_2']);
  });

  it('config silent and no data file (a one-file export): one HEAD, null', async () => {
    const h = host(['onnx/model_q4.onnx', 'onnx/model.onnx_data']);
    expect(await findExternalData(BASE, 'model_q4.onnx', {}, { fetch: h.fetch })).toBeNull();
    expect(h.asked).toEqual(['HEAD onnx/model_q4.onnx_data']);
  });

  it('config declares: no request at all, the declared files (or null when it declares 0)', async () => {
    const h = host([]);
    const config = { 'transformers.js_config': { use_external_data_format: { 'model.onnx': 1 } } };
    expect(await findExternalData(BASE, 'model.onnx', config, { fetch: h.fetch })).toEqual({ files: ['onnx/model.onnx_data'], how: 'config' });
    expect(await findExternalData(BASE, 'model_q4.onnx', config, { fetch: h.fetch })).toBeNull();
    expect(h.asked).toEqual([]);
  });

  it('a host that refuses HEAD is asked for one byte instead', async () => {
    const h = host(['onnx/model.onnx_data'], { refuseHead: true });
    expect(await findExternalData(BASE, 'model.onnx', {}, { fetch: h.fetch })).toEqual({ files: ['onnx/model.onnx_data'], how: 'detected' });
    expect(h.asked.slice(0, 2)).toEqual(['HEAD onnx/model.onnx_data', 'GET onnx/model.onnx_data']);
  });

  it('offline: a Cache Storage copy counts; no copy and no connection means none', async () => {
    const h = host([], { offline: true });
    const cached = async (url: string) => (url === `${BASE}onnx/model.onnx_data` ? new Response('x') : undefined);
    expect(await findExternalData(BASE, 'model.onnx', {}, { fetch: h.fetch, cached })).toEqual({ files: ['onnx/model.onnx_data'], how: 'detected' });
    expect(await findExternalData(BASE, 'model_q4.onnx', {}, { fetch: h.fetch, cached })).toBeNull();
  });

  it('stops at transformers.js’ chunk limit', async () => {
    const many = Array.from({ length: MAX_CHUNKS + 5 }, (_, i) => `onnx/${chunkName('model.onnx', i)}`);
    const h = host(many);
    const found = await findExternalData(BASE, 'model.onnx', {}, { fetch: h.fetch });
    expect(found?.files.length).toBe(MAX_CHUNKS);
    expect(h.asked.length).toBe(MAX_CHUNKS);
  });
});
