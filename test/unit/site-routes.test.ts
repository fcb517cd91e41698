// The routes the dev, preview and test servers share: model folders, the listing, ORT's wasm, and
// no way out of a model folder.
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { siteRoutes } from '../../scripts/site-routes.ts';

describe('siteRoutes', () => {
  let server: Server;
  let base: string;
  const saved = process.env.JIANGU_MODELS;
  beforeAll(async () => {
    const root = mkdtempSync(join(tmpdir(), 'jiangu-routes-'));
    mkdirSync(join(root, 'my-model', 'onnx'), { recursive: true });
    writeFileSync(join(root, 'my-model', 'config.json'), '{"model_type":"llama"}');
    writeFileSync(join(root, 'secret.txt'), 'outside any model folder');
    process.env.JIANGU_MODELS = root;
    const routes = siteRoutes({ serveOrt: true });
    server = createServer((req, res) => routes(req, res, () => res.writeHead(418).end()));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    process.env.JIANGU_MODELS = saved;
    server.close();
  });

  it('lists and serves folders named in JIANGU_MODELS, cross-origin isolated', async () => {
    const listing = (await (await fetch(`${base}/models/index.json`)).json()) as { models: string[] };
    expect(listing.models).toContain('my-model');
    const config = await fetch(`${base}/models/my-model/config.json`);
    expect(config.status).toBe(200);
    expect(await config.json()).toEqual({ model_type: 'llama' });
    expect(config.headers.get('cross-origin-embedder-policy')).toBe('require-corp');
  });

  it('answers 404 for missing files and for paths that climb out of the model roots', async () => {
    expect((await fetch(`${base}/models/my-model/onnx/model_q4.onnx`)).status).toBe(404);
    expect((await fetch(`${base}/models/my-model/%2e%2e/secret.txt`)).status).toBe(404);
    expect((await fetch(`${base}/models/..%2fsecret.txt`)).status).toBe(404);
  });

  it("serves onnxruntime-web's asyncify wasm and nothing else from its folder", async () => {
    const wasm = await fetch(`${base}/ort/ort-wasm-simd-threaded.asyncify.wasm`);
    expect(wasm.status).toBe(200);
    expect(wasm.headers.get('content-type')).toBe('application/wasm');
    expect(new Uint8Array(await wasm.arrayBuffer()).slice(0, 4)).toEqual(new Uint8Array([0, 0x61, 0x73, 0x6d]));
    expect((await fetch(`${base}/ort/ort.min.mjs`)).status).toBe(418); // passed on, not served
  });
});
