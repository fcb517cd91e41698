// Share links in Chromium: a fixture run's link opens in a fresh browser context (no data, no runs)
// with the same numbers, and malformed links are refused with a message while the page keeps working.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { openPage } from '../../scripts/browser.ts';
import type { McItemResult, RunRecord } from '../../src/lib/core/record/run.ts';
import { useBrowserSession } from './session.ts';
import { fabricatedCmmluLink, malformedLinks } from './shared-link-fixture.ts';
import { readStoredRun, startFixtureRun, storeSample, waitForStatus } from './runs.ts';

const readResults = async (page: Page, runId: string) => (await readStoredRun<RunRecord, McItemResult>(page, runId)).results;

/** The per-item rows SharedItems shows on its current page. */
async function shownRows(page: Page) {
  return page
    .getByTestId('shared-item')
    .evaluateAll((els) => els.map((el) => ({ itemId: el.getAttribute('data-item'), prediction: el.getAttribute('data-prediction'), correct: el.getAttribute('data-correct') })));
}

async function readNumbers(page: Page, prefix: string, tasks: string[]): Promise<Record<string, string | null>> {
  const out: Record<string, string | null> = {};
  for (const task of tasks) out[task] = await page.getByTestId(`${prefix}-${task}`).textContent();
  return out;
}

describe('share links', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('opens a shared fixture run in a fresh context with the same table', async () => {
    const { page } = session.opened;
    await storeSample(page);
    await startFixtureRun(page, { dataset: 'ancientbench' });
    await waitForStatus(page, 'completed', 120_000);
    const tasks = ['Radical', 'Cloze', 'Translation'];
    const own = await readNumbers(page, 'acc', [...tasks, 'overall', 'pooled']);

    await page.getByTestId('share').click();
    const url = await page.getByTestId('share-url').inputValue();
    expect(url).toContain('#/shared/');
    expect(Number((await page.getByTestId('share-length').textContent())!.replace(/[^\d]/g, ''))).toBe(url.length);

    const fresh = await openPage(session.opened.context.browser()!, url);
    try {
      await fresh.page.getByTestId('shared').waitFor();
      expect(await fresh.page.locator('.badge').textContent()).toContain('not yet reproduced');
      const shared = await readNumbers(fresh.page, 'shared-task', tasks);
      for (const task of tasks) expect(shared[task], task).toBe(own[task]);
      expect(await fresh.page.getByTestId('shared-overall').textContent()).toBe(own.overall);
      expect(await fresh.page.getByTestId('shared-pooled').textContent()).toBe(own.pooled);
      expect(await fresh.page.getByTestId('shared-predictions').textContent()).toContain('30 predicted letters');
      // The fresh context has no data and no runs: everything came from the link.
      const stores = await fresh.page.evaluate(() => indexedDB.databases().then((dbs) => dbs.length));
      expect(stores).toBe(0);

      // Reproducing gets the data as Show the questions does; AncientBench has no public files to fetch.
      await fresh.page.getByTestId('reproduce').click();
      expect(await fresh.page.getByTestId('reproduce-error').textContent()).toContain('import the same file the link was made on');
      // AncientBench has no public files to fetch: the questions need the same file imported here.
      await fresh.page.getByTestId('shared-show-items').click();
      expect(await fresh.page.getByTestId('shared-items-error').textContent()).toContain('import the same file the link was made on');
      await fresh.page.goto(url.replace(/#.*$/, '#/data'));
      await fresh.page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
      await fresh.page.getByTestId('import-sample').click();
      await fresh.page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
      await fresh.page.goto(url);
      await fresh.page.getByTestId('reproduce').click();
      const agreement = fresh.page.getByTestId('reproduce-agreement');
      await Promise.race([
        agreement.waitFor({ timeout: 120_000 }),
        fresh.page.getByTestId('reproduce-error').waitFor({ timeout: 120_000 }).then(async () => {
          throw new Error(`reproduction failed: ${await fresh.page.getByTestId('reproduce-error').textContent()}`);
        }),
      ]);
      expect(await agreement.textContent()).toContain('30 of 30 items agree (100.00%)');
      expect(await fresh.page.getByTestId('reproduce-score-diff').textContent()).toBe(`Overall: shared ${own.overall}, here ${own.overall}, difference 0.00 points.`);
      expect(await fresh.page.getByTestId('shared-badge').textContent()).toContain('reproduced here');

      // Per item: the questions from the local copy, each with the sharer's letter.
      const sharer = await readResults(page, decodeURIComponent(page.url().split('#/run/')[1]));
      await fresh.page.getByTestId('shared-show-items').click();
      await fresh.page.getByTestId('shared-items').waitFor();
      expect(await fresh.page.getByTestId('shared-summary-verified').count()).toBe(1);
      const firstPage = await shownRows(fresh.page);
      expect(firstPage.length).toBe(25);
      await fresh.page.getByTestId('shared-items-next').click();
      const rows = [...firstPage, ...(await shownRows(fresh.page))];
      expect(rows.map((r) => [r.itemId, r.prediction])).toEqual(sharer.map((r) => [r.itemId, r.prediction]));
      expect(rows.map((r) => r.correct)).toEqual(sharer.map((r) => String(r.prediction === r.gold)));
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('steps a class through the run by keyboard in classroom mode, keeping score against the model', async () => {
    const { page } = session.opened;
    const runUrl = page.url();
    const runId = decodeURIComponent(runUrl.split('#/run/')[1]);
    const results = await readResults(page, runId);
    await page.getByTestId('classroom-link').click();
    await page.getByTestId('classroom').waitFor();
    expect(await page.getByTestId('classroom-position').textContent()).toBe(`1 / ${results.length}`);
    expect(await page.getByTestId('classroom-reveal').count()).toBe(0); // nothing shown before the reveal

    // Three questions: the class answers A, B, C; each is revealed, then → moves on.
    const guesses = ['A', 'B', 'C'];
    for (const [k, guess] of guesses.entries()) {
      await page.keyboard.press(guess);
      await page.keyboard.press('Space');
      const reveal = await page.getByTestId('classroom-reveal').textContent();
      expect(reveal).toContain(`Model: ${results[k].prediction}`);
      expect(reveal).toContain(`Answer: ${results[k].gold}`);
      expect(reveal).toContain(`Class: ${guess}`);
      expect(await page.locator(`li[data-letter=${results[k].gold}]`).getAttribute('class')).toContain('gold');
      await page.keyboard.press('ArrowRight');
      expect(await page.getByTestId('classroom-position').textContent()).toBe(`${k + 2} / ${results.length}`);
    }
    const classRight = guesses.filter((g, k) => g === results[k].gold).length;
    const modelRight = guesses.filter((_, k) => results[k].prediction === results[k].gold).length;
    expect(await page.getByTestId('classroom-score').textContent()).toBe(`Class ${classRight} · Model ${modelRight} of 3`);
    await page.keyboard.press('ArrowLeft');
    expect(await page.getByTestId('classroom-position').textContent()).toBe(`3 / ${results.length}`);
    await page.keyboard.press('Escape');
    await page.waitForURL(/#\/run\//);
  });

  it("teaches the stored item's own answer when a run's stored gold says otherwise (a forged or altered run file)", async () => {
    const { page } = session.opened;
    await page.waitForURL(/#\/run\//); // where the classroom test left it
    const runId = decodeURIComponent(page.url().split('#/run/')[1]);
    const results = await readResults(page, runId);
    const first = results[0];
    const other = (['A', 'B', 'C', 'D'] as const).find((l) => l !== first.gold && l !== first.prediction)!;
    // Alter the first result's gold in IndexedDB, as an imported run file could claim it.
    await page.evaluate(
      async ({ runId, itemId, gold }) => {
        const db = await new Promise<IDBDatabase>((resolve, reject) => {
          const request = indexedDB.open('jiangu');
          request.onsuccess = () => resolve(request.result);
          request.onerror = () => reject(request.error);
        });
        await new Promise<void>((resolve, reject) => {
          const tx = db.transaction('results', 'readwrite');
          const store = tx.objectStore('results');
          const get = store.get([runId, itemId]);
          get.onsuccess = () => store.put({ ...get.result, gold, correct: get.result.prediction === gold });
          tx.oncomplete = () => resolve();
          tx.onerror = () => reject(tx.error);
        });
        db.close();
      },
      { runId, itemId: first.itemId, gold: other },
    );
    await page.goto(`${session.url}/#/classroom/${runId}`);
    await page.reload();
    await page.getByTestId('classroom-position').waitFor();
    await page.keyboard.press(other);
    await page.keyboard.press('Space');
    const reveal = await page.getByTestId('classroom-reveal').textContent();
    expect(reveal).toContain(`Answer: ${first.gold}`);
    expect(await page.locator(`li[data-letter=${first.gold}]`).getAttribute('class')).toContain('gold');
    expect(await page.locator(`li[data-letter=${other}]`).getAttribute('class')).not.toContain('gold');
    expect(await page.getByTestId('classroom-claimed-gold').textContent()).toContain(`The run file says the answer is ${other}`);
    // The class guessed the file's answer: not counted right; the model is scored against the key too.
    expect(await page.getByTestId('classroom-score').textContent()).toBe(`Class 0 · Model ${first.prediction === first.gold ? 1 : 0} of 1`);
    await page.keyboard.press('Escape');
    await page.waitForURL(/#\/run\//);
  });

  it('downloads a catalog dataset (hash-checked, through the mirror) to show a link item by item, and flags a summary its letters do not give', async () => {
    const honest = await fabricatedCmmluLink(20);
    const tampered = await fabricatedCmmluLink(20, { tamperSummary: true });
    const mirror = `?mirror=${encodeURIComponent(`${session.url}/mirror`)}`;
    const fresh = await openPage(session.opened.context.browser()!, `${session.url}/${mirror}#/shared/${honest.payload}`);
    try {
      await fresh.page.getByTestId('shared').waitFor();
      // Nothing stored here yet: the link's numbers are its claim, and the page says so.
      expect(await fresh.page.getByTestId('shared-summary-status').getAttribute('data-status')).toBe('unchecked');
      expect(await fresh.page.getByTestId('shared-overall-here').count()).toBe(0);
      await fresh.page.getByTestId('shared-show-items').click();
      await fresh.page.getByTestId('shared-items').waitFor({ timeout: 60_000 });
      expect(await fresh.page.getByTestId('shared-summary-verified').count()).toBe(1);
      expect(await fresh.page.getByTestId('shared-summary-status').getAttribute('data-status')).toBe('verified');
      const rows = await shownRows(fresh.page);
      expect(rows).toEqual(honest.rows.map((r) => ({ itemId: r.itemId, prediction: r.prediction, correct: r.correct === null ? '' : String(r.correct) })));
      await fresh.page.getByTestId('shared-items-only-wrong').check();
      expect((await shownRows(fresh.page)).map((r) => r.itemId)).toEqual(honest.rows.filter((r) => r.correct === false).map((r) => r.itemId));

      // The same link with an inflated overall: the page says so (the dataset is now stored: no download).
      await fresh.page.goto(`${session.url}/${mirror}#/shared/${tampered.payload}`);
      await fresh.page.reload();
      // With the data stored, the claim is checked at once, before any click: the page shows what its letters score.
      await fresh.page.locator('[data-testid=shared-summary-status][data-status=mismatch]').waitFor();
      expect(await fresh.page.getByTestId('shared-overall-here').textContent()).not.toBe(await fresh.page.getByTestId('shared-overall').textContent());
      await fresh.page.getByTestId('shared-show-items').click();
      const mismatch = fresh.page.getByTestId('shared-summary-mismatch');
      await mismatch.waitFor();
      expect(await mismatch.textContent()).toMatch(/Overall: [\d.]+ → [\d.]+/);
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('runs classroom mode from a shared link, revealing the shared letter and the local answer key', async () => {
    const link = await fabricatedCmmluLink(12);
    const mirror = `?mirror=${encodeURIComponent(`${session.url}/mirror`)}`;
    const fresh = await openPage(session.opened.context.browser()!, `${session.url}/${mirror}#/classroom/shared/${link.payload}`);
    try {
      const position = fresh.page.getByTestId('classroom-position');
      await position.waitFor({ timeout: 60_000 });
      expect(await position.textContent()).toBe(`1 / ${link.rows.length}`);
      for (const [k, row] of link.rows.slice(0, 3).entries()) {
        await fresh.page.keyboard.press('B');
        await fresh.page.keyboard.press('Space');
        const reveal = await fresh.page.getByTestId('classroom-reveal').textContent();
        expect(reveal).toContain(`Model: ${row.prediction}`);
        expect(reveal).toContain(`Answer: ${row.gold}`);
        expect(reveal).toContain('carries the model’s letters, not its probabilities');
        await fresh.page.keyboard.press('ArrowRight');
        expect(await position.textContent()).toBe(`${k + 2} / ${link.rows.length}`);
      }
      const classRight = link.rows.slice(0, 3).filter((r) => r.gold === 'B').length;
      const modelRight = link.rows.slice(0, 3).filter((r) => r.correct).length;
      expect(await fresh.page.getByTestId('classroom-score').textContent()).toBe(`Class ${classRight} · Model ${modelRight} of 3`);
      await fresh.page.keyboard.press('Escape');
      await fresh.page.waitForURL(/#\/shared\//);
      expect(fresh.leaks).toEqual([]);
    } finally {
      await fresh.context.close();
    }
  });

  it('refuses each kind of malformed link with its message, and shows HTML in a link as text, running nothing', async () => {
    const { page } = session.opened;
    for (const { what, payload, message } of await malformedLinks()) {
      await page.goto(`${session.url}/#/shared/${payload}`);
      await page.reload();
      const error = page.getByTestId('shared-error');
      await error.waitFor();
      const text = (await error.textContent()) ?? '';
      expect(text, what).toMatch(/^This link cannot be opened: .+/);
      expect(text, what).toMatch(message);
      // The page around the message still works: the header's navigation leads on.
      await page.getByTestId('nav-evaluate').click();
      await page.getByTestId('eval-kind').waitFor();
    }

    // Strings with markup are data: shown as text, never parsed as HTML, and nothing in them runs.
    const hostile = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>';
    const link = await fabricatedCmmluLink(4, { hostile });
    await page.goto(`${session.url}/#/shared/${link.payload}`);
    await page.reload();
    await page.getByTestId('shared').waitFor();
    const shown = await page.getByTestId('shared').textContent();
    expect(shown!.split(hostile).length - 1).toBeGreaterThanOrEqual(2); // the model id and the app version
    expect(await page.locator('#app img, #app script').count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();

    await page.goto(`${session.url}/#/data`);
    await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  });
});
