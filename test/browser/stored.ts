// A run and its results as the page stored them, read with the raw IndexedDB API (not the site's
// store module), so a test checks what is really in the browser.
import type { Page } from 'playwright-core';
import type { ItemResult, RunRecord } from '../../src/lib/core/record/run.ts';

export async function readStoredRun<R extends RunRecord = RunRecord, I extends ItemResult = ItemResult>(page: Page, runId: string): Promise<{ run: R; results: I[] }> {
  return page.evaluate(async (id) => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const request = indexedDB.open('jiangu');
      request.onsuccess = () => resolve(request.result);
      request.onerror = () => reject(request.error);
    });
    const read = <T,>(store: string, query: IDBValidKey, index?: string) =>
      new Promise<T>((resolve, reject) => {
        const source = db.transaction(store).objectStore(store);
        const request = index ? source.index(index).getAll(query) : source.get(query);
        request.onsuccess = () => resolve(request.result as T);
        request.onerror = () => reject(request.error);
      });
    const run = await read<R>('runs', id);
    const results = await read<I[]>('results', id, 'by-run');
    db.close();
    return { run, results: results.sort((a, b) => a.index - b.index) };
  }, runId) as Promise<{ run: R; results: I[] }>;
}
