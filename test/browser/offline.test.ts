// Deploying anywhere, in Chromium with a real service worker: the built site, served from /jiangu/
// by a plain static host that sends no COOP/COEP (static-host.ts), becomes crossOriginIsolated
// after the service worker's one reload; with the network gone after a first visit it opens, opens
// a stored run, runs a fixture evaluation from the cached data and model and reads a passage on the
// Reading page from a teacher's link, while a model never
// loaded says it is not stored and the site cannot be reached; a new build deployed
// while a run goes on waits (the run completes on the same page and the same worker) and takes over
// only when the page applies it; a first visit whose service worker takes over during a run does not
// reload, and offers the reload instead; a deploy that lost sw.js says why there is no service worker.
//
// beforeAll builds the site twice with base /jiangu/ (JIANGU_BUILD_ID 1 and 2, so the precache
// manifests differ), about 5 to 10 s each.
import { execFileSync } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { guardNetwork, guardPageErrors, launchChromium, type LeakLog } from '../../scripts/browser.ts';
import { projectRoot } from '../../scripts/site-routes.ts';
import { recordProfileEvent } from '../../scripts/test-profile/events.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';
import { BASE, startStaticHost, type StaticHost } from './static-host.ts';
import { readingHash } from '../../src/ui/reading/reading-link.ts';

const builds = [1, 2].map((id) => ({ id, dir: join(projectRoot, '.fixtures', `site-jiangu-${id}`) }));
const RUN = { dataset: 'ancientbench', shots: 0, limit: 1, backend: 'wasm' } as const;

function buildSite(id: number, dir: string): void {
  const start = performance.now();
  execFileSync(join(projectRoot, 'node_modules', '.bin', 'vite'), ['build', '--outDir', dir, '--emptyOutDir', '--logLevel', 'error'], {
    cwd: projectRoot,
    // vitest sets NODE_ENV=test, which would make a development build (no service worker).
    env: { ...process.env, NODE_ENV: 'production', JIANGU_BASE: BASE, JIANGU_BUILD_ID: String(id) },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  recordProfileEvent('site-build', performance.now() - start, `${BASE} build ${id}`);
}

/** The main script a build's index.html loads: which build a page runs. */
const mainScriptOf = (dir: string) => /<script type="module" crossorigin src="([^"]+)"/.exec(readFileSync(join(dir, 'index.html'), 'utf8'))![1];

/**
 * Installed before the page's scripts. Notes each main-page load's isolation and control in
 * sessionStorage (which survives reloads), marks the document (a reload clears the mark), and holds
 * every scoreItem request while `__hold` is set, releasing them with `__release()`.
 */
function instrumentPage(): void {
  // Init scripts run in every document, the new tab's about:blank too, whose sessionStorage throws.
  if (location.protocol !== 'http:') return;
  if (location.pathname.endsWith('harness.html')) return;
  const loads = JSON.parse(sessionStorage.getItem('test.loads') ?? '[]') as unknown[];
  loads.push({ isolated: self.crossOriginIsolated, controlled: navigator.serviceWorker?.controller != null });
  sessionStorage.setItem('test.loads', JSON.stringify(loads));
  const w = window as unknown as { __document: number; __hold: boolean; __held: (() => void)[]; __release: () => void };
  w.__document = Math.random();
  w.__hold = false;
  w.__held = [];
  w.__release = () => {
    w.__hold = false;
    for (const send of w.__held.splice(0)) send();
  };
  const post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (this: Worker, message: unknown, ...rest: unknown[]) {
    const send = () => (post as (...args: unknown[]) => void).call(this, message, ...rest);
    if (w.__hold && (message as { kind?: string } | null)?.kind === 'scoreItem') w.__held.push(send);
    else send();
  } as typeof Worker.prototype.postMessage;
}

type Load = { isolated: boolean; controlled: boolean };
const loadsOf = (page: Page) => page.evaluate(() => JSON.parse(sessionStorage.getItem('test.loads') ?? '[]') as Load[]);
const siteState = (page: Page) =>
  page.evaluate(() => {
    const s = window.jianguSite!;
    return { controlled: s.controlled, isolated: s.isolated, offlineReady: s.offlineReady, updateWaiting: s.updateWaiting, unavailable: s.unavailable };
  });

describe('the built site on a plain static host under /jiangu/', () => {
  let host: StaticHost;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let leaks: LeakLog;
  const log: string[] = [];
  let firstRun = '';

  beforeAll(async () => {
    for (const { id, dir } of builds) buildSite(id, dir);
    host = await startStaticHost(builds[0].dir);
    browser = await launchChromium();
    context = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1200, height: 1000 }, locale: 'en-US' });
    leaks = await guardNetwork(context);
    await guardPageErrors(context, 'offline');
    await context.addInitScript(instrumentPage);
    page = await context.newPage();
    page.on('console', (m) => log.push(`[${m.type()}] ${m.text()}`));
    page.on('pageerror', (e) => log.push(`[pageerror] ${e.message}`));
  });

  afterAll(async () => {
    await browser?.close();
    await host?.close();
    expect(leaks).toEqual([]);
  });

  it('becomes cross-origin isolated after the service worker reloads it once, and stores the shell for offline use', async () => {
    await page.goto(`${host.url}#/data`);
    await page.waitForFunction(() => self.crossOriginIsolated, null, { polling: 100, timeout: 60_000 });
    // The host sends no isolation headers: the first load was neither controlled nor isolated, the
    // service worker's reload is both, and there was one reload only.
    expect(await loadsOf(page)).toEqual([
      { isolated: false, controlled: false },
      { isolated: true, controlled: true },
    ]);
    await page.waitForFunction(() => window.jianguSite?.offlineReady === true, null, { polling: 100, timeout: 60_000 });
    expect(await siteState(page)).toEqual({ controlled: true, isolated: true, offlineReady: true, updateWaiting: false, unavailable: null });
    // Every script and style of the build is stored, the chunks of the pages not opened yet too (each
    // page is loaded when its route first opens: src/ui/pages.ts), so every page opens offline.
    const stored = await page.evaluate(async () => {
      const paths: string[] = [];
      for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
      return paths;
    });
    const assets = readdirSync(join(builds[0].dir, 'assets')).filter((name) => /\.(js|css)$/.test(name));
    expect(assets.filter((name) => /^(EvaluatePage|ReadingPage|ComparePage|Playground)-.*\.js$/.test(name))).toHaveLength(4);
    expect(assets.filter((name) => !stored.includes(`${BASE}assets/${name}`))).toEqual([]);
    expect(await page.evaluate(() => typeof SharedArrayBuffer)).toBe('function');
    await page.locator('[data-testid=site-isolation][data-isolated=yes]').waitFor();
    // Installable. Chromium's own check finds nothing missing but the profile: a Playwright context
    // is an incognito one, where Chromium never installs (so it may stop there); the manifest it
    // parsed is then checked against what its install criteria ask, icons decoded at their sizes.
    const cdp = await context.newCDPSession(page);
    const { installabilityErrors } = (await cdp.send('Page.getInstallabilityErrors')) as { installabilityErrors: { errorId: string }[] };
    expect(installabilityErrors.map((e) => e.errorId).filter((id) => id !== 'in-incognito')).toEqual([]);
    const manifest = (await cdp.send('Page.getAppManifest')) as { url: string; errors: unknown[]; data: string };
    await cdp.detach();
    expect(manifest.url).toBe(`${host.url}manifest.webmanifest`);
    expect(manifest.errors).toEqual([]);
    const app = JSON.parse(manifest.data) as { name: string; short_name: string; display: string; start_url: string; scope: string; icons: { src: string; sizes: string; type: string; purpose?: string }[] };
    expect(app).toMatchObject({ name: '鉴古 Jiangu', short_name: '鉴古', display: 'standalone', start_url: '/jiangu/', scope: '/jiangu/' });
    const icons = await page.evaluate(
      async (list) =>
        Promise.all(
          list.map(async (icon) => {
            const response = await fetch(new URL(icon.src, location.href));
            const bitmap = await createImageBitmap(await response.blob());
            return { sizes: icon.sizes, purpose: icon.purpose ?? 'any', type: response.headers.get('content-type'), decoded: `${bitmap.width}x${bitmap.height}` };
          }),
        ),
      app.icons,
    );
    expect(icons).toEqual([
      { sizes: '192x192', purpose: 'any', type: 'image/png', decoded: '192x192' },
      { sizes: '512x512', purpose: 'any', type: 'image/png', decoded: '512x512' },
      { sizes: '512x512', purpose: 'maskable', type: 'image/png', decoded: '512x512' },
    ]);
  });

  it('after a first visit with the network gone: opens, opens the stored run, and runs a new fixture evaluation from the cache', async () => {
    await page.getByTestId('import-sample').click();
    await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
    firstRun = await startFixtureRun(page, RUN);
    await waitForStatus(page, 'completed');

    await context.setOffline(true);
    host.setDown(true);
    try {
      await page.reload();
      await page.getByTestId('nav-evaluate').waitFor();
      expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
      await page.goto(`${host.url}#/run/${encodeURIComponent(firstRun)}`);
      await waitForStatus(page, 'completed', 30_000);
      const offlineRun = await startFixtureRun(page, RUN);
      await waitForStatus(page, 'completed');
      const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, offlineRun);
      const first = await readStoredRun<McRunRecord, McItemResult>(page, firstRun);
      expect(results.length).toBe(first.results.length);
      expect(results.length).toBeGreaterThan(0);
      expect(results.every((r) => r.failure === undefined && r.prediction !== null)).toBe(true);
      // The same model and items give the same letters, offline as online.
      expect(results.map((r) => r.prediction)).toEqual(first.results.map((r) => r.prediction));
      expect(run.environment?.backendInfo.crossOriginIsolated).toBe(true);
      // The Reading page offline, from a teacher's link: the model loads from the cache and reads the passage.
      const link = readingHash({ view: 'tokens', text: '学而时习之，不亦说乎？', model: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', threshold: null })!;
      await page.goto(`${host.url}${link}`);
      await page.getByTestId('reading-model-a-load-offered').click();
      await page.getByTestId('reading-model-a-loaded').waitFor({ timeout: 60_000 });
      await page.getByTestId('reading-read').click();
      await page.getByTestId('reading-tokens').waitFor({ timeout: 60_000 });
      expect(await page.locator('[data-testid=reading-tokens] button[data-bits]').count()).toBe([...'学而时习之，不亦说乎？'].length - 1);
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log.slice(-30).join('\n')}\nhost saw: ${host.requests.slice(-20).join(', ')}`);
    } finally {
      host.setDown(false);
      await context.setOffline(false);
    }
  });

  it('offline, a model never loaded here says it is not stored and the site cannot be reached (not "no model found"), and its run claims nothing about its config.json', async () => {
    const load = async (choice: string, dtype: string) => {
      await page.getByTestId('model-choice').selectOption(choice);
      await page.getByTestId('dtype').selectOption(dtype);
      await page.getByTestId('backend').selectOption('wasm');
      await page.getByTestId('load').click();
      await page.getByTestId('model-error').waitFor({ timeout: 60_000 });
      return (await page.getByTestId('model-error').textContent()) ?? '';
    };
    const site = new URL(host.url).host;
    await context.setOffline(true);
    host.setDown(true);
    try {
      await page.goto(`${host.url}#/playground`);
      await page.reload();
      await page.locator('[data-testid=model-choice] option[value="site:jiangu-tiny-gqa"]').waitFor({ state: 'attached' });
      // Never loaded: not even its config.json is stored.
      const never = await load('site:jiangu-tiny-gqa', 'fp32');
      expect(never).toContain(`the site's model folder /models/jiangu-tiny-gqa/ is not stored in this browser for offline use (config.json is not kept here), and the site (${site}) cannot be reached: the browser is offline. Connect to the network once and load the model`);
      expect(never).not.toContain('No model found');
      // Loaded before in fp32 only: its q8 weights were never fetched, which is not "has no q8 weights".
      const otherDtype = await load('site:jiangu-tiny', 'q8');
      expect(otherDtype).toContain('(onnx/model_quantized.onnx is not kept here)');
      expect(otherDtype).not.toContain('has no q8 weights');
      await page.getByTestId('lang-zh').click();
      expect(await page.getByTestId('model-error').textContent()).toContain(`没有保存在此浏览器中以供离线使用（这里没有 onnx/model_quantized.onnx），而且无法连接本站（${site}）`);
      await page.getByTestId('lang-en').click();
      // A hub model through a mirror, never loaded: the mirror's host is named.
      await page.getByTestId('model-choice').selectOption('custom');
      await page.getByTestId('custom-id').fill('jiangu/jiangu-tiny');
      await page.getByTestId('model-host').fill(`${host.url}hub/`);
      await page.getByTestId('load').click();
      await expect.poll(() => page.getByTestId('model-error').textContent(), { timeout: 60_000 }).toContain(
        `is not stored in this browser for offline use (config.json is not kept here), and the model host ${site} cannot be reached: the browser is offline.`,
      );

      const runId = await startFixtureRun(page, { ...RUN, model: 'jiangu-tiny-gqa' });
      await waitForStatus(page, 'failed', 60_000);
      expect(await page.getByTestId('run-status').textContent()).toContain('/models/jiangu-tiny-gqa/ is not stored in this browser for offline use');
      const limit = await page.getByTestId('run-context-limit').textContent();
      expect(limit).toContain('the default, until the model’s config.json is read');
      expect(limit).not.toContain('states no positions');
      const { run } = await readStoredRun<McRunRecord>(page, runId);
      expect(run.error).toMatchObject({ code: 'model.not-stored-offline', params: { source: 'site', name: 'jiangu-tiny-gqa', file: 'config.json', host: site, offline: true } });
    } catch (error) {
      throw new Error(`${(error as Error).message}\n${log.slice(-30).join('\n')}\nhost saw: ${host.requests.slice(-20).join(', ')}`);
    } finally {
      host.setDown(false);
      await context.setOffline(false);
    }
  });

  it('a new build deployed during a run waits: the run completes on the same page, and the update takes over only when applied', async () => {
    await page.goto(`${host.url}#/evaluate`);
    await page.reload();
    await page.evaluate(() => {
      const w = window as unknown as { __hold: boolean; __controller: ServiceWorker | null };
      w.__hold = true;
      w.__controller = navigator.serviceWorker.controller;
    });
    const documentMark = await page.evaluate(() => (window as unknown as { __document: number }).__document);
    const runId = await startFixtureRun(page, RUN);
    await page.waitForFunction(() => (window as unknown as { __held: unknown[] }).__held.length > 0, null, { polling: 100 });

    host.setRoot(builds[1].dir);
    await page.evaluate(() => window.jianguSite!.checkForUpdate());
    // Build 2 is installed and waits, or (wrongly) took over at once: either ends the wait.
    await page.waitForFunction(
      () => window.jianguSite!.updateWaiting || navigator.serviceWorker.controller !== (window as unknown as { __controller: ServiceWorker }).__controller,
      null,
      { polling: 100, timeout: 60_000 },
    );
    // Build 1's worker still controls this page.
    expect(await page.evaluate(() => navigator.serviceWorker.controller === (window as unknown as { __controller: ServiceWorker }).__controller)).toBe(true);
    expect(await page.evaluate(() => window.jianguSite!.updateWaiting)).toBe(true);
    await page.locator('[data-testid=site-update][data-state=blocked]').waitFor();

    await page.evaluate(() => (window as unknown as { __release: () => void }).__release());
    await waitForStatus(page, 'completed');
    const { run, results } = await readStoredRun<McRunRecord>(page, runId);
    expect(run.status).toBe('completed');
    expect(results.length).toBe(run.config.itemIds.length);
    expect(run.config.appVersion.endsWith('.1')).toBe(true);
    // Same document (never reloaded), same worker.
    expect(await page.evaluate(() => (window as unknown as { __document: number }).__document)).toBe(documentMark);
    expect(await page.evaluate(() => navigator.serviceWorker.controller === (window as unknown as { __controller: ServiceWorker }).__controller)).toBe(true);
    expect(await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type=module]')!.getAttribute('src'))).toBe(mainScriptOf(builds[0].dir));

    await page.locator('[data-testid=site-update][data-state=ready]').waitFor();
    await Promise.all([page.waitForEvent('load'), page.getByTestId('site-update-reload').click()]);
    await page.waitForFunction(() => window.jianguSite !== undefined, null, { polling: 100 });
    expect(await page.evaluate(() => document.querySelector<HTMLScriptElement>('script[type=module]')!.getAttribute('src'))).toBe(mainScriptOf(builds[1].dir));
    expect(await siteState(page)).toMatchObject({ controlled: true, isolated: true, updateWaiting: false });
  });

  it('a first visit whose service worker takes over while a run goes on does not reload: it offers the reload', async () => {
    const fresh = await browser.newContext({ serviceWorkers: 'allow', viewport: { width: 1200, height: 1000 }, locale: 'en-US' });
    const freshLeaks = await guardNetwork(fresh);
    await guardPageErrors(fresh, 'offline, fresh context');
    await fresh.addInitScript(instrumentPage);
    try {
      const tab = await fresh.newPage();
      // The service worker's script is held back until a run is going.
      const releaseWorker = host.hold('sw.js');
      await tab.goto(`${host.url}#/data`);
      await tab.getByTestId('import-sample').click();
      await tab.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
      await tab.evaluate(() => ((window as unknown as { __hold: boolean }).__hold = true));
      const runId = await startFixtureRun(tab, RUN);
      await tab.waitForFunction(() => (window as unknown as { __held: unknown[] }).__held.length > 0, null, { polling: 100 });
      releaseWorker();
      // Controlled, and either the reload offered or (wrongly) done.
      await tab.waitForFunction(() => window.jianguSite?.controlled && (window.jianguSite.reloadForIsolation || self.crossOriginIsolated), null, { polling: 100, timeout: 60_000 });
      expect(await loadsOf(tab)).toEqual([{ isolated: false, controlled: false }]);
      expect(await tab.evaluate(() => window.jianguSite!.reloadForIsolation)).toBe(true);
      await tab.evaluate(() => (window as unknown as { __release: () => void }).__release());
      await waitForStatus(tab, 'completed');
      const { results, run } = await readStoredRun<McRunRecord, McItemResult>(tab, runId);
      expect(results.length).toBe(run.config.itemIds.length);
      // The reload the page offers makes it isolated.
      await tab.reload();
      expect(await tab.evaluate(() => self.crossOriginIsolated)).toBe(true);
    } finally {
      await fresh.close();
    }
    expect(freshLeaks).toEqual([]);
  });

  it('a deploy without its service worker (and without site models) says so and goes on without one: no reload, not isolated', async () => {
    const fresh = await browser.newContext({ serviceWorkers: 'allow', locale: 'en-US' });
    const freshLeaks = await guardNetwork(fresh);
    const errors = await guardPageErrors(fresh, 'offline, fresh context');
    // This deploy has no sw.js: registering it fails with Chromium's own line, on purpose.
    errors.expect(/^\[console error\] A bad HTTP response code \(404\) was received when fetching the script\.$/);
    await fresh.addInitScript(instrumentPage);
    host.missing.add('sw.js');
    host.missing.add('models/index.json');
    try {
      const tab = await fresh.newPage();
      await tab.goto(`${host.url}#/data`);
      await tab.waitForFunction(() => window.jianguSite?.unavailable != null, null, { polling: 100, timeout: 30_000 });
      const state = await siteState(tab);
      expect(state.unavailable?.code).toBe('site.sw-failed');
      expect(state).toMatchObject({ controlled: false, isolated: false, offlineReady: false });
      expect(await loadsOf(tab)).toEqual([{ isolated: false, controlled: false }]);
      // The page itself works: the sample imports.
      await tab.getByTestId('import-sample').click();
      await tab.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
      // No models/index.json: the playground says it lists hub models only, and why.
      await tab.goto(`${host.url}#/playground`);
      await tab.getByTestId('no-site-models').waitFor();
      expect(await tab.getByTestId('model-choice').locator('option[value^="site:"]').count()).toBe(0);
    } finally {
      host.missing.delete('sw.js');
      host.missing.delete('models/index.json');
      await fresh.close();
    }
    expect(freshLeaks).toEqual([]);
    expect(errors.expected.length).toBeGreaterThan(0);
  });
});
