// Run files whose derived numbers were forged, imported through the real page (issue 34, item 1): a
// letter run whose probs say 1 on the gold letter beside untouched log-probabilities, and a cloze run
// whose probabilities sum to 3.6, are refused at the border with a message naming the field, in
// English and in Chinese, and nothing is stored; the same files untouched import, their run pages
// render (no endless "Loading the run…"), and the mean p(gold) they show is the one recomputed from
// the log-probabilities.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { aggregateContinuous, continuousOf, type ContinuousItem } from '../../src/lib/core/metrics/continuous.ts';
import { renormalize } from '../../src/lib/core/logprobs.ts';
import type { McItemResult } from '../../src/lib/core/record/run.ts';
import { runFile } from '../unit/formats/run-files.ts';
import { useBrowserSession } from './session.ts';

type RunFile = { run: { datasetId: 'aclue'; config: { tasks: string[] } }; results: McItemResult[] };

/** The file's results with probs 1 on the gold letter (the letter run) or 0.9 each (the cloze run). */
function forged(kind: 'letter-logits' | 'cloze'): string {
  const file = JSON.parse(runFile(kind)) as RunFile;
  for (const r of file.results) {
    if (r.probs.length === 0) continue;
    r.probs = kind === 'cloze' ? r.probs.map(() => 0.9) : r.letters.map((l) => (l === r.gold ? 1 : 0));
  }
  return JSON.stringify(file);
}

/** Mean p(gold) as the page computes it, from the softmax of each result's log-probabilities (never from the file's probs). */
function recomputedMeanPGold(text: string): number {
  const file = JSON.parse(text) as RunFile;
  const items = file.results
    .map((r) => continuousOf({ ...r, probs: r.logProbs.length ? renormalize(r.logProbs) : [] }))
    .filter((x): x is ContinuousItem => x !== null);
  return aggregateContinuous(file.run.datasetId, items, 'pGold', file.run.config.tasks, { resamples: 10 }).overall.estimate!.estimate;
}

async function choose(page: Page, url: string, name: string, text: string): Promise<void> {
  await page.goto(`${url}/#/evaluate`);
  await page.getByTestId('import-run-input').setInputFiles({ name, mimeType: 'application/json', buffer: Buffer.from(text) });
}

async function storedRuns(page: Page): Promise<number> {
  return page.evaluate(
    () =>
      new Promise<number>((resolve, reject) => {
        const open = indexedDB.open('jiangu');
        open.onerror = () => reject(open.error);
        open.onsuccess = () => {
          const count = open.result.transaction('runs').objectStore('runs').count();
          count.onsuccess = () => {
            open.result.close();
            resolve(count.result);
          };
          count.onerror = () => reject(count.error);
        };
      }),
  );
}

describe('forged run files', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/evaluate' });

  it.each([
    ['letter-logits', 'forged-letters.json'],
    ['cloze', 'forged-cloze.json'],
  ] as const)('a %s file with forged probs is refused naming the field, in English and Chinese; untouched, its page shows the recomputed mean p(gold)', async (kind, name) => {
    const { page } = session.opened;
    await page.goto(`${session.url}/#/evaluate`);
    await page.getByTestId('lang-en').click();
    const before = await storedRuns(page).catch(() => 0);

    await choose(page, session.url, name, forged(kind));
    const refusal = page.getByTestId('import-run-error');
    await refusal.waitFor();
    const english = await refusal.textContent();
    expect(english).toContain(name);
    expect(english).toContain('results[0].probs[0]');
    expect(english).toContain('the softmax of results[0].logProbs over the letters');
    await page.getByTestId('lang-zh').click();
    await choose(page, session.url, name, forged(kind));
    await refusal.waitFor();
    const chinese = await page.getByTestId('import-run-error').textContent();
    expect(chinese).toContain('results[0].probs[0]');
    expect(chinese).toContain('由 results[0].logProbs 在各字母上归一化得到的概率');
    expect(await storedRuns(page).catch(() => 0)).toBe(before);

    // The same file untouched: its page renders, and its mean p(gold) is the recomputed one.
    const untouched = runFile(kind);
    await choose(page, session.url, `${kind}.json`, untouched);
    await page.waitForURL(/#\/run\//);
    const overall = page.getByTestId('cont-pGold-overall');
    // Attached, not visible: the continuous scores are folded (issue 44).
    await overall.waitFor({ state: 'attached', timeout: 30_000 });
    expect(await page.getByText('正在加载评测…').count()).toBe(0);
    const shown = Number(await overall.getAttribute('data-value'));
    expect(Math.abs(shown - recomputedMeanPGold(untouched))).toBeLessThan(1e-12);
    expect(await overall.textContent()).toBe((100 * recomputedMeanPGold(untouched)).toFixed(1));
    await page.getByTestId('lang-en').click();
    await overall.waitFor({ state: 'attached' });
    expect(await page.getByText('Loading the run…').count()).toBe(0);
  }, 120_000);
});
