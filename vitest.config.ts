import { defineConfig } from 'vitest/config';
import { buildDefines } from './scripts/build-info.ts';

// Two projects: `unit` runs pure TypeScript in Node; `browser` drives the built site in the system
// Chromium through playwright-core. Browser files run two at a time: each file's Chromium mostly
// waits on one thread (ORT's wasm in one worker), so on 2 cores two files take 12 minutes where one
// at a time took 16–17.
export default defineConfig({
  define: buildDefines(),
  test: {
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
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
          setupFiles: ['test/browser/page-error-guard.ts'],
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
