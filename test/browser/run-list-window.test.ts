// The Evaluate page's run list and Compare's stored runs at scale (issue 46, item 3), in Chromium:
// 250 runs restored from a backup are listed from the run index, newest first, NEWEST_ROWS drawn and
// more on asking, in English and Chinese; a record written behind the index's back (as an older tab
// would) is listed too. Compare labels each row from its entry and counts the results of the rows it
// draws (a paused run's fewer), and reads a record only when its run is chosen. A whole list whose
// read fails is said on both pages, with what they had drawn kept, and each page's Try again lists
// it; a run deleted meanwhile is gone from the list, and the failed listing is not the delete's.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { readStoredRun, writeRaw } from './runs.ts';
import { makeMcRun } from '../fixtures/run-records/build.ts';
import { NEWEST_ROWS as ROWS } from '../../src/lib/store/run-index.ts';

const COUNT = 250;

/** Run `i` of the backup: its own id, label and minute, so the list's order is known; every 50th from the 7th paused after 3 of its 5 items. */
function runNumber(i: number) {
  const { run, results } = makeMcRun(`run-${String(i).padStart(3, '0')}`);
  const createdAt = new Date(Date.UTC(2026, 0, 1, 0, i)).toISOString();
  const paused = i % 50 === 7;
  return {
    run: { ...run, createdAt, updatedAt: createdAt, label: `第${i}次`, ...(paused ? { status: 'paused' as const } : {}) },
    results: (paused ? results.slice(0, 3) : results).map((r) => ({ ...r, runId: run.id })),
  };
}

const backup = (from = 0, count = COUNT) =>
  JSON.stringify({
    format: 'jiangu-backup',
    formatVersion: 1,
    exportedAt: '2026-12-07T00:00:00.000Z',
    runs: Array.from({ length: count }, (_, i) => ({ format: 'jiangu-run', formatVersion: 1, ...runNumber(from + i) })),
    memorizationRuns: [],
  });

/** Clicks a list's "Show more" until it is gone (the whole list drawn), counting the clicks. */
async function showAll(page: Page, list: 'run-list' | 'compare-runs') {
  let clicks = 0;
  while ((await page.getByTestId(`${list}-more`).count()) > 0) {
    await page.getByTestId(`${list}-show-more`).click();
    clicks++;
  }
  return clicks;
}

/**
 * From the next load on, the whole list's read (the index's buckets, run-list-buckets.ts) fails as a
 * broken database's does, its transaction aborted, while this tab's flag `jiangu-test-buckets-fail`
 * is set: the start-up read and the page's own read alike. Installed once per page.
 */
async function failBucketReadsWhenFlagged(page: Page) {
  await page.addInitScript(() => {
    const aborted = new WeakSet<IDBTransaction>();
    const abortOnce = (tx: IDBTransaction) => {
      if (aborted.has(tx)) return;
      aborted.add(tx);
      tx.abort();
    };
    const getAll = IDBObjectStore.prototype.getAll;
    IDBObjectStore.prototype.getAll = function (this: IDBObjectStore, ...args: Parameters<IDBObjectStore['getAll']>) {
      const request = getAll.apply(this, args);
      // After the reads the page asked for in this task, as a failed read aborts its transaction.
      const tx = this.transaction;
      if (this.name === 'runListBuckets' && sessionStorage.getItem('jiangu-test-buckets-fail') === '1') queueMicrotask(() => abortOnce(tx));
      return request;
    };
  });
}

const rowIds = (page: Page) => page.locator('[data-testid=run-list] tbody tr[data-run]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));

describe('the run list of many runs', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it('a list that cannot be read, with no rows drawn, says so on both pages and never that no runs are stored', async () => {
    const page = session.opened.page;
    await failBucketReadsWhenFlagged(page);
    await page.evaluate(() => sessionStorage.setItem('jiangu-test-buckets-fail', '1'));
    await page.reload();
    await page.locator('[data-testid=run-list-failure][data-code="run.list-failed"]').waitFor();
    expect(await page.getByTestId('no-runs').count()).toBe(0);
    await page.goto(page.url().replace(/#.*$/, '#/compare'));
    await page.locator('[data-testid=compare-runs-failure][data-code="run.list-failed"]').waitFor();
    expect(await page.getByTestId('compare-no-runs').count()).toBe(0);
    // Readable again: Try again, and both say what the store holds (nothing yet).
    await page.evaluate(() => sessionStorage.removeItem('jiangu-test-buckets-fail'));
    await page.getByTestId('compare-runs-retry').click();
    await page.getByTestId('compare-no-runs').waitFor();
    expect(await page.getByTestId('compare-runs-failure').count()).toBe(0);
    await page.goto(page.url().replace(/#.*$/, '#/evaluate'));
    await page.getByTestId('no-runs').waitFor();
    expect(await page.getByTestId('run-list-failure').count()).toBe(0);
  });

  it('draws the newest rows from the run index, and more on asking, in both languages', async () => {
    const page = session.opened.page;
    await page.getByTestId('backup-import').setInputFiles({ name: 'many.json', mimeType: 'application/json', buffer: Buffer.from(backup()) });
    await page.locator(`[data-testid=backup-report][data-restored="${COUNT}"]`).waitFor({ timeout: 60_000 });
    const newest = Array.from({ length: COUNT }, (_, i) => `run-${String(COUNT - 1 - i).padStart(3, '0')}`);
    await page.locator(`[data-testid=run-list-more][data-shown="${ROWS}"]`).waitFor();
    expect(await rowIds(page)).toEqual(newest.slice(0, ROWS));
    const more = page.getByTestId('run-list-more');
    expect(await more.textContent()).toContain(`Showing the newest ${ROWS} of 250 runs.`);
    expect(await page.getByTestId('run-list-show-more').textContent()).toBe(`Show ${ROWS} more`);
    await page.getByTestId('lang-zh').click();
    expect(await more.textContent()).toContain(`显示最新的 ${ROWS} 次，共 250 次评测。`);
    expect(await page.getByTestId('run-list-show-more').textContent()).toBe(`再显示 ${ROWS} 次`);
    await page.getByTestId('lang-en').click();

    await page.getByTestId('run-list-show-more').click();
    expect(await rowIds(page)).toEqual(newest.slice(0, 2 * ROWS));
    expect(await showAll(page, 'run-list')).toBe(Math.ceil(COUNT / ROWS) - 2);
    expect(await rowIds(page)).toEqual(newest);
    // A row tells its run apart as the record does: its label and kind.
    expect(await page.locator('tr[data-run="run-249"] [data-testid=run-list-label]').textContent()).toBe('第249次');
    expect(await page.locator('tr[data-run="run-249"] [data-testid=run-kind]').getAttribute('data-kind')).toBe('letters');
  }, 120_000);

  it('lists a record written behind the index\'s back, as an older version in another tab would', async () => {
    const page = session.opened.page;
    const behind = runNumber(COUNT + 1);
    await writeRaw(page, 'runs', [behind.run]);
    await page.reload();
    await page.locator(`[data-testid=run-list] tr[data-run="${behind.run.id}"]`).waitFor();
    expect((await rowIds(page))[0]).toBe(behind.run.id);
    expect(await page.locator('[data-testid=run-list-more]').getAttribute('data-total')).toBe(String(COUNT + 1));
  });

  it('Compare lists them from the index too: labelled from their entries, counted for the rows drawn, read when chosen', async () => {
    const page = session.opened.page;
    await page.goto(page.url().replace(/#.*$/, '#/compare'));
    const compareIds = () => page.locator('[data-testid=compare-runs] tbody tr[data-run]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
    const more = page.getByTestId('compare-runs-more');
    await page.locator(`[data-testid=compare-runs-more][data-shown="${ROWS}"]`).waitFor();
    const total = COUNT + 1; // with the record written behind the index's back
    expect(await more.getAttribute('data-total')).toBe(String(total));
    const ids = await compareIds();
    expect(ids[0]).toBe(runNumber(COUNT + 1).run.id);
    expect(ids.slice(1)).toEqual(Array.from({ length: ROWS - 1 }, (_, i) => `run-${String(COUNT - 1 - i).padStart(3, '0')}`));
    expect(await more.textContent()).toContain(`Showing the newest ${ROWS} of ${total} runs.`);
    expect(await page.getByTestId('compare-runs-show-more').textContent()).toBe(`Show ${ROWS} more`);
    await page.getByTestId('lang-zh').click();
    expect(await more.textContent()).toContain(`显示最新的 ${ROWS} 次，共 ${total} 次评测。`);
    expect(await page.getByTestId('compare-runs-show-more').textContent()).toBe(`再显示 ${ROWS} 次`);
    await page.getByTestId('lang-en').click();

    // Alike in all but label and date: the label leads, the date tells them apart (run-label.ts).
    const label = (id: string) => page.locator(`tr[data-run="${id}"] [data-testid=compare-run-label]`);
    const label249 = (await label('run-249').textContent()) ?? '';
    expect(label249).toMatch(/^“第249次” · .*2026/);
    expect(label249).not.toContain('1-shot');
    expect(await label('run-249').getAttribute('title')).toContain('1-shot');
    // A paused run drawn: its results counted (3 of 5); the next one, not drawn yet: not counted
    // until drawn. (Paused: every 50th from the 7th; drawn: the one behind the index, then run-249 down.)
    const items = (id: string) => page.locator(`tr[data-run="${id}"] [data-testid=compare-run-items]`);
    const lowestDrawn = COUNT - ROWS + 1;
    const pausedDrawn = `run-${lowestDrawn + ((7 - lowestDrawn) % 50 + 50) % 50}`;
    const pausedOut = `run-${String(lowestDrawn - 1 - ((lowestDrawn - 1 - 7) % 50 + 50) % 50).padStart(3, '0')}`;
    expect([await items(pausedDrawn).getAttribute('data-done'), await items(pausedDrawn).getAttribute('data-planned')]).toEqual(['3', '5']);
    expect(await items(pausedOut).count()).toBe(0);
    await page.getByTestId('compare-runs-show-more').click();
    await items(pausedOut).waitFor();
    await page.locator(`tr[data-run="${pausedOut}"] [data-testid=compare-run-items][data-done="3"]`).waitFor();
    expect(await items(pausedOut).textContent()).toContain('3 of 5');
    await showAll(page, 'compare-runs');
    await page.locator('tr[data-run="run-000"]').waitFor();
    expect(await compareIds()).toHaveLength(total);

    // Chosen: read and compared.
    await page.getByTestId('compare-pick-run-249').check();
    await page.getByTestId('compare-pick-run-007').check();
    await page.locator('[data-testid=compare-chosen] li[data-chosen="run-007"]').waitFor();
    await page.getByTestId('compare-table').waitFor({ timeout: 30_000 });
    // Among the chosen, too, the label and date tell them apart: as the rows said them.
    expect(await page.locator('[data-testid=compare-chosen-label]').allTextContents()).toEqual([label249, await label('run-007').textContent()]);
  }, 120_000);

  it('Compare labels a list too long for one task in pieces, to the same labels', async () => {
    const page = session.opened.page;
    // 1,000 more (run-1000 … run-1999, each a minute later): 1,251 stored, more than one piece (SPREAD_PIECE).
    await page.goto(page.url().replace(/#.*$/, '#/evaluate'));
    await page.getByTestId('backup-import').setInputFiles({ name: 'more.json', mimeType: 'application/json', buffer: Buffer.from(backup(1000, 1000)) });
    await page.locator('[data-testid=backup-report][data-restored="1000"]').waitFor({ timeout: 120_000 });
    await page.goto(page.url().replace(/#.*$/, '#/compare'));
    await page.locator(`[data-testid=compare-runs-more][data-total="${COUNT + 1 + 1000}"]`).waitFor();
    // Spread: alike but for label and date, so the label and the date alone, in both languages.
    const label = page.locator('tr[data-run="run-1999"] [data-testid=compare-run-label]');
    await page.waitForFunction(() => !document.querySelector('tr[data-run="run-1999"] [data-testid=compare-run-label]')?.textContent?.includes('1-shot'), null, { polling: 100 });
    expect(await label.textContent()).toMatch(/^“第1999次” · .*2026/);
    await page.getByTestId('lang-zh').click();
    await page.waitForFunction(() => !document.querySelector('tr[data-run="run-1999"] [data-testid=compare-run-label]')?.textContent?.includes('1 个示例'), null, { polling: 100 });
    expect(await label.textContent()).toMatch(/^“第1999次” · .*2026/);
    await page.getByTestId('lang-en').click();
    // Its whole description on hover.
    expect(await label.getAttribute('title')).toContain('1-shot');

    // Opened anew, the newest rows are drawn before the whole list is read (the start-up read asks
    // for them first): what each change of the list showed, from the page's first frame on.
    // (The newest ROWS of the rows drawn now: a new page draws ROWS.)
    const firstRows = await page.evaluate((rows) => [...document.querySelectorAll('[data-testid=compare-runs] tbody tr')].slice(0, rows).map((tr) => tr.getAttribute('data-run')).join(' '), ROWS);
    // Each list's states in turn: whether the whole list is read, its count, "Show more" disabled, the rows.
    await page.addInitScript(() => {
      const seen: Record<string, string[]> = { 'compare-runs': [], 'run-list': [] };
      (globalThis as unknown as { __listSeen: typeof seen }).__listSeen = seen;
      new MutationObserver(() => {
        for (const [list, states] of Object.entries(seen)) {
          const more = document.querySelector(`[data-testid=${list}-more]`);
          if (!more) continue;
          const rows = [...document.querySelectorAll(`[data-testid=${list}] tbody tr`)].map((tr) => tr.getAttribute('data-run')).join(' ');
          const state = `${more.getAttribute('data-listed-all')} ${more.getAttribute('data-total')} ${(more.querySelector('button') as HTMLButtonElement).disabled} ${rows}`;
          if (states.at(-1) !== state) states.push(state);
        }
      }).observe(document, { subtree: true, childList: true, attributes: true });
    });
    const seenOn = async (list: string) => {
      await page.reload();
      await page.locator(`[data-testid=${list}-more][data-listed-all=true]`).waitFor();
      return page.evaluate((l) => (globalThis as unknown as { __listSeen: Record<string, string[]> }).__listSeen[l], list);
    };
    // First the newest ROWS of the index's count, "Show more" held until the rest comes; then the whole list, the same rows.
    const total = COUNT + 1 + 1000;
    const compare = await seenOn('compare-runs');
    expect(compare[0]).toBe(`false ${total} true ${firstRows}`);
    expect(compare.at(-1)).toBe(`true ${total} false ${firstRows}`);
    // Evaluate's run list the same way.
    await page.goto(page.url().replace(/#.*$/, '#/evaluate'));
    const evaluate = await seenOn('run-list');
    expect(evaluate[0]).toBe(`false ${total} true ${firstRows}`);
    expect(evaluate.at(-1)).toBe(`true ${total} false ${firstRows}`);
  }, 240_000);

  it('a whole list that cannot be read says so in both languages, keeps the newest rows it drew, and lists every run on Try again', async () => {
    const page = session.opened.page;
    // 1,251 runs stored (above): the newest rows are drawn before the whole list, whose read fails
    // while this tab's flag is set (failBucketReadsWhenFlagged, installed by the first test).
    await page.evaluate(() => sessionStorage.setItem('jiangu-test-buckets-fail', '1'));
    await page.reload();
    const failure = page.getByTestId('run-list-failure');
    await failure.waitFor();
    expect(await failure.textContent()).toMatch(/^The runs stored in this browser could not be listed \(AbortError: .+\)\. Nothing stored was changed: try again, or reload the page\.\s*Try again$/);
    // What the page had drawn stays: the newest rows of the index's 1,251, "Show more" held; never "No runs yet."
    const total = COUNT + 1 + 1000;
    const newest = Array.from({ length: ROWS }, (_, i) => `run-${1999 - i}`);
    expect(await rowIds(page)).toEqual(newest);
    const more = page.locator(`[data-testid=run-list-more][data-total="${total}"]`);
    expect(await more.getAttribute('data-listed-all')).toBe('false');
    expect(await page.getByTestId('run-list-show-more').isDisabled()).toBe(true);
    expect(await page.getByTestId('no-runs').count()).toBe(0);
    await page.getByTestId('lang-zh').click();
    expect(await failure.textContent()).toMatch(/^无法列出本浏览器中保存的评测（AbortError: .+）。已保存的内容没有改变：请重试，或刷新页面。\s*重试$/);
    await page.getByTestId('lang-en').click();
    // Compare says the same, and keeps the newest rows it drew.
    await page.goto(page.url().replace(/#.*$/, '#/compare'));
    await page.reload();
    const compareFailure = page.locator('[data-testid=compare-runs-failure][data-code="run.list-failed"]');
    await compareFailure.waitFor();
    expect(await compareFailure.textContent()).toMatch(/^The runs stored in this browser could not be listed \(AbortError: .+\)\. Nothing stored was changed: try again, or reload the page\.\s*Try again$/);
    expect(await page.getByTestId('compare-error').count()).toBe(0);
    expect(await page.locator(`[data-testid=compare-runs-more][data-total="${total}"]`).getAttribute('data-listed-all')).toBe('false');
    // Its Try again, once the database works: every run listed, and the message gone.
    await page.evaluate(() => sessionStorage.removeItem('jiangu-test-buckets-fail'));
    await page.getByTestId('compare-runs-retry').click();
    await page.locator(`[data-testid=compare-runs-more][data-listed-all=true][data-total="${total}"]`).waitFor();
    expect(await compareFailure.count()).toBe(0);
    expect(await page.getByTestId('compare-runs-retry').count()).toBe(0);
    // Failing again, Evaluate says so on its way in.
    await page.evaluate(() => sessionStorage.setItem('jiangu-test-buckets-fail', '1'));
    await page.goto(page.url().replace(/#.*$/, '#/evaluate'));
    await failure.waitFor();
    // The database works again: Try again lists every run, and the message goes.
    await page.evaluate(() => sessionStorage.removeItem('jiangu-test-buckets-fail'));
    await page.getByTestId('run-list-retry').click();
    await page.locator(`[data-testid=run-list-more][data-listed-all=true][data-total="${total}"]`).waitFor();
    expect(await failure.count()).toBe(0);
    expect(await rowIds(page)).toEqual(newest);
    await page.getByTestId('run-list-show-more').click();
    expect(await rowIds(page)).toEqual(Array.from({ length: 2 * ROWS }, (_, i) => `run-${1999 - i}`));
  }, 120_000);

  it('a run deleted while the list cannot be read is gone from it, and the list says why it was not listed again', async () => {
    const page = session.opened.page;
    // A stored record that cannot be shown (its config damaged), written behind the index's back:
    // listed apart, with Delete, once the page has listed again.
    const damaged = runNumber(COUNT + 2).run;
    await writeRaw(page, 'runs', [{ ...damaged, id: 'damaged-run', config: { ...damaged.config, shots: 'five' } }]);
    await page.reload();
    const row = page.locator('[data-testid=unreadable-run][data-run=damaged-run]');
    await row.waitFor();
    // The listing fails from now on (the bucket reads' transaction aborted); the delete itself works.
    await page.evaluate(() => sessionStorage.setItem('jiangu-test-buckets-fail', '1'));
    await row.getByTestId('unreadable-delete').click();
    await row.getByTestId('unreadable-delete-yes').click();
    // The list's own message, with Try again; the deleted run gone from the page and the store; no
    // rejection left unhandled (the session's page-error guard).
    await page.getByTestId('run-list-failure').waitFor();
    await row.waitFor({ state: 'detached' });
    expect((await readStoredRun(page, 'damaged-run')).run).toBeUndefined();
    await page.evaluate(() => sessionStorage.removeItem('jiangu-test-buckets-fail'));
    // (The list was whole before the delete: the message's going says the listing again is done.)
    await page.getByTestId('run-list-retry').click();
    await page.getByTestId('run-list-failure').waitFor({ state: 'detached' });
    expect(await page.locator('[data-testid=run-list-more]').getAttribute('data-listed-all')).toBe('true');
    expect(await page.locator('[data-testid=unreadable-run]').count()).toBe(0);
  }, 120_000);

  it('lists the newest memorization runs too, and more on asking, on Evaluate and in Compare\'s pickers', async () => {
    const page = session.opened.page;
    const PROBES = 230;
    await page.goto(page.url().replace(/#.*$/, '#/evaluate'));
    await page.getByTestId('backup-import').waitFor();
    // Stored as a restore would store them (the list reads the store along its date index).
    await page.evaluate(async (count) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('jiangu');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const hash = 'ab'.repeat(32);
      await new Promise<void>((resolve, reject) => {
        const tx = db.transaction('probeRuns', 'readwrite');
        for (let i = 0; i < count; i++) {
          const createdAt = new Date(Date.UTC(2026, 11, 1, 0, i)).toISOString();
          const itemIds = ['古音学/test/0', '古音学/test/1'];
          tx.objectStore('probeRuns').put({
            id: `probe-${String(i).padStart(3, '0')}`, createdAt, updatedAt: createdAt, datasetId: 'aclue', status: 'completed', label: `记忆${i}`,
            config: { kind: 'memorization', model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' }, layoutVersion: 1, templateHash: hash, datasetId: 'aclue', datasetFiles: [{ path: 'data/test/古音学.csv', sha256: hash }], tasks: ['古音学'], limitPerTask: null, itemIds, k: 0.2, contextLimit: 2048, exchangeability: [], appVersion: '0.1.0+test' },
            warnings: [],
          });
        }
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    }, PROBES);
    await page.reload();
    const more = page.locator('[data-testid=probe-runs-more]');
    await page.locator('[data-testid=probe-runs-more][data-shown="100"]').waitFor();
    expect(await more.getAttribute('data-total')).toBe(String(PROBES));
    const probeIds = () => page.locator('[data-testid=probe-runs] li[data-run]').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-run')));
    expect(await probeIds()).toEqual(Array.from({ length: 100 }, (_, i) => `probe-${String(PROBES - 1 - i).padStart(3, "0")}`));
    expect(await more.textContent()).toContain(`Listing the newest 100 of ${PROBES} memorization runs.`);
    await page.getByTestId('lang-zh').click();
    expect(await more.textContent()).toContain(`列出最新的 100 次，共 ${PROBES} 次记忆检测。`);
    expect(await page.getByTestId('probe-runs-more-show').textContent()).toBe('再显示 100 次');
    await page.getByTestId('lang-en').click();
    await page.getByTestId('probe-runs-more-show').click();
    await page.locator('[data-testid=probe-runs-more][data-shown="200"]').waitFor();
    expect(await page.getByTestId('probe-runs-more-show').textContent()).toBe('Show 30 more');
    await page.getByTestId('probe-runs-more-show').click();
    await page.locator('[data-testid=probe-runs] li[data-run="probe-000"]').waitFor();
    expect(await more.count()).toBe(0);
    expect((await probeIds()).length).toBe(PROBES);

    // Their list cannot be read (its transaction aborted, as a failed read aborts it, while this
    // tab's flag is set): said in both languages, with Try again; no rejection left unhandled.
    await page.addInitScript(() => {
      const openCursor = IDBIndex.prototype.openCursor;
      IDBIndex.prototype.openCursor = function (this: IDBIndex, ...args: Parameters<IDBIndex['openCursor']>) {
        const request = openCursor.apply(this, args);
        const tx = this.objectStore.transaction;
        if (this.objectStore.name === 'probeRuns' && sessionStorage.getItem('jiangu-test-probes-fail') === '1') queueMicrotask(() => tx.abort());
        return request;
      };
    });
    await page.evaluate(() => sessionStorage.setItem('jiangu-test-probes-fail', '1'));
    await page.reload();
    const probeFailure = page.getByTestId('probe-runs-failure');
    await probeFailure.waitFor();
    expect(await probeFailure.textContent()).toMatch(/^The memorization runs stored in this browser could not be listed \(AbortError: .+\)\. Nothing stored was changed: try again, or reload the page\.\s*Try again$/);
    await page.getByTestId('lang-zh').click();
    expect(await probeFailure.textContent()).toMatch(/^无法列出本浏览器中保存的记忆检测（AbortError: .+）。已保存的内容没有改变：请重试，或刷新页面。\s*重试$/);
    await page.getByTestId('lang-en').click();
    expect(await page.getByTestId('run-list-failure').count()).toBe(0);
    await page.evaluate(() => sessionStorage.removeItem('jiangu-test-probes-fail'));
    await page.getByTestId('probe-runs-retry').click();
    await page.locator('[data-testid=probe-runs-more][data-shown="100"]').waitFor();
    expect(await probeFailure.count()).toBe(0);

    // Compare's pickers, in a new visit: the newest hundred at first, the rest on asking.
    await page.goto(page.url().replace(/#.*$/, '#/compare'));
    await page.reload();
    await page.locator('[data-testid=compare-probe-more][data-shown="100"]').waitFor();
    expect(await page.locator('[data-testid=compare-probe-baseline] option').count()).toBe(101);
    await page.getByTestId('compare-probe-more-show').click();
    await page.locator('[data-testid=compare-probe-more][data-shown="200"]').waitFor();
    expect(await page.locator('[data-testid=compare-probe-baseline] option').count()).toBe(201);
  }, 120_000);
});
