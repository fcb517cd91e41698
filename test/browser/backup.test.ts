// The backup of every run (issue 34), in Chromium on jiangu-tiny (WASM): one run of each kind
// (letters, option text, generated letter, generation, memorization), one with a label, exported as
// one file from the Evaluate page; the stores emptied (another browser, as far as the site can tell);
// the file imported back: every stored record equal to what it was, field by field; imported again:
// every run reported as already stored, nothing duplicated. Both languages.
import { describe, expect, it } from 'vitest';
import { join } from 'node:path';
import type { Download, Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { startFixtureRun, startProbeRun, storeSample, waitForStatus } from './runs.ts';
import { projectRoot } from '../../scripts/site-routes.ts';

const STORES = ['runs', 'results', 'probeRuns', 'probeResults'] as const;

async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** Every record of the four run stores, read with the raw IndexedDB API, in key order. */
async function readAll(page: Page): Promise<Record<string, unknown[]>> {
  return page.evaluate(async (stores) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const out: Record<string, unknown[]> = {};
    for (const store of stores) {
      out[store] = await new Promise<unknown[]>((resolve, reject) => {
        const r = db.transaction(store).objectStore(store).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    }
    db.close();
    return out;
  }, [...STORES]);
}

async function clearAll(page: Page): Promise<void> {
  await page.evaluate(async (stores) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const tx = db.transaction(stores, 'readwrite');
    for (const store of stores) tx.objectStore(store).clear();
    await new Promise<void>((resolve, reject) => {
      tx.oncomplete = () => resolve();
      tx.onerror = () => reject(tx.error);
    });
    db.close();
  }, [...STORES]);
}

describe('the backup of every run', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });
  let page: Page;
  const ids: Record<string, string> = {};

  it('makes a run of each kind', async () => {
    page = session.opened.page;
    await storeSample(page);
    await page.getByTestId('import-kind').selectOption('c3bench');
    await page.getByTestId('file-input').setInputFiles(join(projectRoot, 'test', 'fixtures', 'c3bench', 'flat.json'));
    await page.getByTestId('c3-import').click();
    await page.locator('[data-testid=dataset-c3bench][data-stored=yes]').waitFor();

    ids.letters = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 1 });
    await waitForStatus(page, 'completed');
    ids.cloze = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, limit: 1, scoring: 'cloze' });
    await waitForStatus(page, 'completed');
    await page.getByTestId('run-label-input').fill('option text, tiny');
    await page.getByTestId('run-label-save').click();
    await page.getByTestId('run-label').waitFor();

    ids.extract = await startFixtureRun(page, { dataset: 'ancientbench', scoring: 'generate-extract', maxNewTokens: 4, limit: 1 });
    await waitForStatus(page, 'completed');

    ids.generation = await startFixtureRun(page, { kind: 'generation', dataset: 'c3bench', maxNewTokens: 4 });
    await waitForStatus(page, 'completed');

    ids.memorization = await startProbeRun(page, session.url);
  }, 400_000);

  it('exports every run as one file and imports it back into an empty store with every record as it was, then reports them as already stored', async () => {
    await page.goto(`${session.url}/#/evaluate`);
    await page.reload();
    const before = await readAll(page);
    expect(before.runs).toHaveLength(4);
    expect(before.probeRuns).toHaveLength(1);
    expect(before.results.length).toBeGreaterThan(0);
    expect(before.probeResults.length).toBeGreaterThan(0);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('backup-export').click()]);
    const text = await downloadText(download);
    expect(JSON.parse(text).format).toBe('jiangu-backup');

    await clearAll(page);
    await page.reload();
    expect((await readAll(page)).runs).toEqual([]);
    await page.getByTestId('backup-import').setInputFiles({ name: download.suggestedFilename(), mimeType: 'application/json', buffer: Buffer.from(text) });
    const report = page.getByTestId('backup-report');
    await report.waitFor();
    expect(await report.getAttribute('data-restored')).toBe('5');
    expect(await report.getAttribute('data-refused')).toBe('0');
    // Field by field: every store as it was before the export.
    expect(await readAll(page)).toEqual(before);
    for (const id of [ids.letters, ids.cloze, ids.extract, ids.generation]) await page.locator(`[data-testid=run-list] tr[data-run="${id}"]`).waitFor();
    await page.locator(`[data-testid=probe-runs] li[data-run="${ids.memorization}"]`).waitFor();
    expect(await page.locator(`tr[data-run="${ids.cloze}"] [data-testid=run-list-label]`).textContent()).toBe('option text, tiny');

    await page.getByTestId('backup-import').setInputFiles({ name: 'again.json', mimeType: 'application/json', buffer: Buffer.from(text) });
    await page.locator('[data-testid=backup-report][data-already="5"]').waitFor();
    expect(await page.getByTestId('backup-report').getAttribute('data-restored')).toBe('0');
    expect(await page.getByTestId('backup-report').textContent()).toContain('5 already stored here with the same results');
    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('backup-report').textContent()).toContain('5 次已存储在这里且结果相同');
    await page.getByTestId('lang-en').click();
    expect(await readAll(page)).toEqual(before);

    // A restored run opens as before.
    await page.evaluate((id) => (location.hash = `#/run/${id}`), ids.generation);
    await page.locator('[data-testid=run][data-status=completed]').waitFor();
  }, 120_000);
});
