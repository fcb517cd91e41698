// The served site and Chromium are started once per test worker and kept for every file it runs (the
// browser project runs its files without module isolation: vitest.config.ts); each describe block
// that calls useBrowserSession gets a fresh browser context of its own — its own storage, caches and
// service workers, the network guard and the page-error guard — closed afterwards with every other
// context the block opened, so nothing a block left running or stored reaches the next one. The
// block fails if any request tried to leave 127.0.0.1. The page's context is also watched for page
// errors (openPage's guard, session.opened.errors), drained after every test by page-error-guard.ts.
// A block that asks for Chromium flags of its own (V8's, for a test that counts blocks) gets a browser
// of its own, closed with the block.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser, BrowserContext } from 'playwright-core';
import { launchChromium, openPage, startSite, type OpenedPage } from '../../scripts/browser.ts';

export interface BrowserSession {
  readonly url: string;
  readonly opened: OpenedPage;
}

type Site = Awaited<ReturnType<typeof startSite>>;

let site: Promise<Site> | undefined;
const browsers = new Map<boolean, Promise<Browser>>();

/** This worker's served site: started on first use, closed when the worker exits. */
export function workerSite(): Promise<Site> {
  site ??= startSite().catch((error: unknown) => {
    site = undefined;
    throw error;
  });
  return site;
}

/** This worker's Chromium, with or without WebGPU: launched on first use, launched again if it went away. */
export function workerBrowser(webgpu: boolean): Promise<Browser> {
  let browser = browsers.get(webgpu);
  if (!browser) {
    browser = launchChromium({ webgpu });
    browsers.set(webgpu, browser);
    browser.then(
      (b) => b.on('disconnected', () => browsers.delete(webgpu)),
      () => browsers.delete(webgpu),
    );
  }
  return browser;
}

export function useBrowserSession(options: {
  webgpu: boolean;
  path: string;
  /** Runs before the block's page opens (e.g. to set JIANGU_MODELS, read by the site on every request). */
  setup?: () => void;
  /** Resolves once the page is usable. */
  ready?: (opened: OpenedPage) => Promise<unknown>;
  /** More Chromium flags (e.g. V8's, for a test that counts the blocks V8 executes): a browser of the block's own. */
  chromiumArgs?: readonly string[];
}): BrowserSession {
  let url: string | undefined;
  let browser: Browser | undefined;
  let own = false;
  let before = new Set<BrowserContext>();
  let opened: OpenedPage | undefined;
  beforeAll(async () => {
    options.setup?.();
    url = (await workerSite()).url;
    own = !!options.chromiumArgs?.length;
    browser = own ? await launchChromium({ webgpu: options.webgpu, extraArgs: options.chromiumArgs }) : await workerBrowser(options.webgpu);
    before = new Set(browser.contexts());
    opened = await openPage(browser, `${url}${options.path}`);
    await options.ready?.(opened);
  });
  afterAll(async () => {
    const leaks = opened?.leaks ?? [];
    if (own) await browser?.close();
    else if (browser?.isConnected()) await Promise.all(browser.contexts().filter((c) => !before.has(c)).map((c) => c.close()));
    expect(leaks).toEqual([]);
  });
  return {
    get url() {
      if (!url) throw new Error('the site is not started yet');
      return url;
    },
    get opened() {
      if (!opened) throw new Error('the page is not open yet');
      return opened;
    },
  };
}

/** Waits for /harness.html to expose window.jiangu. */
export const harnessReady = (opened: OpenedPage) =>
  opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready', null, { polling: 100 });

// Every page.waitForFunction of the tests and the bench polls on a 100 ms timer ({ polling: 100 }),
// not on Playwright's default, requestAnimationFrame: a frame is the compositor's, and a page whose
// frames stall (its GPU process starved, SwiftShader beside another browser on 2 cores) is not asked
// again, though its own state has changed. playground timed out in CI so, waiting 30 s for a Load
// button whose missing-dtype load ends in 0.6-3.5 s here, even beside another file and three busy
// loops (12 runs; the stall was not reproduced, and others report rAF-polled waits starved under load).

/**
 * How long a test waits for a model load to end: a worker's start, ORT's wasm, the files, the
 * session and the rewrite checks, none of which the site promises in a set time (jiangu-tiny's fp32
 * took 10-21 s on WASM beside another browser file and three busy loops, against Playwright's 30 s default).
 */
export const MODEL_LOAD_MS = 120_000;
