import { defineConfig } from 'vitest/config';
import { buildDefines } from './scripts/build-info.ts';
import { LongestFirst } from './test/sequencer.ts';

// Two projects: `unit` runs pure TypeScript in Node; `browser` drives the built site in the system
// Chromium through playwright-core. Browser files run two at a time: each file's Chromium mostly
// waits on one thread (ORT's wasm in one worker), so on 2 cores two files take 12 minutes where one
// at a time took 16–17.
export default defineConfig({
  define: buildDefines(),
  test: {
    // Longest files first (test/file-seconds.json), so that no long file starts last on a clean clone.
    sequence: { sequencer: LongestFirst },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // Tells `npm run test:profile`'s recorder which test is running (records nothing otherwise).
          setupFiles: ['test/profile-where.ts'],
          environment: 'node',
          testTimeout: 60_000,
        },
      },
      {
        extends: true,
        test: {
          name: 'browser',
          include: ['test/browser/**/*.test.ts'],
          // Fails any test whose pages or workers threw, rejected unhandled, logged an error or a Svelte message.
          setupFiles: ['test/browser/page-error-guard.ts', 'test/browser/file-environment.ts', 'test/profile-where.ts'],
          // One process per worker for all its files, so that the site and Chromium start once per
          // worker (session.ts); each describe block still gets a fresh browser context.
          isolate: false,
          environment: 'node',
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
