// The time estimate before a run, for a large configuration (issue 35): past WORKER_FROM_RESULTS
// items, the items are read and every prompt sized in the stored-run worker (data-sized-in="worker"),
// not on the page, and the estimate shown is the one the estimate module computes in Node from the
// same stored items and the same earlier run; a configuration reading few items (one task) is still
// sized on the page, with its estimate equal to Node's too. The paper-size main-thread timings are measured by
// scripts/bench/stored-run-tasks.ts (its `evaluate` steps), never asserted here.
import { describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import type { Item, MultipleChoiceItem } from '../../src/lib/core/benchmarks/types.ts';
import type { McItemResult, McRunRecord } from '../../src/lib/core/record/run.ts';
import { estimateRun, sampleOfRun, type PaceSample } from '../../src/lib/core/metrics/run-estimate.ts';
import { protocolForDataset } from '../../src/lib/core/protocols/index.ts';
import { promptChars } from '../../src/lib/core/protocols/prompt-chars.ts';
import { newRunSampling, sampleRun } from '../../src/lib/core/protocols/run-sampling.ts';
import { WORKER_FROM_RESULTS } from '../../src/lib/data/stored-run-work.ts';
import { importAncientBenchOf } from './big-ancientbench.ts';
import { useBrowserSession } from './session.ts';
import { readStoredRun, startFixtureRun, waitForStatus } from './runs.ts';

const DEV = 50;
const TEST_ITEMS = WORKER_FROM_RESULTS + 500;
const SHOTS = 5;

/** Every stored AncientBench item, as the page's store holds them. */
async function storedItems(page: Page): Promise<Item[]> {
  return (await page.evaluate(`new Promise((resolve, reject) => {
    const open = indexedDB.open('jiangu');
    open.onerror = () => reject(open.error);
    open.onsuccess = () => {
      const get = open.result.transaction('items').objectStore('items').index('by-dataset').getAll('ancientbench');
      get.onsuccess = () => { resolve(get.result); open.result.close(); };
      get.onerror = () => reject(get.error);
    };
  })`)) as Item[];
}

/** The Evaluate page set to AncientBench, 5-shot letters, jiangu-tiny fp32 on WASM, `limit` items a task (null: all), all tasks or only the first. */
async function configure(page: Page, url: string, limit: number | null, tasks: 'all' | 'first'): Promise<void> {
  await page.goto(`${url}/#/evaluate`);
  await page.getByTestId('eval-dataset').waitFor();
  await page.getByTestId('eval-dataset').selectOption('ancientbench');
  await page.getByTestId('eval-shots').selectOption(String(SHOTS));
  await page.getByTestId('eval-scoring').selectOption('letter-logits');
  await page.getByTestId('eval-limit').fill(limit === null ? '' : String(limit));
  if (tasks === 'first') {
    await page.getByRole('button', { name: 'none' }).click();
    await page.locator('fieldset.tasks input[type=checkbox]').first().check();
  }
  await page.getByTestId('model-choice').selectOption('site:jiangu-tiny');
  await page.getByTestId('dtype').selectOption('fp32');
  await page.getByTestId('backend').selectOption('wasm');
}

/** The page's sample choice (SampleChoice.svelte): the draw and seed a run started now would use. */
async function pageSampling(page: Page): Promise<{ draw: 'random' | 'first'; seed: number }> {
  const fieldset = page.getByTestId('eval-sample');
  return { draw: (await fieldset.getAttribute('data-draw')) as 'random' | 'first', seed: Number(await fieldset.getAttribute('data-seed')) };
}

/**
 * What the estimate module gives in Node for the configured tasks (in the page's order), `limit` and
 * the page's sample, from `sample`: over the items a new run would ask, in the order it asks them
 * (run-sampling.ts sampleRun with a new run's rule), since prefix reuse reads a prefix at each change of task.
 */
function expectedSeconds(items: Item[], tasks: string[], limit: number | null, sampling: { draw: 'random' | 'first'; seed: number }, sample: PaceSample): number {
  const inOrder = (task: string, split: 'test' | 'dev') => items.filter((i): i is MultipleChoiceItem => i.kind === 'multiple-choice' && i.task === task && i.split === split).sort((a, b) => a.order - b.order);
  const byId = new Map(items.map((i) => [i.id, i]));
  const population = tasks.map((task) => ({ task, itemIds: inOrder(task, 'test').map((i) => i.id) }));
  const chosen = sampleRun(population, limit, newRunSampling(sampling.draw, sampling.seed, {})).itemIds.map((id) => byId.get(id) as MultipleChoiceItem);
  const devByTask = new Map(tasks.map((task) => [task, inOrder(task, 'dev')]));
  // fp32 letters with shots: the run reuses its prefix (createMcRun's rule).
  const chars = promptChars({ protocol: protocolForDataset('ancientbench'), scoring: 'letter-logits', shots: SHOTS, reusePrefix: true, items: chosen, devByTask });
  const outcome = estimateRun(
    {
      shape: { model: 'jiangu-tiny', dtype: 'fp32', scoring: 'letter-logits', shots: SHOTS, chatTemplate: false, maxNewTokens: null },
      backendChoice: 'wasm',
      backend: 'wasm',
      wasmThreads: null,
      itemIds: chosen.map((i) => i.id),
      promptFactor: 1,
      chars,
      pageShare: null,
    },
    [sample],
  );
  expect(outcome.reason).toBeNull();
  expect(outcome.estimate!.scaling).toBe('tokens-from-characters');
  return outcome.estimate!.seconds;
}

describe('the time estimate of a large configuration', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('sizes its prompts in the stored-run worker, and shows the estimate Node computes; one task is sized on the page', async () => {
    const { page } = session.opened;
    await importAncientBenchOf(page, TEST_ITEMS + DEV, DEV);
    const items = await storedItems(page);
    expect(items.filter((i) => i.split === 'test').length).toBe(TEST_ITEMS);

    // An earlier 0-shot run here gives the pace; the 5-shot estimate scales it by the prompts' characters.
    const runId = await startFixtureRun(page, { dataset: 'ancientbench', shots: 0, scoring: 'letter-logits', limit: 3, backend: 'wasm' });
    await waitForStatus(page, 'completed', 120_000);
    const { run, results } = await readStoredRun<McRunRecord, McItemResult>(page, runId);
    const sample = sampleOfRun(run, results, 'jiangu-tiny')!;
    expect(sample).not.toBeNull();

    const estimate = page.getByTestId('eval-estimate');
    // Every item, and 12 a task (which still reads every item: chooseItems reads a task whole), in
    // the worker; one task of a few hundred items on the page.
    for (const [limit, chosen, place] of [
      [null, 'all', 'worker'],
      [12, 'all', 'worker'],
      [null, 'first', 'page'],
    ] as const) {
      await configure(page, session.url, limit, chosen);
      await page.locator(`[data-testid=eval-estimate][data-known=yes][data-run-id="${runId}"][data-scaling=tokens-from-characters]`).waitFor({ timeout: 60_000 });
      expect(await estimate.getAttribute('data-sized-in')).toBe(place);
      const tasks = await page.locator('fieldset.tasks input[type=checkbox]:checked').evaluateAll((boxes) => boxes.map((b) => (b as HTMLInputElement).value));
      expect(tasks.length).toBe(chosen === 'all' ? 10 : 1);
      expect(Number(await page.getByTestId('eval-total').getAttribute('data-total'))).toBe(chosen === 'first' ? TEST_ITEMS / 10 : limit === null ? TEST_ITEMS : 10 * limit);
      expect(Number(await estimate.getAttribute('data-seconds'))).toBeCloseTo(expectedSeconds(items, tasks, limit, await pageSampling(page), sample), 6);
    }
  });
});
