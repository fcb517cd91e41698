// Each page is a chunk of its own, loaded when its route first opens (src/ui/pages.ts), so that
// start-up is not one long task. While a page's chunk comes the page says so; a chunk that does not
// come (offline before the service worker held the site, or a build replaced on the server since the
// tab opened) is said in both languages with a Reload, which opens the page once the chunk can be
// fetched; the header and the other pages go on working meanwhile.
import { describe, expect, it } from 'vitest';
import { useBrowserSession } from './session.ts';

/** The Data page's chunk (DataPage-<hash>.js), which the Playground does not load. */
const DATA_PAGE_CHUNK = /\/assets\/DataPage-[^/]*\.js$/;

describe("a page's chunk, loaded when its route first opens", () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/playground' });

  it('says the page is loading while the chunk comes, in both languages, then shows the page', async () => {
    const { page } = session.opened;
    await page.getByTestId('nav-data').waitFor();
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(DATA_PAGE_CHUNK, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByTestId('nav-data').click();
    const loading = page.getByTestId('page-loading');
    await loading.waitFor();
    expect(await loading.getAttribute('role')).toBe('status');
    expect(await loading.textContent()).toBe('Loading the page…');
    await page.getByTestId('lang-zh').click();
    expect(await loading.textContent()).toBe('正在加载页面…');
    await page.getByTestId('lang-en').click();
    release();
    await page.getByTestId('catalog').waitFor();
    expect(await loading.count()).toBe(0);
    await page.unroute(DATA_PAGE_CHUNK);
  });

  it('says so when the chunk does not come, keeps the header and the other pages working, and opens it on Reload', async () => {
    const { page } = session.opened;
    // A fresh document, so that the chunk loaded by the test before is not in its module map (a
    // goto that changes only the fragment stays in the same document).
    await page.goto(`${session.url}/#/playground`);
    await page.reload();
    await page.getByTestId('nav-data').waitFor();
    await page.route(DATA_PAGE_CHUNK, (route) => route.abort());
    await page.getByTestId('nav-data').click();
    const failed = page.getByTestId('page-load-failed');
    await failed.waitFor();
    expect(await failed.getAttribute('role')).toBe('alert');
    expect(await failed.textContent()).toContain('This page could not be loaded');
    await page.getByTestId('lang-zh').click();
    expect(await failed.textContent()).toContain('此页面未能加载');
    await page.getByTestId('lang-en').click();
    await page.getByTestId('nav-compare').click();
    await page.getByTestId('compare-link-input').waitFor();
    await page.getByTestId('nav-data').click();
    await failed.waitFor();
    await page.unroute(DATA_PAGE_CHUNK);
    await failed.getByRole('button', { name: 'Reload' }).click();
    await page.getByTestId('catalog').waitFor();
    expect(await failed.count()).toBe(0);
  });
});
