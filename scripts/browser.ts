// Shared by the browser tests and `npm run bench`: find the system Chromium, serve the built site on
// 127.0.0.1, and open pages whose every request is checked to stay on this machine.
import { existsSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { preview, type PreviewServer } from 'vite';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { projectRoot } from './site-routes.ts';

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
  const server: PreviewServer = await preview({
    root: projectRoot,
    logLevel: 'error',
    preview: { host: '127.0.0.1', port: 0, strictPort: false, open: false },
  });
  const port = (server.httpServer.address() as AddressInfo).port;
  return { url: `http://127.0.0.1:${port}`, close: () => server.close() };
}

export interface LaunchOptions {
  /** Expose WebGPU (SwiftShader, on the CPU). Without it `requestAdapter()` gives no adapter. */
  webgpu?: boolean;
}

export async function launchChromium(options: LaunchOptions = {}): Promise<Browser> {
  const args = [
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
  if (options.webgpu) args.push('--enable-unsafe-webgpu');
  return chromium.launch({ executablePath: findChromium(), headless: true, args });
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

export interface OpenedPage {
  context: BrowserContext;
  page: Page;
  leaks: LeakLog;
  /** Everything the page and its workers logged to the console, for failure messages. */
  console: string[];
}

/**
 * A fresh context (empty IndexedDB and caches) with the network guard, at `url`. `locale` sets the
 * browser's language (navigator.languages), which picks the interface language on a first visit.
 * The site's service worker is left out unless `serviceWorker` is set (src/ui/site/register.ts):
 * it would precache 28 MB in every context, and only its own tests need it.
 */
export async function openPage(browser: Browser, url: string, options: { locale?: string; serviceWorker?: boolean } = {}): Promise<OpenedPage> {
  const context = await browser.newContext({ viewport: { width: 1200, height: 1000 }, locale: options.locale ?? 'en-US' });
  const leaks = await guardNetwork(context);
  if (!options.serviceWorker) await context.addInitScript(() => void ((window as unknown as { jianguNoServiceWorker: boolean }).jianguNoServiceWorker = true));
  const page = await context.newPage();
  const log: string[] = [];
  page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
  page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
  page.on('worker', (w) => w.on('console', (m) => log.push(`[worker ${m.type()}] ${m.text()}`)));
  await page.goto(url);
  return { context, page, leaks, console: log };
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
