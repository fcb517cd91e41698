import { describe, expect, it } from 'vitest';
import { downloadBytes, DownloadError, type DownloadProgress } from '../../../src/lib/data/download.ts';
import { checkSha256, HashMismatchError, sha256Hex } from '../../../src/lib/data/hash.ts';
import { normalizeMirror } from '../../../src/lib/data/settings.ts';
import { renderNotice } from '../../../src/lib/core/notices/catalog.ts';

const url = 'https://example.test/data/test/通假字.csv';

/** A fetch that answers with the given chunks, optionally failing after them. */
function fakeFetch(chunks: Uint8Array[], init: { status?: number; length?: number | null; failAfter?: boolean } = {}): typeof fetch {
  return async () => {
    let next = 0;
    const body = new ReadableStream<Uint8Array>({
      // One chunk per pull, so a failure comes after the chunks were read, as on a real connection.
      pull(controller) {
        if (next < chunks.length) controller.enqueue(chunks[next++]);
        else if (init.failAfter) controller.error(new TypeError('network connection lost'));
        else controller.close();
      },
    });
    const total = chunks.reduce((n, c) => n + c.byteLength, 0);
    const headers = new Headers();
    const length = init.length === undefined ? total : init.length;
    if (length !== null) headers.set('content-length', String(length));
    return new Response(body, { status: init.status ?? 200, headers });
  };
}

describe('downloadBytes', () => {
  it('joins the chunks and reports progress up to the total', async () => {
    const progress: DownloadProgress[] = [];
    const bytes = await downloadBytes(url, {
      maxBytes: 100,
      fetchImpl: fakeFetch([new Uint8Array([1, 2]), new Uint8Array([3])]),
      onProgress: (p) => progress.push(p),
    });
    expect([...bytes]).toEqual([1, 2, 3]);
    expect(progress.map((p) => p.loaded)).toEqual([0, 2, 3]);
    expect(progress.at(-1)?.total).toBe(3);
  });

  it('names the URL and the status of an HTTP error', async () => {
    const error = await downloadBytes(url, { maxBytes: 100, fetchImpl: fakeFetch([], { status: 404 }) }).catch((e) => e);
    expect(error).toBeInstanceOf(DownloadError);
    expect(error).toMatchObject({ failure: 'http', status: 404, url });
    expect(error.message).toContain(`${url} answered 404`);
  });

  it('says how far a broken download got', async () => {
    const error = await downloadBytes(url, {
      maxBytes: 100,
      fetchImpl: fakeFetch([new Uint8Array(5)], { length: 10, failAfter: true }),
    }).catch((e) => e);
    expect(error).toMatchObject({ failure: 'network' });
    expect(error.message).toContain('broke off after 5 of 10 bytes');
  });

  it('says a large download\'s progress in MB, and in bytes where MB would hide that it fell short', () => {
    const broke = renderNotice({ code: 'data.download-broke-off', params: { url, loaded: 12_345_678, total: 45_678_901, reason: 'network' } }, 'en');
    expect(broke).toBe(`The download of ${url} broke off after 12.3 MB of 45.7 MB (network).`);
    expect(renderNotice({ code: 'data.download-broke-off', params: { url, loaded: 12_345_678, total: null, reason: 'network' } }, 'zh')).toBe(`${url} 下载到 12.3 MB 时中断了（network）。`);
    expect(renderNotice({ code: 'data.download-ended-early', params: { url, loaded: 45_678_900, total: 45_678_901 } }, 'en')).toBe(
      `The download of ${url} ended after 45,678,900 of 45,678,901 bytes.`,
    );
  });

  it('refuses a short body that promised more', async () => {
    const error = await downloadBytes(url, { maxBytes: 100, fetchImpl: fakeFetch([new Uint8Array(4)], { length: 9 }) }).catch((e) => e);
    expect(error.message).toContain('ended after 4 of 9 bytes');
  });

  it('refuses files over the limit, from the header or while reading', async () => {
    await expect(downloadBytes(url, { maxBytes: 3, fetchImpl: fakeFetch([new Uint8Array(4)]) })).rejects.toMatchObject({ failure: 'too-large' });
    await expect(
      downloadBytes(url, { maxBytes: 3, fetchImpl: fakeFetch([new Uint8Array(2), new Uint8Array(2)], { length: null }) }),
    ).rejects.toMatchObject({ failure: 'too-large' });
  });

  it('reports an unreachable host as a network failure with advice', async () => {
    const refuse: typeof fetch = async () => {
      throw new TypeError('Failed to fetch');
    };
    await expect(downloadBytes(url, { maxBytes: 3, fetchImpl: refuse })).rejects.toThrow(/Could not reach .*mirror/);
  });
});

describe('sha256', () => {
  it('matches the known digest of "abc"', async () => {
    expect(await sha256Hex(new TextEncoder().encode('abc'))).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  });

  it('refuses a mismatch naming the file and both hashes, and records when nothing is pinned', async () => {
    const bytes = new TextEncoder().encode('abc');
    const error = await checkSha256('C3_bench.json', bytes, '00'.repeat(32)).catch((e) => e);
    expect(error).toBeInstanceOf(HashMismatchError);
    expect(error.message).toContain('C3_bench.json');
    expect(error.message).toContain('ba7816bf');
    expect(error.message).toContain('00'.repeat(32));
    expect(await checkSha256('C3_bench.json', bytes, null)).toMatch(/^ba7816bf/);
  });
});

describe('normalizeMirror', () => {
  it('resolves relative paths against the page and drops trailing slashes', () => {
    expect(normalizeMirror('/mirror/', 'http://127.0.0.1:4173/?x')).toBe('http://127.0.0.1:4173/mirror');
    expect(normalizeMirror(' https://school.example/data// ', 'http://a/')).toBe('https://school.example/data');
    expect(normalizeMirror('', 'http://a/')).toBeNull();
  });

  it('refuses what is not an http(s) URL', () => {
    expect(() => normalizeMirror('javascript:alert(1)', 'http://a/')).toThrow(/http\(s\)/);
  });
});
