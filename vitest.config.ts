import { defineConfig } from 'vitest/config';
import { buildDefines } from './scripts/build-info.ts';
import { LongestFirst } from './test/sequencer.ts';

// Two projects: `unit` runs pure TypeScript in Node; `browser` drives the built site in the system
// Chromium through playwright-core. Each runs two files at a time (a unit file mostly computes on one
// thread; a browser file's Chromium mostly waits on one thread, ORT's wasm in one worker), and neither
// starts a process per file: a worker's process runs all its files (isolate: false), each file's
// process.env put back when it ends (test/file-environment.ts) and stubbed globals unstubbed.
export default defineConfig({
  define: buildDefines(),
  test: {
    // Longest files first (test/file-seconds.json), so that no long file starts last on a clean clone.
    sequence: { sequencer: LongestFirst },
    // `npm run test:coverage`: the unit tests' line coverage of the site's code (the browser tests'
    // runs happen in Chromium, out of vitest's sight).
    coverage: {
      provider: 'v8',
      include: ['src/**', 'workers/**'],
      reporter: ['text-summary', 'json-summary'],
      reportsDirectory: 'test-results/coverage',
    },
    projects: [
      {
        extends: true,
        test: {
          name: 'unit',
          include: ['test/unit/**/*.test.ts'],
          // test/profile-where.ts tells `npm run test:profile`'s recorder which test is running (it records nothing otherwise).
          setupFiles: ['test/file-environment.ts', 'test/profile-where.ts'],
          isolate: false,
          maxWorkers: 2,
          unstubGlobals: true,
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
          setupFiles: ['test/browser/page-error-guard.ts', 'test/file-environment.ts', 'test/profile-where.ts'],
          // The site and Chromium start once per worker (session.ts); each describe block still gets a
          // fresh browser context.
          isolate: false,
          unstubGlobals: true,
          environment: 'node',
          fileParallelism: true,
          maxWorkers: 2,
          testTimeout: 240_000,
          hookTimeout: 120_000,
          // expect.poll waits on the page's own work (a worker's start, a chunk, a WebGPU adapter, an
          // IndexedDB read), which no behaviour here promises within vitest's default 1 s: a model
          // worker asked for config.json 0.4-0.5 s after a run's page opened idle, 0.8-1.0 s beside
          // another file under two busy loops, and over 1 s in CI (load-status failed there).
          expect: { poll: { timeout: 30_000 } },
        },
      },
    ],
  },
});
