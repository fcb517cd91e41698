/// <reference lib="webworker" />
// The service worker (Workbox, built by vite-plugin-pwa's injectManifest; registered by
// src/ui/site/register.ts). It keeps the site usable with no network and makes it cross-origin
// isolated on hosts that cannot send the headers:
// - the app shell and ORT's wasm are precached (the build's manifest, self.__WB_MANIFEST);
// - model files this site serves (models/) are network first, falling back to the cache, so a
//   model loaded once evaluates offline; hub files are left alone (transformers.js keeps them in
//   Cache Storage already) and no cross-origin request passes through here;
// - every same-origin response it serves (the cached ones, and pages and worker scripts from the
//   network) gets COOP, COEP and CORP, so the page is crossOriginIsolated (ORT's wasm threads) once
//   this worker controls it, whatever the host sends;
// - a new build waits: it takes over only when the page posts SKIP_WAITING (the update prompt).
import { PrecacheController, PrecacheRoute, cleanupOutdatedCaches } from 'workbox-precaching';
import { Route, Router } from 'workbox-routing';
import { NetworkFirst } from 'workbox-strategies';

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null }> };

/** The headers of scripts/site-routes.ts's isolationHeaders (duplicated: that file is Node's). */
const ISOLATION: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

const scope = new URL(self.registration.scope);
const modelsPath = `${scope.pathname}models/`;
const MODELS_CACHE = 'jiangu-site-models';

const precache = new PrecacheController();
precache.precache(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const router = new Router();
// Query strings (?mirror=…, ?modelHost=…) change nothing in a precached file: match without them.
router.registerRoute(new PrecacheRoute(precache, { ignoreURLParametersMatching: [/.*/] }));
const models = new NetworkFirst({ cacheName: MODELS_CACHE });
router.registerRoute(new Route(({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith(modelsPath), models));

/** A copy of `response` with the isolation headers; opaque and error responses cannot be rebuilt. */
function isolated(response: Response): Response {
  if (response.type === 'opaque' || response.type === 'opaqueredirect' || response.type === 'error' || response.status === 0) return response;
  const headers = new Headers(response.headers);
  for (const [name, value] of Object.entries(ISOLATION)) headers.set(name, value);
  const noBody = response.status === 204 || response.status === 304;
  return new Response(noBody ? null : response.body, { status: response.status, statusText: response.statusText, headers });
}

/** HEAD on a model file (the worker asks whether external data exists): the network, else what the cache holds for GET. */
async function modelHead(request: Request): Promise<Response> {
  try {
    return await fetch(request);
  } catch (error) {
    const cached = await caches.match(request.url, { cacheName: MODELS_CACHE });
    if (!cached) throw error;
    return new Response(null, { status: cached.status, statusText: cached.statusText, headers: cached.headers });
  }
}

self.addEventListener('fetch', (event) => {
  const { request } = event;
  const url = new URL(request.url);
  // Cross-origin requests (the hub, a mirror, the data sources) go to the network untouched: they
  // are CORS requests, which COEP require-corp lets through.
  if (url.origin !== self.location.origin) return;
  const routed = request.method === 'GET' ? router.handleRequest({ request, event }) : undefined;
  if (routed) return event.respondWith(routed.then(isolated));
  if (request.method === 'HEAD' && url.pathname.startsWith(modelsPath)) return event.respondWith(modelHead(request).then(isolated));
  // Pages and worker scripts need the headers themselves (COOP for a page, COEP for both); any
  // other same-origin request (a data mirror beside the site, the dev server's routes) needs none
  // under COEP and goes to the network untouched.
  if (request.mode === 'navigate' || request.destination === 'worker') event.respondWith(fetch(request).then(isolated));
});

// Only the very first install claims the open page (there is no build to swap out); an update waits
// for SKIP_WAITING. The flag lives as long as this worker's script: were it stopped between install
// and activate, the page is simply controlled from its next load.
let firstInstall = false;
self.addEventListener('install', () => {
  firstInstall = !self.registration.active;
});
self.addEventListener('activate', (event) => {
  if (firstInstall) event.waitUntil(self.clients.claim());
});

self.addEventListener('message', (event) => {
  const type = (event.data as { type?: unknown } | null)?.type;
  if (type === 'SKIP_WAITING') void self.skipWaiting();
  if (type === 'PRECACHE_STATUS') event.waitUntil(reportPrecache(event));
});

/** Answers whether every precached URL is in the cache (eviction can remove them). */
async function reportPrecache(event: ExtendableMessageEvent): Promise<void> {
  const cache = await caches.open(precache.strategy.cacheName);
  const keys = precache.getCachedURLs().map((url) => precache.getCacheKeyForURL(url)!);
  const present = await Promise.all(keys.map((key) => cache.match(key).then((r) => r !== undefined)));
  event.ports[0]?.postMessage({ type: 'PRECACHE_STATUS', complete: present.every(Boolean) });
}
