// The guard that every other browser test relies on must itself be able to fail: requests to
// another host, from the page and from a worker, are caught and recorded.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchChromium, openPage, startSite } from '../../scripts/browser.ts';

describe('network guard', () => {
  let site: Awaited<ReturnType<typeof startSite>>;
  let browser: Browser;
  beforeAll(async () => {
    site = await startSite();
    browser = await launchChromium({ webgpu: true });
  });
  afterAll(async () => {
    await browser?.close();
    await site?.close();
  });

  it('records requests that leave 127.0.0.1, from the page and from a worker', async () => {
    const { page, leaks, context } = await openPage(browser, `${site.url}/harness.html`);
    await page.evaluate(async () => {
      await fetch('https://example.com/from-page').catch(() => undefined);
      const source = "fetch('https://huggingface.co/from-worker').catch(() => 0).then(() => postMessage('done'))";
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      await new Promise((resolve) => worker.addEventListener('message', resolve));
    });
    expect(leaks).toContain('https://example.com/from-page');
    expect(leaks).toContain('https://huggingface.co/from-worker');
    await context.close();
  });

  it('serves the site cross-origin isolated, with a WebGPU adapter in workers', async () => {
    const { page, leaks, context } = await openPage(browser, `${site.url}/harness.html`);
    const state = await page.evaluate(async () => {
      const source = `navigator.gpu.requestAdapter().then(a => postMessage(a ? a.info.architecture : 'none'))`;
      const worker = new Worker(URL.createObjectURL(new Blob([source], { type: 'text/javascript' })));
      const architecture = await new Promise((resolve) => worker.addEventListener('message', (e) => resolve(e.data)));
      return { isolated: crossOriginIsolated, architecture };
    });
    expect(state).toEqual({ isolated: true, architecture: 'swiftshader' });
    expect(leaks).toEqual([]);
    await context.close();
  });
});
