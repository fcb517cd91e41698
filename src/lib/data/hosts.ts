// The one rule for every fetch the page builds from a setting or a link: it may go to this site, to
// the catalog's pinned upstreams, to the model hub, or to a host the user chose on this device (the
// Data page's mirror, a model host typed in the model picker). A host that arrives in a link or a URL
// parameter (`?mirror=`, `?modelHost=`, a link's `config.model.source.host`) is none of those until
// the user agrees to it on the page, with the host named: hash checks protect the data's content, not
// the visit (a foreign host learns who opened the link) nor the model (a forged host can serve any
// weights under a legitimate model's name). Pure: the caller passes what the user trusts.
import { DATASETS, rawUrl } from '../core/benchmarks/catalog.ts';

/** The hub the model picker's presets come from, when no model host is set. */
export const HUB_ORIGIN = 'https://huggingface.co';

/** Origins of the catalog's pinned upstream repositories (raw files at a commit). */
export const PINNED_ORIGINS: readonly string[] = [
  ...new Set(DATASETS.filter((d) => d.files.length > 0 && d.repository && d.commit).map((d) => new URL(rawUrl(d.id, d.files[0].path)).origin)),
];

/** What the user trusts, as origins (`https://host[:port]`). */
export interface TrustedHosts {
  /** This site's origin (`location.origin`). */
  site: string;
  /** Origins the user set on this device or agreed to on this page. */
  chosen: readonly string[];
}

export type HostVerdict =
  /** The URL may be fetched. */
  | { allowed: true; origin: string }
  /** A foreign host: fetch only once the user agrees to `host` (shown by name) on this page. */
  | { allowed: false; reason: 'needs-consent'; origin: string; host: string }
  /** Not an http(s) URL (javascript:, file:, data:, …) or not a URL at all: never fetched. */
  | { allowed: false; reason: 'not-http'; scheme: string | null };

/** Parses `value` against `base`; null when it is not a URL. */
function parse(value: string, base: string): URL | null {
  try {
    return new URL(value.trim(), base);
  } catch {
    return null;
  }
}

/**
 * Whether a fetch to `url` (absolute, or relative to `base`, the page) is allowed, and if not, which
 * host the user must agree to. A relative URL resolves to this site, so `/mirror` needs no consent.
 */
export function checkHost(url: string, base: string, trusted: TrustedHosts): HostVerdict {
  const parsed = parse(url, base);
  if (!parsed) return { allowed: false, reason: 'not-http', scheme: null };
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return { allowed: false, reason: 'not-http', scheme: parsed.protocol };
  const origin = parsed.origin;
  const known = [trusted.site, HUB_ORIGIN, ...PINNED_ORIGINS, ...trusted.chosen];
  if (known.includes(origin)) return { allowed: true, origin };
  return { allowed: false, reason: 'needs-consent', origin, host: parsed.host };
}

/** The origin of an http(s) URL (relative to `base`), or null for anything else. */
export function httpOrigin(url: string, base: string): string | null {
  const parsed = parse(url, base);
  return parsed && (parsed.protocol === 'http:' || parsed.protocol === 'https:') ? parsed.origin : null;
}
