// The data mirror: a base URL that replaces each dataset's upstream, laid out
// `<mirror>/<dataset folder>/<original path>`. Set on the Data page (kept in localStorage) or for one
// visit with `?mirror=<url>` (which wins, so a shared classroom link can carry it).

const KEY = 'jiangu.mirror';

/** Normalises a mirror URL: absolute http(s) (relative paths resolve against the page), no trailing slash. */
export function normalizeMirror(value: string, base: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    throw new Error(`"${trimmed}" is not a URL.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`A mirror must be an http(s) URL, not ${url.protocol}`);
  return url.href.replace(/\/+$/, '');
}

export function currentMirror(): string | null {
  const fromUrl = new URLSearchParams(location.search).get('mirror');
  if (fromUrl) return normalizeMirror(fromUrl, location.href);
  return localStorage.getItem(KEY);
}

export function saveMirror(value: string | null): void {
  const normalized = value === null ? null : normalizeMirror(value, location.href);
  if (normalized) localStorage.setItem(KEY, normalized);
  else localStorage.removeItem(KEY);
}
