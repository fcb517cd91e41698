// The page-error guard itself (scripts/browser.ts guardPageErrors, drained by page-error-guard.ts after
// every test): errors made on purpose in a page, a second page of its context and Web Workers are each
// reported, and one declared as expected is set aside. Each test takes the faults it made, so the
// shared afterEach sees none; without the take, that afterEach fails the test (seen once by hand).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { takePageFaults } from '../../scripts/browser.ts';
import { useBrowserSession } from './session.ts';

/** Polls the guard until `n` faults have come (they arrive as events, after the page's call returns). */
async function faults(take: () => string[], n: number, page: Page): Promise<string[]> {
  const seen: string[] = [];
  for (let i = 0; i < 100 && seen.length < n; i++) {
    seen.push(...take());
    if (seen.length < n) await page.waitForTimeout(50);
  }
  return seen;
}

describe('the page-error guard', () => {
  const session = useBrowserSession({ webgpu: false, path: '/#/data' });

  it('reports an uncaught exception, an unhandled rejection, a console error and a Svelte message of the page', async () => {
    const { page, errors } = session.opened;
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('guard test: thrown on purpose');
      });
      void Promise.reject(new Error('guard test: rejected on purpose'));
      console.error('guard test: console.error on purpose');
      console.warn('https://svelte.dev/e/each_key_duplicate');
      console.warn('guard test: a plain warning is not a fault');
    });
    const seen = await faults(() => errors.take(), 4, page);
    expect(seen.sort()).toEqual(
      [
        '[console error] guard test: console.error on purpose',
        '[console warning] https://svelte.dev/e/each_key_duplicate',
        '[pageerror] guard test: rejected on purpose',
        '[pageerror] guard test: thrown on purpose',
      ].sort(),
    );
  });

  it('reports an error thrown in a Web Worker (left to the page or handled by it) and a rejection left unhandled there', async () => {
    const { page, errors } = session.opened;
    await page.evaluate(() => {
      const worker = (what: string) =>
        new Worker(URL.createObjectURL(new Blob([`setTimeout(() => { throw new Error('guard test: ${what}'); }); Promise.reject(new Error('guard test: rejected in a worker'));`], { type: 'text/javascript' })));
      const keep = window as unknown as { guardWorkers: Worker[] };
      keep.guardWorkers = [worker('thrown in a worker'), worker('thrown in a worker the page handles')];
      // The page handling a worker's error event (as the site's worker clients do) does not hide the fault.
      keep.guardWorkers[1].addEventListener('error', (e) => e.preventDefault());
    });
    const seen = await faults(() => errors.take(), 4, page);
    expect(seen.sort()).toEqual([
      '[console error] [worker error, handled by the page] Uncaught Error: guard test: thrown in a worker the page handles',
      '[pageerror] guard test: rejected in a worker',
      '[pageerror] guard test: rejected in a worker',
      '[pageerror] guard test: thrown in a worker',
    ]);
  });

  it('reports a page opened later in the same context, through the drain the shared afterEach uses', async () => {
    const { context, page } = session.opened;
    const second = await context.newPage();
    await second.goto(`${session.url}/#/data`);
    await second.evaluate(() => setTimeout(() => { throw new Error('guard test: thrown in a second page'); }));
    const seen = await faults(takePageFaults, 1, page);
    await second.close();
    expect(seen).toEqual([`${session.url}/#/data: [pageerror] guard test: thrown in a second page`]);
  });

  it('sets aside an error the test declared, and only that one', async () => {
    const { page, errors } = session.opened;
    errors.expect(/guard test: expected on purpose/);
    await page.evaluate(() => {
      setTimeout(() => { throw new Error('guard test: expected on purpose'); });
      setTimeout(() => { throw new Error('guard test: not declared'); });
    });
    const seen = await faults(() => errors.take(), 1, page);
    await page.waitForTimeout(200);
    expect([...seen, ...errors.take()]).toEqual(['[pageerror] guard test: not declared']);
    expect(errors.expected).toEqual(['[pageerror] guard test: expected on purpose']);
  });
});
