// The values Vite's `define` writes into the site (scripts/build-info.ts), as globals, for bench
// scripts that run the site's modules in Node: src/lib/core/version.ts reads __APP_VERSION__ when it
// loads. Import this first.
import { buildDefines } from '../build-info.ts';

for (const [name, value] of Object.entries(buildDefines())) (globalThis as Record<string, unknown>)[name] = JSON.parse(value);
