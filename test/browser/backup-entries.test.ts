// A hostile backup through the Evaluate page (issue 46, items 1 and 9), in Chromium with the real
// run-import worker and IndexedDB: one null entry, one whose probabilities were forged, one with
// fields no reader knows (a long string, a `__proto__` key), one id held twice, beside a valid run.
// The valid runs are restored, each other entry is named with what is wrong, the unknown fields are
// named and never stored, the repeated id is said as repeated, in English and in Chinese.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { useBrowserSession } from './session.ts';
import { makeGenRun, makeMcRun } from '../fixtures/run-records/build.ts';

const entry = ({ run, results }: { run: object; results: object[] }) => ({ format: 'jiangu-run', formatVersion: 1, run, results });

/** The backup's text: built here as backupJson writes one, from records the engine's way (fixtures/run-records). */
function hostileBackup(): string {
  const kept = makeMcRun('kept');
  const generation = makeGenRun('generation');
  const forged = makeMcRun('forged');
  forged.results[1] = { ...forged.results[1], probs: [1, 0, 0, 0] };
  const extra = makeMcRun('extra');
  const runs = [entry(kept), null, entry(forged), { ...entry(extra), run: { ...extra.run, notes: 'x'.repeat(2_000_000) } }, entry(generation), entry(kept)];
  const text = JSON.stringify({ format: 'jiangu-backup', formatVersion: 1, exportedAt: '2026-12-07T00:00:00.000Z', runs, memorizationRuns: [] });
  return text.replace('"notes":', '"__proto__":{"polluted":true},"notes":');
}

async function storedRuns(page: Page): Promise<Record<string, unknown>[]> {
  return page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('jiangu');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const all = await new Promise<Record<string, unknown>[]>((resolve, reject) => {
      const r = db.transaction('runs').objectStore('runs').getAll();
      r.onsuccess = () => resolve(r.result as Record<string, unknown>[]);
      r.onerror = () => reject(r.error);
    });
    db.close();
    return all;
  });
}

describe('a hostile backup, through the Evaluate page', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it('restores the valid runs and names every other entry with what is wrong, in English and Chinese', async () => {
    const page = session.opened.page;
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await page.getByTestId('backup-import').setInputFiles({ name: 'hostile.json', mimeType: 'application/json', buffer: Buffer.from(hostileBackup()) });
    const report = page.getByTestId('backup-report');
    await report.waitFor();
    // Read and restored in the run-import worker, not on the page's thread.
    expect(workers.some((url) => url.includes('run-import'))).toBe(true);
    expect(await report.getAttribute('data-restored')).toBe('3');
    expect(await report.getAttribute('data-refused')).toBe('2');
    expect(await report.getAttribute('data-repeated')).toBe('1');
    const refused = page.getByTestId('backup-refused');
    expect(await refused.allTextContents()).toEqual([
      'Not restored: runs[1]: entry: expected an object, got null',
      expect.stringMatching(/^Not restored: forged: results\[1\]\.probs\[0\]: expected \[[0-9., ]+\] \(the softmax of results\[1\]\.logProbs/),
    ]);
    expect(await page.getByTestId('backup-repeated').textContent()).toBe('The backup holds this run more than once; the first entry was read, the others left out: kept.');
    const dropped = (await page.getByTestId('backup-dropped').textContent()) ?? '';
    expect(dropped).toMatch(/^Run extra had fields this version does not know; they were left out: /);
    expect(dropped).toContain('run.__proto__');
    expect(dropped).toContain('run.notes');

    await page.getByTestId('lang-zh').click();
    expect(await page.getByTestId('backup-repeated').textContent()).toBe('备份中以下评测出现了不止一次；读取了第一条，其余未导入：kept。');
    expect(await refused.first().textContent()).toBe('未恢复：runs[1]：entry：应为一个对象，实际是null');
    expect(await page.getByTestId('backup-dropped').textContent()).toMatch(/^评测 extra 中有本版本不认识的字段，已略去：/);
    await page.getByTestId('lang-en').click();

    const stored = await storedRuns(page);
    expect(stored.map((r) => r.id).sort()).toEqual(['extra', 'generation', 'kept']);
    const extra = stored.find((r) => r.id === 'extra')!;
    expect(Object.keys(extra)).not.toContain('notes');
    expect(Object.hasOwn(extra, '__proto__')).toBe(false);
    expect(await page.evaluate(() => ({} as Record<string, unknown>).polluted)).toBeUndefined();
    // The restored runs are listed and open.
    for (const id of ['kept', 'extra', 'generation']) await page.locator(`[data-testid=run-list] tr[data-run="${id}"]`).waitFor();
  }, 90_000);
});
