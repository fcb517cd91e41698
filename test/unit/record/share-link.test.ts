import { describe, expect, it } from 'vitest';
import type { OptionLetter } from '../../../src/lib/core/benchmarks/types.ts';
import type { GenItemResult, GenRunRecord, McItemResult, McRunRecord } from '../../../src/lib/core/record/run.ts';
import { deflateRaw, frame, fromBase64Url, inflateRaw, toBase64Url, unframe } from '../../../src/lib/core/formats/share-link/share-bytes.ts';
import { renderNotice } from '../../../src/lib/core/notices/index.ts';
import { runSummary } from '../../../src/lib/core/metrics/run-summary.ts';
import { decodeShareLink, encodeShareLink, itemIdsHash, outputsHash, ShareLinkError, shareUrl } from '../../../src/lib/core/formats/share-link/share-link.ts';

const HASH = 'a'.repeat(64);
const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

function mcRun(n: number): McRunRecord {
  return {
    id: 'run-1',
    createdAt: '2025-01-02T03:04:05.000Z',
    updatedAt: '2025-01-02T04:00:00.000Z',
    datasetId: 'aclue',
    status: 'completed',
    config: {
      kind: 'multiple-choice',
      model: { source: { kind: 'hub', id: 'Qwen/Qwen2.5-0.5B-Instruct', revision: 'main' }, dtype: 'q4f16', backend: 'auto' },
      protocolId: 'aclue',
      protocolVersion: 2,
      templateHash: HASH,
      scoring: 'generate-extract',
      maxNewTokens: 32,
      shots: 5,
      contextLimit: 2048,
      chatTemplate: true,
      prefixReuse: false,
      datasetId: 'aclue',
      datasetFiles: [{ path: 'data/test/通假字.csv', sha256: 'b'.repeat(64) }],
      tasks: ['通假字', '古文断句'],
      limitPerTask: null,
      itemIds: Array.from({ length: n }, (_, i) => `aclue/test/通假字/${i}`),
      appVersion: '0.1.0+abc1234',
    },
    environment: {
      backendInfo: {
        backend: 'webgpu',
        adapter: { vendor: 'nvidia', architecture: 'ampere', device: '', description: '', isFallbackAdapter: false, shaderF16: true },
        wasmThreads: 4,
        crossOriginIsolated: true,
      },
      modelInputNames: ['input_ids'],
      transformersVersion: '3.0.0',
      ortVersion: '1.20.0',
      userAgent: 'test',
    },
    warnings: [],
  };
}

function mcResult(run: McRunRecord, index: number, prediction: OptionLetter | null): McItemResult {
  return {
    runId: run.id, itemId: run.config.itemIds[index], task: '通假字', index, prompt: 'p', promptHash: HASH, tokenCount: 10, shotsUsed: 5,
    exemplarIds: [], letters: LETTERS, tokenIds: [], logProbs: [], probs: [], prediction, gold: 'A', correct: prediction === 'A',
    reusedPrefixTokens: 0, forwardMs: 1, completedAt: '2025-01-02T03:05:00.000Z',
  };
}

function genRun(n: number): GenRunRecord {
  return {
    id: 'gen-1', createdAt: '2025-02-01T00:00:00.000Z', updatedAt: '2025-02-01T01:00:00.000Z', datasetId: 'c3bench', status: 'completed',
    config: {
      kind: 'generation', model: { source: { kind: 'site', name: 'tiny' }, dtype: 'fp32', backend: 'wasm' }, protocolId: 'c3bench',
      protocolVersion: 1, templateHash: HASH, chatTemplate: false, maxNewTokens: 128, decoding: { kind: 'sample', topK: 50, topP: 0.9, seed: 42 },
      datasetId: 'c3bench', datasetFiles: [{ path: 'c3bench.json', sha256: 'c'.repeat(64) }], tasks: ['translation'], limitPerTask: 100,
      itemIds: Array.from({ length: n }, (_, i) => `c3/translation/${i}`), appVersion: '0.1.0',
    },
    warnings: [],
  };
}

function genResult(run: GenRunRecord, index: number, output: string): GenItemResult {
  return {
    runId: run.id, itemId: run.config.itemIds[index], task: 'translation', generationTask: 'translation', index, prompt: 'p', promptHash: HASH,
    tokenCount: 5, output, outputTokenIds: [1, 2], stoppedBy: 'eos', references: ['r'], ms: 3, completedAt: '2025-02-01T00:10:00.000Z',
  };
}

/** The header JSON and packed letters inside a payload, for tampering. */
async function open(payload: string): Promise<{ header: Record<string, unknown>; packed: Uint8Array }> {
  const { header, packed } = unframe(await inflateRaw(fromBase64Url(payload), 1 << 20), 1 << 20);
  return { header: JSON.parse(new TextDecoder().decode(header)) as Record<string, unknown>, packed: packed.slice() };
}

async function craft(header: unknown, packed: Uint8Array = new Uint8Array(0), version = 1): Promise<string> {
  const json = typeof header === 'string' ? header : JSON.stringify(header);
  return toBase64Url(await deflateRaw(frame(version, new TextEncoder().encode(json), packed)));
}

async function rejection(payload: string): Promise<string> {
  try {
    await decodeShareLink(payload);
  } catch (e) {
    expect(e).toBeInstanceOf(ShareLinkError);
    return (e as Error).message;
  }
  throw new Error('decoded without error');
}

async function validMc(): Promise<{ payload: string; header: Record<string, unknown>; packed: Uint8Array }> {
  const run = mcRun(10);
  const results = run.config.itemIds.map((_, i) => mcResult(run, i, LETTERS[i % 4]));
  const payload = await encodeShareLink(run, results, runSummary(run, results));
  return { payload, ...(await open(payload)) };
}

describe('share link round trip', () => {
  it('carries a multiple-choice run: config, letters, nulls, unscored items, summary, environment', async () => {
    const run = mcRun(11);
    const predictions: (OptionLetter | null)[] = ['A', 'B', null, 'D', 'C', 'C', null, 'A', 'B', 'D'];
    // Item 5 has no result yet; item 10 (the last) neither, so only 10 slots are carried.
    const results = predictions.flatMap((p, i) => (i === 5 ? [] : [mcResult(run, i, p)]));
    // The summary the run page computes (a link's summary has a run summary's keys and ranges).
    const summary = runSummary(run, results);
    const payload = await encodeShareLink(run, results, summary);
    expect(payload).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(shareUrl('https://x.test/jiangu/#/runs', payload)).toBe(`https://x.test/jiangu/#/shared/${payload}`);

    const shared = await decodeShareLink(payload);
    expect(shared.kind).toBe('multiple-choice');
    if (shared.kind !== 'multiple-choice') return;
    expect(shared.version).toBe(1);
    expect(shared.predictions).toEqual(predictions.map((p, i) => (i === 5 ? null : p)));
    expect(shared.unscored).toEqual([5]);
    expect(shared.summary).toEqual(summary);
    expect(shared.createdAt).toBe(run.createdAt);
    expect(shared.environment).toEqual({ backend: 'webgpu', adapterArchitecture: 'ampere' });
    const { itemIds, ...config } = run.config;
    expect(shared.config).toEqual({ ...config, itemCount: 11, itemIdsHash: await itemIdsHash(itemIds) });
  });

  it("carries a hub model's resolved commit, so a reproduction can load the same files", async () => {
    const run = mcRun(4);
    run.config.model.source = { kind: 'hub', id: 'org/model', revision: 'main' };
    run.environment!.resolvedRevision = { commit: 'c'.repeat(40), how: 'response-header' };
    const shared = await decodeShareLink(await encodeShareLink(run, [mcResult(run, 0, 'A')], {}));
    expect(shared.environment).toEqual({ backend: 'webgpu', adapterArchitecture: 'ampere', modelCommit: 'c'.repeat(40) });
    run.environment!.resolvedRevision = { commit: null, how: null, note: 'offline' };
    expect((await decodeShareLink(await encodeShareLink(run, [mcResult(run, 0, 'A')], {}))).environment).toEqual({ backend: 'webgpu', adapterArchitecture: 'ampere' });
  });

  it('carries a generation run as one hash over its outputs', async () => {
    const run = genRun(3);
    const results = ['子曰', '学而时习之', '不亦说乎'].map((o, i) => genResult(run, i, o));
    const summary = runSummary(run, results);
    const payload = await encodeShareLink(run, results, summary);
    const shared = await decodeShareLink(payload);
    expect(shared.kind).toBe('generation');
    if (shared.kind !== 'generation') return;
    expect(shared.outputsHash).toBe(await outputsHash(run.config.itemIds, results));
    expect(shared.outputsHash).not.toBe(await outputsHash(run.config.itemIds, results.slice(0, 2)));
    expect(shared.outputCount).toBe(3);
    expect(shared.environment).toBeNull();
    expect(shared.config.decoding).toEqual({ kind: 'sample', topK: 50, topP: 0.9, seed: 42 });
    expect(shared.summary).toEqual(summary);
  });

  it.each([0.01, 0.3, 1])('keeps a 5,000-item multiple-choice link under 8 KB (%s of answers without a letter)', async (nullRate) => {
    const run = mcRun(5000);
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const results = run.config.itemIds.map((_, i) => mcResult(run, i, random() < nullRate ? null : LETTERS[Math.floor(random() * 4)]));
    const url = shareUrl('https://example.github.io/jiangu/', await encodeShareLink(run, results, runSummary(run, results)));
    console.log(`5,000-item multiple-choice share URL, ${nullRate * 100}% null: ${url.length} characters`);
    expect(url.length).toBeLessThan(8192);
    const shared = await decodeShareLink(url.slice(url.indexOf('#/shared/') + '#/shared/'.length));
    expect(shared.kind === 'multiple-choice' && shared.predictions).toEqual(results.map((r) => r.prediction));
  });

  it('returns HTML in strings unchanged, as data', async () => {
    const run = mcRun(2);
    // Tasks and summary keys are the benchmark's and a run summary's (share-check.ts): markup goes in free strings.
    run.config.appVersion = '<script>alert(1)</script>';
    run.config.datasetFiles = [{ path: '<img src=x onerror=alert(1)>', sha256: HASH }];
    const shared = await decodeShareLink(await encodeShareLink(run, [], {}));
    expect(shared.config.appVersion).toBe(run.config.appVersion);
    expect(shared.config.datasetFiles).toEqual(run.config.datasetFiles);
    expect(shared.kind === 'multiple-choice' && shared.predictions).toEqual([]);
  });
});

describe('share link refusals', () => {
  it('refuses text that is not base64url', async () => {
    expect(await rejection('abc$def')).toMatch(/not valid base64url.*"\$" at position 3/);
    expect(await rejection('abcde')).toMatch(/not valid base64url.*length/);
    expect(await rejection('')).toMatch(/empty/);
  });

  it('refuses truncated deflate data', async () => {
    const { payload } = await validMc();
    const bytes = fromBase64Url(payload);
    expect(await rejection(toBase64Url(bytes.subarray(0, bytes.length >> 1)))).toMatch(/not valid deflate data: it is truncated or corrupted/);
  });

  it('refuses valid deflate that is not JSON', async () => {
    expect(await rejection(await craft('{"kind": "multiple-choice", '))).toMatch(/header is not valid UTF-8 JSON/);
    expect(await rejection(toBase64Url(await deflateRaw(new TextEncoder().encode('hello, world'))))).toMatch(/format version 104/);
  });

  it('refuses wrong types, naming the field', async () => {
    const { header, packed } = await validMc();
    const config = header.config as Record<string, unknown>;
    expect(await rejection(await craft({ ...header, config: { ...config, shots: '5' } }, packed))).toMatch(/`config\.shots` is the string "5"; expected an integer/);
    expect(await rejection(await craft({ ...header, config: { ...config, templateHash: 'x' } }, packed))).toMatch(/`config\.templateHash`.*sha256/);
    expect(await rejection(await craft({ ...header, config: { ...config, datasetId: 'evil' } }, packed))).toMatch(/`config\.datasetId`.*expected one of aclue/);
    expect(await rejection(await craft({ ...header, summary: { accuracy: '1' } }, packed))).toMatch(/`summary\.accuracy`/);
    expect(await rejection(await craft({ ...header, config: { ...config, extra: 1 } }, packed))).toMatch(/`config` has an unknown field "extra"/);
    const environment = header.environment as Record<string, unknown>;
    expect(await rejection(await craft({ ...header, environment: { ...environment, modelCommit: 'main' } }, packed))).toMatch(/`environment.modelCommit`.*40 lower-case hex digits/);
    expect(await rejection(await craft([1, 2], packed))).toMatch(/`header` is a list of 2; expected an object/);
  });

  it('refuses an oversized string field, naming it (on decode and on encode)', async () => {
    const { header, packed } = await validMc();
    const config = header.config as Record<string, unknown>;
    expect(await rejection(await craft({ ...header, config: { ...config, appVersion: 'x'.repeat(501) } }, packed))).toMatch(/`config\.appVersion` is 501 characters long; the most is 500/);
    const run = mcRun(1);
    run.config.tasks = ['t'.repeat(600)];
    await expect(encodeShareLink(run, [], {})).rejects.toThrow(/cannot be shared.*`config\.tasks\[0\]` is 600 characters/);
  });

  it('refuses control characters in strings', async () => {
    const { header, packed } = await validMc();
    expect(await rejection(await craft({ ...header, createdAt: 'a\u0000b' }, packed))).toMatch(/`createdAt` contains the control character U\+0000 at position 1/);
    expect(await rejection(await craft({ ...header, summary: { 'a\u202eb': 1 } }, packed))).toMatch(/control character U\+202E/);
    // The run importer's rule (text-safety.ts): a zero-width space would make 部首 and 部首\u200b two tasks that look alike.
    expect(await rejection(await craft({ ...header, summary: { '部首\u200b': 1 } }, packed))).toMatch(/control character U\+200B at position 2/);
  });

  it('refuses an unknown version', async () => {
    const { header, packed } = await validMc();
    expect(await rejection(await craft(header, packed, 2))).toMatch(/format version 2; this page reads version 1 only/);
  });

  it('refuses more predictions than the run has items', async () => {
    const { header, packed } = await validMc();
    expect(await rejection(await craft({ ...header, n: 11 }, new Uint8Array(3)))).toMatch(/holds 11 predictions but its run has 10 items/);
    expect(await rejection(await craft(header, new Uint8Array([...packed, 0, 0])))).toMatch(/predictions take 5 bytes; 10 predictions need exactly 3 \(more predictions/);
    expect(await rejection(await craft({ ...header, gaps: true }, packed))).toMatch(/predictions take 3 bytes; 10 predictions need exactly 6 \(the data is cut short/);
    expect(await rejection(await craft({ ...header, gaps: true }, new Uint8Array([...packed, 0xff, 0, 0])))).toMatch(/status for prediction 0 is 3/);
  });

  it('refuses a deflate bomb without inflating it all', async () => {
    const bomb = toBase64Url(await deflateRaw(new Uint8Array(10_000_000)));
    expect(bomb.length).toBeLessThan(64 * 1024);
    expect(await rejection(bomb)).toMatch(/inflates to more than \d+ bytes/);
  });

  it('throws nothing but ShareLinkError for corrupted links', async () => {
    const { payload } = await validMc();
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    let seed = 1;
    const random = (n: number): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
    for (let k = 0; k < 300; k++) {
      const chars = [...payload];
      for (let m = 0; m <= random(3); m++) chars[random(chars.length)] = alphabet[random(64)];
      try {
        await decodeShareLink(chars.join(''));
      } catch (e) {
        expect(e).toBeInstanceOf(ShareLinkError);
      }
    }
  });

  it('refuses fields a formatter or a fetch would choke on: a createdAt that is not a date, a model host that is not http(s), an odd site model name', async () => {
    const { header, packed } = await validMc();
    const config = header.config as Record<string, unknown>;
    const model = config.model as Record<string, unknown>;
    for (const createdAt of ['yesterday', '2026-13-45T99:99:99Z', '2026-11-30', '']) {
      expect(await rejection(await craft({ ...header, createdAt }, packed)), createdAt).toMatch(/`createdAt` is .*; expected an ISO date and time/);
    }
    for (const host of ['javascript:alert(1)', 'file:///etc/passwd', 'not a url']) {
      const forged = { ...config, model: { ...model, source: { kind: 'hub', id: 'org/model', host } } };
      expect(await rejection(await craft({ ...header, config: forged }, packed)), host).toMatch(/`config\.model\.source\.host` .*; expected an http\(s\) URL/);
    }
    for (const name of ['..', '../secret', 'a/b', '.hidden', 'a..b']) {
      const forged = { ...config, model: { ...model, source: { kind: 'site', name } } };
      expect(await rejection(await craft({ ...header, config: forged }, packed)), name).toMatch(/`config\.model\.source\.name` .*; expected a model folder name/);
    }
    // What passes still decodes: an https host and a plain folder name.
    const hosted = { ...config, model: { ...model, source: { kind: 'hub', id: 'org/model', host: 'https://mirror.example/hf' } } };
    const decoded = await decodeShareLink(await craft({ ...header, config: hosted }, packed));
    expect(decoded.config.model.source).toEqual({ kind: 'hub', id: 'org/model', host: 'https://mirror.example/hf' });
  });

  it("gives every refusal as a 'link.*' notice, worded in both languages", async () => {
    const { header, packed } = await validMc();
    try {
      await decodeShareLink(await craft({ ...header, createdAt: 'soon' }, packed));
      throw new Error('decoded without error');
    } catch (e) {
      const n = (e as ShareLinkError).notice;
      expect(n.code).toBe('link.field-invalid');
      expect(n.params).toMatchObject({ path: 'createdAt' });
      expect(renderNotice(n, 'zh')).toContain('链接字段 `createdAt`');
    }
  });
});
