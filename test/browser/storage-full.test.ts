// A full storage quota (issue 46), in Chromium on jiangu-tiny (WASM) with the AncientBench sample: a
// run that cannot be stored, a result that cannot be stored mid-run, and a label that cannot be saved
// each say so in the page's language (what was not saved, what is still safe, how to go on), never
// "Something went wrong inside Jiangu: " with nothing after it. The quota is the browser's own: the
// DevTools protocol's Storage.overrideQuotaForOrigin makes this Chromium refuse IndexedDB writes
// with a QuotaExceededError (see Quota for the one catch, checked below), and raising it again is
// "freeing room": the run then starts, resumes, and the label is saved. Nothing stored before is
// lost on the way.
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { CDPSession, Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { allowScoreItems, gateScoreItems, readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';
import type { ProbeResult, ProbeRunRecord } from '../../src/lib/core/record/probe-run.ts';

/** Everything stored that a failed write must leave as it was: each record as JSON, each store's count. */
async function storedState(page: Page): Promise<Record<string, string[] | number>> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = (store: string) =>
      new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(store).objectStore(store).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const count = (store: string) =>
      new Promise<number>((resolve, reject) => {
        const r = db.transaction(store).objectStore(store).count();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const out = {
      runs: (await all('runs')).map((r) => JSON.stringify(r)).sort(),
      probeRuns: (await all('probeRuns')).map((r) => JSON.stringify(r)).sort(),
      datasets: (await all('datasets')).map((r) => JSON.stringify(r)).sort(),
      results: await count('results'),
      probeResults: await count('probeResults'),
      items: await count('items'),
    };
    db.close();
    return out;
  });
}

/**
 * The site's storage quota as the browser enforces it, set through the DevTools protocol. Chromium's
 * IndexedDB keeps the space it last found left for up to 30 s and spends it without asking again,
 * so a quota lowered to nothing is not felt until then (writes went on for 30 s, measured). Hence:
 * `room` never gives the browser's own quota back, only 16 MiB over what is used (that cache then
 * holds at most 16 MiB), and `full` sets 1 byte and then asks for 32 MiB in a database of its own,
 * more than the cache holds: the browser asks the quota again, refuses it, and from then on refuses
 * every write, the site's included, until `room`.
 */
class Quota {
  private constructor(
    private readonly page: Page,
    private readonly cdp: CDPSession,
    private readonly origin: string,
  ) {}

  /** One DevTools session for the block: an override lasts only as long as the session that set it. */
  static async of(page: Page, origin: string): Promise<Quota> {
    return new Quota(page, await page.context().newCDPSession(page), origin);
  }

  async room(): Promise<void> {
    const usage = (await this.page.evaluate(() => navigator.storage.estimate())).usage ?? 0;
    await this.cdp.send('Storage.overrideQuotaForOrigin', { origin: this.origin, quotaSize: usage + 16 * 1024 * 1024 });
  }

  async full(): Promise<void> {
    await this.cdp.send('Storage.overrideQuotaForOrigin', { origin: this.origin, quotaSize: 1 });
    expect(await probeWrite(this.page, 32 * 1024 * 1024)).toBe('QuotaExceededError: ""');
  }
}

/** A write of `bytes` in a database of the test's own: "stored", or how this Chromium refused it (name and message). */
async function probeWrite(page: Page, bytes: number): Promise<string> {
  return page.evaluate(
    (size) =>
      new Promise<string>((resolve) => {
        const open = indexedDB.open('quota-probe', 1);
        open.onupgradeneeded = () => open.result.createObjectStore('s');
        open.onsuccess = () => {
          const db = open.result;
          const tx = db.transaction('s', 'readwrite');
          tx.objectStore('s').put(new Uint8Array(size), 1);
          tx.oncomplete = () => (db.close(), resolve('stored'));
          tx.onabort = () => (db.close(), resolve(`${tx.error?.name}: "${tx.error?.message}"`));
        };
      }),
    bytes,
  );
}

describe('storage full', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;
  let quota: Quota;
  let completedId = '';
  // Before the site writes anything: the space the browser keeps in hand is bounded from the first write on.
  beforeAll(async () => {
    page = session.opened.page;
    quota = await Quota.of(page, new URL(session.url).origin);
    await quota.room();
  });
  // A test that fails while the storage is full leaves room for the next.
  afterEach(async () => {
    await quota.room();
  });

  it('the quota override makes this Chromium refuse an IndexedDB write with QuotaExceededError, and take it again after', async () => {
    expect(await probeWrite(page, 10)).toBe('stored');
    // The browser's own message is empty: what made the page say "Something went wrong inside Jiangu: ".
    await quota.full();
    expect(await probeWrite(page, 10)).toBe('QuotaExceededError: ""');
    await quota.room();
    expect(await probeWrite(page, 10)).toBe('stored');
  });

  it('a run that cannot be stored says so in both languages, nothing stored changes, and it starts once there is room', async () => {
    await storeSample(page);
    completedId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, tasks: ['Radical'], limit: 2 });
    await waitForStatus(page, 'completed');
    const before = await storedState(page);
    expect((before.runs as string[]).length).toBe(1);

    await quota.full();
    await expect(startFixtureRun(page, { dataset: 'ancientbench', shots: 0, tasks: ['Radical'], limit: 2 })).rejects.toThrow(/the run did not start/);
    const error = page.getByTestId('eval-error');
    expect(await error.textContent()).toBe(
      'Not enough browser storage to start this run: nothing was stored, and your stored runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then start it again.',
    );
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toBe('浏览器存储空间不足，无法开始这次评测：没有保存任何内容，已存储的评测和数据集都没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后重新开始。');
    await page.getByTestId('lang-en').click();
    expect(await storedState(page)).toEqual(before);

    // Room again: the same form starts the run.
    await quota.room();
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/run\//);
    await waitForStatus(page, 'completed');
    expect((await storedState(page)).runs).toHaveLength(2);
  }, 180_000);

  it('a result that cannot be stored ends the run with that said; the results before it are kept and Resume finishes it once there is room', async () => {
    await gateScoreItems(page, 2);
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, tasks: ['Radical'], allItems: true });
    // Two results stored, the third item held at the gate: the next write is its result.
    await expect.poll(async () => (await readStoredRun(page, runId)).results.length, { timeout: 60_000 }).toBe(2);
    const before = await storedState(page);
    await quota.full();
    await allowScoreItems(page, Infinity);
    const error = page.getByTestId('run-error');
    await error.waitFor({ timeout: 60_000 });
    const stuck = (await readStoredRun(page, runId)).run.config.itemIds[2];
    expect(await error.textContent()).toBe(
      `Not enough browser storage to save the result of item ${stuck}: the run stopped there and that result was not saved. Every result saved before it is kept, and your other runs and benchmarks are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then Resume goes on from there.`,
    );
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toBe(
      `浏览器存储空间不足，无法保存题目 ${stuck} 的结果：评测在此停止，这一结果没有保存。之前保存的结果都还在，其他评测和数据集也没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后点“继续”从那里接着运行。`,
    );
    await page.getByTestId('lang-en').click();
    // Not even the failed status could be written: everything is as it was before the refused write,
    // and the page does not put the stop down to a closed tab.
    expect(await storedState(page)).toEqual(before);
    expect(await page.getByTestId('run-status').getAttribute('data-status')).toBe('interrupted');
    expect(await page.getByTestId('run-status').textContent()).not.toContain('closed or reloaded');

    await quota.room();
    await page.getByTestId('resume-run').click();
    await waitForStatus(page, 'completed');
    const done = await readStoredRun(page, runId);
    // The sample's Radical task has three test items: two stored before the refused third.
    expect(done.run.config.itemIds).toHaveLength(3);
    expect(done.results.map((r) => r.itemId)).toEqual(done.run.config.itemIds);
  }, 180_000);

  it('a label that cannot be saved says so in both languages; the run is unchanged, and the label is saved once there is room', async () => {
    await page.goto(`${session.url}/#/run/${encodeURIComponent(completedId)}`);
    await waitForStatus(page, 'completed');
    const before = await storedState(page);
    await quota.full();
    await page.getByTestId('run-label-input').fill('第一次');
    await page.getByTestId('run-label-save').click();
    const error = page.getByTestId('run-manage-error');
    await error.waitFor();
    expect(await error.textContent()).toBe(
      'Not enough browser storage to save the label: the label was not saved, and the run and its results are unchanged. Delete old runs (Evaluate page) or datasets (Data page) to make room, then save it again.',
    );
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toBe('浏览器存储空间不足，无法保存标签：标签没有保存，这次评测及其结果都没有改变。请删除旧的评测（“评测”页）或数据集（“数据”页）腾出空间，然后再保存一次。');
    await page.getByTestId('lang-en').click();
    expect(await page.getByTestId('run-label').count()).toBe(0);
    expect(await storedState(page)).toEqual(before);

    await quota.room();
    await page.getByTestId('run-label-save').click();
    await page.getByTestId('run-label').waitFor();
    expect((await readStoredRun(page, completedId)).run.label).toBe('第一次');
    expect(await page.getByTestId('run-manage-error').count()).toBe(0);
  }, 60_000);

  it('a backup restored into a full storage says which runs were not restored and what is safe, in both languages; imported again once there is room, it restores them', async () => {
    await page.goto(`${session.url}/#/evaluate`);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-export').click()]);
    const chunks: Buffer[] = [];
    for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
    // The backup of this browser's runs, under new ids: runs this store does not hold yet.
    const backup = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { runs: { run: { id: string }; results: { runId: string }[] }[] };
    backup.runs = backup.runs.map((e, i) => ({ ...e, run: { ...e.run, id: `moved-${i}` }, results: e.results.map((r) => ({ ...r, runId: `moved-${i}` })) }));
    expect(backup.runs.length).toBeGreaterThan(0);
    const file = { name: 'moved.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(backup)) };
    const before = await storedState(page);
    await quota.full();
    await page.getByTestId('backup-import').setInputFiles(file);
    const full = page.getByTestId('backup-storage-full');
    await full.waitFor();
    expect(await full.textContent()).toBe(
      `The browser's storage is full: ${backup.runs.length === 1 ? '1 entry' : `${backup.runs.length} entries`} of the backup, from run moved-0 on, were not restored. Every run listed as restored, and everything stored here before, is safe. Delete old runs or datasets to make room, then import the backup again: what is restored already is passed by.`,
    );
    await page.getByTestId('lang-zh').click();
    expect(await full.textContent()).toBe(`浏览器存储空间已满：备份中从评测 moved-0 起的 ${backup.runs.length} 条没有恢复。已列为恢复的评测，以及此前存储在这里的一切，都完好无损。请删除旧的评测或数据集腾出空间，再导入一次备份：已恢复的会被跳过。`);
    await page.getByTestId('lang-en').click();
    expect(await storedState(page)).toEqual(before);

    await quota.room();
    await page.getByTestId('backup-import').setInputFiles(file);
    await page.locator(`[data-testid=backup-report][data-restored="${backup.runs.length}"]`).waitFor();
    expect(await page.getByTestId('backup-storage-full').count()).toBe(0);
  }, 60_000);

  it('a memorization run that cannot be stored, and its label, say so too', async () => {
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('eval-kind').selectOption('memorization');
    await page.getByTestId('eval-dataset').selectOption('ancientbench');
    await page.getByTestId('eval-limit').fill('2');
    await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
    await page.getByTestId('dtype').selectOption('fp32');
    await page.getByTestId('backend').selectOption('wasm');
    const before = await storedState(page);
    await quota.full();
    await page.getByTestId('load').click();
    const error = page.getByTestId('eval-error');
    await error.waitFor();
    expect(await error.textContent()).toContain('Not enough browser storage to start this run: nothing was stored');
    await page.getByTestId('lang-zh').click();
    expect(await error.textContent()).toContain('浏览器存储空间不足，无法开始这次评测');
    await page.getByTestId('lang-en').click();
    expect(await storedState(page)).toEqual(before);

    await quota.room();
    await page.getByTestId('load').click();
    await page.waitForURL(/#\/probe\//);
    const probeId = decodeURIComponent(page.url().split('#/probe/')[1]);
    await page.locator('[data-testid=probe][data-status=completed]').waitFor({ timeout: 120_000 });

    const stored = await storedState(page);
    await quota.full();
    await page.getByTestId('probe-label-input').fill('记忆');
    await page.getByTestId('probe-label-save').click();
    await page.getByTestId('probe-label-error').waitFor();
    expect(await page.getByTestId('probe-label-error').textContent()).toContain('the label was not saved, and the run and its results are unchanged');
    expect(await storedState(page)).toEqual(stored);
    await quota.room();
    await page.getByTestId('probe-label-save').click();
    await page.getByTestId('probe-label').waitFor();
    expect((await readStoredRun<ProbeRunRecord, ProbeResult>(page, probeId, { runs: 'probeRuns', results: 'probeResults' })).run.label).toBe('记忆');
  }, 180_000);
});
