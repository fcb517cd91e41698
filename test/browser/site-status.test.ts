// The header's site status and update prompt, and the Data page's persistence answer, on the test
// server (which sends COOP/COEP): isolation with ORT's thread count before a load and the worker's
// own after one; a waiting update (set through the page's test handle, as only a real deploy makes
// one) that cannot reload the page while a fixture run runs and can once it ends; persist() asked
// once, before the first file of a hub model (the site's fixture hub) and of a dataset download from
// the site's data mirror, and its answer shown on the Data page. Header screenshots in test-results/.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { projectRoot } from '../../scripts/site-routes.ts';
import { notice, renderNotice } from '../../src/lib/core/notices/index.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';
import { useBrowserSession } from './session.ts';

const shots = join(projectRoot, 'test-results');

/** ORT's own rule for numThreads left unset, computed in the page from what the page itself sees. */
const expectedDefault = (page: Page) =>
  page.evaluate(() => (self.crossOriginIsolated ? Math.min(4, Math.ceil((navigator.hardwareConcurrency || 1) / 2)) : 1));

describe('site status and update prompt', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/playground' });

  it('says the page is cross-origin isolated and how many wasm threads ORT will use, in both languages', async () => {
    const { page } = session.opened;
    const isolation = page.getByTestId('site-isolation');
    await isolation.waitFor();
    expect(await page.evaluate(() => self.crossOriginIsolated)).toBe(true);
    expect(await isolation.getAttribute('data-isolated')).toBe('yes');
    expect(await isolation.getAttribute('data-threads-from')).toBe('default');
    const threads = await expectedDefault(page);
    expect(Number(await isolation.getAttribute('data-threads'))).toBe(threads);
    expect(await isolation.textContent()).toContain(`Cross-origin isolated: ${threads} wasm thread`);
    // No service worker yet on main: nothing to reload for, and not offline-ready.
    expect(await page.getByTestId('site-isolation-reload').count()).toBe(0);
    expect(await page.getByTestId('site-offline').getAttribute('data-offline')).toBe('not-yet');
    mkdirSync(shots, { recursive: true });
    await page.locator('header').screenshot({ path: join(shots, 'site-header-en.png') });
    await page.getByTestId('lang-zh').click();
    expect(await isolation.textContent()).toContain(`已启用跨源隔离：${threads} 个 wasm 线程`);
    await page.locator('header').screenshot({ path: join(shots, 'site-header-zh.png') });
    await page.getByTestId('lang-en').click();
  });

  it('offers the reload that isolates a page a service worker controls but loaded without its headers', async () => {
    const { page } = session.opened;
    const ifIsolated = await page.evaluate(() => Math.min(4, Math.ceil((navigator.hardwareConcurrency || 1) / 2)));
    // What a static host without COOP/COEP gives, once the service worker controls the page and its cache is full.
    await page.evaluate(() => Object.assign(window.jianguSite!, { isolated: false, controlled: true, offlineReady: true }));
    const isolation = page.locator('[data-testid=site-isolation][data-isolated=no]');
    await isolation.waitFor();
    expect(await isolation.getAttribute('data-threads')).toBe('1');
    // On this machine's 2 cores ORT takes 1 thread even when isolated: the offer then names isolation alone.
    const offer = ifIsolated > 1 ? [`Reload to use ${ifIsolated} wasm threads.`, `重新加载即可使用 ${ifIsolated} 个 wasm 线程`] : ['Reload to make the page cross-origin isolated.', '重新加载即可启用跨源隔离。'];
    expect(await page.getByTestId('site-isolation-reload').textContent()).toContain(offer[0]);
    expect(await page.getByTestId('site-offline').textContent()).toContain('Works offline');
    await page.locator('header').screenshot({ path: join(shots, 'site-header-reload-en.png') });
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('site-isolation-reload').textContent()).toContain(offer[1]);
    await page.locator('header').screenshot({ path: join(shots, 'site-header-reload-zh.png') });
    await page.getByTestId('lang-en').click();
    await page.evaluate(() => Object.assign(window.jianguSite!, { isolated: self.crossOriginIsolated, controlled: false, offlineReady: false }));
    await page.locator('[data-testid=site-isolation][data-isolated=yes]').waitFor();
    expect(await page.getByTestId('site-isolation-reload').count()).toBe(0);
  });

  it('says why the site cannot work offline when there is no service worker, in the page’s language', async () => {
    const { page } = session.opened;
    const why = notice('internal', { detail: 'the service worker could not be registered' });
    await page.evaluate((n) => (window.jianguSite!.unavailable = n), why);
    const offline = page.locator('[data-testid=site-offline][data-offline=unavailable]');
    await offline.waitFor();
    expect(await offline.textContent()).toContain(renderNotice(why, 'en'));
    await page.getByTestId('lang-zh').click();
    expect(await offline.textContent()).toContain(renderNotice(why, 'zh'));
    await page.getByTestId('lang-en').click();
    await page.evaluate(() => (window.jianguSite!.unavailable = null));
    await page.locator('[data-testid=site-offline][data-offline=not-yet]').waitFor();
  });

  it('keeps the model id field the user opened while the page idles on a slow machine: the site’s model list, arriving late, does not replace the choice', async () => {
    const { page, context } = session.opened;
    // A loaded 2-core machine, made certain: the CPU throttled, and the site's model list held back
    // until the user has chosen "Other model id…" (a test's selectOption came first there, and the
    // late list switched the form back to a site model, removing the field fill() was typing into).
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
    let releaseList!: () => void;
    const listHeld = new Promise<void>((resolve) => (releaseList = resolve));
    let listAsked!: () => void;
    const asked = new Promise<void>((resolve) => (listAsked = resolve));
    await page.route('**/models/index.json', async (route) => {
      listAsked();
      await listHeld;
      await route.fallback();
    });
    try {
      await page.reload();
      await asked;
      await page.getByTestId('model-choice').selectOption('custom');
      await page.getByTestId('custom-id').waitFor();
      // The field's identity and every removal of it, watched in the page while it idles.
      await page.evaluate(() => {
        const w = window as Window & { idField?: Element; idFieldRemovals?: number };
        w.idField = document.querySelector('[data-testid=custom-id]')!;
        w.idFieldRemovals = 0;
        new MutationObserver((records) => {
          for (const r of records) for (const n of r.removedNodes) if (n === w.idField || (n instanceof Element && n.contains(w.idField!))) w.idFieldRemovals!++;
        }).observe(document.body, { childList: true, subtree: true });
      });
      releaseList();
      // The list has come: its site models are offered, the user's choice stays.
      await page.locator('[data-testid=model-choice] option[value="site:jiangu-tiny"]').waitFor({ state: 'attached' });
      await page.waitForTimeout(3000);
      expect(
        await page.evaluate(() => {
          const w = window as Window & { idField?: Element; idFieldRemovals?: number };
          return { removals: w.idFieldRemovals, same: document.querySelector('[data-testid=custom-id]') === w.idField, choice: document.querySelector<HTMLSelectElement>('[data-testid=model-choice]')!.value };
        }),
      ).toEqual({ removals: 0, same: true, choice: 'custom' });
    } finally {
      await page.unroute('**/models/index.json');
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await cdp.detach();
    }
  });

  it('asks for persistent storage before the first file of a hub model, once (the site’s fixture hub)', async () => {
    const { page, context } = session.opened;
    // Counts persist() calls in the page; the next load of the page gets the wrapper.
    await page.addInitScript(() => {
      const persist = StorageManager.prototype.persist;
      StorageManager.prototype.persist = function (this: StorageManager) {
        const w = window as Window & { persistCalls?: number };
        w.persistCalls = (w.persistCalls ?? 0) + 1;
        return persist.call(this);
      };
    });
    // A reload, not a hash change: the wrapper and a fresh once-per-page-load memo.
    await page.reload();
    const seenAtFirstHubRequest: number[] = [];
    await context.route('**/hub/**', async (route) => {
      // The worker fetches only after the page posted the load, so the page's count is settled here.
      if (seenAtFirstHubRequest.length === 0) seenAtFirstHubRequest.push(await page.evaluate(() => (window as Window & { persistCalls?: number }).persistCalls ?? 0));
      await route.fallback();
    });
    await page.getByTestId('model-choice').selectOption('custom');
    await page.getByTestId('custom-id').fill('jiangu/jiangu-tiny');
    await page.getByTestId('model-host').fill(`${session.url}/hub/`);
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    await page.getByTestId('load').click();
    await page.getByTestId('backend-summary').waitFor({ timeout: 60_000 });
    await context.unroute('**/hub/**');
    expect(seenAtFirstHubRequest).toEqual([1]);
    expect(await page.evaluate(() => (window as Window & { persistCalls?: number }).persistCalls)).toBe(1);
    // The playground's load reports the worker's own thread count to the header.
    expect(await page.getByTestId('site-isolation').getAttribute('data-threads-from')).toBe('worker');
  });

  it('shows on the Data page whether persistent storage was granted, after a download from the mirror', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/?mirror=${encodeURIComponent(`${session.url}/mirror`)}#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
    expect(await page.getByTestId('storage-persistence').getAttribute('data-requested')).toBe('not-yet');
    const seenAtFirstFile: number[] = [];
    await page.route('**/mirror/cmmlu-ancient_chinese/**', async (route) => {
      if (seenAtFirstFile.length === 0) seenAtFirstFile.push(await page.evaluate(() => (window as Window & { persistCalls?: number }).persistCalls ?? 0));
      await route.fallback();
    });
    await page.getByTestId('dataset-cmmlu-ancient').getByTestId('download').click();
    await page.locator('[data-testid=dataset-cmmlu-ancient][data-stored=yes]').waitFor({ timeout: 60_000 });
    await page.unroute('**/mirror/cmmlu-ancient_chinese/**');
    // The card says where the files came from: the mirror, not "the pinned source".
    const stored = (await page.getByTestId('dataset-cmmlu-ancient').getByTestId('stored').textContent()) ?? '';
    expect(stored).toContain(`from the mirror ${session.url}/mirror`);
    expect(stored).not.toContain('from the pinned source');
    // Asked before the first file (the page's persist() wrapper is the previous test's init script), and once.
    expect(seenAtFirstFile).toEqual([1]);
    expect(await page.evaluate(() => (window as Window & { persistCalls?: number }).persistCalls)).toBe(1);
    const persistence = page.locator('[data-testid=storage-persistence]:not([data-requested=not-yet])');
    await persistence.waitFor();
    // The page's word is the browser's: persisted() read here, apart from the page's own code.
    const persisted = await page.evaluate(() => navigator.storage.persisted());
    expect(await persistence.getAttribute('data-persisted')).toBe(persisted ? 'yes' : 'no');
    expect(await persistence.getAttribute('data-requested')).toBe(persisted ? 'granted' : 'refused');
    const text = (await persistence.textContent()) ?? '';
    if (persisted) expect(text).toContain('Storage is persistent');
    else {
      expect(text).toContain('The browser did not grant persistent storage.');
      expect(text).toContain('IndexedDB');
      expect(text).toContain('Cache Storage');
    }
    await page.screenshot({ path: join(shots, 'site-storage-en.png') });
  });

  it('holds a waiting update back while a fixture run runs, frees it when the run ends, and then shows the worker’s thread count', async () => {
    const { page, context } = session.opened;
    // Hold the model file so the run is certainly still in progress while the prompt is checked.
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const modelAsked = new Promise<void>((resolve) => (asked = resolve));
    await context.route('**/models/jiangu-tiny/onnx/model.onnx', async (route) => {
      asked();
      await released;
      await route.fallback();
    });
    const runId = await startFixtureRun(page, { dataset: 'cmmlu-ancient', limit: 3 });
    await modelAsked;
    await page.evaluate(() => {
      const site = window.jianguSite!;
      // Reload must go through site.applyUpdate(); here it only records that it was asked.
      site.applyUpdate = async () => void ((window as Window & { applied?: number }).applied = ((window as Window & { applied?: number }).applied ?? 0) + 1);
      site.updateWaiting = true;
    });
    const prompt = page.getByTestId('site-update');
    await page.locator('[data-testid=site-update][data-state=blocked]').waitFor();
    expect(await prompt.textContent()).toContain('A new version of Jiangu is ready. Reload to use it.');
    expect(await page.getByTestId('site-update-waits').textContent()).toContain('waits until the evaluation in progress ends');
    expect(await page.getByTestId('site-update-reload').isDisabled()).toBe(true);
    await page.getByTestId('site-update-reload').click({ force: true });
    expect(await page.evaluate(() => (window as Window & { applied?: number }).applied ?? 0)).toBe(0);
    expect(await page.getByTestId('run').getAttribute('data-status')).toBe('running');
    await page.locator('header').screenshot({ path: join(shots, 'site-update-blocked-en.png') });

    release();
    await waitForStatus(page, 'completed', 120_000);
    await context.unroute('**/models/jiangu-tiny/onnx/model.onnx');
    await page.locator('[data-testid=site-update][data-state=ready]').waitFor();
    expect(await page.getByTestId('site-update-reload').isDisabled()).toBe(false);
    expect(await page.getByTestId('site-update-waits').count()).toBe(0);
    const { run, results } = await readStoredRun(page, runId);
    expect(results.length).toBe(3);
    // Not a reload: the page (and its finished run) are still there, and only applyUpdate was asked.
    await page.getByTestId('site-update-reload').click();
    expect(await page.evaluate(() => (window as Window & { applied?: number }).applied)).toBe(1);
    await page.getByTestId('site-update-dismiss').click();
    expect(await prompt.count()).toBe(0);

    const isolation = page.locator('[data-testid=site-isolation][data-threads-from=worker]');
    await isolation.waitFor();
    const workerThreads = run.environment?.backendInfo.wasmThreads;
    expect(workerThreads).toBe(await expectedDefault(page));
    expect(Number(await isolation.getAttribute('data-threads'))).toBe(workerThreads);
  });
});
