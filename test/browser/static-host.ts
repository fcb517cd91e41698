// A plain static host for the deploy tests, like GitHub Pages or `python3 -m http.server`: files
// only, plain content types, and NO cross-origin isolation headers (whatever isolation the page
// gets, the service worker gave it). It serves a built site under /jiangu/, the fixture models
// under /jiangu/models/ (as a deployer who copied the model folders into dist/models/, with their
// index.json), can switch its folder (build 1, then build 2: a deploy), and can go down (no network).
import { createReadStream, existsSync, statSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, normalize, sep } from 'node:path';
import { listModels, modelRoots } from '../../scripts/site-routes.ts';

export const BASE = '/jiangu/';

const types: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json',
  '.webmanifest': 'application/manifest+json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.wasm': 'application/wasm',
  '.csv': 'text/csv; charset=utf-8',
  '.jsonl': 'text/plain; charset=utf-8',
};

export interface StaticHost {
  /** http://127.0.0.1:<port>/jiangu/ */
  readonly url: string;
  /** Serves another built site from now on (a new deploy). */
  setRoot(root: string): void;
  /** Down: every request's connection is dropped, as with no network. */
  setDown(down: boolean): void;
  /** Answers 404 for these paths (below the base), as a deploy that left them out. */
  readonly missing: Set<string>;
  /** Holds every request for `path` (below the base) until the returned function is called. */
  hold(path: string): () => void;
  /** Paths asked for since the host started, for failure messages. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** A file under `root` for the path below the base, or null (`..` and the like are refused). */
function fileIn(root: string, rel: string): string | null {
  if (rel.split('/').some((s) => s === '..' || s === '.')) return null;
  const path = normalize(join(root, rel.endsWith('/') || rel === '' ? `${rel}index.html` : rel));
  return path.startsWith(root + sep) && existsSync(path) && statSync(path).isFile() ? path : null;
}

export async function startStaticHost(root: string): Promise<StaticHost> {
  let current = root;
  let down = false;
  const requests: string[] = [];
  const held = new Map<string, Promise<void>>();
  const missing = new Set<string>();
  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    requests.push(`${req.method} ${path}`);
    await held.get(path.slice(BASE.length));
    if (down) {
      req.socket.destroy();
      return;
    }
    if (!path.startsWith(BASE)) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    const rel = path.slice(BASE.length);
    // The deployer's models/index.json lists the folders copied beside it.
    if (rel === 'models/index.json' && !missing.has(rel)) {
      res.writeHead(200, { 'Content-Type': types['.json'] }).end(JSON.stringify({ models: listModels() }));
      return;
    }
    const file = missing.has(rel)
      ? null
      : rel.startsWith('models/')
      ? modelRoots().map((r) => fileIn(r, rel.slice('models/'.length))).find((f) => f !== null) ?? null
      : fileIn(current, rel);
    if (!file) {
      res.writeHead(404, { 'Content-Type': 'text/plain' }).end('not found');
      return;
    }
    res.writeHead(200, { 'Content-Type': types[extname(file)] ?? 'application/octet-stream', 'Content-Length': String(statSync(file).size) });
    if (req.method === 'HEAD') res.end();
    else createReadStream(file).pipe(res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}${BASE}`,
    setRoot: (next) => {
      current = next;
    },
    setDown: (value) => {
      down = value;
    },
    hold: (path) => {
      let release = () => {};
      held.set(path, new Promise<void>((resolve) => (release = resolve)));
      return () => {
        held.delete(path);
        release();
      };
    },
    requests,
    missing,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
