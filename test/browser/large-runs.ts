// Large stored runs made up on the spot for the browser tests (no benchmark data): fabricated letter
// log-probabilities over the AncientBench items an imported generated file stored, written as our run
// file and imported through the Evaluate page. For large-stored-run.test.ts and leave-mid-load.test.ts.
import type { Page } from 'playwright-core';
import type { OptionLetter } from '../../src/lib/core/benchmarks/types.ts';
import { runJson } from '../../src/lib/core/formats/jiangu-run/export.ts';
import { mulberry32 } from '../../src/lib/core/metrics/index.ts';
import { fabricatedMcRun } from '../../scripts/fixtures/fabricated-run.ts';

const LETTERS: OptionLetter[] = ['A', 'B', 'C', 'D'];

/** The stored AncientBench test items (id, task, answer), as the page's store holds them. */
export async function storedItems(page: Page): Promise<[string, string, OptionLetter][]> {
  return (await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('jiangu');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('items').objectStore('items').index('by-dataset').getAll('ancientbench');
      get.onsuccess = () => { resolve(get.result.filter((i) => i.split === 'test').map((i) => [i.id, i.task, i.answer])); open.result.close(); };
      get.onerror = () => reject(get.error);
    };
  })`)) as [string, string, OptionLetter][];
}

/** A letter-logits run of jiangu-tiny over `items`, its log-probabilities drawn from `seed`; with its run file's text. */
export async function madeRun(id: string, seed: number, items: [string, string, OptionLetter][]) {
  const random = mulberry32(seed);
  const tasks = [...new Set(items.map(([, task]) => task))];
  const made = await fabricatedMcRun({
    id,
    datasetId: 'ancientbench',
    model: { source: { kind: 'site', name: 'jiangu-tiny' }, dtype: 'fp32', backend: 'wasm' },
    tasks,
    datasetFiles: [{ path: 'ancientbench.csv', sha256: 'a'.repeat(64) }],
    limitPerTask: null,
    items: items.map(([itemId, task, gold]) => ({ id: itemId, task, gold, logProbs: LETTERS.map(() => random() * 4 - 6) })),
  });
  return { ...made, tasks, text: runJson(made.run, made.results) };
}

/** Imports a run file from the Evaluate page; returns the id of the run whose page it opened. */
export async function importRun(page: Page, url: string, name: string, text: string): Promise<string> {
  await page.goto(`${url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  const before = page.url();
  await page.getByTestId('import-run-input').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForURL((u) => u.hash.startsWith('#/run/') && u.href !== before, { timeout: 60_000, waitUntil: 'commit' });
  return decodeURIComponent(page.url().split('#/run/')[1]);
}
