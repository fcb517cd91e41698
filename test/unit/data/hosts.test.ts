// The host rule: which URLs the page may fetch without asking, and which host it must name when it asks.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { checkHost, HUB_ORIGIN, PINNED_ORIGINS } from '../../../src/lib/data/hosts.ts';

const site = 'http://127.0.0.1:4173';
const page = `${site}/#/shared/abc`;

describe('checkHost', () => {
  const trusted = { site, chosen: ['https://school.example'] };

  it('allows this site (relative mirrors included), the pinned upstreams, the hub and hosts the user chose', () => {
    expect(checkHost('/mirror', page, trusted)).toEqual({ allowed: true, origin: site });
    expect(checkHost(`${site}/mirror/aclue/x.csv`, page, trusted).allowed).toBe(true);
    expect(PINNED_ORIGINS).toEqual(['https://raw.githubusercontent.com']);
    expect(checkHost('https://raw.githubusercontent.com/isen-zhang/ACLUE/abc/data.csv', page, trusted).allowed).toBe(true);
    expect(checkHost(`${HUB_ORIGIN}/org/model/resolve/main/config.json`, page, trusted).allowed).toBe(true);
    expect(checkHost('https://school.example/hf/', page, trusted).allowed).toBe(true);
  });

  it('asks about any other host, naming it (with its port), and never treats a look-alike as trusted', () => {
    expect(checkHost('https://other.example/d', page, trusted)).toEqual({ allowed: false, reason: 'needs-consent', origin: 'https://other.example', host: 'other.example' });
    expect(checkHost('http://127.0.0.1:9999/mirror', page, trusted)).toMatchObject({ allowed: false, host: '127.0.0.1:9999' });
    expect(checkHost('https://huggingface.co.evil.example/', page, trusted)).toMatchObject({ allowed: false, host: 'huggingface.co.evil.example' });
    expect(checkHost('http://school.example/', page, trusted)).toMatchObject({ allowed: false, host: 'school.example' }); // http is another origin
    expect(checkHost('//other.example/d', page, trusted)).toMatchObject({ allowed: false, host: 'other.example' });
  });

  it('refuses what is not http(s) outright, with no host to agree to', () => {
    expect(checkHost('javascript:alert(1)', page, trusted)).toEqual({ allowed: false, reason: 'not-http', scheme: 'javascript:' });
    expect(checkHost('file:///etc/passwd', page, trusted)).toEqual({ allowed: false, reason: 'not-http', scheme: 'file:' });
    expect(checkHost('http://[bad', page, trusted)).toEqual({ allowed: false, reason: 'not-http', scheme: null });
  });
});

describe('settings: only trusted mirrors and model hosts are used', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.resetModules();
  });

  /** A fresh settings module on a page at `href`, with `saved` in its localStorage. */
  async function settingsAt(href: string, saved: Record<string, string> = {}) {
    const store = new Map(Object.entries(saved));
    const url = new URL(href);
    vi.stubGlobal('location', { href, origin: url.origin, search: url.search });
    vi.stubGlobal('localStorage', {
      getItem: (k: string) => store.get(k) ?? null,
      setItem: (k: string, v: string) => void store.set(k, v),
      removeItem: (k: string) => void store.delete(k),
    });
    vi.resetModules();
    return { settings: await import('../../../src/lib/data/settings.ts'), store };
  }

  it("ignores a foreign ?mirror= until the user agrees, then uses it; declined, the saved mirror (or none) is used", async () => {
    const { settings } = await settingsAt(`${site}/?mirror=${encodeURIComponent('https://other.example/d')}#/shared/x`, { 'jiangu.mirror': `${site}/mirror` });
    expect(settings.currentMirror()).toBe(`${site}/mirror`);
    expect(settings.pendingMirror()).toEqual({ url: 'https://other.example/d', origin: 'https://other.example', host: 'other.example' });
    settings.declineHost('https://other.example', 'data');
    expect(settings.pendingMirror()).toBeNull();
    expect(settings.currentMirror()).toBe(`${site}/mirror`);
    settings.agreeToHost('https://other.example', 'data');
    expect(settings.currentMirror()).toBe('https://other.example/d');
    expect(() => settings.assertHostAllowed('https://other.example/d/aclue/x.csv', 'data')).not.toThrow();
    expect(() => settings.assertHostAllowed('https://third.example/', 'data')).toThrow(/Nothing was fetched from third\.example/);
    // Agreed as a data mirror, it still may not serve a model's weights.
    expect(() => settings.assertHostAllowed('https://other.example/org/m/resolve/main/config.json', 'model')).toThrow(/other\.example/);
  });

  it('uses a same-site ?mirror= at once, with no question', async () => {
    const { settings } = await settingsAt(`${site}/?mirror=/mirror#/data`);
    expect(settings.pendingMirror()).toBeNull();
    expect(settings.currentMirror()).toBe(`${site}/mirror`);
  });

  it('refuses javascript: and file: mirrors and model hosts instead of fetching them', async () => {
    const { settings } = await settingsAt(`${site}/?mirror=${encodeURIComponent('javascript:alert(1)')}#/data`);
    expect(settings.currentMirror()).toBeNull();
    expect(settings.urlMirrorProblem()).toBeInstanceOf(Error);
    expect(() => settings.saveMirror('file:///etc')).toThrow(/file: address; a mirror or model host must be an http\(s\) URL/);
    expect(() => settings.saveModelHost('javascript:alert(1)')).toThrow(/javascript: address/);
  });

  it('trusts a model host the user saved on this device, not one from the address', async () => {
    const { settings, store } = await settingsAt(`${site}/?modelHost=${encodeURIComponent('https://other.example/')}#/playground`);
    expect(settings.urlModelHost()).toBe('https://other.example');
    expect(settings.pendingRequest(settings.urlModelHost(), 'model')).toMatchObject({ host: 'other.example' });
    settings.saveModelHost('https://school.example/hf/');
    expect(store.get('jiangu.modelHost')).toBe('https://school.example/hf');
    expect(settings.hostVerdict('https://school.example/hf/org/m/resolve/main/config.json', 'model').allowed).toBe(true);
    expect(settings.hostVerdict('https://other.example/org/m/resolve/main/config.json', 'model').allowed).toBe(false);
  });

  it('trusts a saved model host for models only: a ?mirror= naming it is asked about, and the saved mirror serves no weights', async () => {
    const { settings } = await settingsAt(`${site}/?mirror=${encodeURIComponent('https://school.example/hf/data')}#/shared/x`, {
      'jiangu.modelHost': 'https://school.example/hf',
      'jiangu.mirror': 'https://mirror.example/d',
    });
    expect(settings.hostVerdict('https://school.example/hf/org/m/resolve/main/config.json', 'model').allowed).toBe(true);
    expect(settings.currentMirror()).toBe('https://mirror.example/d');
    expect(settings.pendingMirror()).toEqual({ url: 'https://school.example/hf/data', origin: 'https://school.example', host: 'school.example' });
    expect(settings.hostVerdict('https://mirror.example/d/aclue/x.csv', 'data').allowed).toBe(true);
    expect(settings.hostVerdict('https://mirror.example/org/m/resolve/main/config.json', 'model').allowed).toBe(false);
    // Agreed for the model on this visit: still not a data mirror.
    settings.agreeToHost('https://other.example', 'model');
    expect(settings.hostVerdict('https://other.example/d/x.csv', 'data').allowed).toBe(false);
  });
});

describe('the model client applies the rule before asking the worker', () => {
  it('refuses a model host nobody agreed to, a javascript: host and a site name with "..", posting nothing', async () => {
    const { ModelClient } = await import('../../../src/lib/engine/model-client.ts');
    const posted: unknown[] = [];
    const worker = { addEventListener: () => undefined, postMessage: (m: unknown) => void posted.push(m), terminate: () => undefined };
    const client = new ModelClient(() => worker as unknown as Worker);
    const load = (source: Parameters<typeof client.load>[0]['source']) => client.load({ source, dtype: 'fp32', backend: 'wasm' });
    await expect(load({ kind: 'hub', id: 'org/m', host: 'https://other.example/hf' })).rejects.toMatchObject({ code: 'bad-request', notice: { code: 'link.host-not-agreed', params: { host: 'other.example' } } });
    await expect(load({ kind: 'hub', id: 'org/m', host: 'javascript:alert(1)' })).rejects.toMatchObject({ notice: { code: 'link.not-http' } });
    await expect(load({ kind: 'site', name: '../secret' })).rejects.toMatchObject({ notice: { code: 'link.site-model-name' } });
    expect(posted).toEqual([]);
    // The hub itself and this site's folders go through.
    void load({ kind: 'hub', id: 'org/m', host: 'https://huggingface.co/' });
    void load({ kind: 'site', name: 'jiangu-tiny' });
    expect(posted).toHaveLength(2);
  });
});
