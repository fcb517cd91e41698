// The hosts this device trusts, and the ones a URL asks for. The data mirror (a base URL laid out
// `<mirror>/<dataset folder>/<original path>`) and the model host (a server with the hub's layout) are
// trusted when the user set them here (kept in localStorage). `?mirror=` and `?modelHost=` in the page
// address, and a link's model host, come from whoever wrote the link: they are used only once the user
// agrees on the page (see hosts.ts for the rule). An agreement lasts for this visit of the page (until
// it is reloaded or closed) and is not remembered: to trust a host for good, save it on the Data page
// or type it in the model picker and tick Remember. Trust is for one purpose: a model host the user
// chose serves models, not benchmark data (a `?mirror=` naming it is asked about like any other host),
// and a data mirror serves data, not weights.
import { jianguError } from '../core/notices/index.ts';
import { checkHost, httpOrigin, type HostVerdict, type TrustedHosts } from './hosts.ts';
import { parseWasmThreadsSetting, type WasmThreadsSetting } from '../core/models/wasm-threads.ts';

const MIRROR_KEY = 'jiangu.mirror';
const MODEL_HOST_KEY = 'jiangu.modelHost';
const WASM_THREADS_KEY = 'jiangu.wasmThreads';

/** What a host is trusted to serve: benchmark data (a mirror) or a model's files. */
export type HostPurpose = 'data' | 'model';

/** Origins agreed to, and declined, on this visit, for each purpose. */
const agreed: Record<HostPurpose, Set<string>> = { data: new Set(), model: new Set() };
const declined: Record<HostPurpose, Set<string>> = { data: new Set(), model: new Set() };

function stored(key: string): string | null {
  try {
    return typeof localStorage === 'undefined' ? null : localStorage.getItem(key);
  } catch {
    return null;
  }
}

function pageBase(): string {
  return typeof location === 'undefined' ? 'http://localhost/' : location.href;
}

function urlParam(name: string): string | null {
  if (typeof location === 'undefined') return null;
  return new URLSearchParams(location.search).get(name) || null;
}

/**
 * Normalises a mirror or model-host URL: absolute http(s) (relative paths resolve against the page),
 * no trailing slash. Throws 'link.not-a-url' or 'link.not-http' (javascript:, file:, data: …).
 */
export function normalizeMirror(value: string, base: string): string | null {
  const trimmed = value.trim();
  if (!trimmed) return null;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    throw jianguError('link.not-a-url', { value: trimmed.slice(0, 200) });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw jianguError('link.not-http', { value: trimmed.slice(0, 200), scheme: url.protocol });
  return url.href.replace(/\/+$/, '');
}

/** The same rule for a model host. */
export const normalizeHost = normalizeMirror;

/**
 * What this device trusts now for `purpose`: this site, the host saved for it (the data mirror, or the
 * model host), and hosts agreed to for it on this visit.
 */
export function trustedHosts(purpose: HostPurpose): TrustedHosts {
  const base = pageBase();
  const saved = stored(purpose === 'data' ? MIRROR_KEY : MODEL_HOST_KEY);
  const origin = saved ? httpOrigin(saved, base) : null;
  return { site: new URL(base).origin, chosen: [...(origin ? [origin] : []), ...agreed[purpose]] };
}

/** The rule applied to a fetch of `url` for `purpose` with what this device trusts now. */
export function hostVerdict(url: string, purpose: HostPurpose): HostVerdict {
  return checkHost(url, pageBase(), trustedHosts(purpose));
}

/** The user agreed, on this page, to fetch `purpose` from `origin` (for this visit only). */
export function agreeToHost(origin: string, purpose: HostPurpose): void {
  declined[purpose].delete(origin);
  agreed[purpose].add(origin);
}

/** The user chose the pinned or saved sources over `origin` for `purpose` (for this visit). */
export function declineHost(origin: string, purpose: HostPurpose): void {
  agreed[purpose].delete(origin);
  declined[purpose].add(origin);
}

/** A host in the URL or a link that waits for the user's answer: what to name in the question. */
export interface HostRequest {
  /** The URL as given (normalised). */
  url: string;
  origin: string;
  /** `other.example` (with its port, if any): what the page names. */
  host: string;
}

/**
 * Whether `url` (from a link or the page address) needs the user's answer before it is used: null
 * when it is trusted already or was declined; the request otherwise. Not-http URLs are never asked
 * about (they are refused where they are normalised).
 */
export function pendingRequest(url: string | null, purpose: HostPurpose): HostRequest | null {
  if (!url) return null;
  const verdict = hostVerdict(url, purpose);
  if (verdict.allowed || verdict.reason !== 'needs-consent' || declined[purpose].has(verdict.origin)) return null;
  return { url, origin: verdict.origin, host: verdict.host };
}

/** The `?mirror=` of the page address, normalised; null when absent or not an http(s) URL. */
export function urlMirror(): string | null {
  const raw = urlParam('mirror');
  if (!raw) return null;
  try {
    return normalizeMirror(raw, pageBase());
  } catch {
    return null;
  }
}

/** Why the address's `?mirror=` cannot be used at all (not a URL, not http), or null. */
export function urlMirrorProblem(): unknown {
  const raw = urlParam('mirror');
  if (!raw) return null;
  try {
    normalizeMirror(raw, pageBase());
    return null;
  } catch (error) {
    return error;
  }
}

/** The mirror saved on this device, if any. */
export function savedMirror(): string | null {
  return stored(MIRROR_KEY);
}

/** The address's mirror when it waits for the user's answer (see pendingRequest). */
export function pendingMirror(): HostRequest | null {
  return pendingRequest(urlMirror(), 'data');
}

/**
 * The mirror every download uses: the address's `?mirror=` when it is this site or the user agreed to
 * it on this visit, else the one saved on this device, else none (the pinned upstreams).
 */
export function currentMirror(): string | null {
  const fromUrl = urlMirror();
  if (fromUrl && hostVerdict(fromUrl, 'data').allowed) return fromUrl;
  return savedMirror();
}

export function saveMirror(value: string | null): void {
  const normalized = value === null ? null : normalizeMirror(value, pageBase());
  if (normalized) localStorage.setItem(MIRROR_KEY, normalized);
  else localStorage.removeItem(MIRROR_KEY);
}

/** The model host saved on this device (typed in the model picker), if any. */
export function savedModelHost(): string | null {
  return stored(MODEL_HOST_KEY);
}

/** Keeps a model host the user typed, so it is trusted on later visits; null forgets it. */
export function saveModelHost(value: string | null): void {
  const normalized = value === null ? null : normalizeHost(value, pageBase());
  if (normalized) localStorage.setItem(MODEL_HOST_KEY, normalized);
  else localStorage.removeItem(MODEL_HOST_KEY);
}

/** The `?modelHost=` of the page address, normalised; null when absent or not an http(s) URL. */
export function urlModelHost(): string | null {
  const raw = urlParam('modelHost');
  if (!raw) return null;
  try {
    return normalizeHost(raw, pageBase());
  } catch {
    return null;
  }
}

/** Throws 'link.host-not-agreed' (or 'link.not-http') unless a fetch of `purpose` from `url` is allowed now. */
export function assertHostAllowed(url: string, purpose: HostPurpose): void {
  const verdict = hostVerdict(url, purpose);
  if (verdict.allowed) return;
  if (verdict.reason === 'not-http') throw jianguError('link.not-http', { value: url.slice(0, 200), scheme: verdict.scheme ?? '?' });
  throw jianguError('link.host-not-agreed', { host: verdict.host });
}

/**
 * The WASM thread count the user chose on this device (the header's thread setting), `auto` when
 * none: every model load of every tab reads it (ModelClient.load), within what the browser allows.
 */
export function savedWasmThreads(): WasmThreadsSetting {
  return threadsUnstored ?? parseWasmThreadsSetting(stored(WASM_THREADS_KEY));
}

/** The choice of this page when localStorage refused it (a private window's quota), else null. */
let threadsUnstored: WasmThreadsSetting | null = null;

/** Keeps the user's WASM thread count for later loads and visits; `auto` forgets it (ORT's rule). */
export function saveWasmThreads(value: WasmThreadsSetting): void {
  const setting = parseWasmThreadsSetting(value === 'auto' ? null : String(value));
  try {
    if (setting === 'auto') localStorage.removeItem(WASM_THREADS_KEY);
    else localStorage.setItem(WASM_THREADS_KEY, String(setting));
    threadsUnstored = null;
  } catch {
    // Storage refused: the choice still holds for this page's loads, not for later visits.
    threadsUnstored = setting;
  }
}

/** The localStorage key of the WASM thread setting, so another tab's change can be followed (storage events). */
export const wasmThreadsKey = WASM_THREADS_KEY;
