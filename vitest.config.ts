import { defineConfig } from 'vitest/config';
import { buildDefines } from './scripts/build-info.ts';

// Two projects: `unit` runs pure TypeScript in Node; `browser` drives the built site in the system
// Chromium through playwright-core. Browser files run one at a time: each starts Chromium, and two
// SwiftShader instances on a 2-core machine only slow each other down.
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
          environment: 'node',
          fileParallelism: false,
          testTimeout: 240_000,
          hookTimeout: 120_000,
        },
      },
    ],
  },
});
