// Say it before it breaks (issue 43, item 5), in Chromium on the fixture models. Before a load the
// page states what the model needs and what the device reports, and asks before a load the device
// reports too little memory for (navigator.deviceMemory stubbed small), loading nothing until the
// user agrees; where the device reports nothing it says so and loads. A worker made to really run out
// of memory (LoadParams.memoryFault: it grows a wasm Memory until V8 refuses, workers/memory-fault.ts)
// during a load, while a run's request runs, and where nothing in the worker catches it (its 'error'
// event) is reported as a memory failure in both languages with the way on, on a page that is not
// blank, with the stored runs still listed and a run that resumes.
import { describe, expect, it } from 'vitest';
import type { Page, Request } from 'playwright-core';
import type { MemoryFault } from '../../src/lib/engine/messages.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';

/** Adds `fault` to the page's next load request (the worker protocol's `load`), as a test's load parameters carry it. */
async function faultNextLoad(page: Page, fault: MemoryFault): Promise<void> {
  await page.evaluate((f) => {
    const w = globalThis as unknown as { __memoryFault: MemoryFault | null; __memoryFaultSet?: boolean };
    w.__memoryFault = f;
    if (w.__memoryFaultSet) return;
    w.__memoryFaultSet = true;
    const post = Worker.prototype.postMessage as (this: Worker, ...args: unknown[]) => void;
    Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
      const message = args[0] as { kind?: string; params?: object } | null;
      if (message?.kind === 'load' && w.__memoryFault) {
        args[0] = { ...message, params: { ...message.params, memoryFault: w.__memoryFault } };
        w.__memoryFault = null;
      }
      post.apply(this, args);
    } as typeof Worker.prototype.postMessage;
  }, fault);
}

async function choose(page: Page, dtype: string): Promise<void> {
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption(dtype);
  await page.getByTestId('backend').selectOption('wasm');
}

/** The page is not blank: its header, navigation and a good deal of text are there. */
async function expectPageShown(page: Page): Promise<void> {
  expect(await page.locator('header h1').isVisible()).toBe(true);
  expect(await page.getByTestId('nav-evaluate').isVisible()).toBe(true);
  expect((await page.locator('main').innerText()).length).toBeGreaterThan(200);
}

describe('the memory check before a load', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/playground' });

  it('asks before a load the device reports too little memory for, and fetches nothing until the user agrees', async () => {
    const { page, context } = session.opened;
    // A quarter-gigabyte device (Chromium reports 0.25 on the smallest); window.__deviceMemory overrides it.
    await context.addInitScript(() => {
      Object.defineProperty(Navigator.prototype, 'deviceMemory', { configurable: true, get: () => (window as unknown as { __deviceMemory?: number }).__deviceMemory ?? 0.25 });
    });
    await page.reload();
    const fetched: string[] = [];
    const watch = (request: Request) => {
      const path = new URL(request.url()).pathname;
      if (path.startsWith('/models/jiangu-tiny/') && request.method() === 'GET') fetched.push(path);
    };
    context.on('request', watch);
    try {
      await expect.poll(() => page.getByTestId('model-choice').inputValue()).toBe('site:jiangu-tiny');
      await choose(page, 'fp32');
      await page.getByTestId('load').click();
      const dialog = page.getByTestId('memory-confirm');
      await dialog.waitFor();
      const title = await dialog.locator('h2').textContent();
      expect(title).toMatch(/^This model needs about 4\d\d\.\d MB; this device reports 0\.25 GB$/);
      expect(await page.getByTestId('memory-confirm-body').textContent()).toContain('about 128.0 MB is left for this tab. The load would likely fail, and the browser could close the tab. Nothing has been downloaded yet.');
      expect(await page.getByTestId('memory-choose-smaller').textContent()).toBe('Choose a smaller dtype (q8)');
      // The question holds the load: not a model file, not even config.json, is fetched.
      await page.waitForTimeout(500);
      expect(fetched).toEqual([]);

      await page.getByTestId('memory-choose-smaller').click();
      expect(await dialog.count()).toBe(0);
      expect(await page.getByTestId('model-error').textContent()).toMatch(/Not loaded: .* \(fp32\) needs about 4\d\d\.\d MB of memory, more than the about 128\.0 MB this device has room for in a tab\. Nothing was downloaded\. Choose a smaller dtype \(q8\) or a smaller model, or load it anyway\./);
      expect(await page.evaluate(() => document.activeElement?.getAttribute('data-testid'))).toBe('dtype');
      expect(await page.getByTestId('memory-note').getAttribute('data-verdict')).toBe('exceeds');
      expect(fetched).toEqual([]);

      // Asked again on the next load, in the language of the page; "Load anyway" loads, and the note says it was the user's choice.
      await page.getByTestId('lang-zh').click();
      expect(await page.getByTestId('model-error').textContent()).toContain('没有下载任何文件。请换更小的量化精度（q8）或更小的模型，或仍然加载。');
      await page.getByTestId('load').click();
      await dialog.waitFor();
      expect(await dialog.locator('h2').textContent()).toMatch(/^此模型约需 4\d\d\.\d MB 内存；此设备报告 0\.25 GB$/);
      expect(await page.getByTestId('memory-confirm-body').textContent()).toContain('此标签页约有 128.0 MB 可用。加载很可能失败，浏览器也可能关闭此标签页。目前还没有下载任何文件。');
      expect(await page.getByTestId('memory-choose-smaller').textContent()).toBe('换更小的量化精度（q8）');
      await page.getByTestId('memory-load-anyway').click();
      await page.locator('[data-testid=loaded-model]', { hasText: '已加载：' }).waitFor();
      await page.getByTestId('lang-en').click();
      expect(fetched).toContain('/models/jiangu-tiny/onnx/model.onnx');
      expect(await page.getByTestId('memory-note').getAttribute('data-agreed')).toBe('true');
      expect(await page.getByTestId('memory-note').textContent()).toMatch(/^Memory: this load needs about 4\d\d\.\d MB \(its files, [\d.]+ KB, × 4\.0 for fp32, \+ 450\.0 MB for the page and runtime\); this device reports 0\.25 GB, about 128\.0 MB of it for this tab: more than that, loaded anyway as you chose\./);
      // Agreed once for this model and dtype: not asked again on this page. (On Auto, a load of its
      // own: the same load again is answered by the session held, with nothing loaded: model-pool.ts.)
      const onnx = () => fetched.filter((path) => path.endsWith('/onnx/model.onnx')).length;
      const loadedOnce = onnx();
      await page.getByTestId('backend').selectOption('auto');
      await page.getByTestId('load').click();
      await expect.poll(onnx).toBeGreaterThan(loadedOnce);
      await page.locator('[data-testid=loaded-model]', { hasText: 'Loaded:' }).waitFor();
      expect(await dialog.count()).toBe(0);

      // Declining another model keeps the one loaded, which still scores; q4 has no smaller dtype.
      await choose(page, 'q4');
      await page.getByTestId('load').click();
      await dialog.waitFor();
      expect(await page.getByTestId('memory-choose-smaller').textContent()).toBe('Choose a smaller model');
      await page.getByTestId('memory-choose-smaller').click();
      expect(await page.getByTestId('model-error').textContent()).toContain('(q4) needs about');
      expect(await page.getByTestId('memory-load-smaller').count()).toBe(0);
      expect(await page.getByTestId('loaded-model').textContent()).toMatch(/^Loaded: /);
      await page.getByTestId('score').click();
      await page.getByTestId('letter-bars').waitFor();
    } finally {
      context.off('request', watch);
    }
  });

  it('asks on the Evaluate page before a run is stored: declined, no run is created', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/data`);
    await storeSample(page);
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-limit').fill('1');
    await choose(page, 'q8');
    await page.getByTestId('load').click();
    await page.getByTestId('memory-confirm').waitFor();
    await page.getByTestId('memory-choose-smaller').click();
    expect(await page.getByTestId('eval-error').textContent()).toContain('Not loaded:');
    expect(page.url()).toMatch(/#\/evaluate$/);
    expect(await page.getByTestId('no-runs').count()).toBe(1);
  });

  it('says so, and loads, where the device reports nothing', async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/playground`);
    await page.evaluate(() => ((window as unknown as { __deviceMemory?: unknown }).__deviceMemory = Number.NaN));
    await choose(page, 'q4');
    await page.getByTestId('load').click();
    await page.locator('[data-testid=loaded-model]', { hasText: 'Loaded:' }).waitFor();
    expect(await page.getByTestId('memory-confirm').count()).toBe(0);
    const note = page.getByTestId('memory-note');
    expect(await note.getAttribute('data-verdict')).toBe('device-unknown');
    expect(await note.textContent()).toContain('This browser does not report the device’s memory, so whether it fits cannot be told; the load goes ahead.');
    await page.getByTestId('lang-zh').click();
    expect(await note.textContent()).toContain('此浏览器不报告设备内存，无法判断是否放得下；照常加载。');
    await page.getByTestId('lang-en').click();
  });
});

describe('a model worker that runs out of memory', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('during a load: said in both languages with the way on, the page whole and the stored runs listed', async () => {
    const { page } = session.opened;
    await storeSample(page);
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', limit: 1 });
    await waitForStatus(page, 'completed');
    // A fresh page: the run's worker would otherwise answer the Playground's load of its model, and no load would run out of memory.
    await page.reload();
    await page.goto(`${session.url}/#/playground`);
    await expect.poll(() => page.getByTestId('model-choice').inputValue()).toBe('site:jiangu-tiny');
    await choose(page, 'fp32');
    await faultNextLoad(page, { stage: 'load' });
    await page.getByTestId('load').click();
    const error = page.getByTestId('model-error');
    await error.waitFor();
    expect(await error.textContent()).toContain(
      "Could not load the model: Loading onnx/model.onnx (fp32) of the site's model folder /models/jiangu-tiny/ ran out of this tab's memory: on WASM its weights and what onnxruntime builds from them must fit in 4 GB. Pick q4 or q8",
    );
    expect(await error.textContent()).toContain('keep one model loaded at a time and close other tabs. Stored runs and data are kept; a stopped run resumes from its last stored item.');
    expect(await page.getByTestId('memory-load-smaller').textContent()).toBe('Load q8 instead');
    expect(await page.getByTestId('memory-retry').textContent()).toBe('Try again');
    await expectPageShown(page);
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toContain('模型加载失败： 加载 本站的模型文件夹 /models/jiangu-tiny/ 的 onnx/model.onnx（fp32）时本标签页内存不足');
    expect(await error.textContent()).toContain('已保存的评测和数据都不会丢失');
    expect(await page.getByTestId('memory-load-smaller').textContent()).toBe('改为加载 q8');
    expect(await page.getByTestId('memory-retry').textContent()).toBe('重试');
    await page.getByTestId('lang-en').click();

    // The stored run is listed as it was.
    await page.getByTestId('nav-evaluate').click();
    await page.locator(`[data-testid=run-list] a[href="#/run/${runId}"]`).waitFor();
    // The way on: the smaller dtype loads, in a fresh worker.
    await page.getByTestId('nav-playground').click();
    await page.getByTestId('memory-load-smaller').click();
    await page.locator('[data-testid=loaded-model]', { hasText: 'Loaded:' }).waitFor();
    expect(await page.getByTestId('model-error').count()).toBe(0);
  });

  it("while a run's request runs: the run stops with the memory failure, keeps its results and resumes", async () => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await faultNextLoad(page, { stage: 'request', after: 2 });
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', limit: 2 });
    await waitForStatus(page, 'failed');
    const error = page.getByTestId('run-error');
    expect(await error.textContent()).toBe(
      "The site's model folder /models/jiangu-tiny/ (fp32) ran out of this tab’s memory. Load it again with a smaller dtype (q4 instead of fp32, or q8), keep one model loaded at a time and close other tabs. Stored runs and data are kept; a stopped run resumes from its last stored item.",
    );
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toContain('本站的模型文件夹 /models/jiangu-tiny/（fp32）运行时本标签页内存不足。');
    expect(await page.getByTestId('run-rerun-smaller').textContent()).toBe('改用 q8 重新评测');
    await page.getByTestId('lang-en').click();
    await expectPageShown(page);
    const before = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(before.run.status).toBe('failed');
    expect(before.run.error).toMatchObject({ code: 'model.out-of-memory', params: { on: 'tab', name: 'jiangu-tiny', dtype: 'fp32' } });
    expect(before.results.length).toBe(2);
    // The way on with a smaller dtype: the same run again, as a new run in q8.
    await page.getByTestId('run-rerun-smaller').click();
    await page.waitForURL((url) => url.hash.startsWith('#/run/') && !url.hash.endsWith(runId));
    await waitForStatus(page, 'completed');
    expect(await page.getByTestId('run-model-backend').textContent()).toMatch(/^q8, /);
    // The failed run is listed on the Evaluate page, and resumed from its page (the fault was the failed load's alone).
    await page.getByTestId('nav-evaluate').click();
    await page.locator(`[data-testid=run-list] a[href="#/run/${runId}"]`).click();
    await page.getByTestId('resume-run').click();
    await waitForStatus(page, 'completed');
    const after = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    expect(after.results.length).toBe(after.run.config.itemIds.length);
    expect(after.results.slice(0, 2)).toEqual(before.results);
  });

  it("where nothing in the worker catches it: its 'error' event is the memory failure, not a crash", async () => {
    const { page, errors } = session.opened;
    errors.expect(/^\[console error\] \[worker error, handled by the page\] Uncaught RangeError: WebAssembly\.Memory\.grow\(\): /);
    // A fresh page, for a load that reaches a worker (the earlier tests' workers hold this model).
    await page.goto(`${session.url}/#/playground`);
    await page.reload();
    await choose(page, 'fp32');
    await faultNextLoad(page, { stage: 'request', uncaught: true });
    await page.getByTestId('load').click();
    await page.locator('[data-testid=loaded-model]', { hasText: 'Loaded:' }).waitFor();
    // From the foot of the page, where the message at the top would go unseen.
    await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
    await page.getByTestId('score').click();
    const error = page.getByTestId('model-error');
    await error.waitFor();
    // In view (to the pixel: the box may sit a fraction above the top once scrolled to).
    await expect.poll(() => error.evaluate((e) => e.getBoundingClientRect().top > -1 && e.getBoundingClientRect().bottom < innerHeight + 1)).toBe(true);
    expect(await error.textContent()).toBe(
      "The model failed: The site's model folder /models/jiangu-tiny/ (fp32) ran out of this tab’s memory. Load it again with a smaller dtype (q4 instead of fp32, or q8), keep one model loaded at a time and close other tabs. Stored runs and data are kept; a stopped run resumes from its last stored item.",
    );
    await expect.poll(() => errors.expected.length).toBeGreaterThan(0);
    await expectPageShown(page);
    // Try again: the same model loads in a fresh worker and scores.
    await page.getByTestId('memory-retry').click();
    await page.locator('[data-testid=loaded-model]', { hasText: 'Loaded:' }).waitFor();
    await page.getByTestId('score').click();
    await page.getByTestId('letter-bars').waitFor();
  });
});
