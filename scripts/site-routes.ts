// Routes that the dev server, the preview server and the test server share: the cross-origin
// isolation headers, the model folders served under /models/, and onnxruntime-web's wasm files under
// /ort/. Node only; the site itself never imports this.
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { extname, join, normalize, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { isSiteModelName } from '../src/lib/core/models/model-names.ts';

export const projectRoot = fileURLToPath(new URL('..', import.meta.url));

/** Headers that make the page crossOriginIsolated, so ORT's wasm may run multi-threaded. */
export const isolationHeaders: Record<string, string> = {
  'Cross-Origin-Opener-Policy': 'same-origin',
  'Cross-Origin-Embedder-Policy': 'require-corp',
  'Cross-Origin-Resource-Policy': 'same-origin',
};

/**
 * The sub-path the site is built for (`JIANGU_BASE`, Vite's `base`): `/` when unset, else one path
 * with a slash at each end (`jiangu` and `/jiangu` give `/jiangu/`). Segments are plain URL
 * characters, never `.` or `..`: the page, its workers and the service worker's scope start from it.
 */
export function siteBase(raw: string | undefined): string {
  const segments = (raw ?? '').split('/').filter(Boolean);
  if (segments.some((s) => s === '.' || s === '..' || !/^[A-Za-z0-9._~-]+$/.test(s))) {
    throw new Error(`JIANGU_BASE must be a path such as /jiangu/ (letters, digits, . _ ~ -), not ${JSON.stringify(raw)}`);
  }
  return segments.length === 0 ? '/' : `/${segments.join('/')}/`;
}

/** The onnxruntime-web files transformers.js loads; the site serves them itself, never from a CDN. */
export const ortDir = join(projectRoot, 'node_modules', 'onnxruntime-web', 'dist');
export const ortFiles = ['ort-wasm-simd-threaded.asyncify.mjs', 'ort-wasm-simd-threaded.asyncify.wasm'];

/**
 * Folders whose subfolders are served as /models/<name>/: the generated fixtures, then any folders
 * named in JIANGU_MODELS (colon-separated), so a user can evaluate a model they downloaded earlier.
 */
export function modelRoots(): string[] {
  const extra = (process.env.JIANGU_MODELS ?? '').split(':').filter(Boolean).map((p) => resolve(p));
  return [join(projectRoot, '.fixtures', 'models'), ...extra].filter((p) => existsSync(p));
}

/** Names of the model folders available under /models/ (each holds a config.json). */
export function listModels(): string[] {
  const names = new Set<string>();
  for (const root of modelRoots()) {
    for (const name of readdirSync(root)) {
      // The page builds /models/<name>/ URLs from these: only names that stay one plain path segment.
      if (isSiteModelName(name) && existsSync(join(root, name, 'config.json'))) names.add(name);
    }
  }
  return [...names].sort();
}

/**
 * The folder served as /mirror/: a copy of the benchmark files laid out `<dataset>/<original path>`
 * (the layout of ../shared/data), so the site can download data with no connection. JIANGU_DATA
 * overrides; by default ../shared/data beside the repository, when it exists.
 */
export function dataMirrorRoot(): string | null {
  const root = resolve(process.env.JIANGU_DATA ?? join(projectRoot, '..', 'shared', 'data'));
  return existsSync(root) ? root : null;
}

const contentTypes: Record<string, string> = {
  '.json': 'application/json; charset=utf-8',
  '.onnx': 'application/octet-stream',
  '.onnx_data': 'application/octet-stream',
  '.wasm': 'application/wasm',
  '.mjs': 'text/javascript; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.txt': 'text/plain; charset=utf-8',
  '.csv': 'text/csv; charset=utf-8',
  '.jsonl': 'application/jsonl; charset=utf-8',
};

function sendFile(res: ServerResponse, file: string): void {
  const size = statSync(file).size;
  res.writeHead(200, {
    ...isolationHeaders,
    'Content-Type': contentTypes[extname(file)] ?? 'application/octet-stream',
    'Content-Length': String(size),
    'Cache-Control': 'no-cache',
  });
  createReadStream(file).pipe(res);
}

/**
 * Resolves `rel` (`<model>/<file…>`) inside `root`: only files inside a model folder (one with a
 * config.json) are served, and any `..`, `.` or empty segment is refused rather than normalised away.
 */
function inside(root: string, rel: string): string | null {
  const segments = rel.split(/[\\/]/);
  if (segments.some((segment) => segment === '..' || segment === '.' || segment === '')) return null;
  if (segments.length < 2 || !isSiteModelName(segments[0]) || !existsSync(join(root, segments[0], 'config.json'))) return null;
  const path = normalize(join(root, rel));
  return path.startsWith(root + sep) && existsSync(path) && statSync(path).isFile() ? path : null;
}

/**
 * The fixture models in the hub's layout, for tests of hub loading without the hub:
 * `/hub/<org>/<model>/resolve/<revision>/<file>` serves `/models/<model>/<file>` with the
 * `X-Repo-Commit` header the hub sends, and `/hub/api/models/<org>/<model>/revision/<revision>`
 * answers `{ sha }`. The commit is fixtureCommit(model, revision).
 */
function serveHub(rel: string, res: ServerResponse): void {
  const api = /^api\/models\/[^/]+\/([^/]+)\/revision\/([^/]+)$/.exec(rel);
  const file = /^[^/]+\/([^/]+)\/resolve\/([^/]+)\/(.+)$/.exec(rel);
  const model = api?.[1] ?? file?.[1];
  const found = model ? modelRoots().find((root) => existsSync(join(root, model, 'config.json'))) : undefined;
  if (api && found) {
    res.writeHead(200, { ...isolationHeaders, 'Content-Type': contentTypes['.json'] });
    res.end(JSON.stringify({ id: model, sha: fixtureCommit(api[1], api[2]) }));
    return;
  }
  const path = file && found ? inside(found, `${file[1]}/${file[3]}`) : null;
  if (file && path) {
    res.setHeader('X-Repo-Commit', fixtureCommit(file[1], file[2]));
    return sendFile(res, path);
  }
  res.writeHead(404, { ...isolationHeaders, 'Content-Type': 'text/plain' });
  res.end(`not in the fixture hub: ${rel}`);
}

/** The commit the fixture hub reports for a model at a revision: sha1 of `<model>@<revision>`. */
export function fixtureCommit(model: string, revision: string): string {
  return createHash('sha1').update(`${model}@${revision}`).digest('hex');
}

/**
 * Connect-style middleware. Answers /models/index.json, /models/<name>/<file>, /mirror/<dataset>/<path>
 * and (when `serveOrt`) /ort/<file>; calls next() for everything else.
 */
export function siteRoutes(options: { serveOrt: boolean }) {
  return (req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    let path: string;
    try {
      path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    } catch {
      res.writeHead(400, { ...isolationHeaders, 'Content-Type': 'text/plain' });
      res.end('malformed percent-encoding in the path');
      return;
    }
    if (path === '/models/index.json') {
      const body = JSON.stringify({ models: listModels() });
      res.writeHead(200, { ...isolationHeaders, 'Content-Type': contentTypes['.json'] });
      res.end(body);
      return;
    }
    if (path.startsWith('/models/')) {
      for (const root of modelRoots()) {
        const file = inside(root, path.slice('/models/'.length));
        if (file) return sendFile(res, file);
      }
      res.writeHead(404, { ...isolationHeaders, 'Content-Type': 'text/plain' });
      res.end(`no such model file: ${path}`);
      return;
    }
    if (path.startsWith('/hub/')) return serveHub(path.slice('/hub/'.length), res);
    if (path.startsWith('/mirror/')) {
      const root = dataMirrorRoot();
      const rel = path.slice('/mirror/'.length);
      const segments = rel.split('/');
      const file = root && !segments.some((s) => s === '..' || s === '.' || s === '') ? join(root, rel) : null;
      if (file && file.startsWith(root + sep) && existsSync(file) && statSync(file).isFile()) return sendFile(res, file);
      res.writeHead(404, { ...isolationHeaders, 'Content-Type': 'text/plain' });
      res.end(`not in the data mirror: ${path}`);
      return;
    }
    if (options.serveOrt && path.startsWith('/ort/')) {
      const name = path.slice('/ort/'.length);
      if (ortFiles.includes(name)) return sendFile(res, join(ortDir, name));
    }
    next();
  };
}
