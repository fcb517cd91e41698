// Shared by the browser tests and `npm run bench`: find the system Chromium, serve the built site on
// 127.0.0.1, and open pages whose every request is checked to stay on this machine.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { preview, type PreviewServer } from 'vite';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from './site-routes.ts';
import { profiled } from './test-profile/events.ts';
import { profileModelLoads } from './test-profile/page-loads.ts';

const candidates = [
  '/usr/lib/chromium/chromium', // Debian's real binary (/usr/bin/chromium is a wrapper script)
  '/usr/bin/chromium',
  '/usr/bin/chromium-browser',
  '/usr/bin/google-chrome',
  '/usr/bin/google-chrome-stable',
  '/opt/google/chrome/chrome',
];

/** The browser binary: CHROME_PATH, else the usual install paths; a clear failure otherwise. */
export function findChromium(): string {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROME_PATH is set to ${fromEnv}, but no file is there.`);
    return fromEnv;
  }
  const found = candidates.find((p) => existsSync(p));
  if (!found) {
    throw new Error(
      `No Chromium found (looked at ${candidates.join(', ')}). Install it with ` +
        '`sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROME_PATH to a Chrome or Chromium binary. ' +
        'Never let a test tool download its own browser.',
    );
  }
  return found;
}

/** Serves dist/ (or JIANGU_DIST; run `npm run build` first) with the site's routes, on a free port of 127.0.0.1. */
export async function startSite(): Promise<{ url: string; close: () => Promise<void> }> {
  const outDir = process.env.JIANGU_DIST ?? 'dist';
  if (!existsSync(`${projectRoot}/${outDir}/index.html`)) throw new Error(`${outDir}/ is missing: run \`npm run build\` before the browser tests.`);
  const server: PreviewServer = await profiled('site-start', outDir, () =>
    preview({
      root: projectRoot,
      logLevel: 'error',
      preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
    }),
  );
  const port = (server.httpServer.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

export interface LaunchOptions {
  /** Expose WebGPU (SwiftShader, on the CPU). Without it `requestAdapter()` gives no adapter. */
  webgpu?: boolean;
  /** More Chromium flags after the usual ones, e.g. the Vulkan flags that put WebGPU on a real GPU (bench/device-webgpu.ts). */
  extraArgs?: readonly string[];
}

/** The project's Chromium flags, for every launch (a bench's on-disk profile too: bench/many-runs.ts). */
export const CHROMIUM_FLAGS: readonly string[] = [
  '--no-sandbox',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-default-apps',
  '--no-first-run',
  '--disable-dev-shm-usage',
  '--disable-quic',
  // Belt and braces for the request guard: no name but 127.0.0.1 resolves.
  '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1',
];

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const args = [...CHROMIUM_FLAGS];
  if (options.webgpu) args.push('--enable-unsafe-webgpu');
  if (options.extraArgs) args.push(...options.extraArgs);
  const flags = [options.webgpu ? 'webgpu' : 'no webgpu', ...(options.extraArgs ?? [])].join(' ');
  return profiled('browser-launch', flags, () => chromium.launch({ executablePath: findChromium(), headless: true, args }));
}

/** Requests that tried to leave 127.0.0.1, per context, filled by `guardNetwork`. */
export type LeakLog = string[];

/**
 * Aborts and records every request (page, worker, fetch, module import) whose host is not
 * 127.0.0.1. Tests assert the log is empty: a site that reaches the network fails them.
 */
export async function guardNetwork(context: BrowserContext): Promise<LeakLog> {
  const leaks: LeakLog = [];
  await context.route('**/*', async (route) => {
    const url = route.request().url();
    const { protocol, hostname } = new URL(url);
    const local = hostname === '127.0.0.1' || protocol === 'data:' || protocol === 'blob:';
    if (local) return route.continue();
    leaks.push(url);
    return route.abort('blockedbyclient');
  });
  return leaks;
}

/**
 * What counts as a page failing, whatever the test asserts: an uncaught exception or an unhandled
 * rejection on a page or in any of its Web Workers (Playwright reports a worker's Runtime.exceptionThrown
 * as the page's pageerror), a console.error of the page or a worker, and any Svelte runtime error or
 * warning (production Svelte 5 logs them as a bare https://svelte.dev/e/<code> link, e.g.
 * each_key_duplicate, state_snapshot_uncloneable). Left out: Chromium's own network lines ("Failed to
 * load resource: …", a 404 a test asks for on purpose, or a request the network guard blocked, which
 * the leak log already fails), console.warn/info/log of the site's libraries, and onnxruntime's own
 * log lines below error severity: its wasm writes every log line to stderr, which arrives as
 * console.error, but a line marked [V: (verbose), [I: (info) or [W: (warning) is advice, not a fault;
 * its [E: and [F: lines count.
 */
export function pageFault(kind: 'pageerror' | 'console', type: string, text: string): boolean {
  if (kind === 'pageerror') return true;
  if (/svelte\.dev\/e\/|\[svelte\]/.test(text)) return true;
  if (type !== 'error') return false;
  if (/^\S+ \S+ \[[VIW]:onnxruntime:/.test(text)) return false;
  return !/^Failed to load resource: /.test(text);
}

/**
 * The page-error guard of one browser context: every page of the context (the first one and any
 * `context.newPage()` or popup after it) and their workers report faults here. The shared test setup
 * (test/browser/page-error-guard.ts) drains every guard after each test and fails the test on what
 * is left. A test that provokes an error on purpose declares it with `expect(pattern)`: a fault whose
 * text matches is then set aside as expected (see `expected`), and only that fault.
 */
export class PageErrorGuard {
  private faults: string[] = [];
  private readonly allowed: RegExp[] = [];
  /** Faults that matched a declared pattern, for tests that assert they happened. */
  readonly expected: string[] = [];
  closed = false;

  constructor(readonly label: string) {}

  watch(page: Page): void {
    page.on('pageerror', (e) => this.report(`[pageerror] ${e.message}`));
    page.on('console', (m) => {
      if (pageFault('console', m.type(), m.text())) this.report(`[console ${m.type()}${m.worker() ? ' worker' : ''}] ${m.text()}`);
    });
  }

  report(fault: string): void {
    if (this.allowed.some((p) => p.test(fault))) this.expected.push(fault);
    else this.faults.push(fault);
  }

  /** Declares an error the test provokes on purpose; keep the pattern as narrow as the error. */
  expect(pattern: RegExp): void {
    this.allowed.push(pattern);
  }

  /** The unexpected faults so far, emptied. */
  take(): string[] {
    const out = this.faults;
    this.faults = [];
    return out;
  }
}

const guards = new Set<PageErrorGuard>();

/**
 * Watches every page of `context` (and their workers) for faults; the guard is checked by the test setup.
 * A worker's uncaught error reaches Playwright only when the page leaves its error event unhandled; the
 * site's worker clients call preventDefault (they turn a crash into a notice), so an init script also
 * listens on each Worker the page creates and logs a prevented error as a console error.
 */
export async function guardPageErrors(context: BrowserContext, label = 'page'): Promise<PageErrorGuard> {
  const guard = new PageErrorGuard(label);
  guards.add(guard);
  await context.addInitScript(() => {
    const Native = window.Worker;
    window.Worker = class extends Native {
      constructor(url: string | URL, options?: WorkerOptions) {
        super(url, options);
        // First listener: the page's own ones run after it, so look once they are done.
        this.addEventListener('error', (e) => setTimeout(() => e.defaultPrevented && console.error(`[worker error, handled by the page] ${e.message}`)));
      }
    };
  });
  context.on('page', (page) => guard.watch(page));
  context.on('close', () => void (guard.closed = true));
  await profileModelLoads(context);
  return guard;
}

/** Every unexpected fault of every guarded context since the last call, with its context's label; closed contexts are forgotten once drained. */
export function takePageFaults(): string[] {
  const out: string[] = [];
  for (const guard of guards) {
    out.push(...guard.take().map((f) => `${guard.label}: ${f}`));
    if (guard.closed) guards.delete(guard);
  }
  return out;
}

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  leaks: LeakLog;
  /** Everything the page and its workers logged to the console, for failure messages. */
  console: string[];
  /** Uncaught errors, rejections, console errors and Svelte messages of this context's pages and workers. */
  errors: PageErrorGuard;
}

/**
 * A fresh context (empty IndexedDB and caches) with the network guard, at `url`. `locale` sets the
 * browser's language (navigator.languages), which picks the interface language on a first visit.
 * The site's service worker is left out unless `serviceWorker` is set (src/ui/site/register.ts):
 * it would precache 28 MB in every context, and only its own tests need it.
 */
export function openPage(browser: Browser, url: string, options: { locale?: string; serviceWorker?: boolean } = {}): Promise<OpenedPage> {
  const { pathname, hash } = new URL(url);
  // A shared link's hash is its whole payload: the page it opens is enough to tell contexts apart.
  return profiled('context', pathname + hash.split('/').slice(0, 2).join('/'), () => openGuardedPage(browser, url, options));
}

async function openGuardedPage(browser: Browser, url: string, options: { locale?: string; serviceWorker?: boolean }): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 }, locale: options.locale ?? 'en-US' });
  const leaks = await guardNetwork(context);
  const errors = await guardPageErrors(context, url);
  if (!options.serviceWorker) await context.addInitScript(() => void ((window as unknown as { jianguNoServiceWorker: boolean }).jianguNoServiceWorker = true));
  const page = await context.newPage();
  const log: string[] = [];
  page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => log.push(`[worker ${m.type()}] ${m.text()}`)));
  await page.goto(url);
  return { context, page, leaks, console: log, errors };
}

/**
 * Serves the built site and launches Chromium for `body`, closing both afterwards whatever happens:
 * the lifecycle every `npm run bench` part shares.
 */
export async function withChromium<T>(options: LaunchOptions, body: (siteUrl: string, browser: Browser) => Promise<T>): Promise<T> {
  const site = await startSite();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium(options);
    return await body(site.url, browser);
  } finally {
    await browser?.close();
    await site.close();
  }
}
