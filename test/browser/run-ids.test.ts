// Ids that name one thing (issue 46, item 2), in Chromium: runs restored from a backup (the door
// through which any id a file can carry comes in) whose ids hold `%`, `/`, `#`, `?`, `,`, spaces and
// non-ASCII characters, one of them (`%32d43e2d`) what another's id (`2d43e2d`) is percent-encoded,
// each opened from its own row, exported and deleted from its own page: the page, the file and the
// deletion are that run's and no other's. Compare keeps two such ids through its link and a reload;
// the classroom opens a run named `shared/x` as that run, not as a share link. Memorization runs too
// (`%70robe…` decodes to `probe…`). The runs are made-up records (test/fixtures/run-records, the
// memorization fixture of the format tests): no model is loaded.
import { describe, expect, it } from 'vitest';
import type { Download, Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { backupJson } from '../../src/lib/core/formats/backup/backup.ts';
import { makeMcRun } from '../fixtures/run-records/build.ts';

const RUN_IDS = ['%32d43e2d', '2d43e2d', 'a/b', 'x#y', 'q?z=1', 'a,b', 'shared/x', 'two words', '100%', '基线·甲', '🧪 run'];
const PROBE_IDS = ['%70robe/甲 #1', 'probe/甲 #1'];
const labelOf = (id: string) => `id ${id}`;

/** An attribute selector's value for any id (quotes and backslashes escaped as CSS reads them). */
const attr = (id: string) => JSON.stringify(id);

async function downloadText(download: Download): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of await download.createReadStream()) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** The ids stored in the two run stores and their results, read with the raw IndexedDB API. */
async function storedIds(page: Page): Promise<{ runs: string[]; results: string[]; probeRuns: string[]; probeResults: string[] }> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = (store: string) =>
      new Promise<{ id?: string; runId?: string }[]>((resolve, reject) => {
        const r = db.transaction(store).objectStore(store).getAll();
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
    const ids = async (store: string, key: 'id' | 'runId') => [...new Set((await all(store)).map((r) => r[key]!))].sort();
    const out = { runs: await ids('runs', 'id'), results: await ids('results', 'runId'), probeRuns: await ids('probeRuns', 'id'), probeResults: await ids('probeResults', 'runId') };
    db.close();
    return out;
  });
}

/** A backup holding a scoring run under each of RUN_IDS and a memorization run under each of PROBE_IDS, each labelled with its id. */
async function backupText(): Promise<string> {
  // The memorization fixture makes its run with the site's own code on fake-indexeddb, which it puts
  // in this worker's globals (Node's side only: the pages keep Chromium's IndexedDB).
  const { madeProbeRun } = await import('../unit/formats/memorization-fixture.ts');
  const made = await madeProbeRun();
  made.db.close();
  const runs = RUN_IDS.map((id, i) => {
    const { run, results } = makeMcRun(id);
    // A minute apart, so the run list's order (newest first) is the same on every run of the test.
    return { run: { ...run, label: labelOf(id), createdAt: `2026-01-02T03:${String(10 + i).padStart(2, '0')}:05.000Z` }, results };
  });
  const probes = PROBE_IDS.map((id) => ({ run: { ...made.run, id, label: labelOf(id) }, results: made.results.map((r) => ({ ...r, runId: id })) }));
  return backupJson(runs, probes, '2026-02-01T00:00:00.000Z');
}

describe('ids that name one thing', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });
  let page: Page;

  /** The Evaluate page, its lists drawn. */
  async function toEvaluate(): Promise<void> {
    await page.evaluate(() => (location.hash = '#/evaluate'));
    await page.getByTestId('backup-import').waitFor();
  }

  /** Opens a scoring run from its row on the Evaluate page and returns the label its page shows. */
  async function openFromRow(id: string): Promise<string | null> {
    await toEvaluate();
    await page.locator(`[data-testid=run-list] tr[data-run=${attr(id)}] a`).click();
    await page.getByTestId('run-label').waitFor({ timeout: 10_000 });
    return page.getByTestId('run-label').textContent();
  }

  it('restores runs under ids a URL would misread, each listed once', async () => {
    page = session.opened.page;
    await page.getByTestId('backup-import').setInputFiles({ name: 'ids.json', mimeType: 'application/json', buffer: Buffer.from(await backupText()) });
    await page.locator('[data-testid=backup-report]').waitFor();
    expect(await page.getByTestId('backup-report').getAttribute('data-restored')).toBe(String(RUN_IDS.length + PROBE_IDS.length));
    const stored = await storedIds(page);
    expect(stored.runs).toEqual([...RUN_IDS].sort());
    expect(stored.probeRuns).toEqual([...PROBE_IDS].sort());
    for (const id of RUN_IDS) expect(await page.locator(`[data-testid=run-list] tr[data-run=${attr(id)}]`).count(), id).toBe(1);
    for (const id of PROBE_IDS) expect(await page.locator(`[data-testid=probe-runs] li[data-run=${attr(id)}]`).count(), id).toBe(1);
  });

  it('Compare keeps two such ids, in order, through the run page’s link and a reload', async () => {
    // An id with a comma (Compare's separator), then one with a percent sign.
    expect(await openFromRow('a,b')).toBe(`“${labelOf('a,b')}”`);
    await page.getByTestId('compare-link').click();
    const chosen = () => page.locator('[data-testid=compare-chosen] li').evaluateAll((items) => items.map((li) => li.getAttribute('data-chosen')));
    await page.getByTestId('compare-runs').waitFor();
    await expect.poll(chosen).toEqual(['a,b']);
    await page.getByTestId('compare-pick-%32d43e2d').check();
    await expect.poll(chosen).toEqual(['a,b', '%32d43e2d']);
    await page.reload();
    await page.getByTestId('compare-runs').waitFor();
    await expect.poll(chosen).toEqual(['a,b', '%32d43e2d']);
    expect(await page.getByTestId('compare-missing').count()).toBe(0);
  });

  it('the classroom opens a run named shared/x as that run, and its Back link leads to it', async () => {
    for (const id of ['shared/x', '%32d43e2d']) {
      expect(await openFromRow(id)).toBe(`“${labelOf(id)}”`);
      await page.getByTestId('classroom-link').click();
      // The run is found; its benchmark is not stored here (the runs are made-up ACLUE runs).
      const error = page.getByTestId('classroom-error');
      await error.waitFor();
      expect(await error.textContent()).toContain('ACLUE is not stored here');
      await error.getByRole('link').click();
      await page.getByTestId('run-label').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('run-label').textContent(), id).toBe(`“${labelOf(id)}”`);
    }
  });

  it('each scoring run opens from its own row, exports its own file and deletes only itself', async () => {
    let left = [...RUN_IDS].sort();
    for (const id of RUN_IDS) {
      expect(await openFromRow(id), id).toBe(`“${labelOf(id)}”`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-json').click()]);
      const file = JSON.parse(await downloadText(download));
      expect([file.run.id, file.run.label], id).toEqual([id, labelOf(id)]);
      expect(new Set(file.results.map((r: { runId: string }) => r.runId)), id).toEqual(new Set([id]));

      await page.getByTestId('delete-run').click();
      await page.getByTestId('delete-run-yes').click();
      await page.waitForURL(/#\/evaluate$/);
      left = left.filter((x) => x !== id);
      const stored = await storedIds(page);
      expect(stored.runs, `after deleting ${id}`).toEqual(left);
      expect(stored.results, `after deleting ${id}`).toEqual(left);
      expect(stored.probeRuns).toEqual([...PROBE_IDS].sort());
    }
  });

  it('each memorization run opens from its own row, exports its own file and deletes only itself', async () => {
    let left = [...PROBE_IDS].sort();
    for (const id of PROBE_IDS) {
      await toEvaluate();
      await page.locator(`[data-testid=probe-runs] li[data-run=${attr(id)}] a`).click();
      await page.getByTestId('probe-label').waitFor({ timeout: 10_000 });
      expect(await page.getByTestId('probe-label').textContent(), id).toBe(`“${labelOf(id)}”`);
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('probe-export').click()]);
      const file = JSON.parse(await downloadText(download));
      expect([file.run.id, file.run.label], id).toEqual([id, labelOf(id)]);

      await page.getByTestId('probe-delete').click();
      await page.getByTestId('probe-delete-yes').click();
      await page.waitForURL(/#\/evaluate$/);
      left = left.filter((x) => x !== id);
      const stored = await storedIds(page);
      expect(stored.probeRuns, `after deleting ${id}`).toEqual(left);
      expect(stored.probeResults, `after deleting ${id}`).toEqual(left);
    }
  });
});
