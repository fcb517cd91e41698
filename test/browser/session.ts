// One served site, one Chromium and one guarded page for a describe block, closed afterwards; the
// block fails if any request tried to leave 127.0.0.1. The page's context is also watched for page
// errors (openPage's guard, session.opened.errors), drained after every test by page-error-guard.ts.
import { afterAll, beforeAll, expect } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, startSite, type OpenedPage } from '../../scripts/browser.ts';

export interface BrowserSession {
  readonly url: string;
  readonly opened: OpenedPage;
}

export function useBrowserSession(options: {
  webgpu: boolean;
  path: string;
  /** Runs before the site starts (e.g. to set JIANGU_MODELS). */
  setup?: () => void;
  /** Resolves once the page is usable. */
  ready?: (opened: OpenedPage) => Promise<unknown>;
  /** More Chromium flags (e.g. V8's, for a test that counts the blocks V8 executes). */
  chromiumArgs?: readonly string[];
}): BrowserSession {
  let site: Awaited<ReturnType<typeof startSite>> | undefined;
  let browser: Browser | undefined;
  let opened: OpenedPage | undefined;
  beforeAll(async () => {
    options.setup?.();
    site = await startSite();
    browser = await launchChromium({ webgpu: options.webgpu, extraArgs: options.chromiumArgs });
    opened = await openPage(browser, `${site.url}${options.path}`);
    await options.ready?.(opened);
  });
  afterAll(async () => {
    const leaks = opened?.leaks ?? [];
    await browser?.close();
    await site?.close();
    expect(leaks).toEqual([]);
  });
  return {
    get url() {
      if (!site) throw new Error('the site is not started yet');
      return site.url;
    },
    get opened() {
      if (!opened) throw new Error('the page is not open yet');
      return opened;
    },
  };
}

/** Waits for /harness.html to expose window.jiangu. */
export const harnessReady = (opened: OpenedPage) =>
  opened.page.waitForFunction(() => document.getElementById('status')?.textContent === 'ready');
