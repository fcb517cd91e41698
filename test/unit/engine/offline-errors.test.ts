// Issue 23 item 9: offline, a site model never loaded failed with "No model found … check the model
// id", because transformers.js turns a failed fetch of a site file into "not found locally". A fetch
// that could not reach its host now says the model is not stored for offline use and which host
// cannot be reached; a real 404 still says there is no model there.
import { describe, expect, it } from 'vitest';
import { classifyLoadError, type LoadContext } from '../../../src/lib/engine/model-errors.ts';
import { FetchWatch } from '../../../workers/fetch-watch.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';

const ORIGIN = 'http://127.0.0.1:4173';
const site: LoadContext = { source: { kind: 'site', name: 'jiangu-tiny-gqa' }, dtype: 'fp32', backend: 'wasm' };
const siteFolder = `${ORIGIN}/jiangu/models/jiangu-tiny-gqa/`;
// What transformers.js 4.3.2 throws when the fetch of a site file failed (it logs the TypeError and goes on).
const notLocal = (path: string) => {
  const e = new Error(`\`local_files_only=true\` or \`env.allowRemoteModels=false\` and file was not found locally at "${path}".`);
  e.name = 'ModelFileNotFoundError';
  return e;
};

/** A FetchWatch over a fetch that answers from `answers` (a status) and throws TypeError for anything else. */
function watch(answers: Record<string, number>, stored: string[] = [], online = true) {
  return new FetchWatch({
    fetch: async (input) => {
      const url = new URL(String(input), `${ORIGIN}/jiangu/assets/model.worker.js`).href;
      if (url in answers) return new Response(null, { status: answers[url] });
      throw new TypeError('Failed to fetch');
    },
    online: () => online,
    stored: async (url) => stored.includes(url),
    base: `${ORIGIN}/jiangu/assets/model.worker.js`,
  });
}

describe('a load whose model files cannot be fetched', () => {
  it('a site model never stored, offline: not stored, the site unreachable, what to do; not "no model found"', async () => {
    const w = watch({}, [], false);
    await expect(w.fetch('/jiangu/models/jiangu-tiny-gqa/config.json')).rejects.toBeInstanceOf(TypeError);
    const unreachable = (await w.unreachable(siteFolder))!;
    expect(unreachable).toEqual({ urls: [`${siteFolder}config.json`], folderUrl: siteFolder, offline: true });
    const info = classifyLoadError(notLocal('/jiangu/models/jiangu-tiny-gqa/config.json'), { ...site, unreachable });
    expect(info.code).toBe('network');
    expect(info.notice).toEqual({ code: 'model.not-stored-offline', params: { source: 'site', name: 'jiangu-tiny-gqa', file: 'config.json', host: '127.0.0.1:4173', offline: true } });
    expect(info.message).toBe(
      "the site's model folder /models/jiangu-tiny-gqa/ is not stored in this browser for offline use (config.json is not kept here), and the site (127.0.0.1:4173) cannot be reached: the browser is offline. Connect to the network once and load the model: it is then kept, and loads without a connection.",
    );
    expect(info.message).not.toContain('No model found');
    expect(renderNotice(info.notice, 'zh')).toContain('没有保存在此浏览器中以供离线使用');
  });

  it('weights of a dtype never loaded: names that file, not "has no q8 weights"', async () => {
    const w = watch({ [`${siteFolder}config.json`]: 200 });
    await w.fetch(`${siteFolder}config.json`);
    // The external data HEAD and the weights fail; the error names the weights.
    await w.fetch(`${siteFolder}onnx/model_quantized.onnx_data`, { method: 'HEAD' }).catch(() => {});
    await w.fetch('/jiangu/models/jiangu-tiny-gqa/onnx/model_quantized.onnx').catch(() => {});
    const unreachable = (await w.unreachable(siteFolder))!;
    const info = classifyLoadError(notLocal('/jiangu/models/jiangu-tiny-gqa/onnx/model_quantized.onnx'), { ...site, dtype: 'q8', unreachable });
    expect(info.notice.code).toBe('model.not-stored-offline');
    expect(info.notice.params).toMatchObject({ file: 'onnx/model_quantized.onnx', offline: false });
    expect(info.message).toContain('cannot be reached. Connect');
  });

  it('a real 404 keeps its message, even after an unrelated fetch failed', async () => {
    const w = watch({ [`${ORIGIN}/jiangu/models/nope/config.json`]: 404 });
    await w.fetch(`${ORIGIN}/jiangu/models/nope/generation_config.json`).catch(() => {});
    expect((await w.fetch('/jiangu/models/nope/config.json')).status).toBe(404);
    const unreachable = (await w.unreachable(`${ORIGIN}/jiangu/models/nope/`))!;
    const info = classifyLoadError(notLocal('/jiangu/models/nope/config.json'), { ...site, source: { kind: 'site', name: 'nope' }, unreachable });
    expect(info.notice.code).toBe('model.not-found');
    expect(info.message).toContain('No model found at the site');
  });

  it('a hub model: names the hub; a mirror: names the mirror host', async () => {
    const hubFolder = 'https://huggingface.co/onnx-community/Qwen3-0.6B-ONNX/resolve/main/';
    const failed = new TypeError('Failed to fetch');
    const hub: LoadContext = { source: { kind: 'hub', id: 'onnx-community/Qwen3-0.6B-ONNX' }, dtype: 'q4f16', backend: 'wasm', unreachable: { urls: [`${hubFolder}config.json`], folderUrl: hubFolder, offline: false } };
    const info = classifyLoadError(failed, hub);
    expect(info.notice.params).toMatchObject({ source: 'hub', file: 'config.json', host: 'huggingface.co' });
    expect(info.message).toContain('onnx-community/Qwen3-0.6B-ONNX is not stored in this browser for offline use');
    expect(info.message).toContain('the Hugging Face hub (huggingface.co) cannot be reached');
    const mirrorFolder = 'https://hf-mirror.example/x/y/resolve/main/';
    const mirror = classifyLoadError(failed, { ...hub, source: { kind: 'hub', id: 'x/y', host: 'https://hf-mirror.example/' }, unreachable: { urls: [`${mirrorFolder}onnx/model_q4f16.onnx`], folderUrl: mirrorFolder, offline: false } });
    expect(mirror.message).toContain('the model host hf-mirror.example cannot be reached');
    expect(mirror.notice.params).toMatchObject({ file: 'onnx/model_q4f16.onnx' });
    // Without failed fetches the same error is the plain network message.
    expect(classifyLoadError(failed, { ...hub, unreachable: undefined }).notice.code).toBe('model.network');
  });

  it('a file a cache holds is not called unstored; an answered fetch is no failure', async () => {
    const w = watch({ [`${siteFolder}tokenizer.json`]: 500 }, [`${siteFolder}config.json`]);
    await w.fetch(`${siteFolder}config.json`).catch(() => {});
    expect((await w.fetch(`${siteFolder}tokenizer.json`)).status).toBe(500);
    expect(await w.unreachable(siteFolder)).toBeNull();
    await w.fetch(`${siteFolder}onnx/model.onnx`).catch(() => {});
    w.reset();
    expect(await w.unreachable(siteFolder)).toBeNull();
  });

  it('damage is damage, whatever failed to fetch before', () => {
    const e = new Error("Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model because protobuf parsing failed.");
    const info = classifyLoadError(e, { ...site, unreachable: { urls: [`${siteFolder}generation_config.json`], folderUrl: siteFolder, offline: true } });
    expect(info.notice.code).toBe('model.damaged');
  });
});
