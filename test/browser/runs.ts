// Runs in browser tests: starting one of the fixture model from the Evaluate page, waiting for it,
// and reading it back as the page stored it, with the raw IndexedDB API (not the site's store
// module), so a test checks what is really in the browser.
import type { Page } from 'playwright-core';
import type { ItemResult, RunRecord } from '../../src/lib/core/record/run.ts';

export async function readStoredRun<R = RunRecord, I extends { index: number } = ItemResult>(page: Page, runId: string, stores: { runs: string; results: string } = { runs: 'runs', results: 'results' }): Promise<{ run: R; results: I[] }> {
  return page.evaluate(async ({ id, stores }) => {
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
    const run = await read<R>(stores.runs, id);
    const results = await read<I[]>(stores.results, id, 'by-run');
    db.close();
    return { run, results: results.sort((a, b) => a.index - b.index) };
  }, { id: runId, stores }) as Promise<{ run: R; results: I[] }>;
}

/** Writes records straight into this page's IndexedDB (not through the site's store module). */
export async function writeRaw(page: Page, store: string, records: unknown[]): Promise<void> {
  await page.evaluate(
    async ({ store, records }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('jiangu');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const tx = db.transaction(store, 'readwrite');
      for (const record of records) tx.objectStore(store).put(record);
      await new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onerror = () => reject(tx.error);
      });
      db.close();
    },
    { store, records },
  );
}

export interface FixtureRunOptions {
  dataset: string;
  shots?: number;
  limit?: number;
  /** Clears the limit field (a first run of a large selection gets FIRST_RUN_LIMIT filled in). */
  allItems?: boolean;
  backend?: 'wasm' | 'webgpu' | 'auto';
  tasks?: string[];
  scoring?: 'letter-logits' | 'generate-extract' | 'cloze';
  /** A model folder this site serves (/models/<name>/); jiangu-tiny when absent. */
  model?: string;
  /** Default fp32. */
  dtype?: string;
  /** Ticks "Circular evaluation". */
  circular?: boolean;
  /** Ticks "Debias with PriDe" (the page's 5% set, a fresh seed). */
  pride?: boolean;
  /** Types this seed for the random sample and its order (issue 36); absent: the page's own. */
  sampleSeed?: number;
  /** Chooses the draw (SampleChoice): 'first' the first N in file order, as `lm_eval --limit`; absent: the page's choice (random unless changed in this tab). */
  draw?: 'random' | 'first';
  /** The question type; multiple choice when absent. */
  kind?: 'multiple-choice' | 'generation';
  /** Types "Max new tokens" (generation, and multiple choice scored from a generated answer). */
  maxNewTokens?: number;
}

/** Starts a run of a site model (jiangu-tiny and fp32 unless named) from the Evaluate page; returns its id once its page opens. */
export async function startFixtureRun(page: Page, options: FixtureRunOptions): Promise<string> {
  await page.goto(page.url().replace(/#.*$/, '') + '#/evaluate');
  await page.getByTestId('eval-dataset').waitFor();
  if (options.kind) await page.getByTestId('eval-kind').selectOption(options.kind);
  await page.getByTestId('eval-dataset').selectOption(options.dataset);
  if (options.shots !== undefined) await page.getByTestId('eval-shots').selectOption(String(options.shots));
  if (options.scoring) await page.getByTestId('eval-scoring').selectOption(options.scoring);
  if (options.maxNewTokens !== undefined) await page.getByTestId('eval-max-tokens').fill(String(options.maxNewTokens));
  if (options.limit) await page.getByTestId('eval-limit').fill(String(options.limit));
  else if (options.allItems) await page.getByTestId('eval-limit').fill('');
  if (options.circular) await page.getByTestId('eval-circular').check();
  if (options.pride) await page.getByTestId('eval-pride').check();
  if (options.sampleSeed !== undefined) await page.getByTestId('eval-sample-seed').fill(String(options.sampleSeed));
  if (options.draw) await page.getByTestId(options.draw === 'first' ? 'eval-sample-first' : 'eval-sample-random').check();
  if (options.tasks) {
    await page.getByRole('button', { name: 'none' }).click();
    for (const task of options.tasks) await page.locator(`input[type=checkbox][value="${task}"]`).check();
  }
  await page.getByTestId('model-choice').selectOption(`site:${options.model ?? 'jiangu-tiny'}`);
  await page.getByTestId('dtype').selectOption(options.dtype ?? 'fp32');
  await page.getByTestId('backend').selectOption(options.backend ?? 'wasm');
  await page.getByTestId('load').click();
  const clicked = Date.now();
  await Promise.race([
    page.waitForURL(/#\/run\//, { timeout: 60_000 }).catch(async (error: unknown) => {
      // Neither the run's page nor an error: what the form held, to tell why.
      const form = await page.evaluate(() => ({
        url: location.href,
        load: (document.querySelector('[data-testid=load]') as HTMLButtonElement | null)?.disabled,
        dataset: (document.querySelector('[data-testid=eval-dataset]') as HTMLSelectElement | null)?.value,
        total: document.querySelector('[data-testid=eval-total]')?.textContent,
        memoryQuestion: document.querySelector('[data-testid=memory-confirm-body]')?.textContent ?? null,
        alerts: [...document.querySelectorAll('[role=alert]')].map((e) => e.textContent),
      }));
      throw new Error(`the run did not start: ${String(error)}; the form: ${JSON.stringify(form)}`);
    }),
    // Only an error ends the wait early: this one's own time-out would hide the reason the other gives.
    page
      .getByTestId('eval-error')
      .waitFor({ timeout: 90_000 })
      .then(
        async () => {
          throw new Error(`the run did not start: ${await page.getByTestId('eval-error').textContent()}`);
        },
        () => new Promise<never>(() => {}),
      ),
  ]);
  // A start this slow is a fault to find (stop 53's CI waited 60 s for one): its time, to compare across runs.
  if (Date.now() - clicked > 10_000) console.log(`startFixtureRun: the run's page came ${Date.now() - clicked} ms after Load`);
  return decodeURIComponent(page.url().split('#/run/')[1]);
}

/** Waits until the shown run has `status`. */
export async function waitForStatus(page: Page, status: string, timeout = 180_000): Promise<void> {
  await page.locator(`[data-testid=run][data-status=${status}]`).waitFor({ timeout });
}

/** On an open Data page: imports the AncientBench sample and waits until it is stored. */
export async function storeSample(page: Page): Promise<void> {
  await page.locator('[data-testid=catalog][data-loaded=true]').waitFor();
  await page.getByTestId('import-sample').click();
  await page.locator('[data-testid=dataset-ancientbench][data-stored=yes]').waitFor();
}

/** Stores what most run tests start from: the AncientBench sample, and ACLUE through the site's mirror. */
export async function storeSampleAndAclue(page: Page, siteUrl: string, timeout = 90_000): Promise<void> {
  await page.goto(`${siteUrl}/?mirror=${encodeURIComponent(`${siteUrl}/mirror`)}#/data`);
  await storeSample(page);
  await page.getByTestId('dataset-aclue').getByTestId('download').click();
  await page.locator('[data-testid=dataset-aclue][data-stored=yes]').waitFor({ timeout });
}

/** Items of a stored dataset, by id, read from this page's IndexedDB as the site stored them. */
export async function readStoredItems<T>(page: Page, datasetId: string, ids: string[]): Promise<T[]> {
  return page.evaluate(
    async ({ datasetId, wanted }) => {
      const db = await new Promise<IDBDatabase>((resolve, reject) => {
        const r = indexedDB.open('jiangu');
        r.onsuccess = () => resolve(r.result);
        r.onerror = () => reject(r.error);
      });
      const out = await Promise.all(
        wanted.map(
          (id) =>
            new Promise<unknown>((resolve, reject) => {
              const r = db.transaction('items').objectStore('items').get([datasetId, id]);
              r.onsuccess = () => resolve(r.result);
              r.onerror = () => reject(r.error);
            }),
        ),
      );
      db.close();
      return out;
    },
    { datasetId, wanted: ids },
  ) as Promise<T[]>;
}

/**
 * Starts a memorization run of jiangu-tiny (fp32, WASM) from the Evaluate page (on the AncientBench
 * sample, `limit` items a task, unless told otherwise) and waits until it is complete; returns its id.
 */
export async function startProbeRun(page: Page, siteUrl: string, options: { dataset?: string; limit?: number } = {}): Promise<string> {
  await page.goto(`${siteUrl}/#/evaluate`);
  await page.getByTestId('eval-kind').selectOption('memorization');
  await page.getByTestId('eval-dataset').selectOption(options.dataset ?? 'ancientbench');
  await page.getByTestId('eval-limit').fill(String(options.limit ?? 2));
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
  await page.getByTestId('load').click();
  await page.waitForURL(/#\/probe\//);
  const id = decodeURIComponent(page.url().split('#/probe/')[1]);
  await page.locator('[data-testid=probe][data-status=completed]').waitFor({ timeout: 120_000 });
  return id;
}

interface ScoreGate {
  allow(n: number): void;
}

/**
 * Holds the page's requests to score an item (the worker protocol's `scoreItem`, `generate` for a
 * generation run, `textStatistics` for a memorization run's text) past the first `allowed` until
 * the test allows more (allowScoreItems): a run then goes only as far as the test lets it. A tiny model's run of a few hundred items could otherwise end before the test has looked
 * at it while it runs on a fast machine. Held requests are sent in order once allowed; the gate lives
 * until the page reloads.
 */
export async function gateScoreItems(page: Page, allowed: number, kind: 'scoreItem' | 'generate' | 'textStatistics' = 'scoreItem'): Promise<void> {
  await page.evaluate(({ first, kind }) => {
    const post = Worker.prototype.postMessage as (this: Worker, ...args: unknown[]) => void;
    const held: { worker: Worker; args: unknown[] }[] = [];
    let sent = 0;
    let limit = first;
    Worker.prototype.postMessage = function (this: Worker, ...args: unknown[]) {
      if ((args[0] as { kind?: string } | null)?.kind === kind) {
        if (sent >= limit) return void held.push({ worker: this, args });
        sent++;
      }
      post.apply(this, args);
    } as typeof Worker.prototype.postMessage;
    const gate: ScoreGate = {
      allow(n) {
        limit = n;
        while (held.length > 0 && sent < limit) {
          const { worker, args } = held.shift()!;
          sent++;
          post.apply(worker, args);
        }
      },
    };
    (globalThis as unknown as { __jianguScoreGate: ScoreGate }).__jianguScoreGate = gate;
  }, { first: allowed, kind });
}

/** Lets the page send its requests to score items up to `n` in all since the gate was set (Infinity: all). */
export async function allowScoreItems(page: Page, n: number): Promise<void> {
  await page.evaluate((to) => (globalThis as unknown as { __jianguScoreGate: ScoreGate }).__jianguScoreGate.allow(to), n);
}
