// The browser project's setup file (vitest.config.ts): after each test, and once more after a file's
// last hook has closed its browser, every guarded context (scripts/browser.ts, guardPageErrors: each
// page openPage opens, each page opened in such a context later, and any context a test guards itself)
// is drained of the faults its pages and workers reported. A fault nobody declared fails the test in
// which it was seen, so no test file has to listen for page errors on its own.
import { afterAll, afterEach } from 'vitest';
import { takePageFaults } from '../../scripts/browser.ts';

function check(when: string): void {
  const faults = takePageFaults();
  if (faults.length) throw new Error(`page errors ${when} (uncaught exception, unhandled rejection, console error or Svelte message; declare an expected one with opened.errors.expect(/…/)):\n${faults.join('\n')}`);
}

afterEach(() => check('during this test'));
afterAll(() => check('after the last test of this file'));
