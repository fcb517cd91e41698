// A setup file of both projects (vitest.config.ts). Their files share one process per worker (no
// module isolation: a process per file cost the unit suite 130 s on 2 cores, and the browser project
// starts its site and Chromium once per worker: test/browser/session.ts), so what a file sets in
// process.env (JIANGU_MODELS, read by the site on every request; CI) is put back once the file is
// done, as if it had run in a process of its own. Stubbed globals are put back by vitest itself
// (unstubGlobals in vitest.config.ts).
import { afterAll } from 'vitest';

const saved = { ...process.env };

afterAll(() => {
  for (const key of Object.keys(process.env)) if (!(key in saved)) delete process.env[key];
  Object.assign(process.env, saved);
});
